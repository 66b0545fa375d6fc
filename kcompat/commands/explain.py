"""``kcompat explain MESSAGE``: one message across its versions, for reviewers.

Exit status: 0 shown, 2 bad usage (unknown message or version, bad revision). The
``--against`` findings are shown, not judged: use ``kcompat diff`` to gate a build.
"""

from __future__ import annotations

import sys
from enum import StrEnum
from typing import TYPE_CHECKING, Annotated

import typer

from kcompat.app import Color, ColorOption, ConfigOption, MessageKindOption, RepoOption, app
from kcompat.completion import message_names, revisions, sides

if TYPE_CHECKING:
    from kcompat.explain.explanation import Explanation
    from kcompat.explain.run import ExplainRequest


class ExplainFormat(StrEnum):
    text = "text"
    markdown = "markdown"
    json = "json"
    svg = "svg"
    html = "html"


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
    fmt: Annotated[
        ExplainFormat,
        typer.Option(
            "--format",
            "-f",
            metavar="FORMAT",
            help="text, markdown, json, svg or html.",
            case_sensitive=False,
        ),
    ] = ExplainFormat.text,
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
    if fmt is ExplainFormat.json:
        from kcompat.explain import render_json

        sys.stdout.write(render_json.render(explanations))
        return
    if fmt is ExplainFormat.markdown:
        from kcompat.explain import render_markdown

        sys.stdout.write(render_markdown.render(explanations))
        return
    _picture(explanations, fmt, width, ascii_only, color)


def _since(request: ExplainRequest, since: str, fmt: ExplainFormat, color: Color) -> None:
    """``--since REV``: the message's changelog, in the changelog's formats."""
    from kcompat.commands.changelog import ChangelogFormat, show
    from kcompat.errors import UsageError
    from kcompat.escaping import shown
    from kcompat.explain.since import run_since

    if fmt.value not in ChangelogFormat.__members__:
        raise UsageError("--since prints text, markdown, json or html, not svg")
    changelog, note = run_since(request, since)
    if note:
        print(f"kcompat: note: {shown(note)}", file=sys.stderr)
    show(changelog, ChangelogFormat(fmt.value), color)


def _picture(
    explanations: list[Explanation],
    fmt: ExplainFormat,
    width: int | None,
    ascii_only: bool,
    color: Color,
) -> None:
    """The rich rendering: to the terminal, or recorded and exported as SVG or HTML."""
    import io

    from rich.console import Console

    from kcompat.app import console_for
    from kcompat.escaping import shown
    from kcompat.explain import render_text

    exporting = fmt in (ExplainFormat.svg, ExplainFormat.html)
    if exporting:
        console = Console(
            file=io.StringIO(),
            record=True,
            width=width or 120,
            force_terminal=True,
            color_system="truecolor",
            highlight=False,
            emoji=False,
            markup=False,
        )
    else:
        console = console_for(color)
        console.soft_wrap = False
        console.width = max(width or console.width, render_text.MIN_WIDTH)
    unicode_ok = "utf" in (console.encoding or "").lower()
    renderables = render_text.render(
        explanations,
        width=console.width,
        ascii_only=ascii_only or not unicode_ok,
        one_block=fmt is ExplainFormat.html,  # a page scrolls: one matrix, not blocks
    )
    if fmt is ExplainFormat.html:  # as wide as the widest line, so nothing wraps
        console.width = max(console.width, *(len(str(item)) for item in renderables))
    for item in renderables:
        console.print(item)
    title = shown("kcompat explain " + ", ".join(e.message.name for e in explanations))
    if fmt is ExplainFormat.svg:
        sys.stdout.write(console.export_svg(title=title, code_format=_svg_image()))
    elif fmt is ExplainFormat.html:
        sys.stdout.write(console.export_html(inline_styles=True, code_format=_html_page(title)))


def _html_page(title: str) -> str:
    """rich's HTML page with a ``<title>`` (the name is escaped; braces doubled for format)."""
    from html import escape

    from rich._export_format import CONSOLE_HTML_FORMAT

    safe = escape(title).replace("{", "{{").replace("}", "}}")
    return CONSOLE_HTML_FORMAT.replace("<head>\n", f"<head>\n<title>{safe}</title>\n", 1)


#: Monospaced fonts found on the machines that open the image (no web font is fetched):
#: the HTML export's stack, led by Fira Code for those who have it installed.
_LOCAL_FONTS = "'Fira Code', Menlo, 'DejaVu Sans Mono', Consolas, 'Liberation Mono', monospace"


def _svg_image() -> str:
    """rich's SVG template with nothing to fetch: its ``@font-face`` rules load Fira Code
    from a CDN (a request to a third party each time the image is opened, and a broken
    font offline), so they go, and the text uses local fonts only; its credit comment,
    a link, goes too."""
    import re

    from rich._export_format import CONSOLE_SVG_FORMAT

    template = re.sub(r"\s*@font-face \{\{.*?\}\}", "", CONSOLE_SVG_FORMAT, flags=re.DOTALL)
    template = re.sub(r"\s*<!--.*?-->", "", template, flags=re.DOTALL)
    template = re.sub(
        r"font-family: Fira Code, monospace;", f"font-family: {_LOCAL_FONTS};", template
    )
    template = template.replace("font-family: arial;", "font-family: Arial, sans-serif;")
    if re.search(r"@font-face|@import|https?://(?!www\.w3\.org/2000/svg\b)", template):
        raise AssertionError("rich's SVG template fetches something kcompat did not remove")
    return template
