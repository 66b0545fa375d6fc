"""The matrix as Markdown (a wiki page, a KIP, a PR comment): the what-if removals, the
per-broker summary and each API's moves as tables. Names from specs and tags are code
spans (no HTML, ``|``, mention or link in one is rendered)."""

from __future__ import annotations

from kcompat.changelog.render_markdown import code_span
from kcompat.matrix.phrases import (
    api_title,
    broker_lines,
    broker_moves,
    client_moves,
    releases_title,
    removal_text,
)
from kcompat.matrix.render_text import SIDES
from kcompat.matrix.run import MatrixResult


def _cell(text: str) -> str:
    """A table cell: a code span (``|`` inside one still ends a cell on GitHub)."""
    return code_span(text).replace("|", "\\|")


def render_markdown(result: MatrixResult) -> str:
    lines = ["## Client and broker releases", "", f"{_cell(releases_title(result))}", ""]
    head = result.matrix.releases[-1]
    if result.what_if is not None:
        lines += [f"### What if {_cell(head)} dropped every deprecated version", ""]
        if not result.removals:
            lines.append(f"{_cell(head)} deprecates no version of these APIs.")
        for index in range(len(result.removals)):
            lines.append(f"- {_cell(removal_text(result, index))}")
        lines.append("")
    lines += [
        "### Per broker release, the oldest client release that talks every API",
        "",
        "| brokers | oldest client | stranded clients (and on which APIs) |",
        "|---|---|---|",
    ]
    for line in broker_lines(result):
        lines.append(
            f"| {_cell(line.brokers)} | {_cell(line.oldest or 'none')} "
            f"| {_cell(line.stranded_text())} |"
        )
    lines += [
        "",
        f"### Per API, the releases where each side's range moved ({SIDES})",
        "",
        "| API | clients | brokers |",
        "|---|---|---|",
    ]
    for api, moves in zip(result.matrix.apis, result.moves, strict=True):
        clients = "<br>".join(_cell(f"{t} from {r}") for r, t in client_moves(moves))
        brokers = "<br>".join(_cell(f"{t} from {r}") for r, t in broker_moves(moves))
        lines.append(f"| {_cell(api_title(api))} | {clients} | {brokers} |")
    return "\n".join(lines) + "\n"
