"""The early KIP-482 draft syntax that never shipped, with the way to migrate."""

from __future__ import annotations

from collections.abc import Iterable

from kcompat.findings import Reporter, Severity
from kcompat.rules.lint.adapters import document_rule
from kcompat.rules.registry import Category
from kcompat.spec.load import JArray, JObject
from kcompat.spec.specfile import SpecFile

_MIGRATION = {
    "optionalFields": 'move these fields into "fields" with "tag": N, "taggedVersions": '
    '"V+" and "versions": "V+"',
    "versionsWithOptional": 'use "flexibleVersions": "V+" at the top level',
    "nullable": 'use "nullableVersions": "V+" (nullability is per version)',
}


_CONTAINERS = (JObject, JArray)


def _objects(value: object, found: list[JObject]) -> list[JObject]:
    """Every object of the document at any depth, in document order (depth first), into
    ``found``; only containers are gone into, so a spec's many scalars cost little."""
    if isinstance(value, JObject):
        found.append(value)
        children: Iterable[object] = value.values()
    elif isinstance(value, JArray):
        children = value
    else:
        return found
    for child in children:
        if isinstance(child, _CONTAINERS):
            _objects(child, found)
    return found


@document_rule("draft-syntax", Category.SYNTAX, Severity.ERROR)
def draft_syntax(spec: SpecFile, report: Reporter) -> None:
    """The unshipped KIP-482 draft syntax (optionalFields, versionsWithOptional, ...)."""
    root = spec.document.root if spec.document is not None else None
    for obj in _objects(root, []):
        if obj.keys().isdisjoint(_MIGRATION):
            continue
        for key, hint in _MIGRATION.items():
            if key in obj:
                report(
                    obj,
                    f"{key!r} is draft KIP-482 syntax that Kafka never shipped",
                    key=key,
                    hint=hint,
                )
        # Hex-string tags ("0x0001") are reported by tag-as-string with the integer to write.
