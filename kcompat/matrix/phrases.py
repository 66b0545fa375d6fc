"""What every format of a matrix says alike: ranges, spans of releases, an API's moves.

The phrases are plain text with names from specs in them: each format escapes what it
writes (the text with :func:`~kcompat.escaping.shown`, Markdown as code spans, HTML with
:func:`html.escape`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kcompat.matrix.run import MatrixResult
from kcompat.negotiation.apis import Role
from kcompat.negotiation.grid import Api
from kcompat.negotiation.negotiate import api_label
from kcompat.negotiation.summary import Move, Reach
from kcompat.spec.versions import Versions

#: How the roles are named after an API that is not a client API.
ROLE_NOTE = {Role.CONTROLLER: "controller-only", Role.INTER_BROKER: "inter-broker"}


def api_title(api: Api) -> str:
    """``ListOffsets (API key 2, was ListOffsetRequest)``; a role other than a client API's
    is named too."""
    notes = [f"API key {api.key}"]
    if api.role in ROLE_NOTE:
        notes.append(ROLE_NOTE[api.role])
    older = [name for name in api.names[:-1]]
    if older:
        notes.append("was " + ", ".join(older))
    return f"{api_label(api.name)} ({'; '.join(notes)})"


def span_text(first: str, last: str) -> str:
    return first if first == last else f"{first}–{last}"


@dataclass(frozen=True)
class BrokerLine:
    """Neighbouring broker releases that reach the same clients, as one line."""

    first: str
    last: str
    oldest: str | None
    stranded: tuple[tuple[str, str, tuple[Api, ...]], ...]  # (first, last, APIs)

    @property
    def brokers(self) -> str:
        return span_text(self.first, self.last)

    def stranded_text(self) -> str:
        """``2.8.0–2.8.2: UnregisterBroker; 3.0.0: Fetch`` or ``none``."""
        if not self.stranded:
            return "none"
        return "; ".join(
            f"{span_text(first, last)}: {', '.join(api_label(a.name) for a in apis)}"
            for first, last, apis in self.stranded
        )


def broker_lines(result: MatrixResult) -> list[BrokerLine]:
    """The per-broker summary, neighbours with the same answer merged."""
    lines: list[BrokerLine] = []
    for reach in result.reaches:
        stranded = _client_spans(result.matrix.releases, reach)
        if lines and (lines[-1].oldest, lines[-1].stranded) == (reach.oldest, stranded):
            last = lines[-1]
            lines[-1] = BrokerLine(last.first, reach.broker, last.oldest, last.stranded)
        else:
            lines.append(BrokerLine(reach.broker, reach.broker, reach.oldest, stranded))
    return lines


def _client_spans(
    releases: Sequence[str], reach: Reach
) -> tuple[tuple[str, str, tuple[Api, ...]], ...]:
    """Stranded clients as spans of neighbouring releases stranded on the same APIs."""
    position = {name: i for i, name in enumerate(releases)}
    spans: list[tuple[str, str, tuple[Api, ...]]] = []
    last_index = -2
    for client, apis in reach.stranded:
        index = position[client]
        if spans and index == last_index + 1 and spans[-1][2] == apis:
            spans[-1] = (spans[-1][0], client, apis)
        else:
            spans.append((client, client, apis))
        last_index = index
    return tuple(spans)


def range_text(versions: Versions | None) -> str:
    return "—" if versions is None else str(versions)


def client_moves(moves: Sequence[Move]) -> list[tuple[str, str]]:
    """(release, what clients send from it on): their highest version, where it moved."""
    out: list[tuple[str, str]] = []
    for move in moves:
        text = "none" if move.offered is None else f"v{move.offered.highest}"
        if not out or out[-1][1] != text:
            out.append((move.release, text))
    return out


def broker_moves(moves: Sequence[Move]) -> list[tuple[str, str]]:
    """(release, what brokers accept from it on): their range (with its deprecated
    versions), or ``not served``, where it moved."""
    out: list[tuple[str, str]] = []
    for move in moves:
        if move.served is None:
            text = "not served"
        else:
            text = str(move.served)
            deprecated = move.deprecated & move.served
            if not deprecated.empty:
                text += f" ({deprecated} deprecated)"
        if not out or out[-1][1] != text:
            out.append((move.release, text))
    return out


def releases_title(result: MatrixResult) -> str:
    """``44 releases (2.2.0 to 3.8.0, and HEAD) × 66 client APIs``."""
    names = result.matrix.releases
    tags = names[:-1] if result.matrix.head else names
    head = f", and {names[-1]}" if result.matrix.head else ""
    span = f"{tags[0]} to {tags[-1]}" if len(tags) > 1 else (tags[0] if tags else "none")
    roles = _joined([role.value for role in result.roles])
    count = len(result.matrix.apis)
    return (
        f"{len(names)} release{'s' if len(names) != 1 else ''} ({span}{head}) × "
        f"{count} API{'s' if count != 1 else ''} ({roles})"
    )


def removal_text(result: MatrixResult, index: int) -> str:
    """What dropping one API's deprecated versions at HEAD strands, in one sentence."""
    from kcompat.negotiation.negotiate import strand_phrase

    removal = result.removals[index]
    label = api_label(removal.api.name)
    head = result.matrix.releases[-1]
    said = f"{label}: drops {removal.removed}, keeps {removal.remaining or 'none'}: "
    if removal.clients:
        said += strand_phrase(label, removal.clients, f"to {head} brokers")
    else:
        said += "strands no client release"
    if removal.brokers:
        brokers = ", ".join(span.releases for span in removal.brokers)
        said += f"; {head} clients could no longer send it to brokers of {brokers}"
    return said


def _joined(words: Sequence[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]
