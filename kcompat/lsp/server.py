"""The language server: pygls does the protocol, this module wires kcompat's features.

Two kinds of work, as ruff's server splits them. Requests (hover, completion, symbols,
definitions, references, quick fixes) are answered on one answering thread by a function
of a snapshot of the document (:mod:`kcompat.lsp.handlers`), taken from what the loop
collects when the request arrives (:meth:`Session.answer
<kcompat.lsp.session.Session.answer>`): parsing a megabyte spec never stops the loop from
reading edits or a shutdown. Background work (the lint after an edit, the diff on save,
release lookups for hovers) runs on the session's threads (:mod:`kcompat.lsp.session`),
so a diff never holds up a hover. No handler raises: a failure is logged and answered
with nothing, so a half-typed spec or a bug in one feature never ends the session.
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
from kcompat.lsp import handlers
from kcompat.lsp.session import Session
from kcompat.lsp.shipped import Shipping
from kcompat.lsp.snapshot import Snapshot

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
        def answer(snapshot: Snapshot) -> tuple[Snapshot, str | None, types.Hover | None]:
            """The hover at once when its releases are known (or not wanted), else the
            message whose releases the loop looks up first."""
            name = handlers.releases_wanted(snapshot, params)
            known = session.known_shipping(snapshot.uri, name) if name else Shipping()
            if known is None:
                return snapshot, name, None
            return snapshot, None, handlers.hover(snapshot, params, known)

        snapshot, name, found = await session.answer(params.text_document.uri, answer)
        if name is None:
            return found
        shipping = await session.shipping(snapshot.uri, name)
        return await session.answering_run(handlers.hover, snapshot, params, shipping)

    @server.feature(types.TEXT_DOCUMENT_DEFINITION)
    @guarded
    async def definition(ls: LanguageServer, params: types.DefinitionParams) -> Any:
        answer = functools.partial(handlers.definition, params=params)
        return await session.answer(params.text_document.uri, answer, folder=True)

    @server.feature(types.TEXT_DOCUMENT_REFERENCES)
    @guarded
    async def find_references(ls: LanguageServer, params: types.ReferenceParams) -> Any:
        answer = functools.partial(handlers.find_references, params=params)
        return await session.answer(params.text_document.uri, answer, folder=True)

    @server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    @guarded
    async def symbols(ls: LanguageServer, params: types.DocumentSymbolParams) -> Any:
        answer = functools.partial(handlers.symbols, params=params)
        return await session.answer(params.text_document.uri, answer)


def _editing(server: LanguageServer, session: Session) -> None:
    @server.feature(
        types.TEXT_DOCUMENT_COMPLETION,
        types.CompletionOptions(trigger_characters=['"', ":"]),
    )
    @guarded
    async def completion(ls: LanguageServer, params: types.CompletionParams) -> Any:
        answer = functools.partial(handlers.completion, params=params)
        return await session.answer(params.text_document.uri, answer)

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]),
    )
    @guarded
    async def code_action(ls: LanguageServer, params: types.CodeActionParams) -> Any:
        answer = functools.partial(handlers.code_action, params=params)
        return await session.answer(params.text_document.uri, answer)


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
