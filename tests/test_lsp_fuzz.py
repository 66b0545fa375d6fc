"""The language server survives what typing does to real specs: a seeded stream of edits
of Kafka's own spec files (cut, pasted, half-typed, broken and mended), with requests in
between, answered every time; at the end the restored text gets its original findings.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

pytest.importorskip("pygls", reason="pygls is not installed (the lsp extra)")

from lsprotocol import types

from kcompat.lsp.documents import parse
from kcompat.lsp.symbols import document_symbols
from kcompat.lsp.text import TextIndex
from tests.lsp_client import Editor, editing

pytestmark = pytest.mark.corpus

MESSAGES = "clients/src/main/resources/common/message"
FILES = (
    f"{MESSAGES}/FetchRequest.json",
    f"{MESSAGES}/FetchResponse.json",
    f"{MESSAGES}/MetadataResponse.json",
    f"{MESSAGES}/ProduceRequest.json",
)
#: What the edits insert: JSON's punctuation, spec keys and values, comments, a character
#: outside the BMP, and nothing at all.
SNIPPETS = (
    "{", "}", "[", "]", '"', ",", ":", "\n", "", "  ",
    '"name": ', '"type": "[]', '"tag": 7', '"versions": "3+"', '"nullableVersions": ',
    "// kcompat: ignore[tag-duplicate] ", "/*", "*/", "\U0001f600", "true", "-1", "Topic",
    "\u2028", "\x0c", "\r\n",
)  # fmt: skip
EDITS = 240


def position(text: str, offset: int) -> types.Position:
    line, character = TextIndex(text).position(offset)
    return types.Position(line=line, character=character)


def edit(editor: Editor, uri: str, text: str, rng: random.Random) -> str:
    """One random edit (the server asks for whole texts); the new text back."""
    start = rng.randrange(len(text) + 1)
    end = min(len(text), start + rng.choice((0, 0, 1, 3, 12, 80)))
    changed = text[:start] + rng.choice(SNIPPETS) + text[end:]
    editor.change(uri, changed)
    return changed


async def ask_around(editor: Editor, uri: str, text: str, rng: random.Random) -> None:
    """Hover, completion, definition, code actions and symbols at a random place: each
    answers (possibly with nothing) instead of failing or hanging."""
    at = position(text, rng.randrange(len(text) + 1))
    await editor.hover(uri, at.line, at.character)
    await editor.completion(uri, at.line, at.character)
    await editor.definition(uri, at.line, at.character)
    await editor.code_actions(uri, types.Range(start=at, end=at), [])
    await editor.symbols(uri)


def test_server_survives_a_fuzzed_editing_session(kafka_repo: Path) -> None:
    rng = random.Random(20240125)

    async def session() -> None:
        async with editing(kafka_repo) as editor:
            texts: dict[str, str] = {}
            paths: dict[str, Path] = {}
            first: dict[str, list[types.Diagnostic]] = {}
            for name in FILES:
                uri = editor.open(kafka_repo / name)
                paths[uri] = kafka_repo / name
                texts[uri] = paths[uri].read_text(encoding="utf-8")
                first[uri] = await editor.diagnostics(uri, 1)
            for step in range(EDITS):
                uri = rng.choice(list(texts))
                texts[uri] = edit(editor, uri, texts[uri], rng)
                if step % 12 == 0:
                    await ask_around(editor, uri, texts[uri], rng)
            for uri, text in texts.items():
                # the server's copy of the text is the editor's: same outline as here
                here = document_symbols(parse(str(paths[uri]), text))
                assert await editor.symbols(uri) == here
                original = paths[uri].read_text(encoding="utf-8")
                assert text != original
                editor.change(uri, original)
            # all restored: each spec's findings are what they were when first opened
            await editor.until(
                lambda: all(
                    editor.published[u][-1].version == editor.versions[u]
                    and editor.latest(u) == first[u]
                    for u in texts
                )
            )

    asyncio.run(session())
