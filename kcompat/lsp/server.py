"""The language server: pygls does the protocol, this module wires kcompat's features.

Each handler turns an LSP request into a call on the latest parse of the document (see
:mod:`kcompat.lsp.session`) and back; none of them raises: a failure is logged and
answered with nothing, so a half-typed spec or a bug in one feature never ends the
session.
"""

from __future__ import annotations

import functools
import logging
import os
import sys
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from kcompat import __version__
from kcompat.lsp.actions import code_actions
from kcompat.lsp.completion import complete
from kcompat.lsp.cursor import cursor_at
from kcompat.lsp.diagnostics import text_range
from kcompat.lsp.documents import spot_at
from kcompat.lsp.hover import hover_text
from kcompat.lsp.navigation import definitions, references, struct_name
from kcompat.lsp.session import Session
from kcompat.lsp.shipped import Shipping
from kcompat.lsp.symbols import document_symbols
from kcompat.lsp.text import TextIndex
from kcompat.spec.load import MAX_BYTES

log = logging.getLogger(__name__)
Handler = TypeVar("Handler", bound=Callable[..., Awaitable[Any]])


def guarded(handler: Handler) -> Handler:
    """A handler that answers None instead of raising (the failure goes to the log)."""

    @functools.wraps(handler)
    async def run(*args: Any) -> Any:
        try:
            return await handler(*args)
        except Exception:
            log.exception("%s failed", handler.__name__)
            return None

    return run  # type: ignore[return-value]


def build_server() -> LanguageServer:
    """A server with every feature registered (started by :func:`serve`, or by tests)."""
    # Whole texts on every change: a spec is a few KB, and pygls applies incremental edits
    # with str.splitlines, which also breaks lines at U+2028, U+000C... where an editor
    # does not: a spec with one of those in a string would be edited at the wrong place.
    server = LanguageServer(
        "kcompat", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Full
    )
    session = Session(server)
    _documents(server, session)
    _reading(server, session)
    _editing(server, session)
    return server


def _documents(server: LanguageServer, session: Session) -> None:
    @server.feature(types.INITIALIZE)
    def initialize(ls: LanguageServer, params: types.InitializeParams) -> None:
        options = params.initialization_options
        if isinstance(options, dict) and isinstance(options.get("diffBase"), str):
            session.diff_base = options["diffBase"].strip()
        encoding = ls.workspace.position_encoding
        session.encoding = str(getattr(encoding, "value", encoding) or "utf-16")

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    @guarded
    async def did_open(ls: LanguageServer, params: types.DidOpenTextDocumentParams) -> None:
        session.opened(params.text_document.uri, params.text_document.version)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    @guarded
    async def did_change(ls: LanguageServer, params: types.DidChangeTextDocumentParams) -> None:
        session.changed(params.text_document.uri, params.text_document.version)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE, types.SaveOptions(include_text=False))
    @guarded
    async def did_save(ls: LanguageServer, params: types.DidSaveTextDocumentParams) -> None:
        await session.saved(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    @guarded
    async def did_close(ls: LanguageServer, params: types.DidCloseTextDocumentParams) -> None:
        session.closed(params.text_document.uri)

    @server.feature(types.SHUTDOWN)
    def shutdown(ls: LanguageServer, params: None) -> None:
        session.stop()


def _reading(server: LanguageServer, session: Session) -> None:
    @server.feature(types.TEXT_DOCUMENT_HOVER)
    @guarded
    async def hover(ls: LanguageServer, params: types.HoverParams) -> types.Hover | None:
        uri = params.text_document.uri
        parsed = session.parsed(uri)
        offset = parsed.index.offset_at(params.position.line, params.position.character)
        spot = spot_at(parsed, offset)
        if spot is None or parsed.message is None:
            return None
        wants_releases = (spot.kind, spot.key) == ("message", "name") or (
            spot.kind == "field" and spot.key in ("name", "type", "tag")
        )
        shipping = (
            await session.shipping(uri, parsed.message.name) if wants_releases else Shipping()
        )
        text = hover_text(parsed, spot, shipping)
        if text is None:
            return None
        return types.Hover(
            contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text),
            range=text_range(parsed, spot.start, spot.end),
        )

    @server.feature(types.TEXT_DOCUMENT_DEFINITION)
    @guarded
    async def definition(ls: LanguageServer, params: types.DefinitionParams) -> Any:
        return _locations(session, params.text_document.uri, params.position, None)

    @server.feature(types.TEXT_DOCUMENT_REFERENCES)
    @guarded
    async def find_references(ls: LanguageServer, params: types.ReferenceParams) -> Any:
        declaration = params.context.include_declaration
        return _locations(session, params.text_document.uri, params.position, declaration)

    @server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    @guarded
    async def symbols(ls: LanguageServer, params: types.DocumentSymbolParams) -> Any:
        uri = params.text_document.uri
        return document_symbols(session.parsed(uri)) if session.is_spec(uri) else None


def _locations(
    session: Session, uri: str, position: types.Position, declaration: bool | None
) -> list[types.Location] | None:
    """Definitions (``declaration`` None) or references of the struct under the cursor."""
    parsed = session.parsed(uri)
    spot = spot_at(parsed, parsed.index.offset_at(position.line, position.character))
    name = struct_name(spot) if spot is not None else None
    if name is None:
        return None
    folder = session.folder_specs(uri)
    if declaration is None:
        found = definitions(name, parsed, folder)
    else:
        found = references(name, parsed, folder, declaration)
    return [
        types.Location(
            uri=uri if t.parsed.path == parsed.path else session.uri_of(t.parsed.path),
            range=text_range(t.parsed, t.start, t.end),
        )
        for t in found
    ]


def _editing(server: LanguageServer, session: Session) -> None:
    @server.feature(
        types.TEXT_DOCUMENT_COMPLETION,
        types.CompletionOptions(trigger_characters=['"', ":"]),
    )
    @guarded
    async def completion(ls: LanguageServer, params: types.CompletionParams) -> Any:
        uri = params.text_document.uri
        if not session.is_spec(uri):
            return None
        text = session.text(uri)
        if len(text) > MAX_BYTES:  # refused by the parser: one diagnostic says so
            return None
        index = TextIndex(text, session.encoding)
        offset = index.offset_at(params.position.line, params.position.character)
        cursor = cursor_at(text, offset)
        if cursor is None:
            return None
        first, last = index.position(cursor.start), index.position(cursor.end)
        replace = types.Range(
            start=types.Position(line=first[0], character=first[1]),
            end=types.Position(line=last[0], character=last[1]),
        )
        readable = session.readable(uri)
        message = readable.message if readable is not None else None
        items = complete(text, cursor, message, replace)
        return types.CompletionList(is_incomplete=False, items=items)

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]),
    )
    @guarded
    async def code_action(ls: LanguageServer, params: types.CodeActionParams) -> Any:
        uri = params.text_document.uri
        if not session.is_spec(uri):
            return None
        parsed = session.parsed(uri)
        start = parsed.index.offset_at(params.range.start.line, params.range.start.character)
        return code_actions(parsed, uri, params.context.diagnostics, start)


def serve() -> int:
    """Run the server on stdin and stdout until the editor says exit; the exit status the
    LSP asks for back: 0 after a shutdown request, 1 without one.

    The protocol gets its own copies of stdin and stdout, and stdout itself then points
    at stderr: a stray print anywhere cannot corrupt the protocol's stream.
    """
    logging.basicConfig(level=logging.WARNING, format="kcompat lsp: %(message)s")
    sys.stdout.flush()
    protocol_in = os.fdopen(os.dup(sys.stdin.fileno()), "rb")
    protocol_out = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    server = build_server()
    server.start_io(protocol_in, protocol_out)
    return 0 if server.protocol._shutdown else 1
