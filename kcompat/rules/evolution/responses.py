"""What a response's new fields do to the clients that asked in an older version.

Kafka's generated writers throw ``UnsupportedVersionException`` when a non-ignorable field
holds a value other than its default at a version that lacks it (FORMAT-NOTES,
"Defaults"). For a request that is on purpose: a client must not silently lose what it
asked for. For a response it means the broker cannot answer an older client at all
whenever it sets the new field (KAFKA-10239).
"""

from __future__ import annotations

from kcompat.findings import Reporter, Severity, Wording
from kcompat.rules.evolution.adapters import pair_rule
from kcompat.rules.evolution.pairing import MessagePair
from kcompat.rules.registry import Category
from kcompat.spec.placed import placed_fields


@pair_rule("response-field-not-ignorable", Category.FIELDS, Severity.WARNING)
def response_field_not_ignorable(pair: MessagePair, report: Reporter) -> None:
    """A response field new in a new version is not ignorable: older clients go unanswered."""
    head, base = pair.head, pair.base
    if head.kind != "response":
        return
    known = {placed.path.lower() for placed in placed_fields(base)}  # renamed: not new
    new_versions = head.valid_versions - base.valid_versions
    for placed in placed_fields(head):
        path, field, around = placed.path, placed.field, placed.around
        if path.lower() in known or field.ignorable or field.versions.empty:
            continue
        if not new_versions.contains(field.versions & head.valid_versions):
            continue  # added to existing versions: field-added's finding
        older = (around - field.versions) & pair.released
        if older.empty:
            continue  # no released client lacks it (or its struct is new too)
        report(
            field.node,
            Wording(
                f"{head.name} field {path} is new in v{field.versions.lowest} and not "
                "ignorable: whenever a broker sets it, answering a client of ",
                " fails (the generated writer throws for a non-default value the version "
                "cannot carry)",
            ),
            key="name",
            field_path=path,
            versions=older,
            hint='add "ignorable": true, so older versions drop the value instead',
        )
