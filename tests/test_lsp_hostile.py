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


#: Fields of the one-line spec whose outline is slow (3.4 MB: under the size limit).
WIDE_FIELDS = 48_000


def wide_spec(fields: int) -> str:
    """A valid request whose fields are all written on one line (few findings: the lint
    of it publishes little, so what is measured is the outline)."""
    written = ", ".join(
        f'{{"name": "Field{n}", "type": "int32", "versions": "0+", "about": "F."}}'
        for n in range(fields)
    )
    return (
        '{"apiKey": 90, "type": "request", "name": "WideRequest", "validVersions": "0", '
        f'"flexibleVersions": "none", "fields": [{written}]}}'
    )


@pytest.mark.slow
def test_the_server_answers_edits_and_shutdown_while_a_long_outline_is_computed(
    tmp_path: Path,
) -> None:
    """The outline of a megabyte spec on one line is computed off the event loop: while
    it runs, an edit of another spec gets its diagnostics and a shutdown its answer, both
    before the outline is answered (before, the loop read nothing until the outline was
    sent). The shutdown then cancels the outline still pending."""
    small_folder, wide_folder = tmp_path / "small", tmp_path / "wide"
    small_folder.mkdir()
    wide_folder.mkdir()
    small = small_folder / "WidgetRequest.json"
    seed = (EXAMPLES / "WidgetRequest.json").read_text(encoding="utf-8")
    small.write_text(seed, encoding="utf-8")
    wide = wide_folder / "WideRequest.json"
    wide.write_text(wide_spec(WIDE_FIELDS), encoding="utf-8")
    order: list[str] = []

    async def session() -> None:
        async with editing(tmp_path) as editor:
            small_uri, wide_uri = editor.open(small), editor.open(wide)
            await editor.diagnostics(small_uri, 1)
            async with asyncio.timeout(300):  # its lint: parsed in the background first
                while not editor.published.get(wide_uri):
                    await asyncio.sleep(0.1)
            outline = asyncio.ensure_future(
                editor.client.text_document_document_symbol_async(
                    types.DocumentSymbolParams(
                        text_document=types.TextDocumentIdentifier(uri=wide_uri)
                    )
                )
            )
            outline.add_done_callback(lambda _: order.append("outline"))
            await asyncio.sleep(0.3)  # the server has it: parsing, then the outline
            version = editor.change(small_uri, seed.replace('"0-4"', '"0-5"', 1))
            await asyncio.wait_for(editor.diagnostics(small_uri, version), 300)
            order.append("diagnostics")
            await editor.shutdown()
            order.append("shutdown")
            outline.cancel()  # a shutdown cancels what is pending: no outline comes

    asyncio.run(session())
    assert order[:2] == ["diagnostics", "shutdown"]
