"""Small, comment-preserving edits of spec texts, located with kcompat's own loader.

A mutation test must change exactly one thing in a real spec file and leave every other
byte (licence header, comments, odd spacing) alone. Each function here parses the text
with :func:`kcompat.spec.load.parse_document`, finds the object it needs by a dotted
field path (``Topics.Partitions.LeaderEpoch``; a first part naming a common struct
reaches into ``commonStructs``), and splices the text at the positions the loader
recorded. Values are written as JSON text (``'"3+"'``, ``"true"``).
"""

from __future__ import annotations

from collections.abc import Callable

from kcompat.spec.load import JArray, JObject, Position, parse_document

Edit = Callable[[str], str]


class EditError(AssertionError):
    """The edit does not apply to this text (a wrong path, a missing key)."""


# -- locating ---------------------------------------------------------------------------------


def _offset(text: str, pos: Position) -> int:
    line, column = pos
    start = 0
    for _ in range(line - 1):
        start = text.index("\n", start) + 1
    return start + column - 1


def _skip_string(text: str, i: int) -> int:
    """Offset after the string literal starting at ``i``."""
    i += 1
    while text[i] != '"':
        i += 2 if text[i] == "\\" else 1
    return i + 1


def _skip_blank(text: str, i: int) -> int:
    """Offset of the next character that is not whitespace or inside a comment."""
    while i < len(text):
        if text[i].isspace():
            i += 1
        elif text.startswith("//", i):
            end = text.find("\n", i)
            i = len(text) if end < 0 else end + 1
        elif text.startswith("/*", i):
            i = text.index("*/", i) + 2
        else:
            break
    return i


def _value_end(text: str, i: int) -> int:
    """Offset after the JSON value starting at ``i`` (strings and comments respected)."""
    if text[i] == '"':
        return _skip_string(text, i)
    if text[i] not in "[{":
        while i < len(text) and text[i] not in ",}] \t\r\n/":
            i += 1
        return i
    depth = 0
    while i < len(text):
        ch = text[i]
        if ch == '"':
            i = _skip_string(text, i)
            continue
        if text.startswith("//", i) or text.startswith("/*", i):
            i = _skip_blank(text, i)
            continue
        if ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    raise EditError("unbalanced JSON")


def _root(text: str) -> JObject:
    root = parse_document(text).root
    assert isinstance(root, JObject)
    return root


def _fields_of(obj: JObject) -> JArray:
    fields = obj.get("fields")
    if not isinstance(fields, JArray):
        raise EditError(f"no fields at {obj.pos}")
    return fields


def find(root: JObject, path: str) -> tuple[JArray, int]:
    """The ``fields`` array holding the field at ``path``, and its index there."""
    parts = path.split(".")
    container = root
    structs = root.get("commonStructs")
    if len(parts) > 1 and isinstance(structs, JArray):
        for struct in structs:
            if isinstance(struct, JObject) and struct.get("name") == parts[0]:
                container, parts = struct, parts[1:]
                break
    for depth, name in enumerate(parts):
        fields = _fields_of(container)
        for index, item in enumerate(fields):
            if isinstance(item, JObject) and item.get("name") == name:
                if depth == len(parts) - 1:
                    return fields, index
                container = item
                break
        else:
            raise EditError(f"no field {name!r} in {path!r}")
    raise EditError(f"empty path {path!r}")


def _object_span(text: str, obj: JObject) -> tuple[int, int]:
    start = _offset(text, obj.pos)
    return start, _value_end(text, start)


def _key_span(text: str, obj: JObject, key: str) -> tuple[int, int]:
    """From the key's opening quote to the end of its value."""
    start = _offset(text, obj.where(key))
    value = _offset(text, obj.where_value(key))
    return start, _value_end(text, value)


def _field(text: str, path: str) -> JObject:
    fields, index = find(_root(text), path)
    item = fields[index]
    assert isinstance(item, JObject)
    return item


# -- edits ------------------------------------------------------------------------------------


def set_key(text: str, path: str, key: str, value: str) -> str:
    """Set ``key`` of the field at ``path`` (or of the message if ``path`` is empty)."""
    obj = _field(text, path) if path else _root(text)
    if key in obj:
        start, end = _key_span(text, obj, key)
        return text[:start] + f'"{key}": {value}' + text[end:]
    brace = _offset(text, obj.pos)
    return text[: brace + 1] + f' "{key}": {value},' + text[brace + 1 :]


def drop_key(text: str, path: str, key: str) -> str:
    """Remove ``key`` (and one adjacent comma) from the field at ``path`` or the message."""
    obj = _field(text, path) if path else _root(text)
    if key not in obj:
        raise EditError(f"{path or 'the message'} has no {key!r}")
    start, end = _key_span(text, obj, key)
    after = _skip_blank(text, end)
    if text[after] == ",":
        return text[:start] + text[_skip_blank(text, after + 1) :]
    comma = text.rfind(",", 0, start)
    if comma < 0 or text[comma + 1 : start].strip():
        raise EditError(f"cannot find the comma before {key!r}")
    return text[:comma] + text[end:]


def drop_field(text: str, path: str) -> str:
    """Remove the field at ``path`` with its separating comma."""
    fields, index = find(_root(text), path)
    item = fields[index]
    assert isinstance(item, JObject)
    start, end = _object_span(text, item)
    after = _skip_blank(text, end)
    if text[after] == ",":  # not the last: drop through the comma and the gap after it
        return text[:start] + text[_skip_blank(text, after + 1) :]
    comma = text.rfind(",", 0, start)  # the last: drop the comma before it
    if index == 0:
        return text[:start] + text[end:]
    return text[:comma] + text[end:]


def add_field(text: str, after: str, field_json: str) -> str:
    """Insert a field object right after the field at ``after`` (same struct)."""
    fields, index = find(_root(text), after)
    item = fields[index]
    assert isinstance(item, JObject)
    _start, end = _object_span(text, item)
    line_start = text.rfind("\n", 0, _start) + 1
    indent = text[line_start:_start] if not text[line_start:_start].strip() else "    "
    return text[:end] + ",\n" + indent + field_json + text[end:]


def swap_fields(text: str, first: str, second: str) -> str:
    """Exchange the texts of two fields of one struct."""
    root = _root(text)
    (fields_a, a), (fields_b, b) = find(root, first), find(root, second)
    item_a, item_b = fields_a[a], fields_b[b]
    assert isinstance(item_a, JObject) and isinstance(item_b, JObject)
    span_a, span_b = _object_span(text, item_a), _object_span(text, item_b)
    if span_a > span_b:
        span_a, span_b = span_b, span_a
    (s1, e1), (s2, e2) = span_a, span_b
    return text[:s1] + text[s2:e2] + text[e1:s2] + text[s1:e1] + text[e2:]


def replace_once(text: str, old: str, new: str) -> str:
    if text.count(old) != 1:
        raise EditError(f"{old!r} occurs {text.count(old)} times")
    return text.replace(old, new)
