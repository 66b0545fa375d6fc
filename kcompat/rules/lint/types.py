"""Rules about field types: parseable types, structs that exist, what each type allows."""

from __future__ import annotations

import difflib
from collections.abc import Collection
from typing import NamedTuple

from kcompat.findings import Reporter, Severity
from kcompat.rules.lint.adapters import field_rule, message_rule
from kcompat.rules.lint.scopes import Scope, each_field
from kcompat.rules.registry import Category
from kcompat.spec.jackson import scalar_text
from kcompat.spec.load import JObject
from kcompat.spec.model import PRIMITIVE_TYPES, Field, Message

#: Names people write for Kafka's primitives.
_TYPE_ALIASES = {
    "int": "int32",
    "integer": "int32",
    "long": "int64",
    "short": "int16",
    "byte": "int8",
    "boolean": "bool",
    "double": "float64",
    "float": "float64",
    "str": "string",
    "uint8": "int8",
    "uint64": "int64",
    "binary": "bytes",
    "varint": 'int32 with "encoding": "packed32"',
}
#: entityType -> the (element) type it requires.
ENTITY_BASE_TYPES = {
    "transactionalId": "string",
    "producerId": "int64",
    "groupId": "string",
    "topicName": "string",
    "brokerId": "int32",
}


class TypedKey(NamedTuple):
    """A key only some types may carry: those types, what a finding says, the hint."""

    types: tuple[str, ...]
    says: str
    hint: str


#: The keys Kafka's generator accepts only on some types, each checked by its own rule.
TYPED_KEYS = {
    "zeroCopy": TypedKey(("bytes",), "zeroCopy applies only to bytes", "remove zeroCopy"),
    "flexibleVersions": TypedKey(
        ("string", "bytes"),
        "only string and bytes fields may override flexibleVersions",
        "remove the field's flexibleVersions",
    ),
    "encoding": TypedKey(
        ("int16", "int32", "int64"),
        "encoding applies only to int16, int32 and int64",
        "remove encoding",
    ),
}


def key_off_type(report: Reporter, path: str, field: Field, node: JObject, key: str) -> None:
    """``key`` (of ``TYPED_KEYS``), set on field ``path`` whose type does not take it. A
    type Kafka cannot parse is ``invalid-type``'s finding: what it would take is unknown,
    so the key is no second finding of the same typo."""
    typed = TYPED_KEYS[key]
    if field.type.is_valid and field.type.text not in typed.types:
        report(node, f"{path} is {field.type}; {typed.says}", key=key, hint=typed.hint)


def _type_hint(text: str) -> str:
    base = text[2:] if text.startswith("[]") else text
    prefix = "[]" if text.startswith("[]") else ""
    if base.endswith("[]"):
        return f"arrays are written []T: use {'[]' + base[:-2]!r}"
    lowered = base.lower()
    if lowered in PRIMITIVE_TYPES:
        return f"did you mean {prefix + lowered!r}?"
    if lowered in _TYPE_ALIASES:
        alias = _TYPE_ALIASES[lowered]
        return f"did you mean {prefix + alias!r}?" if " " not in alias else f"use {alias}"
    guess = difflib.get_close_matches(base, sorted(PRIMITIVE_TYPES), n=1, cutoff=0.6)
    if guess:
        return f"did you mean {prefix + guess[0]!r}?"
    return "use a primitive type, a capitalised struct name, or []T"


@field_rule("invalid-type", Category.TYPES, Severity.ERROR)
def invalid_type(scope: Scope, field: Field, node: JObject, report: Reporter) -> None:
    """A type Kafka cannot parse (not a primitive, a struct name, or []T)."""
    written = node.get("type")
    if scalar_text(written) is None:
        return  # missing or null: missing-key / wrong-value-type
    text = field.type.text
    if field.type.is_valid or (text.startswith("[][]")):
        return
    if isinstance(written, str):
        hint = _type_hint(text.strip())
    else:  # Jackson turns the JSON number or boolean into the type name "5", "true"
        hint = 'write the type as a string: a primitive such as "int32", a struct name or []T'
    report(
        node.where_value("type"),
        f"invalid type {text!r} for {scope.field_path(field)}: not a primitive, a "
        "capitalised struct name or []T",
        hint=hint,
    )


@field_rule("array-of-arrays", Category.TYPES, Severity.ERROR)
def array_of_arrays(scope: Scope, field: Field, node: JObject, report: Reporter) -> None:
    """Arrays of arrays are not supported; wrap the inner array in a struct."""
    if field.type.text.startswith("[][]"):
        report(
            node.where_value("type"),
            f"{scope.field_path(field)} is an array of arrays ({field.type})",
            hint="use an array of structs that each hold one array",
        )


@field_rule("array-of-records", Category.TYPES, Severity.ERROR)
def array_of_records(scope: Scope, field: Field, node: JObject, report: Reporter) -> None:
    """[]records cannot be generated; records are one length-prefixed blob."""
    if field.type.text == "[]records":
        report(
            node.where_value("type"),
            f"{scope.field_path(field)} is an array of records",
            hint="use records (one record batch) or an array of structs",
        )


@message_rule("undefined-struct", Category.TYPES, Severity.ERROR)
def undefined_struct(message: Message, report: Reporter) -> None:
    """A struct type with no definition (Kafka silently makes it empty, e.g. Int32)."""
    common = {s.name: s for s in message.common_structs}  # in definition order
    inline = {s.name for s in message.structs if not s.common}
    for scope, field, node in each_field(message):
        if not _names_undefined_struct(field, node, common):
            continue
        name = field.type.base
        report(
            node.where_value("type"),
            f"struct type {name!r} of {scope.field_path(field)} is not defined (Kafka would "
            "silently make it an empty struct)",
            hint=_undefined_struct_hint(field, common, inline),
            field_path=scope.field_path(field),
        )


def _names_undefined_struct(field: Field, node: JObject, common: Collection[str]) -> bool:
    """The field's type names a struct it neither defines inline ("fields") nor finds
    among the common structs."""
    return field.type.has_struct and "fields" not in node and field.type.base not in common


@field_rule("fields-on-scalar", Category.TYPES, Severity.ERROR)
def fields_on_scalar(scope: Scope, field: Field, node: JObject, report: Reporter) -> None:
    """ "fields" on a type that is neither a struct nor an array of structs."""
    if not field.fields or field.type.has_struct or not field.type.is_valid:
        return
    report(
        node,
        f"{scope.field_path(field)} has type {field.type} but defines fields",
        key="fields",
        hint="remove the fields, or give the field a struct type such as []Entry",
    )


def _undefined_struct_hint(field: Field, common: Collection[str], inline: set[str]) -> str:
    """What the author most likely meant by an undefined struct name: a primitive, a
    common struct spelt in another case, an inline struct (not shareable), a close name."""
    name = field.type.base
    lowered = name.lower()
    same_but_case = [s for s in common if s.lower() == lowered]
    if lowered in PRIMITIVE_TYPES or lowered in _TYPE_ALIASES:
        return _primitive_hint(field, lowered)
    if same_but_case:
        return (
            f"common struct {same_but_case[0]!r} differs only in case; struct names "
            f"start with a capital letter, so rename it to {name!r}"
        )
    if name in inline:
        return f"{name} is defined inline elsewhere; only commonStructs can be shared by name"
    defined = sorted(s for s in set(common) | inline if s[:1].isupper())
    guesses = difflib.get_close_matches(name, defined, n=1)
    if guesses:
        return f"did you mean {guesses[0]!r}?"
    primitive = difflib.get_close_matches(lowered, sorted(PRIMITIVE_TYPES), n=1, cutoff=0.8)
    if primitive:
        return f"did you mean {primitive[0]!r}? (types are lower case; struct names capitalised)"
    return f'define it with "fields" here, or add {name} to commonStructs'


def _primitive_hint(field: Field, lowered: str) -> str:
    """A struct name that is a primitive (or a common alias of one) in another case."""
    name = field.type.base
    prefix = "[]" if field.type.is_array else ""
    primitive = lowered if lowered in PRIMITIVE_TYPES else _TYPE_ALIASES[lowered]
    if " " not in primitive:
        return f"did you mean {prefix + primitive!r}? Kafka reads {name!r} as a struct name"
    return f"use {primitive}; Kafka reads {name!r} as a struct name"


def _can_be_null_hint(field: Field) -> str:
    if field.type.text == "uuid":
        return "a uuid has no null form; use the zero uuid (AAAAAAAAAAAAAAAAAAAAAA) for 'none'"
    return "only string, bytes, records, arrays and structs can be null; remove nullableVersions"


@field_rule("nullable-type-mismatch", Category.TYPES, Severity.ERROR)
def nullable_type_mismatch(scope: Scope, field: Field, node: JObject, report: Reporter) -> None:
    """nullableVersions on a type with no null form (ints, bool, float64, uuid)."""
    if field.nullable_versions.empty or not field.type.is_valid:
        return
    if not field.type.can_be_nullable and field.type.text != "records":
        hint = _can_be_null_hint(field)
        report(
            node,
            f"{scope.field_path(field)} has type {field.type}, which cannot be null",
            key="nullableVersions",
            hint=hint,
        )


@field_rule("entity-type-mismatch", Category.TYPES, Severity.ERROR)
def entity_type_mismatch(scope: Scope, field: Field, node: JObject, report: Reporter) -> None:
    """entityType does not match the field type (brokerId needs int32, ...)."""
    required = ENTITY_BASE_TYPES.get(field.entity_type or "")
    if required is None or not field.type.is_valid:
        return  # a type Kafka cannot parse is invalid-type's finding, not a second one
    base = field.type.base
    if base != required:
        report(
            node.where_value("entityType"),
            f"entityType {field.entity_type} needs type {required} (or []{required}), "
            f"but {scope.field_path(field)} is {field.type}",
            hint=f"change the type to {required} or drop entityType",
        )


@field_rule("zero-copy-not-bytes", Category.TYPES, Severity.ERROR)
def zero_copy_not_bytes(scope: Scope, field: Field, node: JObject, report: Reporter) -> None:
    """zeroCopy is only meaningful on bytes fields."""
    if field.zero_copy:
        key_off_type(report, scope.field_path(field), field, node, "zeroCopy")


@field_rule("flexible-override-type", Category.TYPES, Severity.ERROR)
def flexible_override_type(scope: Scope, field: Field, node: JObject, report: Reporter) -> None:
    """A field-level flexibleVersions on a type other than string or bytes."""
    # Kafka reads a missing, null or empty override as no override.
    if scalar_text(node.get("flexibleVersions")):
        key_off_type(report, scope.field_path(field), field, node, "flexibleVersions")


@message_rule("flexible-override-wider", Category.TYPES, Severity.ERROR)
def flexible_override_wider(message: Message, report: Reporter) -> None:
    """A field's flexibleVersions override includes versions the message does not."""
    for scope, field, node in each_field(message):
        override = field.flexible_versions
        if override is None:
            continue
        extra = override - message.flexible_versions
        if not extra.empty:
            report(
                node.where_value("flexibleVersions"),
                f"{scope.field_path(field)} overrides flexibleVersions with {override}, wider "
                f"than the message's {message.flexible_versions}",
                hint="an override may only narrow flexibility (RequestHeader.ClientId uses none)",
                field_path=scope.field_path(field),
            )
