"""Rules about the file as text: unreadable JSON, duplicate keys, trailing commas."""

from __future__ import annotations

from kcompat.rules.engine import Reporter, Severity, rule
from kcompat.spec.specfile import SpecFile

_SYNTAX = dict(kind="lint", category="syntax", scope="document")


@rule(
    "invalid-json",
    severity=Severity.ERROR,
    summary="The file cannot be read as one JSON object (with // and /* */ comments).",
    **_SYNTAX,
)
def invalid_json(spec: SpecFile, report: Reporter) -> None:
    if spec.error is not None:
        report(spec.error.pos, spec.error.message)


@rule(
    "not-an-object",
    severity=Severity.ERROR,
    summary="The top-level value is not a JSON object.",
    **_SYNTAX,
)
def not_an_object(spec: SpecFile, report: Reporter) -> None:
    if spec.document is not None and spec.message is None:
        kind = type(spec.document.root).__name__
        shown = {"JArray": "an array", "str": "a string", "NoneType": "null"}.get(kind, kind)
        report(
            (1, 1),
            f"the top-level value is {shown}; a spec file holds one JSON object",
            hint='start the file with { "name": ..., "type": ..., "fields": [...] }',
        )


def _notes(kind: str, spec: SpecFile, report: Reporter) -> None:
    if spec.document is not None:
        for note in spec.document.notes:
            if note.kind == kind:
                report(note.pos, note.message)


@rule(
    "duplicate-key",
    severity=Severity.WARNING,
    summary="A key appears twice in one object; Kafka silently keeps only the last.",
    **_SYNTAX,
)
def duplicate_key(spec: SpecFile, report: Reporter) -> None:
    _notes("duplicate-key", spec, report)


@rule(
    "trailing-comma",
    severity=Severity.ERROR,
    summary="A comma before } or ]; JSON and Kafka's parser reject it.",
    **_SYNTAX,
)
def trailing_comma(spec: SpecFile, report: Reporter) -> None:
    _notes("trailing-comma", spec, report)


@rule(
    "trailing-content",
    severity=Severity.WARNING,
    summary="Text after the top-level object: older Kafka ignored it, newer Kafka rejects it.",
    **_SYNTAX,
)
def trailing_content(spec: SpecFile, report: Reporter) -> None:
    _notes("trailing-content", spec, report)
