"""The matrix as text: per broker release, the oldest client release that talks every
API; per API, the releases where each side's range moved; with ``--what-if``, what the
removal strands. Every name from a spec or a tag is :func:`~kcompat.escaping.shown`."""

from __future__ import annotations

from collections.abc import Sequence

from kcompat.escaping import shown
from kcompat.matrix.phrases import (
    api_title,
    broker_lines,
    broker_moves,
    client_moves,
    releases_title,
    removal_text,
)
from kcompat.matrix.run import MatrixResult

#: Said before the per-API section: what each side's line means.
SIDES = "clients: the highest version they send; brokers: the versions they accept"


def render(result: MatrixResult) -> str:
    lines = [f"kcompat matrix: {shown(releases_title(result))}", ""]
    if result.what_if is not None:
        lines += _what_if(result)
    lines += _brokers(result)
    lines += ["", f"Per API, the releases where each side's range moved ({SIDES})"]
    for api, moves in zip(result.matrix.apis, result.moves, strict=True):
        lines.append(f"  {shown(api_title(api))}")
        lines.append(f"    clients  {_moves(client_moves(moves))}")
        lines.append(f"    brokers  {_moves(broker_moves(moves))}")
    return "\n".join(lines) + "\n"


def _brokers(result: MatrixResult) -> list[str]:
    head = (
        " (HEAD as if its deprecated versions were removed)" if result.what_if is not None else ""
    )
    rows = [("brokers", "oldest client", "stranded clients (and on which APIs)")]
    for line in broker_lines(result):
        rows.append((line.brokers, line.oldest or "none", line.stranded_text()))
    widths = [max(len(shown(row[i])) for row in rows) for i in range(2)]
    out = [f"Per broker release, the oldest client release that talks every API{head}"]
    for first, second, third in rows:
        out.append(
            f"  {shown(first).ljust(widths[0])}  {shown(second).ljust(widths[1])}  {shown(third)}"
        )
    return out


def _what_if(result: MatrixResult) -> list[str]:
    head = result.matrix.releases[-1]
    out = [f"What if {shown(head)} dropped every deprecated version (--what-if drop-deprecated)"]
    if not result.removals:
        out.append(f"  {shown(head)} deprecates no version of these APIs: nothing changes")
    stranding = 0
    for index, removal in enumerate(result.removals):
        stranding += bool(removal.clients)
        out.append(f"  {shown(removal_text(result, index))}")
    if result.removals:
        count = len(result.removals)
        out.append(
            f"  {stranding} of {count} API{'s' if count != 1 else ''} with deprecated "
            f"versions would strand some client release"
        )
    return [*out, ""]


def _moves(moves: Sequence[tuple[str, str]]) -> str:
    return " · ".join(f"{shown(text)} from {shown(release)}" for release, text in moves)
