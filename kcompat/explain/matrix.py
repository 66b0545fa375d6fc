"""A message as rows (fields) by columns (versions), each cell saying how it is written.

Cells come from :func:`kcompat.spec.resolve.resolve` for every valid version, so the
matrix shows exactly what the codec and ``diff`` see, not a second reading of the
``versions`` strings. Rows come from the model (inline and common structs expanded), so
a field that is present in no valid version still gets a row: that is worth seeing too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import StrEnum

from kcompat.spec.model import Field, Message
from kcompat.spec.placed import placed_fields
from kcompat.spec.resolve import Kind, LayoutField, StructLayout, Wire, resolve
from kcompat.spec.versions import MAX_VERSION, Versions

#: More valid versions than this (only in broken or synthetic specs) collapse into
#: columns up to the last version where anything changes, the last one standing for
#: every later version.
MAX_COLUMNS = 64


class Shape(StrEnum):
    """What a cell's main glyph says: how the value is framed on the wire."""

    ABSENT = "absent"
    FIXED = "fixed"  # constant width: bool, fixed ints, float64, uuid
    NARROW = "narrow"  # encoding fixedN narrower than the declared type (range-checked)
    CLASSIC = "classic"  # int16/int32 length or count prefix (non-flexible)
    COMPACT = "compact"  # unsigned varint length+1 (flexible, KIP-482)
    PACKED = "packed"  # encoding: zig-zag varint
    UPACKED = "upacked"  # encoding: unsigned varint
    STRUCT = "struct"  # a struct: its fields follow (as rows below)


#: Glyphs per shape: (unicode, ascii).
GLYPHS: dict[Shape, tuple[str, str]] = {
    Shape.ABSENT: ("·", "."),
    Shape.FIXED: ("●", "#"),
    Shape.NARROW: ("◐", "n"),
    Shape.CLASSIC: ("○", "o"),
    Shape.COMPACT: ("◆", "c"),
    Shape.PACKED: ("v", "v"),
    Shape.UPACKED: ("u", "u"),
    Shape.STRUCT: ("■", "S"),
}

#: What the glyphs and suffixes mean, in legend order (also in the JSON output).
LEGEND: tuple[tuple[str, str, str], ...] = (
    (*GLYPHS[Shape.FIXED], "fixed width (bool, fixed-width integer, float64, uuid)"),
    (
        *GLYPHS[Shape.NARROW],
        "fixed width narrower than its type (the `encoding` extension, range-checked)",
    ),
    (*GLYPHS[Shape.PACKED], "signed varint (encoding packed)"),
    (*GLYPHS[Shape.UPACKED], "unsigned varint (encoding upacked)"),
    (*GLYPHS[Shape.CLASSIC], "int16/int32 length or count prefix"),
    (*GLYPHS[Shape.COMPACT], "compact: unsigned varint length+1 (flexible)"),
    (*GLYPHS[Shape.STRUCT], "struct (its fields follow)"),
    ("?", "?", "nullable"),
    ("Tn", "Tn", "tagged field, tag n"),
    (*GLYPHS[Shape.ABSENT], "absent"),
)

#: Suffixes marking a cell that differs from BASE (``--against``).
CHANGE_MARKS: dict[str, str] = {"added": "+", "removed": "-", "changed": "*"}
#: The legend's words for those marks and the rows' (text and Markdown alike).
CHANGES_LEGEND = "since BASE: + added, - removed, * changed (cells); + - ~ on rows"

_STRUCT_NAME = re.compile(r"STRUCT \w+")


@dataclass(frozen=True, slots=True)
class Cell:
    """One field at one version: absent, or how it is written."""

    present: bool
    shape: Shape = Shape.ABSENT
    wire: str = ""  # Wire.describe(): INT32, COMPACT_NULLABLE_STRING, ...
    nullable: bool = False  # declared nullable at this version
    tag: int | None = None  # the tag when tagged at this version
    compact: bool = False  # uvarint length prefix (strings, bytes, records, arrays)
    encoding: str = ""  # the `encoding` written in the spec for this version
    fixed_size: int | None = None  # bytes on the wire when constant
    change: str = ""  # --against: "added", "removed", "changed" or ""

    def symbol(self, ascii_only: bool = False) -> str:
        """The short cell text: glyph, ``?`` if nullable, ``Tn`` if tagged, change mark."""
        text = GLYPHS[self.shape][1 if ascii_only else 0]
        if self.nullable:
            text += "?"
        if self.tag is not None:
            text += f"T{self.tag}"
        return text + CHANGE_MARKS.get(self.change, "")

    def key(self) -> tuple[object, ...]:
        """What must stay equal for the field's bytes to stay the same (struct names aside)."""
        wire = _STRUCT_NAME.sub("STRUCT", self.wire)
        return (self.present, self.shape, wire, self.nullable, self.tag, self.compact)


ABSENT = Cell(False)


@dataclass(frozen=True, slots=True)
class Column:
    """One version (or, for collapsed open-ended specs, the last one standing for ``N+``)."""

    version: int
    label: str  # "3", or "3+" when it stands for every later version
    flexible: bool
    deprecated: bool
    unstable: bool
    change: str = ""  # --against: "added" (new version) or "removed" (gone version)

    @property
    def flags(self) -> str:
        """D deprecated, F flexible, U unstable (the second header line)."""
        return (
            ("D" if self.deprecated else "")
            + ("F" if self.flexible else "")
            + ("U" if self.unstable else "")
        )


@dataclass(frozen=True, slots=True)
class Row:
    """One field at one place in the message, across every column."""

    path: str  # dotted from the message: Topics.Partitions.PartitionIndex
    name: str
    depth: int
    type: str  # the declared type: int32, []string, Principal, []FetchTopic
    cells: tuple[Cell, ...]
    field: Field = field(compare=False, repr=False)
    common: str = ""  # the common struct this row's type expands, if any
    within: str = ""  # the common struct this field is defined in, if any
    recursive: bool = False  # a struct containing itself: not expanded further
    change: str = ""  # --against: "added", "removed", "changed" or ""

    @property
    def tags(self) -> tuple[int, ...]:
        """The tags this field is written with, in column order, without repeats."""
        return tuple(dict.fromkeys(c.tag for c in self.cells if c.tag is not None))


@dataclass(frozen=True)
class Matrix:
    """A message across its versions."""

    message: Message
    columns: tuple[Column, ...]
    rows: tuple[Row, ...]

    @property
    def versions(self) -> tuple[int, ...]:
        return tuple(c.version for c in self.columns)

    @property
    def unstable_version(self) -> int | None:
        valid = self.message.valid_versions
        if self.message.latest_version_unstable and valid and not valid.open_ended:
            return valid.highest
        return None


def build_matrix(message: Message) -> Matrix:
    """The version matrix of a message (every valid version, structs expanded)."""
    columns = _columns(message)
    indexes = [_index(resolve(message, c.version).root) for c in columns]
    rows = [
        Row(
            path=entry.path,
            name=entry.field.name,
            depth=entry.depth,
            type=entry.field.type.text,
            cells=tuple(
                _cell(index.get(entry.path), column.version)
                for index, column in zip(indexes, columns, strict=True)
            ),
            field=entry.field,
            common=entry.common,
            within=entry.within,
            recursive=entry.recursive,
        )
        for entry in placed_fields(message)
    ]
    return Matrix(message, columns, tuple(rows))


# -- columns ------------------------------------------------------------------------------
def _columns(message: Message) -> tuple[Column, ...]:
    valid = message.valid_versions
    if valid.empty:
        return ()
    versions = list(valid.clip(valid.lowest + MAX_COLUMNS - 1))
    last_label = ""
    if valid.open_ended or len(valid) > MAX_COLUMNS:
        cap = max(valid.lowest, min(_last_boundary(message), valid.highest))
        versions = [v for v in valid.clip(cap)][-MAX_COLUMNS:]
        if versions[-1] < valid.highest:
            last_label = f"{versions[-1]}+"
    unstable = valid.highest if message.latest_version_unstable and not valid.open_ended else None
    out = []
    for version in versions:
        label = last_label if last_label and version == versions[-1] else str(version)
        out.append(
            Column(
                version,
                label,
                flexible=version in message.flexible_versions,
                deprecated=version in message.deprecated_versions,
                unstable=version == unstable,
            )
        )
    return tuple(out)


def _last_boundary(message: Message) -> int:
    """The last version at which anything in the spec changes (after it, all is alike)."""
    sets: list[Versions] = [message.flexible_versions, message.deprecated_versions]
    for _path, item in message.walk():
        sets.extend((item.versions, item.nullable_versions, item.tagged_versions))
        if item.flexible_versions is not None:
            sets.append(item.flexible_versions)
        sets.extend(rule.versions for rule in item.encoding)
    for struct in message.common_structs:
        sets.append(struct.versions)
    points = [0]
    for versions in sets:
        for low, high in versions.ranges:
            points.append(low)
            if high != MAX_VERSION:
                points.append(high + 1)
    return max(points)


# -- rows ---------------------------------------------------------------------------------
def _index(
    struct: StructLayout, into: dict[str, LayoutField] | None = None
) -> dict[str, LayoutField]:
    """Every field of a layout by dotted path (the first one wins on a duplicate name)."""
    index = {} if into is None else into
    for entry in struct.all_fields():
        index.setdefault(entry.path, entry)
        inner = _struct_of(entry.wire)
        if inner is not None:
            _index(inner, index)
    return index


def _struct_of(wire: Wire) -> StructLayout | None:
    if wire.struct is not None:
        return wire.struct
    if wire.element is not None:
        return wire.element.struct
    return None


def _cell(entry: LayoutField | None, version: int) -> Cell:
    if entry is None:
        return ABSENT
    wire = entry.wire
    rule = entry.field.encoding_at(version) if wire.kind is Kind.INT else None
    return Cell(
        present=True,
        shape=shape_of(wire),
        wire=wire.describe(),
        nullable=entry.nullable,
        tag=entry.tag,
        compact=wire.compact,
        encoding=rule.name if rule is not None else "",
        fixed_size=wire.fixed_size,
    )


def shape_of(wire: Wire) -> Shape:
    """The glyph a wire form gets."""
    kind = wire.kind
    if kind is Kind.INT:
        if wire.form == "packed":
            return Shape.PACKED
        if wire.form == "upacked":
            return Shape.UPACKED
        return Shape.NARROW if wire.bits < wire.type_bits else Shape.FIXED
    if kind in (Kind.BOOL, Kind.FLOAT64, Kind.UUID):
        return Shape.FIXED
    if kind is Kind.STRUCT:
        return Shape.STRUCT
    return Shape.COMPACT if wire.compact else Shape.CLASSIC
