"""Why a text is not JSON as Kafka reads it, in words, at the exact line and column.

The tokenizer (:mod:`kcompat.spec.load`) only knows that it could not go on; these
functions look at what stopped it and say what to fix.
"""

from __future__ import annotations

import re

from kcompat.spec.jackson import line_and_column

Position = tuple[int, int]  # (line, column), both 1-based


class LoadError(Exception):
    """Input that cannot be read as a document at all; carries a precise position."""

    def __init__(self, message: str, pos: Position = (1, 1)) -> None:
        super().__init__(message)
        self.message = message
        self.pos = pos


#: The control characters Jackson refuses between tokens and in comments.
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f]")


def control_character(char: str, where: Position) -> LoadError:
    """A control character where Jackson refuses it (Kafka's build fails on the file)."""
    return LoadError(
        f"control character {char!r} between tokens or in a comment: Kafka's parser "
        "(Jackson) allows only space, tab, CR and LF there; delete it",
        where,
    )


def bad_token(text: str, offset: int, where: Position) -> LoadError:
    """Why the text at ``offset`` (at ``where``) is no JSON token, in words."""
    char = text[offset]
    if text.startswith("/*", offset):
        return _bad_block_comment(text, offset, where)
    if char < " ":  # tab, CR and LF are whitespace: never here
        return control_character(char, where)
    if char == '"':
        return _bad_string(text, offset, where)
    if char == "'":
        return LoadError("single-quoted string; JSON strings use double quotes", where)
    if char.isalpha() or char == "_":
        word = re.match(r"[A-Za-z_][A-Za-z0-9_]*", text[offset:])
        name = word.group() if word else char
        if name in ("True", "False", "None", "NaN", "Infinity", "undefined"):
            hint = {"True": "true", "False": "false", "None": "null"}.get(name)
            fix = f"; write {hint}" if hint else "; it is not JSON"
            return LoadError(f"unexpected {name!r}{fix}", where)
        return LoadError(f"unexpected {name!r}: keys and strings must be double-quoted", where)
    if char in "+-.0123456789":
        word = re.match(r"[-+.0-9A-Za-z_]+", text[offset:])
        number = word.group() if word else char
        return LoadError(
            f"invalid number {number!r}: JSON numbers are decimal, without a leading + "
            'or leading zeros (write hex defaults as strings, e.g. "0x10")',
            where,
        )
    if char == "/":
        return LoadError("stray '/': comments start with // or /*", where)
    return LoadError(f"unexpected character {char!r}", where)


def _bad_block_comment(text: str, offset: int, where: Position) -> LoadError:
    """A ``/*`` the tokenizer could not skip: it holds a control character, or never
    ends."""
    end = text.find("*/", offset + 2)
    if end < 0:
        return LoadError("unterminated /* comment; close it with */", where)
    control = _CONTROL.search(text, offset, end)
    assert control is not None  # the only other reason the comment was not skipped
    return control_character(control.group(), line_and_column(text, control.start()))


def _bad_string(text: str, offset: int, where: Position) -> LoadError:
    """Why the string starting at ``offset`` (at ``where``) is not a JSON string, where
    exactly (it never spans lines: positions are on its line)."""

    def at(index: int) -> Position:
        return (where[0], where[1] + index - offset)

    index = offset + 1
    while index < len(text):
        char = text[index]
        if char == '"':  # unreachable for a well-formed prefix; kept for safety
            break
        if char == "\n" or text.startswith("\r\n", index):
            break
        if char < " ":
            return LoadError(
                f"control character {char!r} inside a string; write it escaped (\\t, \\u0000...)",
                at(index),
            )
        if char == "\\":
            escape = text[index + 1 : index + 2]
            if escape == "u":
                digits = text[index + 2 : index + 6]
                if re.fullmatch(r"[0-9A-Fa-f]{4}", digits) is None:
                    return LoadError(
                        "invalid \\u escape in string: write four hex digits",
                        at(index),
                    )
                index += 6
                continue
            if escape in ("", "\n", "\r"):
                break  # a backslash at the end of the line: the string never ends
            if escape not in '"\\/bfnrt':
                shown = "\\" + escape
                return LoadError(
                    f"invalid escape {shown!r} in string; JSON allows "
                    '\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX',
                    at(index),
                )
            index += 2
            continue
        index += 1
    return LoadError(
        "unterminated string; add the closing double quote on the same line",
        where,
    )
