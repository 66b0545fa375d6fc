"""Rules about KIP-482 tagged fields: tags, taggedVersions, and what may be tagged."""

from __future__ import annotations

import re

from kcompat.rules.engine import Reporter, Severity, rule
from kcompat.rules.lint.scopes import fields_of, scopes
from kcompat.spec.model import Message
from kcompat.spec.specfile import SpecFile

_TAGS = dict(kind="lint", category="tags")


@rule(
    "tag-without-tagged-versions",
    severity=Severity.ERROR,
    summary="A field with a tag but no taggedVersions.",
    **_TAGS,
)
def tag_without_tagged_versions(message: Message, report: Reporter) -> None:
    for scope, field in fields_of(message):
        if field.node is not None and field.tag is not None and field.tagged_versions.empty:
            report(
                field.node,
                f"{scope.field_path(field)} has tag {field.tag} but no taggedVersions",
                key="tag",
                field_path=scope.field_path(field),
                hint='add "taggedVersions": "N+" from its first flexible version',
            )


@rule(
    "tagged-versions-without-tag",
    severity=Severity.ERROR,
    summary="A field with taggedVersions but no tag.",
    **_TAGS,
)
def tagged_versions_without_tag(message: Message, report: Reporter) -> None:
    for scope, field in fields_of(message):
        node = field.node
        if node is None or "tag" in node or field.tagged_versions.empty:
            continue
        report(
            node,
            f"{scope.field_path(field)} has taggedVersions {field.tagged_versions} but no tag",
            key="taggedVersions",
            field_path=scope.field_path(field),
            hint='add "tag": the next unused tag number in this struct',
        )


@rule(
    "tag-as-string",
    severity=Severity.WARNING,
    summary='A tag written as a string: "1" is coerced by Kafka, "0x0001" (seed 000) fails.',
    scope="document",
    **_TAGS,
)
def tag_as_string(spec: SpecFile, report: Reporter) -> None:
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


@rule("tag-negative", severity=Severity.ERROR, summary="A negative tag.", **_TAGS)
def tag_negative(message: Message, report: Reporter) -> None:
    for scope, field in fields_of(message):
        if field.node is not None and field.tag is not None and field.tag < 0:
            report(
                field.node.where_value("tag"),
                f"{scope.field_path(field)} has negative tag {field.tag}",
                field_path=scope.field_path(field),
                hint="tags start at 0",
            )


@rule(
    "tag-duplicate",
    severity=Severity.ERROR,
    summary="Two fields in one struct share a tag.",
    **_TAGS,
)
def tag_duplicate(message: Message, report: Reporter) -> None:
    for scope in scopes(message):
        seen: dict[int, str] = {}
        tags = [f.tag for f in scope.fields if f.tag is not None and f.node is not None]
        for field in scope.fields:
            if field.tag is None or field.node is None:
                continue
            if field.tag in seen:
                report(
                    field.node.where_value("tag"),
                    f"tag {field.tag} of {scope.field_path(field)} is already used by "
                    f"{seen[field.tag]}",
                    field_path=scope.field_path(field),
                    hint=f"use tag {max(tags) + 1}, the next free one",
                )
            else:
                seen[field.tag] = scope.field_path(field)


@rule(
    "tag-not-contiguous",
    severity=Severity.ERROR,
    summary="The tags of a struct must be 0, 1, 2, ... with no gaps.",
    **_TAGS,
)
def tag_not_contiguous(message: Message, report: Reporter) -> None:
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


@rule(
    "tagged-versions-not-open",
    severity=Severity.ERROR,
    summary="taggedVersions must be open-ended (N+).",
    **_TAGS,
)
def tagged_versions_not_open(message: Message, report: Reporter) -> None:
    for scope, field in fields_of(message):
        tagged = field.tagged_versions
        if field.node is None or tagged.empty or tagged.open_ended:
            continue
        report(
            field.node.where_value("taggedVersions"),
            f"taggedVersions {tagged} of {scope.field_path(field)} is not open-ended",
            field_path=scope.field_path(field),
            hint=f'write "{tagged.lowest}+"; to stop sending the field, stop setting it',
        )


@rule(
    "tagged-versions-outside-versions",
    severity=Severity.ERROR,
    summary="taggedVersions must be a subset of the field's versions.",
    **_TAGS,
)
def tagged_versions_outside_versions(message: Message, report: Reporter) -> None:
    for scope, field in fields_of(message):
        tagged = field.tagged_versions
        if field.node is None or tagged.empty:
            continue
        extra = tagged - field.versions
        if not extra.empty:
            report(
                field.node.where_value("taggedVersions"),
                f"taggedVersions {tagged} of {scope.field_path(field)} include {extra}, outside "
                f"its versions {field.versions}",
                field_path=scope.field_path(field),
                hint='make versions cover taggedVersions (usually "versions": the same "N+")',
            )


@rule(
    "tagged-versions-not-flexible",
    severity=Severity.ERROR,
    summary="A field tagged in versions that are not flexible (no tagged-field section).",
    **_TAGS,
)
def tagged_versions_not_flexible(message: Message, report: Reporter) -> None:
    flexible = message.flexible_versions
    for scope, field in fields_of(message):
        tagged = field.tagged_versions
        if field.node is None or tagged.empty:
            continue
        effective = field.flexible_versions if field.flexible_versions is not None else flexible
        extra = tagged - effective
        if not extra.empty:
            report(
                field.node.where_value("taggedVersions"),
                f"{scope.field_path(field)} is tagged in versions {extra}, which are not "
                f"flexible (flexibleVersions {effective})",
                field_path=scope.field_path(field),
                hint=(
                    "remove the field's flexibleVersions override, or do not tag the field"
                    if field.flexible_versions is not None
                    else f'start taggedVersions at a flexible version, e.g. "{effective}"'
                    if not effective.empty
                    else "tagged fields need flexible versions"
                ),
            )


@rule(
    "tagged-nullable-partial",
    severity=Severity.ERROR,
    summary="A tagged field must be nullable in all its tagged versions or in none.",
    **_TAGS,
)
def tagged_nullable_partial(message: Message, report: Reporter) -> None:
    for scope, field in fields_of(message):
        tagged = field.tagged_versions
        if field.node is None or tagged.empty:
            continue
        both = field.nullable_versions & tagged
        if not both.empty and both != tagged:
            report(
                field.node.where_value("nullableVersions"),
                f"{scope.field_path(field)} is nullable in {both} but tagged in {tagged}",
                field_path=scope.field_path(field),
                hint=f'make nullableVersions cover every tagged version ("{tagged}") or none',
            )


@rule(
    "tagged-records", severity=Severity.ERROR, summary="A records field cannot be tagged.", **_TAGS
)
def tagged_records(message: Message, report: Reporter) -> None:
    for scope, field in fields_of(message):
        if field.node is not None and field.tag is not None and field.type.text == "records":
            report(
                field.node,
                f"{scope.field_path(field)} is records and cannot be tagged",
                key="tag",
                field_path=scope.field_path(field),
                hint="use bytes for a tagged blob",
            )
