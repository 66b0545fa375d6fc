"""``kcompat explain MESSAGE``: one message across its versions, for reviewers.

Exit status: 0 shown, 2 bad usage (unknown message or version, bad revision). The
``--against`` findings are shown, not judged: use ``kcompat diff`` to gate a build.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated

import typer

from kcompat.app import (
    Color,
    ColorOption,
    ConfigOption,
    MessageKindOption,
    RepoOption,
    Sides,
    app,
    format_option,
)
from kcompat.completion import message_names, revisions, sides
from kcompat.explain.formats import ExplainFormat, Picture, View

if TYPE_CHECKING:
    from kcompat.explain.run import ExplainRequest


@app.command(short_help="One message across all its versions, at a glance.")
def explain(
    message: Annotated[
        str,
        typer.Argument(
            metavar="MESSAGE",
            help="The message: its name (FetchRequest, fetchrequest), a name without "
            "Request/Response (Fetch), or an API key number (1).",
            show_default=False,
            autocompletion=message_names,
        ),
    ],
    kind: MessageKindOption = None,
    version: Annotated[
        int | None,
        typer.Option(
            "--version", metavar="N", help="Show this version's wire layout as a grammar."
        ),
    ] = None,
    rev: Annotated[
        str | None,
        typer.Option(
            "--rev",
            metavar="REV",
            help="Explain the message as it is at this git revision.",
            autocompletion=revisions,
        ),
    ] = None,
    against: Annotated[
        str | None,
        typer.Option(
            "--against",
            metavar="BASE",
            help="Highlight what changed since BASE (a revision, REV:path or a directory) "
            "and show kcompat diff's findings for the message.",
            autocompletion=sides,
        ),
    ] = None,
    specs: Annotated[
        list[str] | None,
        typer.Option(
            "--specs",
            metavar="PATH",
            help="A spec file or directory to look in (repeatable; default: the configured "
            "paths, or the current directory).",
        ),
    ] = None,
    repo_dir: RepoOption = None,
    fmt: Annotated[ExplainFormat, format_option(ExplainFormat)] = ExplainFormat.text,
    width: Annotated[
        int | None,
        typer.Option(
            "--width",
            metavar="COLUMNS",
            min=40,
            clamp=True,
            help="Columns to draw in (default: the terminal's).",
        ),
    ] = None,
    ascii_only: Annotated[
        bool, typer.Option("--ascii", help="Plain ASCII cells instead of Unicode glyphs.")
    ] = False,
    proof: Annotated[
        bool,
        typer.Option("--proof/--no-proof", help="With --against: round-trip samples as diff does."),
    ] = True,
    since: Annotated[
        str | None,
        typer.Option(
            "--since",
            metavar="REV",
            help="The message's changelog since this revision (kcompat changelog REV, for "
            "this message): versions, fields, breaks.",
            autocompletion=revisions,
        ),
    ] = None,
    color: ColorOption = Color.auto,
    config_file: ConfigOption = None,
) -> None:
    """Show a message across its versions.

    A version matrix and per-field timelines; one version's wire layout (--version); what
    changed since BASE (--against); or its changelog since a revision (--since).
    """
    from kcompat.cache import user_cache
    from kcompat.explain.run import ExplainRequest, run_explain

    request = ExplainRequest(
        query=message,
        kind=kind.value if kind is not None else None,
        version=version,
        rev=rev,
        against=against,
        specs=tuple(specs or ()),
        repo=repo_dir,
        config_file=config_file,
        proof=proof,
        cache=user_cache(),
    )
    if since is not None:
        _since(request, since, fmt, color)
        return
    explanations = run_explain(request)
    rendered = fmt.renderer()(explanations, View(width, ascii_only))
    if isinstance(rendered, Picture):
        _draw(rendered, color)
    else:
        sys.stdout.write(rendered)


def _since(request: ExplainRequest, since: str, fmt: ExplainFormat, color: Color) -> None:
    """``--since REV``: the message's changelog, in the changelog's formats."""
    from kcompat.changelog.formats import ChangelogFormat
    from kcompat.commands.changelog import show
    from kcompat.config import ConfigChoice
    from kcompat.diff.options import RunOptions
    from kcompat.errors import UsageError
    from kcompat.escaping import shown
    from kcompat.explain.since import run_since

    if fmt.value not in ChangelogFormat.__members__:
        raise UsageError(f"--since prints {ChangelogFormat.choices()}, not {fmt.value}")
    options = RunOptions(config_choice=ConfigChoice(request.config_file), cache=request.cache)
    comparison = Sides(base=since, head=request.rev, repo_dir=request.repo).request(options)
    changelog, note = run_since(request, comparison)
    if note:
        print(f"kcompat: note: {shown(note)}", file=sys.stderr)
    show(changelog, ChangelogFormat[fmt.value], color)


def _draw(picture: Picture, color: Color) -> None:
    """A picture on the terminal: at its width (or ``--width``), in ASCII where it cannot
    show Unicode."""
    from kcompat.terminal import console_for

    console = console_for(color)
    console.soft_wrap = False
    console.width = max(picture.width or console.width, picture.min_width)
    unicode_ok = "utf" in (console.encoding or "").lower()
    for item in picture.draw(console.width, picture.ascii_only or not unicode_ok):
        console.print(item)
