"""The language server answers whatever the editor holds (issue 32.2): a seeded stream of
hostile documents (specs on one long line, astral characters and lone surrogates, nesting
past the limit, megabytes in one string or comment, a hundred thousand lines, noise, a
text over the size limit, real specs cut and pasted), each followed by every request an
editor sends; then the original text again gets its original findings. The long
campaign is ``benchmarks/fuzz_lsp.py``.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pygls", reason="pygls is not installed (the lsp extra)")

from lsprotocol import types

from tests.conftest import EXAMPLES
from tests.lsp_client import editing
from tests.lsp_hostile import FAMILIES, hostile_session

DOCUMENTS = 24


def test_the_server_answers_a_stream_of_hostile_documents(tmp_path: Path) -> None:
    folder = tmp_path / "message"
    folder.mkdir()
    for spec in EXAMPLES.glob("*.json"):
        (folder / spec.name).write_text(spec.read_text(encoding="utf-8"), encoding="utf-8")
    path = folder / "WidgetRequest.json"
    seed = path.read_text(encoding="utf-8")

    async def session() -> None:
        async with editing(folder) as editor:
            uri = editor.open(path)
            first = await editor.diagnostics(uri, 1)
            made = await hostile_session(editor, uri, seed, random.Random(32), DOCUMENTS)
            assert len(made) >= len(FAMILIES) - 3  # most families met in one session
            again = await editor.diagnostics(uri, editor.change(uri, seed))
            assert again == first

    asyncio.run(session())


#: A server whose outline waits until the file named first on its command line exists
#: (bounded): the outline is surely still being computed while the test edits and shuts
#: down, however fast or loaded the machine is.
HELD_OUTLINE = """
import sys, time
from pathlib import Path
from typing import Any
from kcompat.lsp import handlers

released, answer = Path(sys.argv.pop(1)), handlers.symbols

def held(*args, **kwargs):
    deadline = time.monotonic() + 60
    while not released.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    return answer(*args, **kwargs)

handlers.symbols = held
from kcompat.lsp.server import serve
raise SystemExit(serve())
"""


def test_the_server_answers_edits_and_shutdown_while_an_outline_is_computed(
    tmp_path: Path,
) -> None:
    """A request is answered off the event loop: while an outline is being computed (held
    back until the test lets it go), an edit of another spec gets its diagnostics and a
    shutdown its answer (before, the loop read nothing until the outline was sent). The
    shutdown cancels the outline still pending (pygls answers it as cancelled, which may
    reach the editor just before the shutdown's own answer): it is never answered."""
    folder = tmp_path / "message"
    folder.mkdir()
    small, outlined = folder / "WidgetRequest.json", folder / "WidgetResponse.json"
    seed = (EXAMPLES / small.name).read_text(encoding="utf-8")
    small.write_text(seed, encoding="utf-8")
    outlined.write_text((EXAMPLES / outlined.name).read_text(encoding="utf-8"), encoding="utf-8")
    script, released = tmp_path / "held_outline.py", tmp_path / "released"
    script.write_text(HELD_OUTLINE, encoding="utf-8")
    order: list[str] = []

    async def session() -> None:
        async with editing(folder, server=(str(script), str(released))) as editor:
            small_uri, outlined_uri = editor.open(small), editor.open(outlined)
            await editor.diagnostics(small_uri, 1)
            await editor.diagnostics(outlined_uri, 1)
            outline = asyncio.ensure_future(
                editor.client.text_document_document_symbol_async(
                    types.DocumentSymbolParams(
                        text_document=types.TextDocumentIdentifier(uri=outlined_uri)
                    )
                )
            )
            outline.add_done_callback(lambda done: order.append(outcome(done)))
            await asyncio.sleep(0.3)  # the server has it, and holds it
            version = editor.change(small_uri, seed.replace('"0-4"', '"0-5"', 1))
            await editor.diagnostics(small_uri, version)
            order.append("diagnostics")
            await editor.shutdown()
            order.append("shutdown")
            released.touch()
            outline.cancel()  # a shutdown cancels what is pending: no outline comes

    asyncio.run(session())
    assert order[0] == "diagnostics"
    assert "shutdown" in order
    assert "outline answered" not in order


def outcome(request: asyncio.Future[Any]) -> str:
    """What became of a request: answered, or cancelled (or refused) without an answer."""
    if request.cancelled() or request.exception() is not None:
        return "outline cancelled"
    return "outline answered"
