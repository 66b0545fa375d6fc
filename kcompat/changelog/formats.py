"""The formats of a changelog (``kcompat changelog``, ``kcompat explain --since``): one
module each, one line here, in the order ``--format``'s help lists them."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, cast

from kcompat.formats import FormatRegistry

if TYPE_CHECKING:
    from kcompat.changelog.model import Changelog
    from kcompat.report.lines import Line

#: What a changelog renderer returns: a document, or styled lines (coloured on a terminal).
Rendered = str | Sequence["Line"]


class ChangelogFormat(FormatRegistry):
    text = "text", "kcompat.changelog.render_text:render"
    markdown = (
        "markdown",
        "kcompat.changelog.render_markdown:render_markdown",
        "release notes, a PR comment",
    )
    json = "json", "kcompat.changelog.render_json:render_json"
    html = "html", "kcompat.changelog.render_html:render_html", "one page"

    def renderer(self) -> Callable[[Changelog], Rendered]:
        return cast("Callable[[Changelog], Rendered]", self.render_function())
