"""The schema rules: what the spec format's JSON Schema says is wrong with an object
(unknown keys, missing keys, values of the wrong JSON type, values outside an enum), each
reported as Kafka's parser would take it (:mod:`kcompat.rules.lint.flat_schema` checks
the objects against the schema)."""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Iterator
from typing import Any

from kcompat.findings import Reporter, Severity
from kcompat.rules.lint.adapters import document_rule
from kcompat.rules.lint.flat_schema import flat_schemas
from kcompat.rules.lint.scopes import written_objects
from kcompat.rules.registry import Category
from kcompat.spec.jackson import scalar_text
from kcompat.spec.load import JArray, JObject, Position
from kcompat.spec.model import MESSAGE_KINDS, Memo
from kcompat.spec.specfile import SpecFile

#: Keys of the unshipped draft syntax: the draft-syntax rule explains them with a migration hint.
DRAFT_KEYS = frozenset({"optionalFields", "versionsWithOptional", "nullable"})
_JSON_TYPES = {
    "object": "an object",
    "array": "an array",
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "true or false",
    "null": "null",
}


#: Keys without which a spec's wire layout is a guess (what ``diff`` checks before it
#: compares a spec, cheaply: the full schema check is ``missing-key`` itself).
LAYOUT_KEYS = {
    "message": ("name", "type", "validVersions"),
    "field": ("name", "type"),
    "commonStruct": ("name",),
}


def missing_layout_keys(spec: SpecFile) -> Iterator[tuple[JObject, str]]:
    """(object, key) for each key of :data:`LAYOUT_KEYS` an object lacks, and a field
    with neither ``versions`` nor ``taggedVersions``, without validating the schema."""
    for kind, obj in written_objects(spec):
        for key in LAYOUT_KEYS[kind]:
            if obj.get(key) is None:
                yield obj, key
        if kind == "field" and obj.get("versions") is None and not obj.get("taggedVersions"):
            yield obj, "versions"


#: (kind, object, error) for each schema error of a spec, kept on its message.
_SCHEMA_ERRORS: Memo[tuple[tuple[str, JObject, Any], ...]] = Memo("schema_errors")


def _schema_errors(spec: SpecFile) -> tuple[tuple[str, JObject, Any], ...]:
    """One validation pass per file, shared by the five schema rules: the runner calls
    each rule on every file in turn, so the pass is memoised on the file's message. A
    file without a message has no object to check (its root is not one)."""
    message = spec.message
    if message is None:
        return ()

    def validate() -> tuple[tuple[str, JObject, Any], ...]:
        flat = flat_schemas()
        return tuple(
            (kind, obj, error)
            for kind, obj in written_objects(spec)
            for error in flat[kind].errors(obj)
        )

    return _SCHEMA_ERRORS(message, validate)


def _target(obj: JObject, error: Any) -> tuple[JObject | JArray, str | None]:
    """The innermost object/array holding the failing value, and the key within it."""
    node: Any = obj
    path = list(error.path)
    for step in path[:-1]:
        node = node[step]
    last = path[-1] if path else None
    if isinstance(last, int) and isinstance(node, JArray):
        return node, None
    return node, last if isinstance(last, str) else None


def _owner(kind: str, obj: JObject) -> str:
    """The object a finding is about: "field 'Topics'", "the message", "common struct 'X'"."""
    name = obj.get("name")
    named = f" {name!r}" if isinstance(name, str) and name else ""
    if kind == "message":
        return f"message{named}" if named else "the message"
    return ("field" if kind == "field" else "common struct") + named


@document_rule("unknown-key", Category.SCHEMA, Severity.ERROR)
def unknown_key(spec: SpecFile, report: Reporter) -> None:
    """A key the spec format does not define (Kafka's parser rejects unknown keys)."""
    flat = flat_schemas()
    for kind, obj, error in _schema_errors(spec):
        if error.validator != "additionalProperties":
            continue
        allowed = sorted(flat[kind].properties)
        for key in obj:
            if key in flat[kind].properties or key in DRAFT_KEYS:
                continue
            lowered = {name.lower(): name for name in allowed}
            guess = difflib.get_close_matches(key, allowed, n=1, cutoff=0.6)
            if key.lower() in lowered:
                guess = [lowered[key.lower()]]
            hint = f"did you mean {guess[0]!r}?" if guess else f"allowed keys: {', '.join(allowed)}"
            report(
                obj,
                f"unknown key {key!r} in {_owner(kind, obj)}; Kafka's parser rejects it",
                key=key,
                hint=hint,
            )


@document_rule("missing-key", Category.SCHEMA, Severity.ERROR)
def missing_key(spec: SpecFile, report: Reporter) -> None:
    """A required key is missing (name, type, versions, validVersions...)."""
    for kind, obj, error in _schema_errors(spec):
        if error.validator == "required" and not error.path:
            for key in error.validator_value:
                if key not in obj:
                    report(
                        obj,
                        f"{_owner(kind, obj)} has no {key!r}",
                        hint=_missing_hint(kind, key, obj),
                    )
        elif error.validator == "anyOf" and not error.path and kind == "field":
            report(obj, f"{_owner(kind, obj)} has no 'versions'", hint=_MISSING_HINTS["versions"])
    for kind, obj, why in _versions_read_as_missing(spec):
        report(
            obj.where_value("versions") if "versions" in obj else obj,
            f"{_owner(kind, obj)} has no 'versions' ({why})",
            hint=_MISSING_HINTS["versions"],
        )


def _versions_read_as_missing(spec: SpecFile) -> Iterator[tuple[str, JObject, str]]:
    """(kind, object, why) for versions the schema sees but Kafka does not: it reads JSON
    null as a missing key, and takes a field's versions from a non-blank taggedVersions
    only; either way it fails with "You must specify the version of ..."."""
    for kind, obj in written_objects(spec):
        if kind == "commonStruct" and "versions" in obj and obj["versions"] is None:
            yield kind, obj, "null is read as a missing key"
        elif kind == "field" and obj.get("versions") is None:
            tagged = scalar_text(obj.get("taggedVersions"))
            if tagged is not None and tagged.strip():
                continue
            if "versions" in obj:
                yield kind, obj, "null is read as a missing key"
            elif "taggedVersions" in obj:
                yield (
                    kind,
                    obj,
                    "its taggedVersions are empty, so there is nothing to take them from",
                )
            # neither key: reported from the schema


_MISSING_HINTS = {
    "versions": 'add "versions": "0+" (or the first version that has the field)',
    "validVersions": 'add "validVersions": "0-N" with the highest version',
    "type": 'add "type": one of the primitive types, a struct name or []T',
    "name": 'add "name": a CamelCase name',
    "fields": 'add "fields": [ ... ]',
}


def _missing_hint(kind: str, key: str, obj: JObject) -> str:
    """How to add ``key``; a message's ``type`` is its kind, not a field's type (the name
    says which kind when it ends in Request, Response or Header)."""
    if kind != "message" or key != "type":
        return _MISSING_HINTS.get(key, "")
    kinds = ", ".join(MESSAGE_KINDS[:-1]) + f" or {MESSAGE_KINDS[-1]}"
    name = obj.get("name")
    for suffix in ("Request", "Response", "Header"):
        if isinstance(name, str) and name.endswith(suffix) and len(name) > len(suffix):
            return f'add "type": "{suffix.lower()}" (its name ends in {suffix}); the kinds: {kinds}'
    return f'add "type": the kind of message, one of {kinds}'


def _coercion(key: str | None, expected: Any, value: Any) -> str | None:
    """How Kafka's Jackson reads a value of the wrong JSON type, or None if it rejects it."""
    wanted = expected if isinstance(expected, list) else [expected]
    if value is None:
        if key is None or key in ("name", "type", "validVersions"):
            return None  # a null list item, or a key Kafka cannot do without
        return "JSON null is read as if the key were absent"
    if wanted == ["string"] and isinstance(value, bool | int | float):
        text = ("true" if value else "false") if isinstance(value, bool) else str(value)
        return f"{text} is read as the string {text!r}"
    if "boolean" in wanted and value in ("true", "false"):
        return f"the string {value!r} is read as {value}"
    if "integer" in wanted:
        if isinstance(value, str) and re.fullmatch(r"-?[0-9]+", value):
            return f"the string {value!r} is read as {int(value)}"
        if isinstance(value, float) and value.is_integer():
            return f"{value} is read as {int(value)}"
    if "array" in wanted and isinstance(value, str):
        return f"a single value is read as the list [{value!r}]"
    return None


def _type_errors(
    spec: SpecFile,
) -> Iterator[tuple[str, JObject, JObject | JArray, str | None, Any, str | None]]:
    """(kind, owner, node, key, error, coercion) for each value of the wrong JSON type."""
    for kind, obj, error in _schema_errors(spec):
        if error.validator != "type" or not error.path:
            continue
        node, key = _target(obj, error)
        if key == "tag" and isinstance(error.instance, str):
            continue  # reported by tag-as-string
        yield kind, obj, node, key, error, _coercion(key, error.validator_value, error.instance)


@document_rule("wrong-value-type", Category.SCHEMA, Severity.ERROR)
def wrong_value_type(spec: SpecFile, report: Reporter) -> None:
    """A key holds the wrong kind of JSON value (a number where a string belongs...)."""
    for kind, obj, int_key, value in _out_of_range(spec):
        low, high, what = _INT_RANGES[int_key]
        bounds = f"from {low} to {high}" if low is not None else f"at most {high}"
        hint = (
            f"{what}s are never negative; use a value {bounds}"
            if value < 0
            else f"{value} does not fit the Java type Kafka reads it into; use a value {bounds}"
        )
        report(
            obj.where_value(int_key),
            f"{int_key!r} of {_owner(kind, obj)} must be an integer {bounds}, not {value}",
            hint=hint,
        )
    for kind, obj, node, key, error, coercion in _type_errors(spec):
        if coercion is not None:
            continue
        expected = error.validator_value
        wanted = " or ".join(
            _JSON_TYPES.get(str(t), str(t))
            for t in (expected if isinstance(expected, list) else [expected])
        )
        found = _json_type(error.instance)
        owner = _owner(kind, obj)
        if isinstance(node, JObject) and key is not None:
            report(
                node.where_value(key),
                f"{key!r} of {owner} must be {wanted}, not {found}",
                hint=_VALUE_HINTS.get(key, f"write {key!r} as {wanted}"),
            )
        else:
            index = error.path[-1]
            where: Position | JObject | JArray = node
            if isinstance(node, JArray) and isinstance(index, int) and index < len(node.item_pos):
                where = node.item_pos[index]
            report(
                where,
                f"item {index} of {error.path[-2]!r} in {owner} must be {wanted}, not {found}",
                hint=f"write each item of {error.path[-2]!r} as {wanted}",
            )


#: Integer keys and the range of the Java type Kafka reads them into.
_INT_RANGES = {"apiKey": (0, 0x7FFF, "API key"), "tag": (None, 0x7FFFFFFF, "tag")}


def _out_of_range(spec: SpecFile) -> Iterator[tuple[str, JObject, str, int]]:
    """(kind, object, key, value) for apiKey and tag values Kafka's parser cannot hold."""
    for kind, obj in written_objects(spec):
        for key, (low, high, _what) in _INT_RANGES.items():
            value = obj.get(key)
            if isinstance(value, bool) or not isinstance(value, int):
                continue
            if (low is not None and value < low) or value > high:
                yield kind, obj, key, value


_RANGE_HINT = 'a version range is one string: "none", "N", "N-M" or "N+"'
_VALUE_HINTS = {
    "versions": _RANGE_HINT,
    "validVersions": _RANGE_HINT,
    "flexibleVersions": _RANGE_HINT,
    "nullableVersions": _RANGE_HINT,
    "taggedVersions": _RANGE_HINT,
    "deprecatedVersions": _RANGE_HINT,
    "fields": 'write "fields": [ {...}, {...} ], a list of field objects',
    "commonStructs": 'write "commonStructs": [ {...} ], a list of struct objects',
}


@document_rule("coerced-value", Category.SCHEMA, Severity.WARNING)
def coerced_value(spec: SpecFile, report: Reporter) -> None:
    """A value of the wrong JSON type that Kafka's parser silently converts."""
    for _kind, _obj, node, key, error, coercion in _type_errors(spec):
        if coercion is None or not isinstance(node, JObject) or key is None:
            continue
        message = f"{key!r}: {coercion} by Kafka's parser; stricter tools reject it"
        proper = _proper_json(error.validator_value, error.instance)
        hint = f'write "{key}": {proper}' if proper else "write the value with its proper JSON type"
        if key == "default" and error.instance is None:
            message = (
                '"default": null (JSON null) means no custom default, so readers assume the '
                'type\'s own default (an empty struct, 0, ""...) rather than null'
            )
            hint = 'write "default": "null" for a null default, or remove the key'
        report(node.where_value(key), message, hint=hint)


def _proper_json(expected: Any, value: Any) -> str | None:
    """The value written with the JSON type the key expects, when there is one obvious form."""
    wanted = expected if isinstance(expected, list) else [expected]
    if wanted == ["string"] and isinstance(value, bool | int | float):
        return json.dumps(("true" if value else "false") if isinstance(value, bool) else str(value))
    if "boolean" in wanted and value in ("true", "false"):
        return str(value)
    if "integer" in wanted and isinstance(value, str | float):
        return str(int(value))
    if "array" in wanted and isinstance(value, str):
        return json.dumps([value])
    return None


def _json_type(value: Any) -> str:
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return f"a string ({value!r})" if len(value) < 30 else "a string"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return "null"


@document_rule("invalid-enum-value", Category.SCHEMA, Severity.ERROR)
def invalid_enum_value(spec: SpecFile, report: Reporter) -> None:
    """A value outside its fixed set: message type, entityType or listener."""
    for _kind, obj, error in _schema_errors(spec):
        if error.validator != "enum" or not error.path:
            continue
        node, key = _target(obj, error)
        options = [str(x) for x in error.validator_value]
        value = error.instance
        guess = difflib.get_close_matches(str(value), options, n=1, cutoff=0.5)
        lowered = {o.lower(): o for o in options}
        if isinstance(value, str) and value.lower() in lowered:
            guess = [lowered[value.lower()]]
        hint = f"did you mean {guess[0]!r}?" if guess else f"use one of: {', '.join(options)}"
        label = key if key is not None else str(error.path[-2])
        if isinstance(node, JArray):
            index = error.path[-1]
            assert isinstance(node, JArray)
            where: Any = node.item_pos[index] if isinstance(index, int) else node
            report(where, f"{value!r} is not a valid {label} value", hint=hint)
        else:
            report(
                node.where_value(key) if key is not None else node,
                f"{value!r} is not a valid {label}",
                hint=hint,
            )
