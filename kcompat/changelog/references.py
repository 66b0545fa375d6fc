"""KIP and JIRA numbers a spec's own comments give for its versions.

Kafka documents each version in the spec: ``// Version 5 adds support for new error code
TRANSACTION_ABORTABLE (KIP-890).`` A reference belongs to the version its sentence is
about: the first version the sentence names ("Version 14 is the same as version 13
(KIP-405)" is about 14); a sentence that names none goes on about the one before it in
the paragraph, and a reference before any version belongs to the whole message. Only the
numbers are kept (``KIP-890``, ``KAFKA-12345``), so nothing else a comment says reaches
a changelog.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from types import MappingProxyType
from typing import NamedTuple

from kcompat.changelog.kips import kip_url
from kcompat.spec.jackson import unified_line_ends

_VERSION = re.compile(r"\b[Vv]ersions?\s+(\d{1,5})(?:\s*(?:-|to|through|and)\s*(\d{1,5}))?")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
_REFERENCE = re.compile(r"\b(KIP|KAFKA)-(\d{1,6})\b")
#: Where a JIRA issue is read (a KIP's page: :mod:`kcompat.changelog.kips`).
JIRA_URL = "https://issues.apache.org/jira/browse/KAFKA-{}"
_NONE: Mapping[int, tuple[str, ...]] = MappingProxyType({})
#: A version range wider than this in a comment is prose, not a list of versions.
_WIDEST = 64


class References(NamedTuple):
    """References by version, and those the comments give for the whole message."""

    by_version: Mapping[int, tuple[str, ...]] = _NONE
    general: tuple[str, ...] = ()

    def of(self, versions: Iterator[int] | range | list[int]) -> tuple[str, ...]:
        """The references of some versions, each once, in order of first mention."""
        out: dict[str, None] = {}
        for version in versions:
            out.update(dict.fromkeys(self.by_version.get(version, ())))
        return tuple(out)


def mentioned(text: str) -> tuple[str, ...]:
    """Every reference the comments of a spec's text give, each once (a new message's)."""
    if "KIP-" not in text and "KAFKA-" not in text:
        return ()
    out: dict[str, None] = {}
    for _line, comment, _block in _comments(text):
        for match in _REFERENCE.finditer(comment):
            out[f"{match.group(1)}-{int(match.group(2))}"] = None
    return tuple(out)


def url_of(reference: str) -> str:
    """The page of ``KIP-890`` or ``KAFKA-12345``."""
    kind, _, number = reference.partition("-")
    return kip_url(int(number)) if kind == "KIP" else JIRA_URL.format(number)


def references(text: str) -> References:
    """The references in the comments of a spec's text."""
    if "KIP-" not in text and "KAFKA-" not in text:
        return References()
    by_version: dict[int, dict[str, None]] = {}
    general: dict[str, None] = {}
    for paragraph in _paragraphs(text):
        if "KIP-" not in paragraph and "KAFKA-" not in paragraph:
            continue  # nothing to attribute (the licence, most field notes)
        current: list[int] = []
        for sentence in _SENTENCE_END.split(paragraph):
            subject = _VERSION.search(sentence)  # "Version 14 is the same as version 13"
            if subject is not None:
                low = int(subject.group(1))
                high = int(subject.group(2)) if subject.group(2) else low
                current = list(range(low, high + 1)) if 0 <= high - low <= _WIDEST else [low]
            for match in _REFERENCE.finditer(sentence):
                reference = f"{match.group(1)}-{int(match.group(2))}"
                if not current:
                    general[reference] = None
                for version in current:
                    by_version.setdefault(version, {})[reference] = None
    return References(
        MappingProxyType({v: tuple(refs) for v, refs in by_version.items()}), tuple(general)
    )


def _paragraphs(text: str) -> Iterator[str]:
    """Comment paragraphs: consecutive ``//`` lines (a ``//`` line with nothing on it ends
    one), and each ``/* */`` block."""
    lines: list[str] = []
    last_line = -2
    for line_number, comment, block in _comments(text):
        body = comment.strip()
        if block:
            if lines:
                yield " ".join(lines)
                lines = []
            yield " ".join(body.split())
            continue
        if not body or line_number != last_line + 1:
            if lines:
                yield " ".join(lines)
            lines = []
        if body:
            lines.append(body)
        last_line = line_number
    if lines:
        yield " ".join(lines)


#: A line up to its ``//`` comment: anything but quotes and slashes, whole JSON strings
#: (a ``//`` inside one is text), or a slash that starts no comment.
_LINE_COMMENT = re.compile(r'(?:[^"/]|"(?:[^"\\]|\\.)*+"|/(?![/*]))*+//(.*)')


def _comments(text: str) -> Iterator[tuple[int, str, bool]]:
    """(line number, text, is a block comment) of every comment outside strings.

    JSON strings never span lines, so ``//`` comments are found line by line (only lines
    that hold ``//`` at all are looked at); a text with ``/*`` is read whole instead.
    """
    if "/*" in text:
        yield from _comments_with_blocks(text)
        return
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    for number, line in enumerate(text.split("\n"), 1):
        if "//" not in line:
            continue
        bare = line.lstrip()
        if bare.startswith("//"):  # a comment line (most): no string to skip before it
            yield number, bare[2:], False
            continue
        match = _LINE_COMMENT.match(line)
        if match is not None:
            yield number, match.group(1), False


#: A JSON string (skipped), a ``//`` comment (to CR or LF, as Jackson ends it) or a block.
_TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"?|//([^\r\n]*)|/\*(.*?)(?:\*/|\Z)', re.DOTALL)


def _comments_with_blocks(text: str) -> Iterator[tuple[int, str, bool]]:
    line, counted = 1, 0
    lines = unified_line_ends(text)  # lines end at CR, LF or CR LF, as Jackson counts them
    for match in _TOKEN.finditer(text):
        line_text, block = match.group(1), match.group(2)
        if line_text is None and block is None:
            continue  # a string
        line += lines.count("\n", counted, match.start())
        counted = match.start()
        yield line, (line_text if line_text is not None else block), block is not None
