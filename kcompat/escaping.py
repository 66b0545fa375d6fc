"""Names and values from spec files, shown so that a terminal never acts on them.

A message, field, type or file name, or a decoded string, may hold an escape sequence
(ESC, CSI), a bidi override that reorders what the reader sees, or a line separator that
fakes a new line. Every human-facing format writes such characters escaped, the way
Python writes them (``\\x1b``, ``\\u202e``); machine formats (JSON) keep the real values,
written as ``\\u`` escapes. Everything escaped here is also a character XML 1.0 forbids
or should not carry raw, so text passed through :func:`shown` is safe in JUnit too.
"""

from __future__ import annotations

import re

#: C0 and C1 controls, DEL, bidi marks, embeddings, overrides and isolates, the line and
#: paragraph separators, lone surrogates and the two non-characters XML forbids.
UNSAFE = re.compile(
    "[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
    "\u2028\u2029\ud800-\udfff\ufffe\uffff]"
)
#: What :data:`UNSAFE` matches that ``json.dumps`` leaves raw (it escapes C0 itself).
_UNSAFE_IN_JSON = re.compile(
    "[\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029\ud800-\udfff\ufffe\uffff]"
)


def _escaped(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def _json_escaped(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def shown(text: str) -> str:
    """One line of text with every character a terminal could act on escaped (newlines
    and tabs too: a name never holds one legitimately)."""
    return UNSAFE.sub(_escaped, text) if UNSAFE.search(text) else text


def shown_lines(text: str) -> list[str]:
    """Text of several lines (``\\n`` only: never str.splitlines, which also breaks at
    U+2028 and friends), each line :func:`shown`."""
    return [shown(line) for line in text.split("\n")]


def shown_block(text: str) -> str:
    """Text of several lines, its newlines kept and everything else :func:`shown`."""
    return "\n".join(shown_lines(text))


def json_safe(document: str) -> str:
    """A serialised JSON document (``ensure_ascii=False``) with the characters a terminal
    acts on written as ``\\u`` escapes: the same values, still valid JSON, still UTF-8
    for everything else. Such characters only occur inside strings (JSON's whitespace is
    space, tab, CR and LF), so escaping them in place keeps the document's meaning."""
    return _UNSAFE_IN_JSON.sub(_json_escaped, document)
