"""What the server answers on its answering thread: functions of a snapshot and the request.

Hover, completion, document symbols, definitions, references and quick fixes read only
the :class:`~kcompat.lsp.snapshot.Snapshot` the session took for the request (and, for a
hover, which releases shipped the message: looked up in the background first, see
:func:`releases_wanted`). None of them touches the session, the disk or git, so they
answer in milliseconds whatever runs in the background (a lint, a diff on save), and a
test calls them with a snapshot and the request's parameters, no server, no process.
"""

from __future__ import annotations

from lsprotocol import types

from kcompat.lsp.actions import code_actions
from kcompat.lsp.completion import complete
from kcompat.lsp.cursor import cursor_at
from kcompat.lsp.diagnostics import text_range
from kcompat.lsp.documents import Spot, spot_at
from kcompat.lsp.hover import hover_text
from kcompat.lsp.navigation import definitions, references, struct_name
from kcompat.lsp.shipped import Shipping
from kcompat.lsp.snapshot import Snapshot
from kcompat.lsp.symbols import document_symbols
from kcompat.spec.load import MAX_BYTES


def _spot(snapshot: Snapshot, position: types.Position) -> Spot | None:
    parsed = snapshot.parsed
    return spot_at(parsed, parsed.index.offset_at(position.line, position.character))


def releases_wanted(snapshot: Snapshot, params: types.HoverParams) -> str | None:
    """The message whose releases the hover shows (the message's name or a field's), or
    None: the hover is then answered without them."""
    spot = _spot(snapshot, params.position)
    message = snapshot.parsed.message
    if spot is None or message is None:
        return None
    wanted = (spot.kind, spot.key) == ("message", "name") or (
        spot.kind == "field" and spot.key in ("name", "type", "tag")
    )
    return message.name if wanted else None


#: No release known (a hover that wants none, or a file outside git).
UNKNOWN = Shipping()


def hover(
    snapshot: Snapshot, params: types.HoverParams, shipping: Shipping = UNKNOWN
) -> types.Hover | None:
    """What the cursor is on, in Markdown (``shipping``: the message's releases)."""
    parsed = snapshot.parsed
    spot = _spot(snapshot, params.position)
    if spot is None or parsed.message is None:
        return None
    text = hover_text(parsed, spot, shipping)
    if text is None:
        return None
    return types.Hover(
        contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text),
        range=text_range(parsed, spot.start, spot.end),
    )


def definition(snapshot: Snapshot, params: types.DefinitionParams) -> list[types.Location] | None:
    """Where the struct under the cursor is defined (the snapshot's folder included)."""
    return _locations(snapshot, params.position, None)


def find_references(
    snapshot: Snapshot, params: types.ReferenceParams
) -> list[types.Location] | None:
    """Where the struct under the cursor is used (and defined, when asked)."""
    return _locations(snapshot, params.position, params.context.include_declaration)


def _locations(
    snapshot: Snapshot, position: types.Position, declaration: bool | None
) -> list[types.Location] | None:
    """Definitions (``declaration`` None) or references of the struct under the cursor."""
    spot = _spot(snapshot, position)
    name = struct_name(spot) if spot is not None else None
    if name is None:
        return None
    parsed, folder = snapshot.parsed, list(snapshot.folder) or [snapshot.parsed]
    if declaration is None:
        found = definitions(name, parsed, folder)
    else:
        found = references(name, parsed, folder, declaration)
    return [
        types.Location(uri=snapshot.uri_of(t.parsed), range=text_range(t.parsed, t.start, t.end))
        for t in found
    ]


def symbols(
    snapshot: Snapshot, params: types.DocumentSymbolParams
) -> list[types.DocumentSymbol] | None:
    """The outline of a spec (nothing for other JSON)."""
    return document_symbols(snapshot.parsed) if snapshot.spec else None


def completion(snapshot: Snapshot, params: types.CompletionParams) -> types.CompletionList | None:
    """Keys and values that fit where the cursor is, in a spec."""
    if not snapshot.spec:
        return None
    text = snapshot.parsed.text
    if len(text) > MAX_BYTES:  # refused by the parser: one diagnostic says so
        return None
    index = snapshot.parsed.index
    offset = index.offset_at(params.position.line, params.position.character)
    cursor = cursor_at(text, offset)
    if cursor is None:
        return None
    first, last = index.position(cursor.start), index.position(cursor.end)
    replace = types.Range(
        start=types.Position(line=first[0], character=first[1]),
        end=types.Position(line=last[0], character=last[1]),
    )
    message = snapshot.readable.message if snapshot.readable is not None else None
    items = complete(text, cursor, message, replace)
    return types.CompletionList(is_incomplete=False, items=items)


def code_action(
    snapshot: Snapshot, params: types.CodeActionParams
) -> list[types.CodeAction] | None:
    """Quick fixes for the diagnostics the editor passes, and for the cursor's place."""
    if not snapshot.spec:
        return None
    parsed = snapshot.parsed
    start = parsed.index.offset_at(params.range.start.line, params.range.start.character)
    return code_actions(parsed, snapshot.uri, params.context.diagnostics, start)
