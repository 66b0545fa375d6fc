"""One spec text as every feature of the server sees it: parsed once, with its offsets.

A :class:`Parsed` is a snapshot: the text an editor holds (or a file on disk), kcompat's
own parse of it (:func:`kcompat.spec.specfile.read_spec`: a document with the position
of every key and value, and the message model), and a :class:`TextIndex` to turn those
positions into an editor's ranges. Features never parse on their own.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property

from kcompat.lsp.text import UTF16, TextIndex, bracket_pairs
from kcompat.rules.lint.scopes import written_objects
from kcompat.spec.load import JArray, JObject, Position
from kcompat.spec.model import Field, Message, Struct
from kcompat.spec.specfile import SpecFile, read_spec


@dataclass(frozen=True)
class Parsed:
    """One version of one spec text, parsed."""

    path: str  # the file's path, as findings name it
    text: str
    spec: SpecFile
    encoding: str = UTF16

    @cached_property
    def index(self) -> TextIndex:
        return TextIndex(self.text, self.encoding)

    @cached_property
    def pairs(self) -> dict[int, int]:
        """Each bracket's offset -> just past its closer."""
        return bracket_pairs(self.text)

    @property
    def message(self) -> Message | None:
        return self.spec.message

    @cached_property
    def objects(self) -> tuple[tuple[str, JObject, tuple[str | int, ...]], ...]:
        """Every object as written: its kind (message, field, commonStruct), the object,
        and its JSON path from the root."""
        return tuple(_objects(self.spec))

    def offset(self, pos: Position) -> int:
        return self.index.offset(*pos)

    def span(self, pos: Position, whole: bool = False) -> tuple[int, int]:
        """The offsets of the token at ``pos``; a bracket alone unless ``whole``."""
        start = self.offset(pos)
        return start, self.index.token_end(start, self.pairs if whole else None)

    @cached_property
    def _starting(self) -> dict[Position, JObject]:
        """Each object by where it starts (the first written, if two start alike)."""
        out: dict[Position, JObject] = {}
        for _kind, obj, _path in self.objects:
            out.setdefault(obj.pos, obj)
        return out

    def object_at(self, pos: Position) -> JObject | None:
        """The object that starts at ``pos``, if one does (looked up, not searched: a
        diagnostic asks once per finding, and a spec may hold 20,000 fields)."""
        return self._starting.get(pos)

    def field_of(self, node: JObject) -> Field | None:
        """The model's field written as ``node``."""
        message = self.message
        if message is None:
            return None
        return next((item for _path, item in message.walk() if item.node is node), None)

    def struct_of(self, node: JObject) -> Struct | None:
        """The common struct written as ``node``."""
        message = self.message
        if message is None:
            return None
        return next((s for s in message.common_structs if s.node is node), None)


def parse(path: str, text: str, encoding: str = UTF16) -> Parsed:
    """Parse one text; unreadable text is a spec with an ``error``, never an exception."""
    data = text.encode("utf-8", "surrogatepass")
    return Parsed(path, text, read_spec(path, data), encoding)


def _objects(spec: SpecFile) -> Iterator[tuple[str, JObject, tuple[str | int, ...]]]:
    """:func:`written_objects` with each object's JSON path."""
    paths: dict[int, tuple[str | int, ...]] = {}
    root = spec.document.root if spec.document is not None else None
    if isinstance(root, JObject):
        _index_paths(root, (), paths)
    for kind, obj in written_objects(spec):
        yield kind, obj, paths.get(id(obj), ())


def _index_paths(
    root: JObject, at: tuple[str | int, ...], out: dict[int, tuple[str | int, ...]]
) -> None:
    """The JSON path of every object under ``root`` (iteratively: specs nest deep)."""
    stack: list[tuple[object, tuple[str | int, ...]]] = [(root, at)]
    while stack:
        value, path = stack.pop()
        if isinstance(value, JObject):
            out[id(value)] = path
            stack.extend((child, (*path, key)) for key, child in value.items())
        elif isinstance(value, JArray):
            stack.extend((child, (*path, number)) for number, child in enumerate(value))


@dataclass(frozen=True)
class Spot:
    """The key or scalar value under the cursor, in the object that holds it."""

    kind: str  # the object's kind: message, field, commonStruct
    obj: JObject
    key: str
    on_key: bool  # the cursor is on the key (else on its value)
    start: int
    end: int
    path: tuple[str | int, ...] = field(default=())


def spot_at(parsed: Parsed, offset: int) -> Spot | None:
    """What the cursor at ``offset`` is on: a key, or a scalar value, of a spec object."""
    for kind, obj, path in parsed.objects:
        for key in obj:
            start, end = parsed.span(obj.key_pos[key])
            if start <= offset <= end:
                return Spot(kind, obj, key, True, start, end, path)
            if isinstance(obj[key], JObject | JArray):
                continue
            start, end = parsed.span(obj.value_pos[key])
            if start <= offset <= end:
                return Spot(kind, obj, key, False, start, end, path)
    return None
