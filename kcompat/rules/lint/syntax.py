"""Rules about the file as text: unreadable JSON, duplicate keys, trailing commas."""

from __future__ import annotations

from kcompat.findings import Reporter, Severity
from kcompat.rules.lint.adapters import document_rule
from kcompat.rules.registry import Category
from kcompat.spec.load import JArray
from kcompat.spec.specfile import SpecFile


@document_rule("invalid-json", Category.SYNTAX, Severity.ERROR)
def invalid_json(spec: SpecFile, report: Reporter) -> None:
    """The file cannot be read as one JSON object (with // and /* */ comments)."""
    if spec.error is not None:
        report(
            spec.error.pos,
            spec.error.message,
            hint="fix this first: no other rule can check a file that does not parse",
        )


@document_rule("not-an-object", Category.SYNTAX, Severity.ERROR)
def not_an_object(spec: SpecFile, report: Reporter) -> None:
    """The top-level value is not a JSON object."""
    if spec.document is not None and spec.message is None:
        root = spec.document.root
        kind = type(root).__name__
        shown = {
            "JArray": "an array",
            "str": "a string",
            "NoneType": "null",
            "bool": "a boolean",
            "int": "a number",
            "float": "a number",
        }.get(kind, kind)
        report(
            root.pos if isinstance(root, JArray) else (1, 1),
            f"the top-level value is {shown}; a spec file holds one JSON object",
            hint='start the file with { "name": ..., "type": ..., "fields": [...] }',
        )


#: How to fix each recoverable syntax problem (the loader's note says what is wrong).
_NOTE_HINTS = {
    "duplicate-key": "keep the value you mean and delete the other key",
    "trailing-comma": "delete the comma",
    "trailing-content": "delete everything after the closing brace (comments may stay)",
}
#: The loader's wording predates Kafka's FAIL_ON_TRAILING_TOKENS; say what both do.
_TRAILING_WORDING = (
    "; Kafka's parser ignores everything after it",
    "; older Kafka ignores it, newer Kafka rejects the file",
)


def _note_message(message: str) -> str:
    """The note without its ': remove ...' tail (that goes in the hint), worded for Kafka."""
    head, sep, tail = message.rpartition(": ")
    if sep and tail.split(" ", 1)[0] in ("remove", "delete"):
        message = head
    return message.replace(*_TRAILING_WORDING)


def _notes(kind: str, spec: SpecFile, report: Reporter) -> None:
    if spec.document is not None:
        for note in spec.document.notes:
            if note.kind == kind:
                report(note.pos, _note_message(note.message), hint=_NOTE_HINTS[kind])


@document_rule("duplicate-key", Category.SYNTAX, Severity.WARNING)
def duplicate_key(spec: SpecFile, report: Reporter) -> None:
    """A key appears twice in one object; Kafka silently keeps only the last."""
    _notes("duplicate-key", spec, report)


@document_rule("trailing-comma", Category.SYNTAX, Severity.ERROR)
def trailing_comma(spec: SpecFile, report: Reporter) -> None:
    """A comma before } or ]; JSON and Kafka's parser reject it."""
    _notes("trailing-comma", spec, report)


@document_rule("trailing-content", Category.SYNTAX, Severity.WARNING)
def trailing_content(spec: SpecFile, report: Reporter) -> None:
    """Text after the top-level object: older Kafka ignored it, newer Kafka rejects it."""
    _notes("trailing-content", spec, report)
