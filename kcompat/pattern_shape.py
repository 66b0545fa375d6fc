"""Which configured patterns kcompat compiles at all: a bound on shape, checked before
compiling.

A pattern from configuration (``release-tags``) is the change's own input, and the
``regex`` engine's time budget covers matching only. Compiling writes counted repeats
out: ``((a{1000}){1000}){1000}`` is a billion nodes (22.7 GB, 72 s), and recursion
(``(?R)``) exhausts memory within a second of matching. So a pattern is read here first,
token by token, without compiling, and refused when:

- it is longer than :data:`MAX_LENGTH` characters;
- written out, its counted repeats make more than :data:`MAX_SIZE` items (each repeat's
  upper count times what it repeats, nested repeats multiplied);
- it recurses or calls a group (``(?R)``, ``(?1)``, ``(?&name)``, ``(?P>name)``);
- it asks for fuzzy matching (``{e<=1}``: any brace that is not a counted repeat), or
  for syntax only the ``regex`` engine knows (its flags, verbs, nested sets, named lists,
  verbose mode, whose whitespace would hide a count from this reading).

What is accepted is Python's own ``re`` syntax within those bounds. The reading errs on
the side of a larger count: a construct it does not know is refused, never guessed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: The longest pattern accepted: a release pattern needs a few dozen characters.
MAX_LENGTH = 256
#: The most items a pattern's counted repeats may make when written out (compiling
#: costs about 300 bytes an item: 10,000 items are 3 MB).
MAX_SIZE = 10_000
#: Python's inline flags (``(?i)``, ``(?-i:...)``), but ``x``: verbose mode ignores
#: whitespace and ``#`` comments, which this reading would take literally.
_FLAGS = frozenset("aiLmsu")
_SHOWN_FLAGS = "a, i, L, m, s and u"
_COUNTED = re.compile(r"\{(\d*)(,)?(\d*)\}")
_NAME = re.compile(r"[^\W\d]\w*")
_CONDITION = re.compile(r"\((?:\d+|[^\W\d]\w*)\)")
_RECURSION = re.compile(r"\(\?(?:R|[+-]?\d|&|P>)")
_FUZZY_HINT = "fuzzy matching such as {e<=1} is not accepted; write \\{ for a brace"


class Refused(ValueError):
    """A pattern refused by shape; the message says why, in words a user can act on."""


@dataclass
class _Group:
    """One open group while reading: the size of what it holds so far, and of the item a
    quantifier after it would repeat (None: nothing to repeat)."""

    total: int = 0
    last: int | None = None

    def add(self, size: int) -> None:
        self.total += size
        self.last = size

    def repeat(self, times: int) -> None:
        if self.last is not None:
            self.total += self.last * (times - 1)
            self.last *= times


def check_shape(pattern: str) -> None:
    """Raise :class:`Refused` when ``pattern`` is not one kcompat compiles (see the module
    docstring for the bounds); return when it may be compiled."""
    if len(pattern) > MAX_LENGTH:
        raise Refused(
            f"it is {len(pattern):,} characters long (at most {MAX_LENGTH}); release names "
            "need a shorter pattern"
        )
    size = _Reader(pattern).size()
    if size > MAX_SIZE:
        said = f"{size:,}" if size < 10**15 else "over 10^15"
        raise Refused(
            f"its counted repeats, written out, make {said} items (at most {MAX_SIZE:,}); "
            "use smaller counts, or + and *"
        )


class _Reader:
    """Reads a pattern once, left to right, keeping a size per open group."""

    def __init__(self, pattern: str) -> None:
        self.text = pattern
        self.at = 0
        self.groups = [_Group()]

    def size(self) -> int:
        while self.at < len(self.text):
            self._step()
        return sum(group.total for group in self.groups)

    def _step(self) -> None:
        char = self.text[self.at]
        group = self.groups[-1]
        if char == "\\":
            self._escape()
            group.add(1)
        elif char == "[":
            self._set()
            group.add(1)
        elif char == "(":
            self._open()
        elif char == ")":
            self.at += 1
            if len(self.groups) > 1:
                inner = self.groups.pop()
                self.groups[-1].add(inner.total + 1)
            else:
                group.add(1)  # unbalanced: the engine says so when compiling
        elif char == "|":
            self.at += 1
            group.last = None
        elif char in "*+?":
            self.at += 1
            self._lazy_or_possessive()
        elif char == "{":
            self._counted()
        else:
            self.at += 1
            group.add(1)

    def _escape(self) -> None:
        escaped = self.text[self.at + 1 : self.at + 2]
        if escaped == "g":
            raise Refused("\\g<...> is not accepted; write (?P=name) for a backreference")
        if escaped == "L":
            raise Refused("named lists (\\L<...>) are not accepted")
        self.at += 2
        if escaped in ("p", "P", "N") and self.text[self.at : self.at + 1] == "{":
            close = self.text.find("}", self.at)
            self.at = len(self.text) if close < 0 else close + 1

    def _set(self) -> None:
        """Past a ``[...]`` set (a nested ``[`` is refused: the regex engine's set
        operations would read it otherwise)."""
        self.at += 1
        if self.text[self.at : self.at + 1] == "^":
            self.at += 1
        if self.text[self.at : self.at + 1] == "]":
            self.at += 1
        while self.at < len(self.text):
            char = self.text[self.at]
            if char == "\\":
                self.at += 2
            elif char == "[":
                raise Refused("a [ inside a set is not accepted; write \\[ for a bracket")
            elif char == "]":
                self.at += 1
                return
            else:
                self.at += 1

    def _open(self) -> None:
        rest = self.text[self.at :]
        if rest.startswith("(*"):
            raise Refused("backtracking verbs such as (*SKIP) are not accepted")
        if not rest.startswith("(?"):
            self.at += 1
            self.groups.append(_Group())
            return
        if _RECURSION.match(rest):
            raise Refused("recursion and group calls ((?R), (?1), (?&name)) are not accepted")
        body = rest[2:]
        for opener in (":", "=", "!", ">", "<=", "<!"):
            if body.startswith(opener):
                self.at += 2 + len(opener)
                self.groups.append(_Group())
                return
        if body.startswith(("P<", "<")):
            start = 4 if body.startswith("P<") else 3
            name = _NAME.match(rest, start)
            if name is None or rest[name.end() : name.end() + 1] != ">":
                raise Refused(f"a group name in {_first(rest)} is not accepted")
            self.at += name.end() + 1
            self.groups.append(_Group())
            return
        if body.startswith("P="):
            close = rest.find(")")
            self.at += len(rest) if close < 0 else close + 1
            self.groups[-1].add(1)
            return
        if body.startswith("#"):
            self._comment()
            return
        if body.startswith("("):
            condition = _CONDITION.match(rest, 2)
            if condition is None:
                raise Refused(f"the condition in {_first(rest)} is not accepted")
            self.at += condition.end()
            self.groups.append(_Group())
            return
        self._flags(rest)

    def _comment(self) -> None:
        """Past ``(?#...)``: it ends at the first ``)`` not escaped, as the engine reads."""
        self.at += 3
        while self.at < len(self.text) and self.text[self.at] != ")":
            self.at += 2 if self.text[self.at] == "\\" else 1
        self.at += 1

    def _flags(self, rest: str) -> None:
        """``(?i)``, ``(?i-s:...)``: Python's flags only (not verbose mode)."""
        end = 2
        while end < len(rest) and rest[end] not in ":)":
            end += 1
        letters = rest[2:end].replace("-", "")
        if end == len(rest) or not letters.isalpha():
            raise Refused(f"{_first(rest)} is not accepted")
        if "x" in letters:
            raise Refused("verbose mode (x) is not accepted")
        odd = [letter for letter in letters if letter not in _FLAGS]
        if odd:
            raise Refused(f"the flag {odd[0]!r} is not accepted (Python's are {_SHOWN_FLAGS})")
        self.at += end + 1
        if rest[end] == ":":
            self.groups.append(_Group())

    def _counted(self) -> None:
        found = _COUNTED.match(self.text, self.at)
        if found is None or not (found.group(1) or found.group(2)):
            shown = _first(self.text[self.at :])
            raise Refused(f"a brace that is not a counted repeat ({shown}): {_FUZZY_HINT}")
        low = int(found.group(1) or 0)
        high = int(found.group(3)) if found.group(3) else (low + 1 if found.group(2) else low)
        self.at = found.end()
        self.groups[-1].repeat(max(high, 1))
        self._lazy_or_possessive()

    def _lazy_or_possessive(self) -> None:
        if self.text[self.at : self.at + 1] in ("?", "+"):
            self.at += 1


def _first(text: str, width: int = 12) -> str:
    """The start of a construct, for a message."""
    return text[:width] + ("..." if len(text) > width else "")
