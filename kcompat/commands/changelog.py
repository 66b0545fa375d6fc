"""``kcompat changelog BASE [HEAD]``: what a change or a release does to the protocol."""

from __future__ import annotations

import sys
from enum import StrEnum
from typing import TYPE_CHECKING, Annotated

import typer

from kcompat.app import Color, ColorOption, ConfigOption, RepoOption, app
from kcompat.completion import sides

if TYPE_CHECKING:
    from kcompat.changelog.model import Changelog
    from kcompat.changelog.render_text import Line


class ChangelogFormat(StrEnum):
    text = "text"
    markdown = "markdown"
    json = "json"
    html = "html"


ChangelogFormatOption = Annotated[
    ChangelogFormat,
    typer.Option(
        "--format",
        "-f",
        metavar="FORMAT",
        help="text, markdown (release notes, a PR comment), json or html (one page).",
        case_sensitive=False,
    ),
]


@app.command(short_help="What a change or a release does to the protocol.")
def changelog(
    base: Annotated[
        str | None,
        typer.Argument(
            metavar="BASE",
            help="BASE: a git revision, a directory, or REV:path (default: HEAD).",
            autocompletion=sides,
        ),
    ] = None,
    head: Annotated[
        str | None,
        typer.Argument(
            metavar="HEAD",
            help="HEAD: a revision, a directory or REV:path (default: working tree).",
            autocompletion=sides,
        ),
    ] = None,
    staged: Annotated[
        bool, typer.Option("--staged", help="Compare BASE (default HEAD) with the index.")
    ] = False,
    merge_base: Annotated[
        bool, typer.Option("--merge-base", help="From the merge base of BASE and HEAD.")
    ] = False,
    repo_dir: RepoOption = None,
    released: Annotated[
        str | None,
        typer.Option(
            "--released",
            metavar="MODE",
            help="Which versions are released, as for diff: tags, base or auto (default).",
        ),
    ] = None,
    fmt: ChangelogFormatOption = ChangelogFormat.text,
    color: ColorOption = Color.auto,
    config_file: ConfigOption = None,
) -> None:
    """Every protocol change between BASE and HEAD, grouped by message: messages and
    versions added or removed, what each new version adds, and diff's breaks."""
    from kcompat.cache import user_cache
    from kcompat.changelog.run import run_changelog
    from kcompat.config import ConfigChoice
    from kcompat.diff.run import DiffRequest
    from kcompat.escaping import shown

    result = run_changelog(
        DiffRequest(
            base=base,
            head=head,
            staged=staged,
            merge_base=merge_base,
            repo=repo_dir,
            released=released,
            config_choice=ConfigChoice(config_file),
            cache=user_cache(),  # what release texts say, kept for the next run
        )
    )
    if result.note:
        print(f"kcompat: note: {shown(result.note)}", file=sys.stderr)
    show(result.changelog, fmt, color)


def show(changelog: Changelog, fmt: ChangelogFormat, color: Color) -> None:
    """Print a changelog in a format (``kcompat explain --since`` prints with it too)."""
    if fmt is ChangelogFormat.text:
        from kcompat.app import uses_color

        if uses_color(color):
            from kcompat.changelog.render_text import render

            print_lines(render(changelog), color)
            return
        from kcompat.changelog.render_text import plain_text as render_format
    elif fmt is ChangelogFormat.markdown:
        from kcompat.changelog.render_markdown import render_markdown as render_format
    elif fmt is ChangelogFormat.json:
        from kcompat.changelog.render_json import render_json as render_format
    else:
        from kcompat.changelog.render_html import render_html as render_format
    text = render_format(changelog)
    try:
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
        sys.stdout.flush()
    except BrokenPipeError:
        from kcompat.app import silence_stdout

        silence_stdout()


def print_lines(lines: list[Line], color: Color) -> None:
    """Styled lines through rich (a terminal, or ``--color always``); a reader that stops
    early (``| head``) is no failure."""
    from kcompat.app import console_for, silence_stdout
    from kcompat.report.text import styled

    try:
        console = console_for(color)
        for line in lines:
            console.print(styled(line))
    except BrokenPipeError:
        silence_stdout()
