"""Hostile documents for the language server: a seeded stream of texts an editor may hold
(issue 32.2): specs on one long line, astral characters and lone surrogates in names,
nesting past the loader's limit, megabytes in one string or one comment, a hundred
thousand short lines, control characters, line ends of every kind, a text over the size
limit, and real specs cut and pasted. Used by ``tests/test_lsp_hostile.py`` (a short
session in every suite) and ``benchmarks/fuzz_lsp.py`` (a long campaign).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from kcompat.spec.load import MAX_BYTES

#: How large the families make their documents: ``scale`` 1 for the suite, more for the
#: campaign (fields on one line = 1,000 x scale).
Family = Callable[[random.Random, str, int], str]


def _fields(rng: random.Random, count: int, name: Callable[[int], str]) -> str:
    kinds = ("int32", "string", "[]Topic", "bool", "uuid", "int64")
    return ", ".join(
        f'{{"name": "{name(n)}", "type": "{rng.choice(kinds)}", "versions": "{rng.randint(0, 3)}+",'
        f' "about": "{name(n)} about"}}'
        for n in range(count)
    )


def _spec(fields: str, tail: str = "") -> str:
    return (
        '{"apiKey": 160, "type": "request", "name": "HostileRequest", "validVersions": "0-3", '
        f'"flexibleVersions": "2+", "fields": [{fields}]{tail}}}'
    )


def long_line(rng: random.Random, _seed: str, scale: int) -> str:
    """A spec of up to 1,000 x scale fields, all on one line."""
    return _spec(_fields(rng, rng.randint(1, 1000 * scale), lambda n: f"Field{n}"))


def wide_characters(rng: random.Random, _seed: str, scale: int) -> str:
    """One long line whose names hold astral characters, lone surrogates, bidi controls
    and line separators (UTF-16 positions differ from code points on every field)."""
    odd = ("\U0001f600", "\ud800", "\udfff", "\u202e", "\u2028", "é", "中", "\x00", "\x1b[31m")
    return _spec(
        _fields(rng, rng.randint(1, 300 * scale), lambda n: f"F{rng.choice(odd)}{n}"),
        tail=', "commonStructs": [{"name": "Topic\U0001f600", "versions": "0+", "fields": []}]',
    )


def deep(rng: random.Random, _seed: str, scale: int) -> str:
    """Arrays and objects nested past the loader's limit."""
    depth = rng.randint(50, 2000 * scale)
    opener = rng.choice(("[", '{"a": ', '{"fields": ['))
    return '{"fields": ' + opener * depth + "1"


def huge_string(rng: random.Random, _seed: str, scale: int) -> str:
    """One field whose ``about`` is up to a megabyte (times scale), on one line."""
    about = "x" * rng.randint(1, min(MAX_BYTES // 2, 1_000_000 * scale))
    return _spec(f'{{"name": "A", "type": "int32", "versions": "0+", "about": "{about}"}}')


def open_comment(rng: random.Random, seed: str, scale: int) -> str:
    """A real spec with an unterminated ``/*`` (or a long ``//`` line) in its middle."""
    cut = rng.randrange(len(seed) + 1)
    inserted = rng.choice(("/*", "//" + "y" * rng.randint(1, 200_000 * scale), "/* */ /*"))
    return seed[:cut] + inserted + seed[cut:]


def many_lines(rng: random.Random, _seed: str, scale: int) -> str:
    """A spec of up to 2,000 x scale fields, one key per line, with every line end."""
    end = rng.choice(("\n", "\r", "\r\n", "\u2028\n"))
    fields = _fields(rng, rng.randint(1, 2000 * scale), lambda n: f"Line{n}")
    return _spec(fields.replace(", ", "," + end).replace('{"', "{" + end + '"'))


def noise(rng: random.Random, _seed: str, scale: int) -> str:
    """Control characters, brackets and quotes at random."""
    alphabet = '{}[]":,/*\\\n\r\t\x00\x07\x1b\u2028\ud800\U0001f600abc0123 '
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 20_000 * scale)))


def over_the_limit(rng: random.Random, _seed: str, _scale: int) -> str:
    """A text just over the size limit: one diagnostic, no parse."""
    return " " * (MAX_BYTES + rng.randint(1, 1000)) + "{}"


def cut_and_pasted(rng: random.Random, seed: str, _scale: int) -> str:
    """A real spec with a few random spans moved, doubled or dropped."""
    text = seed
    for _ in range(rng.randint(1, 8)):
        start = rng.randrange(len(text) + 1)
        end = min(len(text), start + rng.choice((1, 5, 40, 400)))
        piece = text[start:end]
        where = rng.randrange(len(text) + 1)
        text = rng.choice(
            (text[:start] + text[end:], text[:where] + piece + text[where:], piece * 50 + text)
        )
    return text


FAMILIES: dict[str, Family] = {
    "long line": long_line,
    "wide characters": wide_characters,
    "deep": deep,
    "huge string": huge_string,
    "open comment": open_comment,
    "many lines": many_lines,
    "noise": noise,
    "over the limit": over_the_limit,
    "cut and pasted": cut_and_pasted,
}


def hostile(rng: random.Random, seed: str, scale: int = 1) -> tuple[str, str]:
    """One hostile document: its family's name and its text."""
    name = rng.choice(sorted(FAMILIES))
    return name, FAMILIES[name](rng, seed, scale)


async def hostile_session(
    editor: Any,
    uri: str,
    seed: str,
    rng: random.Random,
    documents: int,
    scale: int = 1,
    timed: Callable[[str, str, float], None] = lambda _family, _request, _seconds: None,
) -> dict[str, int]:
    """``documents`` hostile texts sent to the open ``uri`` in turn; after each, its
    diagnostics awaited, then hover, completion, definition, references, code actions and
    the outline asked at random places (and past the end, and inside a surrogate pair):
    every request answered (the editor's own bound fails a hang). ``timed`` gets each
    answer's family, request and seconds. Returns how many documents each family made."""
    import time

    from lsprotocol import types

    from kcompat.lsp.symbols import MAX_SYMBOLS
    from kcompat.lsp.text import TextIndex

    made: dict[str, int] = {}
    for _ in range(documents):
        family, text = hostile(rng, seed, scale)
        made[family] = made.get(family, 0) + 1
        start = time.perf_counter()
        found = await editor.diagnostics(uri, editor.change(uri, text))
        timed(family, "diagnostics", time.perf_counter() - start)
        index = TextIndex(text)
        places = [index.position(rng.randrange(len(text) + 1)) for _ in range(2)]
        places += [(10**6, 10**6), (0, 10**9), (index.line_of(len(text)), 1)]
        for line, character in places:
            for name, ask in (
                ("hover", editor.hover),
                ("completion", editor.completion),
                ("definition", editor.definition),
                ("references", editor.references),
            ):
                start = time.perf_counter()
                await ask(uri, line, character)
                timed(family, name, time.perf_counter() - start)
        here = types.Range(start=editor.at(*places[0]), end=editor.at(*places[0]))
        start = time.perf_counter()
        await editor.code_actions(uri, here, found[:5])
        timed(family, "codeAction", time.perf_counter() - start)
        start = time.perf_counter()
        outline = await editor.symbols(uri)
        timed(family, "documentSymbol", time.perf_counter() - start)
        assert sum(1 + len(symbol.children or ()) for symbol in outline) <= MAX_SYMBOLS + 1
    return made
