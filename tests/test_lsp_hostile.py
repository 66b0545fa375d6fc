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
