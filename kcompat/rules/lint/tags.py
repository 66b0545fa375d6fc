"""Rules about KIP-482 tagged fields: tags, taggedVersions, and what may be tagged."""

from __future__ import annotations

import re

from kcompat.findings import Reporter, Severity
from kcompat.rules.lint.adapters import document_rule, field_rule, message_rule
from kcompat.rules.lint.scopes import Scope, each_field, fields_of, scopes, written_fields
from kcompat.rules.registry import Category
from kcompat.spec.load import JObject
from kcompat.spec.model import Field, Message
from kcompat.spec.specfile import SpecFile

#: A tagged field needs both keys: what to add when one of them is missing.
_PARTNER_HINTS = {
    "taggedVersions": 'add "taggedVersions": "N+" from its first flexible version',
    "tag": 'add "tag": the next unused tag number in this struct',
}


def _unpaired(report: Reporter, node: JObject, path: str, key: str, value: object) -> None:
    """A field with ``key`` (``tag`` or ``taggedVersions``) set to ``value``, but not the
    other key a tagged field needs: reported at ``key``."""
    partner = "taggedVersions" if key == "tag" else "tag"
    report(
        node, f"{path} has {key} {value} but no {partner}", key=key, hint=_PARTNER_HINTS[partner]
    )


@field_rule("tag-without-tagged-versions", Category.TAGS, Severity.ERROR)
def tag_without_tagged_versions(
    scope: Scope, field: Field, node: JObject, report: Reporter
) -> None:
    """A field with a tag but no taggedVersions."""
    if field.tag is not None and field.tagged_versions.empty:
        _unpaired(report, node, scope.field_path(field), "tag", field.tag)


@field_rule("tagged-versions-without-tag", Category.TAGS, Severity.ERROR)
def tagged_versions_without_tag(
    scope: Scope, field: Field, node: JObject, report: Reporter
) -> None:
    """A field with taggedVersions but no tag."""
    if "tag" not in node and not field.tagged_versions.empty:
        _unpaired(report, node, scope.field_path(field), "taggedVersions", field.tagged_versions)


@document_rule("tag-as-string", Category.TAGS, Severity.WARNING)
def tag_as_string(spec: SpecFile, report: Reporter) -> None:
    """A tag written as a string: "1" is coerced by Kafka, "0x0001" (draft syntax) fails."""
    if spec.message is None:
        return
    for scope, field in fields_of(spec.message):
        node = field.node
        if node is None or not isinstance(node.get("tag"), str):
            continue
        text = node["tag"]
        path = scope.field_path(field)
        if re.fullmatch(r"\s*-?[0-9]+\s*", text):  # Jackson trims, then reads the number
            report(
                node.where_value("tag"),
                f"tag {text!r} of {path} is a string; Kafka's parser "
                "coerces it, stricter generators reject it",
                field_path=path,
                hint=f'write "tag": {int(text)}',
            )
            continue
        try:
            number: int | None = int(text, 0)
        except ValueError:
            number = None
        hint = (
            f'write "tag": {number} (tags are plain integers since KIP-482 shipped)'
            if number is not None
            else "write the tag as a JSON integer"
        )
        report(
            node.where_value("tag"),
            f"tag {text!r} of {path} is not an integer; Kafka's parser rejects it",
            field_path=path,
            hint=hint,
            severity=Severity.ERROR,
        )


@field_rule("tag-negative", Category.TAGS, Severity.ERROR)
def tag_negative(scope: Scope, field: Field, node: JObject, report: Reporter) -> None:
    """A negative tag."""
    if field.tag is not None and field.tag < 0:
        report(
            node.where_value("tag"),
            f"{scope.field_path(field)} has negative tag {field.tag}",
            hint="tags start at 0",
        )


@message_rule("tag-duplicate", Category.TAGS, Severity.ERROR)
def tag_duplicate(message: Message, report: Reporter) -> None:
    """Two fields in one struct share a tag."""
    for scope in scopes(message):
        seen: dict[int, str] = {}
        tags = [f.tag for f in scope.fields if f.tag is not None and f.node is not None]
        for field, node in written_fields(scope):
            if field.tag is None:
                continue
            if field.tag in seen:
                report(
                    node.where_value("tag"),
                    f"tag {field.tag} of {scope.field_path(field)} is already used by "
                    f"{seen[field.tag]}",
                    hint=f"use tag {max(tags) + 1}, the next free one",
                    field_path=scope.field_path(field),
                )
            else:
                seen[field.tag] = scope.field_path(field)


@message_rule("tag-not-contiguous", Category.TAGS, Severity.ERROR)
def tag_not_contiguous(message: Message, report: Reporter) -> None:
    """The tags of a struct must be 0, 1, 2, ... with no gaps."""
    for scope in scopes(message):
        tagged = [f for f in scope.fields if f.tag is not None and f.tag >= 0 and f.node]
        tags = {f.tag for f in tagged}
        missing = [t for t in range(len(tags)) if t not in tags]
        if not missing:
            continue
        first_gap = missing[0]
        offender = min(
            (f for f in tagged if f.tag is not None and f.tag > first_gap),
            key=lambda f: f.tag if f.tag is not None else 0,
        )
        assert offender.node is not None
        report(
            offender.node.where_value("tag"),
            f"tags in {scope.name} skip {first_gap}: {scope.field_path(offender)} has tag "
            f"{offender.tag}",
            field_path=scope.field_path(offender),
            hint=f"tags in a struct run 0..{len(tags) - 1}; use tag {first_gap}",
        )


@field_rule("tagged-versions-not-open", Category.TAGS, Severity.ERROR)
def tagged_versions_not_open(scope: Scope, field: Field, node: JObject, report: Reporter) -> None:
    """taggedVersions must be open-ended (N+)."""
    tagged = field.tagged_versions
    if tagged.empty or tagged.open_ended:
        return
    report(
        node.where_value("taggedVersions"),
        f"taggedVersions {tagged} of {scope.field_path(field)} is not open-ended",
        hint=f'write "{tagged.lowest}+"; to stop sending the field, stop setting it',
    )


@field_rule("tagged-versions-outside-versions", Category.TAGS, Severity.ERROR)
def tagged_versions_outside_versions(
    scope: Scope, field: Field, node: JObject, report: Reporter
) -> None:
    """taggedVersions must be a subset of the field's versions."""
    tagged = field.tagged_versions
    if tagged.empty:
        return
    extra = tagged - field.versions
    if not extra.empty:
        report(
            node.where_value("taggedVersions"),
            f"taggedVersions {tagged} of {scope.field_path(field)} include {extra}, outside "
            f"its versions {field.versions}",
            hint='make versions cover taggedVersions (usually "versions": the same "N+")',
        )


@message_rule("tagged-versions-not-flexible", Category.TAGS, Severity.ERROR)
def tagged_versions_not_flexible(message: Message, report: Reporter) -> None:
    """A field tagged in versions that are not flexible (no tagged-field section)."""
    flexible = message.flexible_versions
    for scope, field, node in each_field(message):
        tagged = field.tagged_versions
        if tagged.empty:
            continue
        effective = field.flexible_versions if field.flexible_versions is not None else flexible
        extra = tagged - effective
        if not extra.empty:
            report(
                node.where_value("taggedVersions"),
                f"{scope.field_path(field)} is tagged in versions {extra}, which are not "
                f"flexible (flexibleVersions {effective})",
                hint=(
                    "remove the field's flexibleVersions override, or do not tag the field"
                    if field.flexible_versions is not None
                    else f'start taggedVersions at a flexible version, e.g. "{effective}"'
                    if not effective.empty
                    else "tagged fields need flexible versions"
                ),
                field_path=scope.field_path(field),
            )


@field_rule("tagged-nullable-partial", Category.TAGS, Severity.ERROR)
def tagged_nullable_partial(scope: Scope, field: Field, node: JObject, report: Reporter) -> None:
    """A tagged field must be nullable in all its tagged versions or in none."""
    tagged = field.tagged_versions
    if tagged.empty:
        return
    both = field.nullable_versions & tagged
    if not both.empty and both != tagged:
        report(
            node.where_value("nullableVersions"),
            f"{scope.field_path(field)} is nullable in {both} but tagged in {tagged}",
            hint=f'make nullableVersions cover every tagged version ("{tagged}") or none',
        )


@field_rule("tagged-records", Category.TAGS, Severity.ERROR)
def tagged_records(scope: Scope, field: Field, node: JObject, report: Reporter) -> None:
    """A records field cannot be tagged."""
    if field.tag is not None and field.type.text == "records":
        report(
            node,
            f"{scope.field_path(field)} is records and cannot be tagged",
            key="tag",
            hint="use bytes for a tagged blob",
        )
