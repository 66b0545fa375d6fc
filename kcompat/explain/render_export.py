"""``kcompat explain --format svg|html``: the terminal picture, recorded and exported by
rich (an SVG image, or a self-contained HTML page).

Both draw one picture: the terminal's at ``--width`` columns (:data:`EXPORT_WIDTH` when
not given), the matrix cut into blocks of versions as a terminal of that width cuts it.
The default is narrow enough for a phone: on a 375 px screen the page shows the picture
whole at about 9.6 px a character (the page sets its viewport and scales the text to
the screen, never above 14 px); a wider picture (``--width 120``) keeps at least 9 px and
scrolls sideways in its own frame, never the page.
"""

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

#: Columns of an export when ``--width`` does not say: a phone's screen (375 CSS px)
#: holds 60 columns at about 9.6 px a character.
EXPORT_WIDTH = 60
#: The width of a monospaced character, in em (DejaVu Sans Mono and Menlo: 0.602), with a
#: margin for fonts a little wider.
_CHARACTER_EM = 0.62


def render_svg(explanations: Sequence[Explanation], view: View) -> str:
    console = _recorded(explanations, view)
    svg: str = console.export_svg(title=_title(explanations), code_format=_svg_image())
    return svg


def render_html(explanations: Sequence[Explanation], view: View) -> str:
    """One page of the same picture as the SVG, scaled to the screen it is read on."""
    console = _recorded(explanations, view)
    template = _html_page(explanations, console.width)
    page: str = console.export_html(inline_styles=True, code_format=template)
    return page


def _recorded(explanations: Sequence[Explanation], view: View) -> Any:
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
        explanations, width=console.width, ascii_only=view.ascii_only or not unicode_ok
    )
    for item in renderables:
        console.print(item)
    return console


def _title(explanations: Sequence[Explanation]) -> str:
    return shown("kcompat explain " + ", ".join(e.message.name for e in explanations))


def _html_page(explanations: Sequence[Explanation], columns: int) -> str:
    """rich's HTML page with a ``<title>`` (the name is escaped; braces doubled for
    format), the viewport a phone needs to lay it out at its own width (else 980 px),
    and the picture's text scaled to the screen: ``columns`` characters across it, at
    most 14 px, at least 9 px (then the picture scrolls sideways in its frame)."""
    from rich._export_format import CONSOLE_HTML_FORMAT

    safe = escape(_title(explanations)).replace("{", "{{").replace("}", "}}")
    fit = f"calc((100vw - 1rem) / {columns * _CHARACTER_EM:.2f})"
    style = (
        "html {{ -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }}\n"
        "body {{ margin: 0; padding: 0.5rem; }}\n"
        f"pre {{{{ margin: 0; overflow-x: auto; font-size: max(9px, min(14px, {fit})); }}}}\n"
    )
    charset = '<meta charset="UTF-8">\n'
    head = (
        f'{charset}<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{safe}</title>\n"
    )
    page = CONSOLE_HTML_FORMAT.replace(charset, head, 1).replace("<html>", '<html lang="en">', 1)
    return page.replace("</style>", style + "</style>", 1)


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
