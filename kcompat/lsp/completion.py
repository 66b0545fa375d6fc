"""Completion: the keys valid where the cursor is, and the values each key takes.

Keys come from the spec format's JSON Schema (the one in ``specs/``, shipped in the
package), with its descriptions; values from what the format allows (types, message
kinds, entity types, encodings) and from the spec itself: its structs, the next free tag
of the struct being written, the version strings it already uses.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache
from typing import Any

from lsprotocol import types

from kcompat.escaping import shown
from kcompat.lsp.cursor import Cursor, tags_in_array
from kcompat.lsp.hover import VERSION_KEYS
from kcompat.rules.lint.flat_schema import published_schema
from kcompat.spec.model import ENTITY_TYPES, LISTENERS, MESSAGE_KINDS, PRIMITIVE_TYPES, Message

#: The JSON Schema's definition of each object kind.
_SCHEMA_OF = {"message": None, "field": "field", "commonStruct": "commonStruct"}
_BOOLEAN_KEYS = frozenset({"ignorable", "mapKey", "zeroCopy", "latestVersionUnstable"})
_ENCODINGS = tuple(
    f"{form}{bits}" for form in ("fixed", "packed", "upacked") for bits in (16, 32, 64)
)
_VERSION_STRING = re.compile(r'"(\w*[vV]ersions)"\s*:\s*"([^"\\\n]*)"')
_STRUCT_TYPE = re.compile(r'"type"\s*:\s*"(?:\[\])?([A-Z][A-Za-z0-9_]*)"')


@cache
def key_docs(kind: str) -> dict[str, str]:
    """The keys an object of ``kind`` may have, each with the schema's description."""
    schema: dict[str, Any] = published_schema()
    name = _SCHEMA_OF.get(kind)
    node = schema if name is None else schema["$defs"][name]
    return {key: str(sub.get("description", "")) for key, sub in node["properties"].items()}


def complete(
    text: str, cursor: Cursor, message: Message | None, replace: types.Range
) -> list[types.CompletionItem]:
    """The completions at ``cursor``, each replacing ``replace`` (the token being typed);
    ``message`` is the spec's last readable model, for its structs and versions."""
    if cursor.at_key:
        if cursor.kind not in _SCHEMA_OF:
            return []
        docs = key_docs(cursor.kind)
        return [
            _item(key, f'"{key}": ', types.CompletionItemKind.Property, docs[key], number, replace)
            for number, key in enumerate(docs)
            if key not in cursor.keys
        ]
    values = _values(text, cursor, message)
    return [
        _item(label, insert, kind, detail, number, replace)
        for number, (label, insert, kind, detail) in enumerate(values)
    ]


def _item(
    label: str,
    insert: str,
    kind: types.CompletionItemKind,
    detail: str,
    order: int,
    replace: types.Range,
) -> types.CompletionItem:
    return types.CompletionItem(
        label=label,
        kind=kind,
        detail=detail or None,
        text_edit=types.TextEdit(range=replace, new_text=insert),
        sort_text=f"{order:04d}",
        filter_text=insert,
    )


Value = tuple[str, str, types.CompletionItemKind, str]


def _values(text: str, cursor: Cursor, message: Message | None) -> list[Value]:
    key, kind = cursor.key, cursor.kind
    if key == "type" and kind == "message":
        return _strings(MESSAGE_KINDS, "message type")
    if key == "type":
        return _types(text, message)
    if key == "tag" and kind == "field":
        used = tags_in_array(text, cursor.array_start) if cursor.array_start >= 0 else set()
        free = next(n for n in range(len(used) + 1) if n not in used)
        return [(str(free), str(free), types.CompletionItemKind.Value, "the next free tag")]
    if key in VERSION_KEYS:
        return _versions(text, key, message)
    if key == "entityType":
        return _strings(ENTITY_TYPES, "entity type")
    if key == "encoding":
        return _strings(_ENCODINGS, "integer encoding")
    if key == "listeners" and cursor.in_array:
        return _strings(LISTENERS, "listener")
    if key in _BOOLEAN_KEYS:
        return [(v, v, types.CompletionItemKind.Value, "") for v in ("true", "false")]
    return []


def _strings(options: Iterable[str], detail: str) -> list[Value]:
    return [(o, f'"{o}"', types.CompletionItemKind.EnumMember, detail) for o in options]


def _types(text: str, message: Message | None) -> list[Value]:
    """Primitive types, arrays of them, and the structs this spec knows."""
    structs = set(_STRUCT_TYPE.findall(text))
    if message is not None:
        structs.update(struct.name for struct in message.structs)
        structs.update(struct.name for struct in message.common_structs)
    primitives = sorted(PRIMITIVE_TYPES)
    out: list[Value] = []
    for name in primitives:
        out.append((name, f'"{name}"', types.CompletionItemKind.TypeParameter, "primitive"))
    for name in sorted(structs):
        out.append((name, f'"{name}"', types.CompletionItemKind.Struct, "struct"))
    for name in [*primitives, *sorted(structs)]:
        detail = "array of structs" if name in structs else "array"
        out.append((f"[]{name}", f'"[]{name}"', types.CompletionItemKind.TypeParameter, detail))
    return out


def _versions(text: str, key: str, message: Message | None) -> list[Value]:
    """The version strings the spec already uses, and the next version's."""
    existing = dict.fromkeys(value for _key, value in _VERSION_STRING.findall(text) if value)
    suggested: dict[str, str] = {}
    valid = message.valid_versions if message is not None else None
    if valid is not None and not valid.empty and not valid.open_ended:
        if key == "validVersions":
            suggested[f"{valid.lowest}-{valid.highest + 1}"] = "one more version"
        else:
            suggested[f"{valid.highest}+"] = "from the newest version"
            suggested[f"{valid.highest + 1}+"] = "from the next version"
    if key != "validVersions":
        suggested.setdefault("none", "no version")
    out: list[Value] = []
    for value in existing:
        label = shown(value)  # the spec's text, shown escaped in the list
        out.append((label, f'"{value}"', types.CompletionItemKind.Value, "used in this spec"))
    for value, detail in suggested.items():
        if value not in existing:
            out.append((value, f'"{value}"', types.CompletionItemKind.Value, detail))
    return out
