"""An editor for tests: pygls's language client driving ``kcompat lsp`` over stdio.

It starts the server as an editor does (a subprocess speaking JSON-RPC on its stdin and
stdout), keeps every diagnostic and message the server sends, and waits for the
diagnostics of a given document version, so tests read like an editing session.
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.lsp.client import LanguageClient
from pygls.uris import from_fs_path

#: A test's whole session is bounded; a server that hangs fails the test instead.
WAIT_SECONDS = 20.0


class Editor:
    """One editor session with a running server."""

    def __init__(self, client: LanguageClient, root: Path) -> None:
        self.client = client
        self.root = root
        self.published: dict[str, list[types.PublishDiagnosticsParams]] = {}
        self.messages: list[str] = []
        self.versions: dict[str, int] = {}
        self._arrived = asyncio.Condition()
        self.shut = False  # shut down already (the session's end then only exits)

    @staticmethod
    def uri(path: Path) -> str:
        uri = from_fs_path(str(path))
        assert isinstance(uri, str)
        return uri

    async def _publish(self, params: types.PublishDiagnosticsParams) -> None:
        async with self._arrived:
            self.published.setdefault(params.uri, []).append(params)
            self._arrived.notify_all()

    async def _message(self, params: types.ShowMessageParams) -> None:
        async with self._arrived:
            self.messages.append(params.message)
            self._arrived.notify_all()

    # -- documents ----------------------------------------------------------------------
    def open(self, path: Path, text: str | None = None) -> str:
        uri = self.uri(path)
        body = path.read_text(encoding="utf-8") if text is None else text
        self.versions[uri] = 1
        self.client.text_document_did_open(
            types.DidOpenTextDocumentParams(
                text_document=types.TextDocumentItem(
                    uri=uri, language_id="jsonc", version=1, text=body
                )
            )
        )
        return uri

    def change(self, uri: str, text: str) -> int:
        """Replace the whole text (the server asks for whole texts); the new version back."""
        self.versions[uri] += 1
        self.client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(
                    uri=uri, version=self.versions[uri]
                ),
                content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
            )
        )
        return self.versions[uri]

    def save(self, uri: str) -> None:
        self.client.text_document_did_save(
            types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri))
        )

    def close(self, uri: str) -> None:
        self.client.text_document_did_close(
            types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri))
        )

    async def diagnostics(
        self, uri: str, version: int | None = None, after: int = 0
    ) -> list[types.Diagnostic]:
        """The first diagnostics published for ``uri`` (at ``version``, when given) after
        the first ``after`` publications."""

        def found() -> types.PublishDiagnosticsParams | None:
            for params in self.published.get(uri, [])[after:]:
                if version is None or params.version == version:
                    return params
            return None

        async with self._arrived:
            await asyncio.wait_for(
                self._arrived.wait_for(lambda: found() is not None), WAIT_SECONDS
            )
        got = found()
        assert got is not None
        return list(got.diagnostics)

    async def until(self, settled: Callable[[], bool]) -> None:
        """Wait until ``settled()`` holds after some publication (bounded)."""
        async with self._arrived:
            await asyncio.wait_for(self._arrived.wait_for(settled), WAIT_SECONDS)

    def latest(self, uri: str) -> list[types.Diagnostic] | None:
        """The diagnostics last published for ``uri``."""
        known = self.published.get(uri)
        return list(known[-1].diagnostics) if known else None

    def count(self, uri: str) -> int:
        return len(self.published.get(uri, []))

    async def message(self, contains: str) -> str:
        async with self._arrived:
            await asyncio.wait_for(
                self._arrived.wait_for(lambda: any(contains in m for m in self.messages)),
                WAIT_SECONDS,
            )
        return next(m for m in self.messages if contains in m)

    # -- requests -----------------------------------------------------------------------
    @staticmethod
    def at(line: int, character: int) -> types.Position:
        return types.Position(line=line, character=character)

    async def hover(self, uri: str, line: int, character: int) -> types.Hover | None:
        got = await self._ask(
            self.client.text_document_hover_async(
                types.HoverParams(
                    text_document=types.TextDocumentIdentifier(uri=uri),
                    position=self.at(line, character),
                )
            )
        )
        assert got is None or isinstance(got, types.Hover)
        return got

    async def definition(self, uri: str, line: int, character: int) -> Any:
        return await self._ask(
            self.client.text_document_definition_async(
                types.DefinitionParams(
                    text_document=types.TextDocumentIdentifier(uri=uri),
                    position=self.at(line, character),
                )
            )
        )

    async def references(self, uri: str, line: int, character: int) -> Any:
        return await self._ask(
            self.client.text_document_references_async(
                types.ReferenceParams(
                    text_document=types.TextDocumentIdentifier(uri=uri),
                    position=self.at(line, character),
                    context=types.ReferenceContext(include_declaration=True),
                )
            )
        )

    async def completion(self, uri: str, line: int, character: int) -> list[types.CompletionItem]:
        got = await self._ask(
            self.client.text_document_completion_async(
                types.CompletionParams(
                    text_document=types.TextDocumentIdentifier(uri=uri),
                    position=self.at(line, character),
                )
            )
        )
        if got is None:
            return []
        return list(got.items if isinstance(got, types.CompletionList) else got)

    async def code_actions(
        self, uri: str, where: types.Range, diagnostics: list[types.Diagnostic]
    ) -> list[types.CodeAction]:
        got = await self._ask(
            self.client.text_document_code_action_async(
                types.CodeActionParams(
                    text_document=types.TextDocumentIdentifier(uri=uri),
                    range=where,
                    context=types.CodeActionContext(diagnostics=diagnostics),
                )
            )
        )
        return [a for a in got or [] if isinstance(a, types.CodeAction)]

    async def symbols(self, uri: str) -> list[types.DocumentSymbol]:
        got = await self._ask(
            self.client.text_document_document_symbol_async(
                types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=uri))
            )
        )
        return [s for s in got or [] if isinstance(s, types.DocumentSymbol)]

    async def shutdown(self) -> None:
        """Ask the server to shut down (it then answers nothing but exit)."""
        await self._ask(self.client.shutdown_async(None))
        self.shut = True

    @staticmethod
    async def _ask(request: Any) -> Any:
        return await asyncio.wait_for(request, WAIT_SECONDS)


@asynccontextmanager
async def editing(
    root: Path,
    options: dict[str, Any] | None = None,
    encodings: list[str] | None = None,
    server: tuple[str, ...] = ("-m", "kcompat", "lsp"),
) -> AsyncIterator[Editor]:
    """An editor with ``kcompat lsp`` running in ``root``, initialised; shut down and
    exited at the end (the server must exit 0). ``server``: the interpreter's arguments
    that start it (a test may start it through a script that holds a request back)."""
    client = LanguageClient("kcompat-tests", "1")
    editor = Editor(client, root)

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)  # type: ignore[untyped-decorator]
    async def published(params: types.PublishDiagnosticsParams) -> None:
        await editor._publish(params)

    @client.feature(types.WINDOW_SHOW_MESSAGE)  # type: ignore[untyped-decorator]
    async def shown(params: types.ShowMessageParams) -> None:
        await editor._message(params)

    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    env.pop("KCOMPAT_CODE_CACHE", None)
    await client.start_io(sys.executable, *server, cwd=str(root), env=env)
    general = types.GeneralClientCapabilities(position_encodings=encodings) if encodings else None
    await asyncio.wait_for(
        client.initialize_async(
            types.InitializeParams(
                process_id=os.getpid(),
                root_uri=Editor.uri(root),
                capabilities=types.ClientCapabilities(general=general),
                initialization_options=options,
            )
        ),
        WAIT_SECONDS,
    )
    client.initialized(types.InitializedParams())
    try:
        yield editor
    finally:
        if not editor.shut:
            await asyncio.wait_for(client.shutdown_async(None), WAIT_SECONDS)
        client.exit(None)
        await asyncio.wait_for(client.stop(), WAIT_SECONDS)  # type: ignore[no-untyped-call]
    process = client._server
    assert process is not None and process.returncode == 0, "the server did not exit cleanly"
