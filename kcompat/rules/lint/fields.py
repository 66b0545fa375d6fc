"""Rules about field attributes: mapKey placement and default values."""

from __future__ import annotations

from kcompat.rules.engine import Reporter, Severity, rule
from kcompat.rules.lint.scopes import fields_of
from kcompat.spec.defaults import LEGACY_UUID, implicit_default, parse_uuid_default, uuid_text
from kcompat.spec.model import Message, show_value


@rule(
    "map-key-tagged",
    kind="lint",
    category="fields",
    severity=Severity.ERROR,
    summary="A tagged field cannot be a mapKey.",
)
def map_key_tagged(message: Message, report: Reporter) -> None:
    for scope, field in fields_of(message):
        if field.node is not None and field.map_key and field.tag is not None:
            report(
                field.node,
                f"{scope.field_path(field)} is tagged and cannot be a mapKey",
                key="mapKey",
                field_path=scope.field_path(field),
                hint="remove mapKey or the tag",
            )


@rule(
    "map-key-top-level",
    kind="lint",
    category="fields",
    severity=Severity.ERROR,
    summary="mapKey on a top-level field: only struct-array elements have keys.",
)
def map_key_top_level(message: Message, report: Reporter) -> None:
    for scope, field in fields_of(message):
        if field.node is not None and field.map_key and scope.top_level:
            report(
                field.node,
                f"{field.name} is a top-level field and cannot be a mapKey",
                key="mapKey",
                field_path=field.name,
                hint="mapKey marks fields of the structs in an array",
            )


@rule(
    "invalid-default",
    kind="lint",
    category="fields",
    severity=Severity.ERROR,
    summary="A default the type cannot hold (range, syntax, null where not nullable, ...).",
)
def invalid_default(message: Message, report: Reporter) -> None:
    for scope, field in fields_of(message):
        node = field.node
        if node is None or field.default.error is None or not field.type.is_valid:
            continue
        report(
            node.where_value("default"),
            f"invalid default for {scope.field_path(field)} ({field.type}): {field.default.error}",
            field_path=scope.field_path(field),
            hint="fix the default, or remove it to use the type's own default "
            f"({show_value(implicit_default(field.type))})",
        )


@rule(
    "legacy-uuid-default",
    kind="lint",
    category="fields",
    severity=Severity.WARNING,
    summary="A uuid default in hyphenated hex (Kafka 2.5-2.7); Kafka 2.8+ uses base64.",
)
def legacy_uuid_default(message: Message, report: Reporter) -> None:
    for scope, field in fields_of(message):
        text = field.default.text
        if field.node is None or field.type.text != "uuid" or text is None:
            continue
        if LEGACY_UUID.match(text):
            value = parse_uuid_default(text)
            report(
                field.node.where_value("default"),
                f"uuid default {text!r} of {scope.field_path(field)} is in java.util.UUID form, "
                "which Kafka 2.8 and later fail on at run time",
                field_path=scope.field_path(field),
                hint=f'write "default": "{uuid_text(value)}" (the same uuid in base64)',
            )
