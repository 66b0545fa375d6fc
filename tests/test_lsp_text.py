"""Offsets and editor positions (``kcompat/lsp/text.py``): the index answers what walking
the text answers, in every encoding an editor negotiates, and in time that does not grow
with the line (issue 32.2: a spec on one line of a megabyte froze the server)."""

from __future__ import annotations

import random
from typing import SupportsIndex

import pytest

from kcompat.lsp.text import UTF8, UTF16, UTF32, TextIndex
from kcompat.spec.jackson import LINE_END

#: What the texts are made of: ASCII, wider characters in each encoding, a lone
#: surrogate, and every line end.
PIECES = ("a", "{", '"', " ", "é", "€", "中", "\U0001f600", "\ud800", "\n", "\r", "\r\n", "\u2028")


def _units(text: str, encoding: str) -> int:
    if encoding == UTF32:
        return len(text)
    if encoding == UTF8:
        return len(text.encode("utf-8", "surrogatepass"))
    return len(text) + sum(1 for char in text if ord(char) > 0xFFFF)


def _lines(text: str) -> tuple[list[int], list[int]]:
    breaks = list(LINE_END.finditer(text))
    return [0, *(m.end() for m in breaks)], [*(m.start() for m in breaks), len(text)]


def walked_position(text: str, encoding: str, offset: int) -> tuple[int, int]:
    """The editor's (line, character), by walking the line (the old way)."""
    starts, _ends = _lines(text)
    offset = min(max(offset, 0), len(text))
    row = max(i for i, start in enumerate(starts) if start <= offset)
    return row, _units(text[starts[row] : offset], encoding)


def walked_offset(text: str, encoding: str, line: int, character: int) -> int:
    starts, ends = _lines(text)
    if line >= len(starts):
        return len(text)
    start, end = starts[max(line, 0)], ends[max(line, 0)]
    counted = 0
    for index in range(start, end):
        if counted >= character:
            return index
        counted += _units(text[index], encoding)
    return end


@pytest.mark.parametrize("encoding", [UTF8, UTF16, UTF32])
def test_the_index_answers_what_walking_answers(encoding: str) -> None:
    rng = random.Random(32)
    for _ in range(300):
        text = "".join(rng.choice(PIECES) for _ in range(rng.randint(0, 60)))
        index = TextIndex(text, encoding)
        for offset in range(-1, len(text) + 2):
            assert index.position(offset) == walked_position(text, encoding, offset), (text, offset)
        lines = len(_lines(text)[0])
        for line in range(-1, lines + 1):
            for character in range(-1, _units(text, encoding) + 2):
                assert index.offset_at(line, character) == walked_offset(
                    text, encoding, line, character
                ), (text, line, character)


def test_a_long_line_is_indexed_without_walking_it() -> None:
    """A conversion reads no character of the text, whatever the line's length (before,
    each walked its line's prefix: 4,000 fields on one line took 42 s to outline).
    Counted, not timed: the text is a string that counts the slices taken of it."""

    class Counted(str):
        reads = 0

        def __getitem__(self, key: SupportsIndex | slice) -> str:
            Counted.reads += 1
            return super().__getitem__(key)

    line = Counted(("a" * 99 + "\U0001f600") * 200)
    index = TextIndex(line, UTF16)
    Counted.reads = 0
    for offset in range(0, len(line), 100):
        row, character = index.position(offset)
        assert index.offset_at(row, character) == offset
    assert Counted.reads == 0


def test_the_outline_of_a_spec_on_one_line_is_bounded_and_exact() -> None:
    """3,000 fields on one line: the outline holds 2,000 symbols, the last saying how
    many it left out, and each range is where walking the line puts it (before: no
    bound, and 4,000 such fields took 42 s)."""
    pytest.importorskip("lsprotocol", reason="lsprotocol is not installed (the lsp extra)")
    from kcompat.lsp.documents import parse
    from kcompat.lsp.symbols import MAX_SYMBOLS, document_symbols

    fields = ", ".join(
        f'{{"name": "F\U0001f600{n}", "type": "int32", "versions": "0+"}}' for n in range(3000)
    )
    text = (
        '{"apiKey": 160, "type": "request", "name": "WideRequest", "validVersions": "0", '
        f'"flexibleVersions": "none", "fields": [{fields}]}}'
    )
    (outline,) = document_symbols(parse("WideRequest.json", text))
    children = outline.children or []
    assert len(children) == MAX_SYMBOLS == 2000
    assert children[-1].name == "(1,001 more not shown: the outline holds 2,000)"
    last = children[-2]
    assert last.name == "F\U0001f6001998"
    start = text.index('"F\U0001f6001998"')
    assert (last.selection_range.start.line, last.selection_range.start.character) == (
        walked_position(text, UTF16, start)
    )
