"""The formats of a matrix (``kcompat matrix --format``): one module each, one line here."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, cast

from kcompat.formats import FormatRegistry

if TYPE_CHECKING:
    from kcompat.matrix.run import MatrixResult


class MatrixFormat(FormatRegistry):
    text = "text", "kcompat.matrix.render_text:render"
    json = "json", "kcompat.matrix.render_json:render_json", "every cell"
    markdown = "markdown", "kcompat.matrix.render_markdown:render_markdown", "a wiki page, a KIP"
    html = "html", "kcompat.matrix.render_html:render_html", "one page: a heat map"

    def renderer(self) -> Callable[[MatrixResult], str]:
        return cast("Callable[[MatrixResult], str]", self.render_function())
