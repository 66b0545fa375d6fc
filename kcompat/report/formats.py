"""The formats of a findings report (lint, diff, drift): one module each, one line here.

The order is the order ``--format``'s help lists them in.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, cast

from kcompat.formats import FormatRegistry

if TYPE_CHECKING:
    from kcompat.report.document import Report
    from kcompat.report.lines import Line

#: What a findings renderer returns: a document, or styled lines (coloured on a terminal).
Rendered = str | Sequence["Line"]


class FindingsFormat(FormatRegistry):
    text = "text", "kcompat.report.text:render_text"
    json = "json", "kcompat.report.json_report:render_json"
    sarif = "sarif", "kcompat.report.sarif:render_sarif"
    github = "github", "kcompat.report.github:render_github"
    gitlab = "gitlab", "kcompat.report.gitlab:render_gitlab"
    junit = "junit", "kcompat.report.junit:render_junit"
    markdown = "markdown", "kcompat.report.markdown:render_markdown"

    def renderer(self) -> Callable[[Report], Rendered]:
        return cast("Callable[[Report], Rendered]", self.render_function())
