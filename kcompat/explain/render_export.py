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
    svg: str = console.export_svg(title=_title(explanations))
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
