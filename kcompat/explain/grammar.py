"""One version's wire layout as a grammar, in the manner of Kafka's protocol guide.

``Metadata Response (Version: 12) => throttle_time_ms [brokers] ... _tagged_fields``,
one line per nested struct, and a table of every field with its wire type and size.
Built from :func:`kcompat.spec.resolve.resolve`, so what it prints is what the codec
writes: compact or classic lengths, encoding varints, null markers, tag sections.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from kcompat.explain.timeline import default_text
from kcompat.spec.model import Message
from kcompat.spec.resolve import Kind, LayoutField, StructLayout, Wire, resolve

_WORD_BREAK = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
TAGGED_FIELDS = "_tagged_fields"


def snake(name: str) -> str:
    """``ThrottleTimeMs`` -> ``throttle_time_ms`` (the protocol guide's spelling)."""
    return _WORD_BREAK.sub("_", name).lower()


def title(message: Message) -> str:
    """``MetadataResponse`` -> ``Metadata Response``; other names stay as they are."""
    for suffix in ("Request", "Response"):
        stem = message.name.removesuffix(suffix)
        if stem != message.name and stem:
            return f"{stem} {suffix}"
    return message.name


@dataclass(frozen=True, slots=True)
class GrammarLine:
    """``name => item item ... _tagged_fields`` for the message or one nested struct."""

    name: str
    items: tuple[str, ...]
    tagged: tuple[tuple[int, str], ...]  # (tag, name) of the struct's tagged fields
    path: str  # spec path of the struct's field ("" for the message itself)

    @property
    def text(self) -> str:
        return f"{self.name} => {' '.join(self.items)}" if self.items else self.name

    @property
    def tagged_text(self) -> str:
        """``  tagged fields: 0 next_poll_ms, 1 coordinator`` (empty without tagged fields)."""
        if not self.tagged:
            return ""
        return "  tagged fields: " + ", ".join(f"{tag} {name}" for tag, name in self.tagged)

    def texts(self) -> list[str]:
        """The line, then its tagged fields line if any."""
        return [self.text, self.tagged_text] if self.tagged else [self.text]


@dataclass(frozen=True, slots=True)
class GrammarRow:
    """One field (or a ``_tagged_fields`` section) in the field table."""

    path: str  # spec path (Topics.Partitions.PartitionIndex); "" for a tag section
    name: str  # snake_case, as in the grammar
    depth: int
    wire: str  # INT32, COMPACT_NULLABLE_STRING, ...
    size: str  # "4", "1-5" (varint), "var"
    fixed_size: int | None
    tag: int | None = None
    nullable: bool = False
    default: str = ""  # an explicit default, as a reviewer reads it
    about: str = ""
    section: tuple[tuple[int, str], ...] = ()  # a tag section's (tag, name) entries

    @property
    def notes(self) -> str:
        """``tag 0, default -1`` for a field; ``tags 0 unit, 1 note`` for a tag section."""
        if self.name == TAGGED_FIELDS and not self.path:
            listed = ", ".join(f"{tag} {name}" for tag, name in self.section)
            return f"tags {listed}" if listed else ""
        parts = []
        if self.tag is not None:
            parts.append(f"tag {self.tag}")
        if self.default:
            parts.append(f"default {self.default}")
        return ", ".join(parts)


@dataclass(frozen=True)
class Grammar:
    message: Message
    version: int
    flexible: bool
    lines: tuple[GrammarLine, ...]
    rows: tuple[GrammarRow, ...]

    @property
    def heading(self) -> str:
        return f"{title(self.message)} (Version: {self.version})"


def build_grammar(message: Message, version: int) -> Grammar:
    """The grammar of ``message`` at ``version`` (raises ValueError if not a valid version)."""
    layout = resolve(message, version)
    lines: list[GrammarLine] = []
    names = _line_names(layout.root)
    _lines(layout.root, f"{title(message)} (Version: {version})", "", names, lines)
    rows: list[GrammarRow] = []
    _rows(layout.root, 0, rows)
    return Grammar(message, version, layout.flexible, tuple(lines), tuple(rows))


def _struct(wire: Wire) -> StructLayout | None:
    if wire.struct is not None:
        return wire.struct
    return wire.element.struct if wire.element is not None else None


def _item(entry: LayoutField) -> str:
    name = snake(entry.name)
    return f"[{name}]" if entry.wire.kind is Kind.ARRAY else name


def _nested(struct: StructLayout) -> list[LayoutField]:
    return [e for e in struct.all_fields() if _struct(e.wire) is not None]


def _line_names(root: StructLayout) -> dict[str, str]:
    """Each nested struct's line name: its snake name, or its snake path when ambiguous."""
    paths: list[str] = []
    stack = [root]
    while stack:
        struct = stack.pop()
        for entry in _nested(struct):
            paths.append(entry.path)
            inner = _struct(entry.wire)
            assert inner is not None
            stack.append(inner)
    leaves = Counter(snake(p.rsplit(".", 1)[-1]) for p in paths)
    out = {}
    for path in paths:
        leaf = snake(path.rsplit(".", 1)[-1])
        out[path] = leaf if leaves[leaf] == 1 else ".".join(snake(p) for p in path.split("."))
    return out


def _lines(
    struct: StructLayout, name: str, path: str, names: dict[str, str], out: list[GrammarLine]
) -> None:
    items = [_item(e) for e in struct.fields]
    if struct.flexible:
        items.append(TAGGED_FIELDS)
    tagged = tuple((e.tag, snake(e.name)) for e in struct.tagged if e.tag is not None)
    out.append(GrammarLine(name, tuple(items), tagged, path))
    for entry in _nested(struct):
        inner = _struct(entry.wire)
        assert inner is not None
        _lines(inner, names[entry.path], entry.path, names, out)


def _rows(struct: StructLayout, depth: int, out: list[GrammarRow]) -> None:
    for entry in struct.fields:
        _row(entry, depth, out)
    if struct.flexible:
        section = tuple((e.tag, snake(e.name)) for e in struct.tagged if e.tag is not None)
        out.append(
            GrammarRow(
                path="",
                name=TAGGED_FIELDS,
                depth=depth,
                wire="TAGGED_FIELDS",
                size="1" if not struct.tagged else "var",
                fixed_size=None,
                section=section,
            )
        )
        for entry in struct.tagged:
            _row(entry, depth + 1, out)


def _row(entry: LayoutField, depth: int, out: list[GrammarRow]) -> None:
    wire = entry.wire
    default = entry.field.default
    size = _size(wire)
    out.append(
        GrammarRow(
            path=entry.path,
            name=snake(entry.name),
            depth=depth,
            wire=wire.describe(),
            size=str(size) if size is not None else _varying(wire),
            fixed_size=size,
            tag=entry.tag,
            nullable=entry.nullable,
            default=default_text(default) if default.explicit else "",
            about=entry.field.about,
        )
    )
    inner = _struct(wire)
    if inner is not None:
        _rows(inner, depth + 1, out)


def _size(wire: Wire) -> int | None:
    """Bytes on the wire when constant: scalars, and structs made only of them."""
    if wire.kind is not Kind.STRUCT:
        return wire.fixed_size
    struct = wire.struct
    if struct is None or struct.flexible or not struct.defined:
        return None
    total = 1 if wire.null_marker == "int8" else 0
    if wire.null_marker == "uvarint":
        return None
    for entry in struct.fields:
        size = _size(entry.wire)
        if size is None:
            return None
        total += size
    return total


def _varying(wire: Wire) -> str:
    if wire.kind is Kind.INT:  # encoding varints: 7 bits per byte
        return f"1-{(wire.bits + 6) // 7}"
    return "var"
