"""Machine and review formats: one module each; this one picks by name."""

from __future__ import annotations

from collections.abc import Callable

from kcompat.report.document import Report


def render(fmt: str, report: Report) -> str:
    from kcompat.report import github, gitlab, json_report, junit, markdown, sarif

    renderers: dict[str, Callable[[Report], str]] = {
        "json": json_report.render_json,
        "sarif": sarif.render_sarif,
        "github": github.render_github,
        "gitlab": gitlab.render_gitlab,
        "junit": junit.render_junit,
        "markdown": markdown.render_markdown,
    }
    return renderers[fmt](report)
