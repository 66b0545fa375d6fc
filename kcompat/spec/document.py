"""The tree the loader builds from a spec's text: JSON objects and arrays that remember
where each of their keys and values is, with the recoverable notes and the kcompat
comments of the file (:mod:`kcompat.spec.load` reads text into it)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kcompat.spec.syntax_errors import Position


class JObject(dict[str, Any]):
    """A JSON object with the positions of itself, its keys and its values."""

    __slots__ = ("key_pos", "pos", "value_pos")

    def __init__(self, pos: Position) -> None:
        super().__init__()
        self.pos = pos
        self.key_pos: dict[str, Position] = {}
        self.value_pos: dict[str, Position] = {}

    def where(self, key: str | None = None) -> Position:
        """Position of ``key`` if present, else of the object itself."""
        if key is not None and key in self.key_pos:
            return self.key_pos[key]
        return self.pos

    def where_value(self, key: str) -> Position:
        """Position of the value of ``key`` if present, else of the object."""
        return self.value_pos.get(key, self.pos)


class JArray(list[Any]):
    """A JSON array with the positions of itself and of its items."""

    __slots__ = ("item_pos", "pos")

    def __init__(self, pos: Position) -> None:
        super().__init__()
        self.pos = pos
        self.item_pos: list[Position] = []


@dataclass(frozen=True, slots=True)
class SyntaxNote:
    """A recoverable syntax problem: the document still parses, lint reports it."""

    kind: str  # "duplicate-key" | "trailing-comma" | "trailing-content"
    message: str
    pos: Position


@dataclass(frozen=True, slots=True)
class Comment:
    """A ``//`` comment that mentions kcompat (suppressions), with its line."""

    line: int
    text: str
    own_line: bool  # nothing but whitespace before it on its line
    column: int = 1  # where the comment starts on its line (1-based)


@dataclass(frozen=True)
class Document:
    """A parsed spec file: its root value, recoverable notes, and kcompat comments."""

    path: str
    text: str
    root: Any
    notes: tuple[SyntaxNote, ...] = ()
    comments: tuple[Comment, ...] = field(default=(), repr=False)
