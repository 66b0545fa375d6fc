"""What a Spark command's run adds up to (``summary.json``), as typed values.

``kcompat history`` and ``kcompat corpus verify`` summarise their findings into a
:class:`HistorySummary` or a :class:`CorpusSummary`; the command prints it (as tables, or
as JSON), writes it beside the Parquet, and ``kcompat report`` reads it back. ``to_json``
is the file's shape, key for key; ``from_json`` reads what an audit directory holds,
older audits included (keys added later may be missing), keeping what it can.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any


@dataclass(frozen=True)
class RuleCount:
    rule: str
    severity: str
    count: int


@dataclass(frozen=True)
class MessageErrors:
    message: str
    errors: int


@dataclass(frozen=True)
class ReleaseCounts:
    """One release against the one before it (``--mode releases``)."""

    release: str
    base: str
    error: int
    warning: int
    info: int


@dataclass(frozen=True)
class Introduced:
    """An error (rule, message, field) and the comparison that first has it."""

    rule: str
    message: str
    field_path: str
    introduced_in: str
    against: str
    subject: str | None = None  # the commit's subject line (consecutive audits)


@dataclass(frozen=True)
class Break:
    """A transitive audit's error: the first release that has it, every pair it affects."""

    rule: str
    message: str
    field_path: str
    first_release: str
    pairs: tuple[str, ...]


@dataclass(frozen=True)
class ChangelogEntry:
    """A release's changelog that ``history --changelog`` wrote beside the audit."""

    base: str
    head: str
    markdown: str
    html: str
    summary: str


@dataclass(frozen=True)
class HistorySummary:
    mode: str
    released: str
    comparisons: int
    findings: int
    pairs: tuple[tuple[str, str], ...] | None  # None: written before the pairs were listed
    per_rule: tuple[RuleCount, ...] = ()
    per_message: tuple[MessageErrors, ...] = ()
    per_release: tuple[ReleaseCounts, ...] = ()
    introduced: tuple[Introduced, ...] | None = None  # consecutive and releases audits
    breaks: tuple[Break, ...] | None = None  # transitive audits
    changelogs: tuple[ChangelogEntry, ...] | None = None  # --changelog
    notes: tuple[str, ...] | None = None  # releases audits: what a reader should know
    seconds: float | None = None
    timings: Mapping[str, float] | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "mode": self.mode,
            "released": self.released,
            "comparisons": self.comparisons,
            "findings": self.findings,
            "pairs": [list(p) for p in self.pairs or ()],
            "per_rule": [_fields(r) for r in self.per_rule],
            "per_message": [_fields(m) for m in self.per_message],
            "per_release": [_fields(r) for r in self.per_release],
        }
        if self.introduced is not None:
            out["introduced"] = [
                {k: v for k, v in _fields(e).items() if k != "subject" or v is not None}
                for e in self.introduced
            ]
        if self.breaks is not None:
            out["breaks"] = [{**_fields(b), "pairs": list(b.pairs)} for b in self.breaks]
        if self.changelogs is not None:
            out["changelogs"] = [_fields(c) for c in self.changelogs]
        if self.notes is not None:
            out["notes"] = list(self.notes)
        if self.seconds is not None:
            out["seconds"] = self.seconds
        if self.timings is not None:
            out["timings"] = dict(self.timings)
        return out

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> HistorySummary:
        introduced, breaks = data.get("introduced"), data.get("breaks")
        return HistorySummary(
            mode=str(data.get("mode")),
            released=str(data.get("released", "")),
            comparisons=_int(data.get("comparisons")),
            findings=_int(data.get("findings")),
            pairs=_pairs(data.get("pairs")),
            per_rule=_per_rule(data.get("per_rule")),
            per_message=tuple(
                MessageErrors(str(m.get("message")), _int(m.get("errors")))
                for m in _objects(data.get("per_message"))
            ),
            per_release=tuple(
                ReleaseCounts(
                    str(r.get("release")),
                    str(r.get("base")),
                    _int(r.get("error")),
                    _int(r.get("warning")),
                    _int(r.get("info")),
                )
                for r in _objects(data.get("per_release"))
            ),
            introduced=None
            if introduced is None
            else tuple(_introduced(e) for e in _objects(introduced)),
            breaks=None if breaks is None else tuple(_break(b) for b in _objects(breaks)),
            changelogs=_changelogs(data.get("changelogs")),
            notes=_strings(data.get("notes")),
            seconds=_number(data.get("seconds")),
            timings=_timings(data.get("timings")),
        )


@dataclass(frozen=True)
class CorpusMessage:
    """A message whose stored samples the reader misread."""

    message: str
    samples: int
    mismatches: int
    versions: str


@dataclass(frozen=True)
class CorpusSource:
    """The corpus as ``corpus build`` wrote it."""

    revision: str | None
    revision_label: str | None
    samples: int | None
    seed: int | None

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> CorpusSource:
        """The corpus as a summary names it, or ``corpus build``'s manifest (the same
        keys: the fields, as :func:`_fields` writes them)."""
        return CorpusSource(*(data.get(field.name) for field in fields(CorpusSource)))


@dataclass(frozen=True)
class CorpusSummary:
    corpus: CorpusSource
    reader: str
    rows: int
    messages: int
    findings: int
    mismatches: int
    per_rule: tuple[RuleCount, ...] = ()
    per_message: tuple[CorpusMessage, ...] = ()
    seconds: float | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "corpus": _fields(self.corpus),
            "reader": self.reader,
            "rows": self.rows,
            "messages": self.messages,
            "findings": self.findings,
            "mismatches": self.mismatches,
            "per_rule": [_fields(r) for r in self.per_rule],
            "per_message": [_fields(m) for m in self.per_message],
        }
        if self.seconds is not None:
            out["seconds"] = self.seconds
        return out

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> CorpusSummary:
        corpus = data.get("corpus")
        source = corpus if isinstance(corpus, dict) else {}
        return CorpusSummary(
            corpus=CorpusSource.from_json(source),
            reader=str(data.get("reader") or "reader"),
            rows=_int(data.get("rows")),
            messages=_int(data.get("messages")),
            findings=_int(data.get("findings")),
            mismatches=_int(data.get("mismatches")),
            per_rule=_per_rule(data.get("per_rule")),
            per_message=tuple(
                CorpusMessage(
                    str(m.get("message")),
                    _int(m.get("samples")),
                    _int(m.get("mismatches")),
                    str(m.get("versions", "")),
                )
                for m in _objects(data.get("per_message"))
            ),
            seconds=_number(data.get("seconds")),
        )


def _fields(record: Any) -> dict[str, Any]:
    """A record's fields in declaration order (shallow: tuples stay as they are)."""
    return {name: getattr(record, name) for name in record.__dataclass_fields__}


def _error_of(entry: Mapping[str, Any]) -> tuple[str, str, str]:
    """The (rule, message, field) an audit's error is about, as ``introduced`` and
    ``breaks`` entries both name it."""
    return str(entry.get("rule")), str(entry.get("message")), str(entry.get("field_path") or "")


def _introduced(entry: Mapping[str, Any]) -> Introduced:
    subject = entry.get("subject")
    where = str(entry.get("introduced_in")), str(entry.get("against"))
    return Introduced(*_error_of(entry), *where, None if subject is None else str(subject))


def _break(entry: Mapping[str, Any]) -> Break:
    pairs = entry.get("pairs")
    affected = tuple(str(p) for p in pairs) if isinstance(pairs, list) else ()
    return Break(*_error_of(entry), str(entry.get("first_release")), affected)


def _changelogs(entries: object) -> tuple[ChangelogEntry, ...] | None:
    """The changelog entries that name their page (a damaged entry is left out)."""
    if entries is None:
        return None
    return tuple(
        ChangelogEntry(
            str(e.get("base", "")),
            str(e.get("head", "")),
            str(e.get("markdown", "")),
            e["html"],
            str(e.get("summary", "")),
        )
        for e in _objects(entries)
        if isinstance(e.get("html"), str)
    )


def _strings(value: object) -> tuple[str, ...] | None:
    return tuple(str(v) for v in value) if isinstance(value, list) else None


def _timings(value: object) -> dict[str, float] | None:
    if not isinstance(value, dict):
        return None
    return {str(k): v for k, v in value.items() if _number(v) is not None}


def _objects(value: object) -> Sequence[Mapping[str, Any]]:
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


def _pairs(value: object) -> tuple[tuple[str, str], ...] | None:
    """The compared pairs as listed, or None (not listed, or not as [base, head] labels)."""
    if not isinstance(value, list):
        return None
    pairs = []
    for pair in value:
        if not (
            isinstance(pair, list) and len(pair) == 2 and all(isinstance(v, str) for v in pair)
        ):
            return None
        pairs.append((pair[0], pair[1]))
    return tuple(pairs)


def _int(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _number(value: object) -> float | None:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return value
    return None


def _per_rule(value: object) -> tuple[RuleCount, ...]:
    """Both audits' "per_rule" list, as summary.json writes it."""
    return tuple(
        RuleCount(str(r.get("rule")), str(r.get("severity")), _int(r.get("count")))
        for r in _objects(value)
    )
