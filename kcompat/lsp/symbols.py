"""Document symbols: the message's outline, its fields (nested) and common structs.

Read from the document as written, so a field keeps its place in the outline even when
the model could not make sense of it; each symbol spans its object, and its selection
is its name. The outline holds at most :data:`MAX_SYMBOLS` symbols, in the order they
are written: a spec of 20,000 fields is a document an editor can open, and an outline of
all of them is a response of megabytes that no one reads; past the bound, one last
symbol says how many were left out.
"""

from __future__ import annotations

from lsprotocol import types

from kcompat.escaping import shown
from kcompat.lsp.diagnostics import text_range
from kcompat.lsp.documents import Parsed
from kcompat.spec.load import JArray, JObject

#: The most symbols an outline holds (Kafka's largest spec has a few hundred fields).
MAX_SYMBOLS = 2000


class _Budget:
    """How many symbols the outline may still hold, and how many it left out."""

    def __init__(self, room: int) -> None:
        self.room = room
        self.left_out = 0

    def take(self) -> bool:
        if self.room > 0:
            self.room -= 1
            return True
        self.left_out += 1
        return False


def document_symbols(parsed: Parsed, most: int = MAX_SYMBOLS) -> list[types.DocumentSymbol]:
    """The outline: one symbol for the message, its fields and common structs inside (at
    most ``most`` symbols in all, the rest counted in a last one)."""
    document = parsed.spec.document
    root = document.root if document is not None else None
    if not isinstance(root, JObject):
        return []
    budget = _Budget(most - 1)  # the message's own symbol is always there
    children = _fields(parsed, root.get("fields"), budget)
    structs = root.get("commonStructs")
    if isinstance(structs, JArray):
        for item in structs:
            if isinstance(item, JObject) and budget.take():
                fields = _fields(parsed, item.get("fields"), budget)
                children.append(_symbol(parsed, item, types.SymbolKind.Struct, fields))
            elif isinstance(item, JObject):
                _fields(parsed, item.get("fields"), budget)
    outline = _symbol(parsed, root, types.SymbolKind.Class, children)
    if budget.left_out:
        children.append(
            types.DocumentSymbol(
                name=f"({budget.left_out:,} more not shown: the outline holds {most:,})",
                kind=types.SymbolKind.Null,
                range=outline.range,
                selection_range=outline.selection_range,
            )
        )
    return [outline]


def _fields(parsed: Parsed, value: object, budget: _Budget) -> list[types.DocumentSymbol]:
    """The symbols of the fields in ``value`` (a ``fields`` array), while the budget
    lasts; past it, each field (and each nested one) only counted."""
    if not isinstance(value, JArray):
        return []
    out = []
    for item in value:
        if not isinstance(item, JObject):
            continue
        if budget.take():
            nested = _fields(parsed, item.get("fields"), budget)
            out.append(_symbol(parsed, item, types.SymbolKind.Field, nested))
        else:
            _fields(parsed, item.get("fields"), budget)
    return out


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
