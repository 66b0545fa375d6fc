"""``kcompat explain --format svg|html``: the terminal picture, recorded and exported by
rich (an SVG image, or a self-contained HTML page)."""

from __future__ import annotations

import io
from collections.abc import Sequence
from html import escape
from typing import TYPE_CHECKING, Any

from kcompat.escaping import shown
from kcompat.explain import render_text

if TYPE_CHECKING:
    from kcompat.explain.explanation import Explanation
    from kcompat.explain.formats import View

#: Columns of an export when ``--width`` does not say.
EXPORT_WIDTH = 120


def render_svg(explanations: Sequence[Explanation], view: View) -> str:
    console = _recorded(explanations, view, one_block=False)
    svg: str = console.export_svg(title=_title(explanations), code_format=_svg_image())
    return svg


def render_html(explanations: Sequence[Explanation], view: View) -> str:
    """One page: each matrix whole (a page scrolls), as wide as its widest line."""
    console = _recorded(explanations, view, one_block=True)
    page: str = console.export_html(inline_styles=True, code_format=_html_page(explanations))
    return page


def _recorded(explanations: Sequence[Explanation], view: View, *, one_block: bool) -> Any:
    from rich.console import Console

    console = Console(
        file=io.StringIO(),
        record=True,
        width=view.width or EXPORT_WIDTH,
        force_terminal=True,
        color_system="truecolor",
        highlight=False,
        emoji=False,
        markup=False,
    )
    unicode_ok = "utf" in (console.encoding or "").lower()
    renderables = render_text.render(
        explanations,
        width=console.width,
        ascii_only=view.ascii_only or not unicode_ok,
        one_block=one_block,
    )
    if one_block:  # as wide as the widest line, so nothing wraps
        console.width = max(console.width, *(len(str(item)) for item in renderables))
    for item in renderables:
        console.print(item)
    return console


def _title(explanations: Sequence[Explanation]) -> str:
    return shown("kcompat explain " + ", ".join(e.message.name for e in explanations))


def _html_page(explanations: Sequence[Explanation]) -> str:
    """rich's HTML page with a ``<title>`` (the name is escaped; braces doubled for format)."""
    from rich._export_format import CONSOLE_HTML_FORMAT

    safe = escape(_title(explanations)).replace("{", "{{").replace("}", "}}")
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
