"""Where each key of a TOML file is written: ``{"disable": 3, "severity.tag-changed": 7,
"ignore#2": 12}``.

Python's ``tomllib`` gives values, not positions; a finding about a setting (a weakened
``disable``, an ``[[ignore]]`` entry that accepts nothing) should point at the line that
holds it, so a reviewer's annotation lands there. This is a scanner, not a parser: it
follows table headers, ``key =`` lines (dotted keys included) and skips multi-line
strings. A file it misreads gets a wrong line number, never a wrong verdict: values always
come from ``tomllib``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

_HEADER = re.compile(r"^(\[\[?)\s*([^\[\]]+?)\s*\]\]?\s*(?:#.*)?$")
_SIMPLE = r"(?:[A-Za-z0-9_-]+|\"[^\"\n]*\"|'[^'\n]*')"
_KEY = re.compile(rf"^({_SIMPLE}(?:\s*\.\s*{_SIMPLE})*)\s*=")
_PART = re.compile(r"\"([^\"\n]*)\"|'([^'\n]*)'|([A-Za-z0-9_-]+)")


def dotted(name: str) -> str:
    """A key or table name as plain dotted text: ``"tool" . kcompat`` is ``tool.kcompat``."""
    return ".".join(next(p for p in m.groups() if p is not None) for m in _PART.finditer(name))


def key_lines(text: str, prefix: str = "") -> dict[str, int]:
    """The first line of every key and table, named relative to ``prefix`` (``tool.kcompat``
    in a ``pyproject.toml``; keys outside it are left out). The n-th table of an array of
    tables is ``name#n`` (``ignore#2``); every dotted prefix of a key is named too."""
    found: dict[str, int] = {}
    counts: dict[str, int] = {}
    table = ""
    open_string = ""
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.strip()
        if open_string:
            if line.count(open_string) % 2 == 1:
                open_string = ""
            continue
        if not line or line.startswith("#"):
            continue
        header = _HEADER.match(line)
        if header is not None:
            name = dotted(header.group(2))
            if header.group(1) == "[[":
                counts[name] = counts.get(name, 0) + 1
                table = f"{name}#{counts[name]}"
                _note(found, name, number, prefix)
            else:
                table = name
            _note(found, table, number, prefix)
            continue
        key = _KEY.match(line)
        if key is not None:
            full = f"{table}.{dotted(key.group(1))}" if table else dotted(key.group(1))
            _note(found, full, number, prefix)
        for quote in ('"""', "'''"):
            if line.count(quote) % 2 == 1:
                open_string = quote
                break
    return found


def _note(found: dict[str, int], name: str, number: int, prefix: str) -> None:
    """Record ``name`` (and each of its dotted prefixes) at ``number`` if not seen yet."""
    if prefix:
        if not name.startswith(prefix + "."):
            return
        name = name[len(prefix) + 1 :]
    parts = name.split(".")
    for end in range(1, len(parts) + 1):
        found.setdefault(".".join(parts[:end]), number)


def line_of(written: Mapping[str, int], key: str) -> int:
    """The line of ``key`` in :func:`key_lines`' answer, else of the nearest key that
    encloses it (``severity`` for ``severity.tag-changed``, ``ignore`` for ``ignore#2``),
    else 1."""
    while key not in written:
        if "." in key:
            key = key.rpartition(".")[0]
        elif "#" in key:
            key = key.partition("#")[0]
        else:
            return 1
    return written[key]
