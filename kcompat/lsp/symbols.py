"""Document symbols: the message's outline, its fields (nested) and common structs.

Read from the document as written, so a field keeps its place in the outline even when
the model could not make sense of it; each symbol spans its object, and its selection
is its name.
"""

from __future__ import annotations

from lsprotocol import types

from kcompat.escaping import shown
from kcompat.lsp.diagnostics import text_range
from kcompat.lsp.documents import Parsed
from kcompat.spec.load import JArray, JObject


def document_symbols(parsed: Parsed) -> list[types.DocumentSymbol]:
    """The outline: one symbol for the message, its fields and common structs inside."""
    document = parsed.spec.document
    root = document.root if document is not None else None
    if not isinstance(root, JObject):
        return []
    children = _fields(parsed, root.get("fields"))
    structs = root.get("commonStructs")
    if isinstance(structs, JArray):
        children += [
            _symbol(parsed, item, types.SymbolKind.Struct, _fields(parsed, item.get("fields")))
            for item in structs
            if isinstance(item, JObject)
        ]
    return [_symbol(parsed, root, types.SymbolKind.Class, children)]


def _fields(parsed: Parsed, value: object) -> list[types.DocumentSymbol]:
    if not isinstance(value, JArray):
        return []
    return [
        _symbol(parsed, item, types.SymbolKind.Field, _fields(parsed, item.get("fields")))
        for item in value
        if isinstance(item, JObject)
    ]


def _symbol(
    parsed: Parsed, obj: JObject, kind: types.SymbolKind, children: list[types.DocumentSymbol]
) -> types.DocumentSymbol:
    name = obj.get("name")
    label = shown(name) if isinstance(name, str) and name else "(unnamed)"
    start, end = parsed.span(obj.pos, whole=True)
    whole = text_range(parsed, start, end)
    if isinstance(name, str):
        name_start, name_end = parsed.span(obj.value_pos["name"])
        selection = text_range(parsed, name_start, name_end)
    else:
        selection = text_range(parsed, start, start + 1)
    detail = obj.get("type")
    return types.DocumentSymbol(
        name=label,
        kind=kind,
        range=whole,
        selection_range=selection,
        detail=shown(detail) if isinstance(detail, str) else None,
        children=children,
    )
