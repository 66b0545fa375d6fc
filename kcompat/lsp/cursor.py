"""Where the cursor is in a spec that is being typed (and so rarely parses).

Completion cannot wait for valid JSON: ``{"name": "Foo", "ty`` is what the editor holds
when it asks. This reads the text's tokens up to the cursor with a stack of open objects
and arrays, forgiving missing commas and unclosed brackets, and says whether the cursor
is at a key or at a value (of which key), in which kind of object, and what text the
completion replaces.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kcompat.lsp.text import Token, string_value, tokens

#: Which object kind an array of objects under each key holds.
_ITEM_KINDS = {"fields": "field", "commonStructs": "commonStruct"}


@dataclass
class _Frame:
    """One open object or array while reading."""

    is_object: bool
    start: int  # the offset of its bracket
    kind: str = ""  # message, field, commonStruct (objects); the items' kind (arrays)
    expect: str = "key"  # object: key, colon, value, comma; array: value, comma
    key: str = ""  # object: the last key read
    keys: set[str] = field(default_factory=set)


@dataclass(frozen=True)
class Cursor:
    """What completion needs to know about the cursor."""

    kind: str  # the enclosing object's kind: message, field, commonStruct, or ""
    at_key: bool  # a key goes here (else a value)
    key: str  # the key whose value goes here ("" at a key)
    start: int  # the text a completion replaces: the token being typed, or empty
    end: int
    keys: frozenset[str]  # the keys the enclosing object already has
    in_array: bool = False  # the value is an item of an array (``listeners``)
    array_start: int = -1  # the '[' of the array the enclosing object is an item of


def cursor_at(text: str, offset: int) -> Cursor | None:
    """The cursor at ``offset`` of ``text``, or None outside any object (or in a comment)."""
    read = _read_to(text, offset)
    if read is None or not read[0]:
        return None
    stack, typed = read
    top = stack[-1]
    start, end = (typed.start, typed.end) if typed is not None else (offset, offset)
    parent = stack[-2] if len(stack) > 1 else None
    if not top.is_object:
        owner = parent.key if parent is not None else ""
        kind = parent.kind if parent is not None else ""
        return Cursor(kind, False, owner, start, end, frozenset(), in_array=True)
    at_key = top.expect in ("key", "comma")
    keys = top.keys | _keys_after(text, offset)
    if typed is not None and at_key:
        keys.discard(string_value(typed.text))
    return Cursor(
        top.kind,
        at_key,
        "" if at_key else top.key,
        start,
        end,
        frozenset(keys),
        array_start=parent.start if parent is not None and not parent.is_object else -1,
    )


def _read_to(text: str, offset: int) -> tuple[list[_Frame], Token | None] | None:
    """The containers open at ``offset``, and the token being typed there (a string or a
    word the completion replaces); None where nothing is to be completed (in a comment,
    inside punctuation)."""
    stack: list[_Frame] = []
    for token in tokens(text, comments=True):
        if token.start >= offset:
            break
        if token.kind == "comment":
            if token.end > offset or (token.end == offset and token.text.startswith("//")):
                return None  # in a comment: nothing to complete
            continue
        if token.end >= offset and token.kind in ("string", "word"):
            return stack, token  # the token being typed: completion replaces it
        if token.end > offset:
            return None  # inside punctuation: nothing to complete
        _read(stack, token)
    return stack, None


def _read(stack: list[_Frame], token: Token) -> None:
    """One token's effect on the open containers (forgiving: a string where a comma was
    due starts a new key, a closer with nothing open is ignored)."""
    text = token.text
    top = stack[-1] if stack else None
    if text in ("{", "["):
        kind = "message" if top is None else ""
        if top is not None and not top.is_object:
            kind = top.kind
        elif top is not None and text != "{":
            kind = _ITEM_KINDS.get(top.key, "")
        if top is not None:
            top.expect = "comma"
        stack.append(_Frame(text == "{", token.start, kind, "key" if text == "{" else "value"))
    elif text in ("}", "]"):
        if stack:
            stack.pop()
    elif top is None:
        return
    elif text == ":":
        top.expect = "value"
    elif text == ",":
        top.expect = "key" if top.is_object else "value"
    elif top.is_object and token.kind == "string" and top.expect in ("key", "comma"):
        top.key = string_value(text)
        top.keys.add(top.key)
        top.expect = "colon"
    else:
        top.expect = "comma"


def _keys_after(text: str, offset: int) -> set[str]:
    """Keys of the enclosing object written after the cursor (up to its closing brace)."""
    found: set[str] = set()
    depth = 0
    previous: Token | None = None
    for token in tokens(text, offset):
        if token.text in ("{", "["):
            depth += 1
        elif token.text in ("}", "]"):
            depth -= 1
            if depth < 0:
                break
        elif (
            token.text == ":"
            and depth == 0
            and previous is not None
            and previous.kind == "string"
            and previous.start >= offset
        ):
            found.add(string_value(previous.text))
        previous = token
    return found


def tags_in_array(text: str, array_start: int) -> set[int]:
    """The ``tag`` values of the objects directly in the array opened at ``array_start``."""
    found: set[int] = set()
    depth = 0
    window: list[Token] = []
    for token in tokens(text, array_start):
        if token.text in ("{", "["):
            depth += 1
        elif token.text in ("}", "]"):
            depth -= 1
            if depth <= 0:
                break
        window = [*window[-2:], token]
        if depth == 2 and len(window) == 3 and window[0].text == '"tag"' and window[1].text == ":":
            value = window[2].text.strip('"')
            if value.isdigit():
                found.add(int(value))
    return found
