"""Rules about field attributes: mapKey placement and default values."""

from __future__ import annotations

from kcompat.findings import Reporter, Severity
from kcompat.rules.lint.adapters import field_rule
from kcompat.rules.lint.scopes import Scope
from kcompat.rules.registry import Category
from kcompat.spec.defaults import LEGACY_UUID, implicit_default, parse_uuid_default, uuid_text
from kcompat.spec.load import JObject
from kcompat.spec.model import Field, show_value


def _map_key_misplaced(report: Reporter, node: JObject, path: str, what: str, hint: str) -> None:
    """A mapKey on field ``path``, which is ``what`` and so cannot be one: at the mapKey."""
    report(node, f"{path} is {what} and cannot be a mapKey", key="mapKey", hint=hint)


@field_rule("map-key-tagged", Category.FIELDS, Severity.ERROR)
def map_key_tagged(scope: Scope, field: Field, node: JObject, report: Reporter) -> None:
    """A tagged field cannot be a mapKey."""
    if field.map_key and field.tag is not None:
        _map_key_misplaced(
            report, node, scope.field_path(field), "tagged", "remove mapKey or the tag"
        )


@field_rule("map-key-top-level", Category.FIELDS, Severity.ERROR)
def map_key_top_level(scope: Scope, field: Field, node: JObject, report: Reporter) -> None:
    """mapKey on a top-level field: only struct-array elements have keys."""
    if field.map_key and scope.top_level:
        hint = "mapKey marks fields of the structs in an array"
        _map_key_misplaced(report, node, scope.field_path(field), "a top-level field", hint)


@field_rule("invalid-default", Category.FIELDS, Severity.ERROR)
def invalid_default(scope: Scope, field: Field, node: JObject, report: Reporter) -> None:
    """A default the type cannot hold (range, syntax, null where not nullable, ...)."""
    if field.default.error is None or not field.type.is_valid:
        return
    report(
        node.where_value("default"),
        f"invalid default for {scope.field_path(field)} ({field.type}): {field.default.error}",
        hint="fix the default, or remove it to use the type's own default "
        f"({show_value(implicit_default(field.type))})",
    )


@field_rule("legacy-uuid-default", Category.FIELDS, Severity.WARNING)
def legacy_uuid_default(scope: Scope, field: Field, node: JObject, report: Reporter) -> None:
    """A uuid default in hyphenated hex (Kafka 2.5-2.7); Kafka 2.8+ uses base64."""
    text = field.default.text
    if field.type.text != "uuid" or text is None:
        return
    if LEGACY_UUID.match(text):
        value = parse_uuid_default(text)
        report(
            node.where_value("default"),
            f"uuid default {text!r} of {scope.field_path(field)} is in java.util.UUID form, "
            "which Kafka 2.8 and later fail on at run time",
            hint=f'write "default": "{uuid_text(value)}" (the same uuid in base64)',
        )
