"""Offsets in a spec's text, and how an editor counts them.

kcompat's parser gives every key and value a (line, column) position, 1-based, counted in
code points with lines ended by LF, CR or CR LF (as Jackson ends them, and as the protocol
does). An editor counts lines from 0 and columns in the units it negotiated (UTF-16 by
default, UTF-8 or UTF-32 when both sides agree). This module converts between the two,
and finds where a token that starts at a position ends,
so a finding points at a whole key or value, not at one character of it.

It also has a tolerant tokenizer: half-typed JSON still splits into strings, brackets,
punctuation and words, which completion reads to tell where the cursor is.
"""

from __future__ import annotations

import bisect
import re
from array import array
from collections.abc import Iterator
from dataclasses import dataclass

from kcompat.spec.jackson import LINE_END

#: The position encodings of the LSP (``general.positionEncodings``).
UTF8, UTF16, UTF32 = "utf-8", "utf-16", "utf-32"

# One token: whitespace, a comment (an unterminated one runs to the end), a string (an
# unterminated one runs to the end of its line), punctuation, or any other run of text.
_TOKEN = re.compile(
    r"""
    (?P<space>\s+)
    | (?P<comment>//[^\n]*|/\*[\s\S]*?(?:\*/|\Z))
    | (?P<string>"(?:[^"\\\n]|\\[^\n])*(?:"|\\?(?=\n)|\\?\Z))
    | (?P<punct>[{}\[\]:,])
    | (?P<word>[^\s{}\[\]:,"/]+|/)
    """,
    re.VERBOSE,
)


@dataclass(frozen=True, slots=True)
class Token:
    """One significant token: its kind (string, punct, word), its text and offsets."""

    kind: str
    text: str
    start: int
    end: int


def tokens(text: str, start: int = 0, comments: bool = False) -> Iterator[Token]:
    """The significant tokens of ``text`` from ``start`` (spaces skipped, and comments
    unless asked for); never fails, whatever the text holds."""
    kinds = ("string", "punct", "word", "comment") if comments else ("string", "punct", "word")
    for match in _TOKEN.finditer(text, start):
        kind = match.lastgroup
        if kind in kinds:
            assert kind is not None
            yield Token(kind, match.group(), match.start(), match.end())


def string_value(token: str) -> str:
    """The text of a string token without its quotes (escapes left as written)."""
    inner = token[1:]
    return inner[:-1] if inner.endswith('"') and not inner.endswith('\\"') else inner


def bracket_pairs(text: str) -> dict[int, int]:
    """Offset of each ``{`` or ``[`` -> offset just past its matching closer (unclosed
    brackets close at the end of the text)."""
    pairs: dict[int, int] = {}
    stack: list[int] = []
    for token in tokens(text):
        if token.text in ("{", "["):
            stack.append(token.start)
        elif token.text in ("}", "]") and stack:
            pairs[stack.pop()] = token.end
    for opened in stack:
        pairs[opened] = len(text)
    return pairs


#: Characters wider than one code unit, per encoding: outside the BMP in UTF-16 (two
#: units); any but ASCII in UTF-8 (two to four bytes; a lone surrogate, written as
#: surrogatepass writes it, three).
_WIDE = {UTF16: re.compile("[\U00010000-\U0010ffff]"), UTF8: re.compile("[^\x00-\x7f]")}


def _extra_units(char: str, encoding: str) -> int:
    """How many code units more than one ``char`` takes in ``encoding``."""
    if encoding == UTF16:
        return 1
    code = ord(char)
    return 1 if code < 0x800 else 2 if code < 0x10000 else 3


class TextIndex:
    """Line starts of one text, for conversions between offsets and positions. A line
    ends at LF, CR or CR LF, as the protocol says and as Jackson (and so kcompat's lines
    and columns) counts them.

    Every conversion is a binary search, never a walk along a line: a spec written on one
    line of a megabyte is a document an editor may open, and a request converts a
    position for every field. The characters wider than one code unit are kept by offset
    with a running sum of the units they add (prefix sums: most texts have none in
    UTF-16), so the units between two offsets are their distance plus two lookups.
    """

    def __init__(self, text: str, encoding: str = UTF16) -> None:
        self.text = text
        self.encoding = encoding
        breaks = list(LINE_END.finditer(text))
        self.starts = [0, *(match.end() for match in breaks)]
        self.ends = [*(match.start() for match in breaks), len(text)]  # before each break
        self._wide = array("q")  # offsets of the wide characters, ascending
        self._added = array("q", [0])  # units the first k wide characters add
        wide = _WIDE.get(encoding)
        if wide is not None:
            for match in wide.finditer(text):
                self._wide.append(match.start())
                self._added.append(self._added[-1] + _extra_units(match.group(), encoding))

    def _units_before(self, offset: int) -> int:
        """Code units of the text before ``offset``."""
        return offset + self._added[bisect.bisect_left(self._wide, offset)]

    def offset(self, line: int, column: int) -> int:
        """The offset of kcompat's 1-based (line, column), clamped to the text."""
        row = min(max(line, 1), len(self.starts)) - 1
        return min(self.starts[row] + max(column, 1) - 1, self.ends[row])

    def line_of(self, offset: int) -> int:
        """The 0-based line holding ``offset``."""
        return bisect.bisect_right(self.starts, offset) - 1

    def position(self, offset: int) -> tuple[int, int]:
        """The editor's (line, character) of an offset, in the negotiated units."""
        offset = min(max(offset, 0), len(self.text))
        row = self.line_of(offset)
        return row, self._units_before(offset) - self._units_before(self.starts[row])

    def offset_at(self, line: int, character: int) -> int:
        """The offset of the editor's (line, character): the first offset at or past that
        many units into the line (inside a wide character, the one after it); past the
        end of a line is its end."""
        if line >= len(self.starts):
            return len(self.text)
        start, end = self.starts[max(line, 0)], self.ends[max(line, 0)]
        target = self._units_before(start) + max(character, 0)
        low, high = start, end
        while low < high:  # the first offset whose units before it reach the target
            middle = (low + high) // 2
            if self._units_before(middle) >= target:
                high = middle
            else:
                low = middle + 1
        return low

    def line_text(self, line: int) -> str:
        """The 0-based line's text, without its line break."""
        return self.text[self.starts[line] : self.ends[line]]

    def token_end(self, offset: int, pairs: dict[int, int] | None = None) -> int:
        """Where the token starting at ``offset`` ends: a whole string, number or word;
        for a bracket, its closer when ``pairs`` knows it, else the bracket alone."""
        if offset >= len(self.text):
            return offset
        if self.text[offset] in "{[":
            return pairs.get(offset, offset + 1) if pairs is not None else offset + 1
        match = _TOKEN.match(self.text, offset)
        if match is None or match.lastgroup in ("space", "comment"):
            return offset + 1
        return match.end()
