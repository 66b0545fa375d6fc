"""The formats of ``kcompat explain``: one module each, one line here, in the order
``--format``'s help lists them.

Every renderer is handed the explanations and the :class:`View` the options ask for. The
text format draws for the terminal, whose width and encoding only the printing edge
knows: it returns a :class:`Picture` that the edge draws once it knows them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from kcompat.formats import FormatRegistry

if TYPE_CHECKING:
    from kcompat.explain.explanation import Explanation


@dataclass(frozen=True)
class View:
    """What the drawing options ask for."""

    width: int | None = None  # --width (None: the terminal's, or the export's default)
    ascii_only: bool = False  # --ascii


@dataclass(frozen=True)
class Picture:
    """What a terminal shows: ``draw(columns, ascii_only)`` gives the rich renderables,
    once the terminal's width (at least ``min_width``) and encoding are known."""

    draw: Callable[[int, bool], Sequence[Any]]
    width: int | None  # the columns asked for (None: the terminal's)
    ascii_only: bool
    min_width: int


#: What an explain renderer returns: a document, or a picture for the terminal.
Rendered = str | Picture


class ExplainFormat(FormatRegistry):
    text = "text", "kcompat.explain.render_text:picture"
    markdown = "markdown", "kcompat.explain.render_markdown:render"
    json = "json", "kcompat.explain.render_json:render"
    svg = "svg", "kcompat.explain.render_export:render_svg"
    html = "html", "kcompat.explain.render_export:render_html"

    def renderer(self) -> Callable[[Sequence[Explanation], View], Rendered]:
        return cast("Callable[[Sequence[Explanation], View], Rendered]", self.render_function())
