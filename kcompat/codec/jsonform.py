"""The JSON form of codec values, for the command line (``kcompat encode`` / ``decode``).

A value is a JSON object keyed by the spec's field names, like the codec's Python value,
with the types JSON lacks written as text, the way Kafka's own JSON converters write them:

========================  ===========================================================
spec type                 JSON
========================  ===========================================================
bool                      ``true`` / ``false``
int8 ... int64, uint*     a number
float64                   a number; ``"NaN"``, ``"Infinity"``, ``"-Infinity"`` as text
string                    a string, or ``null`` where nullable
bytes, records            standard base64 text (with padding), or ``null``
uuid                      Kafka's 22-character URL-safe base64 (``Uuid.toString()``);
                          the hyphenated hex form is read too
[]T                       a list, or ``null``
struct                    an object, or ``null`` (KIP-893 nullable structs)
unknown tagged fields     ``"_unknown_tagged_fields": [{"tag": 7, "data": "enp6"}]``
========================  ===========================================================

Reading is strict (a wrong JSON type is an :class:`EncodeError` naming the field path);
missing fields take their defaults, as in the codec. Keys that are fields of the struct in
other versions are passed to the codec, which accepts them only at their default.
"""

from __future__ import annotations

import base64
import binascii
import json
import math
import uuid
from collections.abc import Callable, Iterator
from typing import Any

from kcompat.codec.errors import EncodeError
from kcompat.codec.labels import int_text, join, type_name
from kcompat.codec.values import UNKNOWN_TAGS
from kcompat.spec.defaults import parse_uuid_default, uuid_text
from kcompat.spec.resolve import Kind, Layout, StructLayout, Wire

_FLOAT_WORDS = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}


def to_json(layout: Layout, value: dict[str, Any]) -> dict[str, Any]:
    """A decoded value as JSON-able data."""
    return _struct_to_json(layout.root, value)


def iter_json(layout: Layout, value: dict[str, Any], indent: int = 2) -> Iterator[str]:
    """``json.dumps(to_json(layout, value), indent=indent, ensure_ascii=False)`` in pieces,
    without building the JSON form: a long message is printed with no second copy of it."""
    return _iter_struct(layout.root, value, indent, 0)


def _iter_struct(
    layout: StructLayout, value: dict[str, Any], indent: int, depth: int
) -> Iterator[str]:
    if not value:
        yield "{}"
        return
    wires = {lf.name: lf.wire for lf in layout.all_fields()}
    inner = "\n" + " " * (indent * (depth + 1))
    separator = "{" + inner
    for key, item in value.items():
        yield separator + json.dumps(key, ensure_ascii=False) + ": "
        separator = "," + inner
        wire = wires.get(key) if key != UNKNOWN_TAGS else None
        if wire is None:
            shown = _unknown_to_json(item) if key == UNKNOWN_TAGS else value_to_json(item)
            yield _dumps(shown, indent, depth + 1)
        elif item is None or wire.kind not in _CONTAINERS:
            yield _scalar(item, indent, depth + 1)
        else:
            yield from _iter_value(wire, item, indent, depth + 1)
    yield "\n" + " " * (indent * depth) + "}"


def _iter_value(wire: Wire, value: Any, indent: int, depth: int) -> Iterator[str]:
    if value is None:
        yield "null"
    elif wire.kind is Kind.ARRAY and wire.element is not None:
        if not value:
            yield "[]"
            return
        inner = "\n" + " " * (indent * (depth + 1))
        separator = "[" + inner
        for item in value:
            yield separator
            separator = "," + inner
            yield from _iter_value(wire.element, item, indent, depth + 1)
        yield "\n" + " " * (indent * depth) + "]"
    elif wire.kind is Kind.STRUCT and wire.struct is not None:
        yield from _iter_struct(wire.struct, value, indent, depth)
    else:
        yield _scalar(value, indent, depth)


_CONTAINERS = (Kind.ARRAY, Kind.STRUCT)
_encode_text = json.encoder.encode_basestring  # what json.dumps uses with ensure_ascii=False


def _scalar(value: Any, indent: int, depth: int) -> str:
    """A value that is not a list or an object, as ``json.dumps`` writes it (fast paths
    for the common types: one ``json.dumps`` call per number would triple the time)."""
    if value is None:
        return "null"
    kind = value.__class__
    if kind is int:
        return int.__repr__(value)
    if kind is str:
        return _encode_text(value)
    if kind is bool:
        return "true" if value else "false"
    if kind is float and math.isfinite(value):
        return float.__repr__(value)
    return _dumps(value_to_json(value), indent, depth)


def _dumps(shown: Any, indent: int, depth: int) -> str:
    """A JSON value as ``json.dumps`` indents it at ``depth``."""
    text = json.dumps(shown, indent=indent, ensure_ascii=False)
    return text.replace("\n", "\n" + " " * (indent * depth)) if "\n" in text else text


def from_json(layout: Layout, data: Any) -> dict[str, Any]:
    """JSON data (as ``json.loads`` returns it) as a codec value; strict about types."""
    return _struct_from_json(layout.root, data, "")


def value_to_json(value: Any) -> Any:
    """Any codec value without its layout (evidence): bytes as base64, uuids as text."""
    if isinstance(value, bytes | bytearray | memoryview):
        return base64.b64encode(bytes(value)).decode("ascii")
    if isinstance(value, uuid.UUID):
        return uuid_text(value)
    if isinstance(value, float) and not math.isfinite(value):
        return "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
    if isinstance(value, list | tuple):
        return [value_to_json(item) for item in value]
    if isinstance(value, dict):
        if UNKNOWN_TAGS in value:
            value = {**value, UNKNOWN_TAGS: _unknown_to_json(value[UNKNOWN_TAGS])}
        return {str(key): value_to_json(item) for key, item in value.items()}
    return value


def _unknown_to_json(entries: Any) -> Any:
    if not isinstance(entries, list | tuple):
        return entries
    return [
        {"tag": entry[0], "data": base64.b64encode(bytes(entry[1])).decode("ascii")}
        if isinstance(entry, list | tuple) and len(entry) == 2
        else entry
        for entry in entries
    ]


def _struct_to_json(layout: StructLayout, value: dict[str, Any]) -> dict[str, Any]:
    wires = {lf.name: lf.wire for lf in layout.all_fields()}
    out: dict[str, Any] = {}
    for key, item in value.items():
        if key == UNKNOWN_TAGS:
            out[key] = _unknown_to_json(item)
        elif key in wires:
            out[key] = _to_json(wires[key], item)
        else:
            out[key] = value_to_json(item)
    return out


def _to_json(wire: Wire, value: Any) -> Any:
    if value is None:
        return None
    kind = wire.kind
    if kind is Kind.ARRAY:
        assert wire.element is not None
        return [_to_json(wire.element, item) for item in value]
    if kind is Kind.STRUCT:
        assert wire.struct is not None
        return _struct_to_json(wire.struct, value)
    return value_to_json(value)


def _struct_from_json(layout: StructLayout, data: Any, path: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise EncodeError(path, f"expected a JSON object, got {_json_type(data)}")
    wires = {lf.name: lf.wire for lf in layout.all_fields()}
    out: dict[str, Any] = {}
    for key, item in data.items():
        where = join(path, key)
        if key == UNKNOWN_TAGS:
            out[key] = _unknown_from_json(item, where)
        elif key in wires:
            out[key] = _from_json(wires[key], item, where)
        else:
            out[key] = item  # the codec decides (another version's field, or a typo)
    return out


def _unknown_from_json(data: Any, path: str) -> list[list[Any]]:
    if not isinstance(data, list):
        raise EncodeError(path, f"expected a list of {{tag, data}} objects, got {_json_type(data)}")
    entries = []
    for index, entry in enumerate(data):
        where = f"{path}[{index}]"
        if not isinstance(entry, dict) or set(entry) != {"tag", "data"}:
            raise EncodeError(where, 'expected {"tag": <int>, "data": <base64>}')
        tag = entry["tag"]
        if not isinstance(tag, int) or isinstance(tag, bool):
            raise EncodeError(where, f"the tag must be an integer, got {_json_type(tag)}")
        entries.append([tag, _base64(entry["data"], where)])
    return entries


def _from_json(wire: Wire, data: Any, path: str) -> Any:
    if data is None:
        return None  # the codec checks nullability and reports it with the version
    kind = wire.kind
    if kind is Kind.ARRAY:
        if not isinstance(data, list):
            raise EncodeError(path, f"expected a list, got {_json_type(data)}")
        assert wire.element is not None
        return [_from_json(wire.element, item, f"{path}[{i}]") for i, item in enumerate(data)]
    if kind is Kind.STRUCT:
        assert wire.struct is not None
        return _struct_from_json(wire.struct, data, path)
    return _SCALAR_READERS[kind](data, path)


def _bool_from_json(data: Any, path: str) -> bool:
    if not isinstance(data, bool):
        raise EncodeError(path, f"expected true or false, got {_json_type(data)}")
    return data


def _int_from_json(data: Any, path: str) -> int:
    """An integer; a float with no fraction is taken too (``1.0``, as JSON tools write)."""
    if not isinstance(data, int) or isinstance(data, bool):
        if isinstance(data, float) and data.is_integer():
            return int(data)
        raise EncodeError(path, f"expected an integer, got {_json_type(data)}")
    return data


def _float_from_json(data: Any, path: str) -> float:
    """A number, or one of the words JSON has no number for (NaN, Infinity)."""
    if isinstance(data, str) and data in _FLOAT_WORDS:
        return _FLOAT_WORDS[data]
    if not isinstance(data, int | float) or isinstance(data, bool):
        raise EncodeError(path, f"expected a number, got {_json_type(data)}")
    try:
        return float(data)
    except OverflowError:  # an integer past float64's range: named by its size, not digits
        raise EncodeError(path, f"{int_text(int(data))} does not fit a float64") from None


def _uuid_from_json(data: Any, path: str) -> uuid.UUID:
    if not isinstance(data, str):
        raise EncodeError(path, f"expected a uuid as text, got {_json_type(data)}")
    try:
        return parse_uuid_default(data)
    except ValueError:
        raise EncodeError(
            path, f"invalid uuid {data!r}: write Kafka's 22-character base64 form"
        ) from None


def _string_from_json(data: Any, path: str) -> str:
    if not isinstance(data, str):
        raise EncodeError(path, f"expected a string, got {_json_type(data)}")
    return data


def _base64(data: Any, path: str) -> bytes:
    if not isinstance(data, str):
        raise EncodeError(path, f"expected base64 text, got {_json_type(data)}")
    try:
        return base64.b64decode(data.encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError, ValueError):
        raise EncodeError(path, "invalid base64 (standard alphabet, with padding)") from None


#: How each kind that is neither a list nor an object reads from JSON.
_SCALAR_READERS: dict[Kind, Callable[[Any, str], Any]] = {
    Kind.BOOL: _bool_from_json,
    Kind.INT: _int_from_json,
    Kind.FLOAT64: _float_from_json,
    Kind.UUID: _uuid_from_json,
    Kind.STRING: _string_from_json,
    Kind.BYTES: _base64,
    Kind.RECORDS: _base64,
}


def _json_type(data: Any) -> str:
    if data is None:
        return "null"
    return {
        bool: "a boolean",
        int: "a number",
        float: "a number",
        str: "a string",
        list: "a list",
        dict: "an object",
    }.get(type(data), type_name(data))
