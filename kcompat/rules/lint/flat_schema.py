"""The spec format's JSON Schema as lint checks it: flat, and checked by hand.

The published schema (``specs/message-spec.schema.json``) is recursive and full of
patterns for editors. Lint derives flat, ``$ref``-free schemas for a message, a field and
a common struct from it, keeping only the keywords whose findings no dedicated rule
reports better (unknown keys, missing keys, value types, enum values). Those keywords are
checked here, by hand, with the errors jsonschema would give (validator, path, instance,
expected value); jsonschema itself runs, and is imported, only for a keyword this module
does not know (none, today), so a lint run pays nothing for it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from kcompat.spec.load import JArray, JObject

#: Keywords lint takes from the schema; the others are reported by dedicated rules.
_KEPT = {"type", "enum", "required", "anyOf", "properties", "additionalProperties", "items"}


def schema_text() -> str:
    """The spec-file JSON Schema shipped with the package (same file as ``specs/``), read
    beside the code: ``importlib.resources`` would import ``tempfile`` for it, a tenth of
    a lint run's imports."""
    return (Path(__file__).resolve().parents[2] / "data" / "message-spec.schema.json").read_text(
        encoding="utf-8"
    )


@cache
def published_schema() -> dict[str, Any]:
    schema: dict[str, Any] = json.loads(schema_text())
    return schema


class FlatSchema:
    """One object kind (message, field, common struct): a quick check, then the validator.

    The flat schema only says which keys an object may and must have and what JSON type
    (or enum value) each holds, so most objects are cleared by a check written here from
    the schema; jsonschema runs (and is imported) only for an object that check does not
    clear, and says exactly what is wrong with it.
    """

    def __init__(self, schema: dict[str, Any]) -> None:
        self.schema = schema
        self.properties: dict[str, Any] = schema.get("properties", {})
        self.checks = {key: _value_check(sub) for key, sub in self.properties.items()}
        self.required = frozenset(schema.get("required", ()))
        self.any_required = tuple(
            frozenset(alt.get("required", ())) for alt in schema.get("anyOf", ())
        )
        self._validator: Any = None

    def clearly_valid(self, obj: JObject) -> bool:
        """Every key known with a value of its kind, and the required keys there (key sets
        compared as sets: every object of every spec goes through here)."""
        for key, value in obj.items():
            check = self.checks.get(key)
            if check is None or not check(value):
                return False
        keys = obj.keys()
        if not self.required <= keys:
            return False
        return not self.any_required or any(keys >= either for either in self.any_required)

    def errors(self, obj: JObject) -> list[Any]:
        """What is wrong with ``obj``: :class:`SchemaError` records, or jsonschema's own
        errors (the same fields) where the schema holds a keyword not checked here."""
        if self.clearly_valid(obj):
            return []
        try:
            return list(schema_errors(self.schema, obj))
        except Unchecked:
            pass
        if self._validator is None:
            from jsonschema import Draft202012Validator

            self._validator = Draft202012Validator(self.schema)
        return list(self._validator.iter_errors(obj))


@dataclass(frozen=True)
class SchemaError:
    """One failed keyword, as jsonschema reports it: which keyword (``validator``) with
    what value, where (``path``: keys and indexes from the object), and the value found."""

    validator: str
    validator_value: Any
    instance: Any
    path: tuple[str | int, ...] = ()


class Unchecked(Exception):
    """The schema holds a keyword this module does not check: jsonschema must."""


#: What each JSON type accepts, as JSON Schema's draft 2020-12 defines it (1.0 is an
#: integer; a bool is no integer or number).
_IS_TYPE: dict[str, Callable[[Any], bool]] = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: (
        (isinstance(v, int) and not isinstance(v, bool))
        or (isinstance(v, float) and v.is_integer())
    ),
    "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}


def schema_errors(
    schema: dict[str, Any], instance: Any, path: tuple[str | int, ...] = ()
) -> Iterator[SchemaError]:
    """Every failed keyword of ``schema`` on ``instance``, keyword by keyword in the
    schema's order (as jsonschema goes), into properties and items."""
    for keyword, value in schema.items():
        check = _KEYWORDS.get(keyword)
        if check is None:
            raise Unchecked(keyword)
        yield from check(value, instance, schema, path)


def _type(value: Any, instance: Any, _schema: Any, path: tuple[str | int, ...]) -> Any:
    names = value if isinstance(value, list) else [value]
    if any(name not in _IS_TYPE for name in names):
        raise Unchecked(f"type {value!r}")
    if not any(_IS_TYPE[name](instance) for name in names):
        yield SchemaError("type", value, instance, path)


def _enum(value: Any, instance: Any, _schema: Any, path: tuple[str | int, ...]) -> Any:
    if not all(isinstance(option, str) for option in value):
        raise Unchecked("enum of other than strings")
    if not isinstance(instance, str) or instance not in value:
        yield SchemaError("enum", value, instance, path)


def _required(value: Any, instance: Any, _schema: Any, path: tuple[str | int, ...]) -> Any:
    if isinstance(instance, dict):
        for key in value:
            if key not in instance:
                yield SchemaError("required", value, instance, path)


def _any_of(value: Any, instance: Any, _schema: Any, path: tuple[str | int, ...]) -> Any:
    if all(next(schema_errors(sub, instance, path), None) is not None for sub in value):
        yield SchemaError("anyOf", value, instance, path)


def _properties(value: Any, instance: Any, _schema: Any, path: tuple[str | int, ...]) -> Any:
    if isinstance(instance, dict):
        for key, sub in value.items():
            if key in instance:
                yield from schema_errors(sub, instance[key], (*path, key))


def _additional(value: Any, instance: Any, schema: Any, path: tuple[str | int, ...]) -> Any:
    if not isinstance(instance, dict):
        return
    known = schema.get("properties", {})
    extras = [key for key in instance if key not in known]
    if isinstance(value, dict):
        for key in extras:
            yield from schema_errors(value, instance[key], (*path, key))
    elif value is False:
        if extras:
            yield SchemaError("additionalProperties", value, instance, path)
    elif value is not True:
        raise Unchecked("additionalProperties")


def _items(value: Any, instance: Any, _schema: Any, path: tuple[str | int, ...]) -> Any:
    if not isinstance(value, dict):
        raise Unchecked("items")
    if isinstance(instance, list):
        for index, item in enumerate(instance):
            yield from schema_errors(value, item, (*path, index))


_KEYWORDS: dict[str, Callable[[Any, Any, Any, tuple[str | int, ...]], Iterator[SchemaError]]] = {
    "type": _type,
    "enum": _enum,
    "required": _required,
    "anyOf": _any_of,
    "properties": _properties,
    "additionalProperties": _additional,
    "items": _items,
}


#: The Python classes the loader gives each JSON type (a bool is no JSON integer or number).
_CLASSES = {
    "object": (JObject,),
    "array": (JArray,),
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
}
_SIMPLE_KEYWORDS = {"type", "enum", "items", "additionalProperties"}


def _never(_value: Any) -> bool:
    return False


def _anything(_value: Any) -> bool:
    return True


def _value_check(sub: dict[str, Any]) -> Callable[[Any], bool]:
    """A check that a value certainly meets ``sub`` (False: let the validator say)."""
    if not set(sub) <= _SIMPLE_KEYWORDS or sub.get("additionalProperties") is False:
        return _never
    if "enum" in sub:
        return _enum_check(sub)
    if "type" not in sub:
        return _anything if not sub else _never
    return _type_check(sub)


def _enum_check(sub: dict[str, Any]) -> Callable[[Any], bool]:
    """One of a set of strings (the only enums the flat schemas have)."""
    if set(sub) != {"enum"} or not all(isinstance(o, str) for o in sub["enum"]):
        return _never
    options = frozenset(sub["enum"])
    return lambda v: v.__class__ is str and v in options


def _type_check(sub: dict[str, Any]) -> Callable[[Any], bool]:
    """A JSON type (or several); an array's items or an object's values checked too."""
    names = sub["type"] if isinstance(sub["type"], list) else [sub["type"]]
    if not all(name in _CLASSES for name in names):
        return _never
    classes = frozenset(c for name in names for c in _CLASSES[name])
    inner = sub.get("items", sub.get("additionalProperties"))
    if inner is None:
        return lambda v: v.__class__ in classes
    each = _value_check(inner)
    if classes == {JArray}:
        return lambda v: v.__class__ is JArray and all(map(each, v))
    if classes == {JObject}:
        return lambda v: v.__class__ is JObject and all(map(each, v.values()))
    return _never


@cache
def flat_schemas() -> dict[str, FlatSchema]:
    schema = published_schema()
    defs = schema["$defs"]

    def flatten(node: Any) -> Any:
        """A schema without $refs and without the keywords dedicated rules cover."""
        if not isinstance(node, dict):
            return node
        if "$ref" in node:
            name = node["$ref"].rsplit("/", 1)[-1]
            # nested fields and structs are validated as objects of their own; here they
            # only have to be objects at all
            if name in ("field", "commonStruct"):
                return {"type": "object"}
            return flatten(defs[name])
        out: dict[str, Any] = {}
        for keyword, value in node.items():
            if keyword not in _KEPT:
                continue
            if keyword == "properties":
                out[keyword] = {name: flatten(sub) for name, sub in value.items()}
            elif keyword == "anyOf":
                out[keyword] = [flatten(sub) for sub in value]
            elif isinstance(value, dict):
                out[keyword] = flatten(value)
            else:
                out[keyword] = value
        return out

    top = {k: v for k, v in schema.items() if k not in ("$defs", "$schema", "$id")}
    return {
        "message": FlatSchema(flatten(top)),
        "field": FlatSchema(flatten(defs["field"])),
        "commonStruct": FlatSchema(flatten(defs["commonStruct"])),
    }
