"""Everything ``kcompat explain`` shows about one message, as plain data for the renderers."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kcompat.explain.grammar import Grammar, build_grammar
from kcompat.explain.matrix import Matrix, Row, build_matrix
from kcompat.explain.timeline import timeline
from kcompat.spec.model import Message

if TYPE_CHECKING:
    from kcompat.findings import Finding


@dataclass(frozen=True)
class Against:
    """The comparison with BASE: where it came from and what ``diff`` says about it."""

    base_label: str  # as the user wrote BASE
    head_label: str  # the working tree, or --rev
    base_path: str  # where the message was at BASE ("" when it did not exist)
    findings: tuple[Finding, ...]


@dataclass(frozen=True)
class Explanation:
    """One message: its matrix, per-row timelines, and optionally a grammar or a comparison."""

    message: Message
    path: str
    matrix: Matrix
    timelines: tuple[str, ...]  # one per matrix row
    grammar: Grammar | None = None
    against: Against | None = None

    def kind_facts(self) -> list[str]:
        """What the header's title adds to the name: the message type and its apiKey."""
        facts = [self.message.kind or "no type"]
        if self.message.api_key is not None:
            facts.append(f"apiKey {self.message.api_key}")
        return facts

    def version_facts(self, shown: Callable[[str], str] = str) -> list[str]:
        """The header's line of versions: valid, flexible, deprecated, the unstable one and
        the listeners, each value as ``shown`` writes it (inline code in Markdown)."""
        message = self.message
        facts = [
            f"valid {shown(str(message.valid_versions))}",
            f"flexible {shown(str(message.flexible_versions))}",
            f"deprecated {shown(str(message.deprecated_versions))}",
        ]
        unstable = self.matrix.unstable_version
        if unstable is not None:
            facts.append(f"v{unstable} unstable")
        if message.listeners:
            facts.append("listeners " + ", ".join(shown(x) for x in message.listeners))
        return facts


def explain(
    message: Message,
    path: str,
    *,
    version: int | None = None,
    base: Message | None = None,
    against: Against | None = None,
) -> Explanation:
    """Build the explanation; ``against`` given means compare with ``base`` (None: new)."""
    matrix = build_matrix(message)
    grammar = build_grammar(message, version) if version is not None else None
    if against is None:
        timelines = tuple(timeline(row, matrix.columns) for row in matrix.rows)
        return Explanation(message, path, matrix, timelines, grammar, against)
    from kcompat.explain.changes import compare

    base_matrix = build_matrix(base) if base is not None else None
    merged = compare(base_matrix, matrix)
    now = _rows(matrix)
    old = _rows(base_matrix) if base_matrix is not None else {}
    phrases = []
    for row in merged.rows:
        if row.path in now:
            phrases.append(timeline(now[row.path], matrix.columns))
        else:  # a removed field's story is BASE's: in HEAD it is simply not there
            assert base_matrix is not None
            was = timeline(old[row.path], base_matrix.columns)
            phrases.append(f"removed since BASE (was: {was})")
    return Explanation(message, path, merged, tuple(phrases), grammar, against)


def _rows(matrix: Matrix) -> dict[str, Row]:
    out: dict[str, Row] = {}
    for row in matrix.rows:
        out.setdefault(row.path, row)
    return out
