"""What the writer meant, and whether the reader made the same of it.

Fields are matched by name; a field the other side does not know by name is matched by
position among the untagged fields, or by tag number among the tagged ones (a rename
keeps its bytes and its meaning). A tagged field only the writer knows is dropped by the
reader (compatible); one only the reader knows must read as its default; an untagged
field only one side knows must hold its default there. Values compare by type as well
as value, NaN equals NaN, and the one documented type change (an array of primitives
becoming an array of single-field structs) compares the element with that field. Structs
that are the same bytes with their fields grouped differently compare in wire order.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from kcompat.codec.labels import join
from kcompat.codec.values import default_value
from kcompat.spec.resolve import Kind, LayoutField, StructLayout, Wire
from kcompat.spec.shape import is_inline, struct_shape

Pairs = list[tuple[LayoutField | None, LayoutField | None]]


@dataclass(frozen=True, slots=True)
class Mismatch:
    path: str
    written: Any
    read: Any


class Comparer:
    """Compares written and read values of two layouts (caches field pairings; keep one
    per proof run)."""

    def __init__(self) -> None:
        self.pairs: dict[tuple[int, int], tuple[StructLayout, StructLayout, Pairs, bool]] = {}
        self.regroupings: dict[tuple[int, int], tuple[StructLayout, StructLayout, bool]] = {}

    def pair(self, writer: StructLayout, reader: StructLayout) -> tuple[Pairs, bool]:
        """The field pairs, and whether plain ``==`` of the two values decides equality."""
        key = (id(writer), id(reader))
        entry = self.pairs.get(key)
        if entry is None or entry[0] is not writer or entry[1] is not reader:
            entry = (writer, reader, _pair_fields(writer, reader), _same_shape(writer, reader))
            self.pairs[key] = entry
        return entry[2], entry[3]

    def regrouped(self, writer: StructLayout, reader: StructLayout) -> bool:
        """Whether two structs are the same bytes with their untagged fields grouped
        differently (a non-nullable struct flattened, or fields gathered into one)."""
        key = (id(writer), id(reader))
        found = self.regroupings.get(key)
        if found is None or found[0] is not writer or found[1] is not reader:
            names_w = [f.name for f in writer.fields]
            names_r = [f.name for f in reader.fields]
            same = names_w != names_r and struct_shape(writer) == struct_shape(reader)
            found = (writer, reader, same and _has_inline_struct(writer, reader))
            self.regroupings[key] = found
        return found[2]

    def compare_struct(
        self,
        writer: StructLayout,
        reader: StructLayout,
        written: dict[str, Any],
        read: dict[str, Any],
        path: str,
    ) -> Mismatch | None:
        pairs, same_shape = self.pair(writer, reader)
        if same_shape and written == read:
            return None  # same names and kinds: == is exact (a NaN takes the long way)
        if self.regrouped(writer, reader):
            # Same bytes, fields flattened or grouped differently: compare the values in
            # wire order, then the tagged fields by name as usual.
            leaves_w, leaves_r = _leaves(writer, written, path), _leaves(reader, read, path)
            for (leaf_w, item_w, _), (leaf_r, item_r, at) in zip(leaves_w, leaves_r, strict=False):
                found = self.compare(leaf_w.wire, leaf_r.wire, item_w, item_r, at)
                if found is not None:
                    return found
            pairs = [(w, r) for w, r in pairs if _tagged_pair(w, r)]
        for wlf, rlf in pairs:
            if wlf is not None and rlf is not None:
                where = join(path, wlf.name)
                mismatch = self.compare(
                    wlf.wire, rlf.wire, written.get(wlf.name), read.get(rlf.name), where
                )
            elif wlf is not None:
                if wlf.tagged:
                    continue  # the reader keeps it as an unknown tag: compatible
                item = written.get(wlf.name)
                where = join(path, wlf.name)
                mismatch = self.compare(wlf.wire, wlf.wire, item, default_value(wlf), where)
                if mismatch is not None:
                    mismatch = Mismatch(where, item, None)
            else:
                assert rlf is not None
                item = read.get(rlf.name)
                where = join(path, rlf.name)
                mismatch = self.compare(rlf.wire, rlf.wire, default_value(rlf), item, where)
                if mismatch is not None:
                    mismatch = Mismatch(where, None, item)
            if mismatch is not None:
                return mismatch
        return None

    def compare(
        self, writer: Wire, reader: Wire, written: Any, read: Any, path: str
    ) -> Mismatch | None:
        """The first place where the reader made something else of the written value."""
        if written is None or read is None:
            return None if written is None and read is None else Mismatch(path, written, read)
        if writer.kind is Kind.STRUCT and reader.kind is Kind.STRUCT:
            assert writer.struct is not None and reader.struct is not None
            if not isinstance(written, dict) or not isinstance(read, dict):
                return Mismatch(path, written, read)
            return self.compare_struct(writer.struct, reader.struct, written, read, path)
        if writer.kind is Kind.ARRAY and reader.kind is Kind.ARRAY:
            return self._compare_arrays(writer, reader, written, read, path)
        unwrapped = _unwrap_single_field(writer, reader, written, read, path)
        if unwrapped is not None:
            return self.compare(*unwrapped)
        return None if same_scalar(written, read) else Mismatch(path, written, read)

    def _compare_arrays(
        self, writer: Wire, reader: Wire, written: Any, read: Any, path: str
    ) -> Mismatch | None:
        """Arrays match when they hold as many elements and each pair matches."""
        assert writer.element is not None and reader.element is not None
        if not isinstance(written, list | tuple) or not isinstance(read, list | tuple):
            return Mismatch(path, written, read)
        if len(written) != len(read):
            return Mismatch(path, written, read)
        for index, (item_w, item_r) in enumerate(zip(written, read, strict=True)):
            mismatch = self.compare(
                writer.element, reader.element, item_w, item_r, f"{path}[{index}]"
            )
            if mismatch is not None:
                return mismatch
        return None


def _unwrap_single_field(
    writer: Wire, reader: Wire, written: Any, read: Any, path: str
) -> tuple[Wire, Wire, Any, Any, str] | None:
    """The arguments to compare instead when one side is a single-field struct and the
    other is not (the documented []T -> []S change): that field against the plain value."""
    single_w, single_r = _single_field(writer), _single_field(reader)
    if single_w is not None and isinstance(written, dict) and reader.kind is not Kind.STRUCT:
        inner = join(path, single_w.name)
        return single_w.wire, reader, written.get(single_w.name), read, inner
    if single_r is not None and isinstance(read, dict) and writer.kind is not Kind.STRUCT:
        inner = join(path, single_r.name)
        return writer, single_r.wire, written, read.get(single_r.name), inner
    return None


def _pair_fields(
    writer: StructLayout, reader: StructLayout
) -> list[tuple[LayoutField | None, LayoutField | None]]:
    """Writer fields (wire order) with their reader counterparts, then reader-only ones."""
    by_name = {lf.name: lf for lf in reader.all_fields()}
    matched: dict[int, LayoutField | None] = {}
    used: set[int] = set()
    for lf in writer.all_fields():
        other = by_name.get(lf.name)
        if other is not None and id(other) not in used:
            matched[id(lf)] = other
            used.add(id(other))
    for index, lf in enumerate(writer.fields):  # renames: same position, both unmatched
        if id(lf) not in matched and index < len(reader.fields):
            other = reader.fields[index]
            if id(other) not in used:
                matched[id(lf)] = other
                used.add(id(other))
    reader_tags = {lf.tag: lf for lf in reader.tagged}
    for lf in writer.tagged:  # renamed tagged fields: same tag, both unmatched
        other = reader_tags.get(lf.tag)
        if id(lf) not in matched and other is not None and id(other) not in used:
            matched[id(lf)] = other
            used.add(id(other))
    pairs: list[tuple[LayoutField | None, LayoutField | None]] = [
        (lf, matched.get(id(lf))) for lf in writer.all_fields()
    ]
    pairs.extend((None, lf) for lf in reader.all_fields() if id(lf) not in used)
    return pairs


def _tagged_pair(writer: LayoutField | None, reader: LayoutField | None) -> bool:
    either = writer if writer is not None else reader
    return either is not None and either.tagged


def _has_inline_struct(writer: StructLayout, reader: StructLayout) -> bool:
    return any(is_inline(writer, f) for f in writer.fields) or any(
        is_inline(reader, f) for f in reader.fields
    )


def _leaves(
    layout: StructLayout, value: dict[str, Any], path: str
) -> list[tuple[LayoutField, Any, str]]:
    """Untagged values in wire order, with inline structs opened up (see struct_shape)."""
    out: list[tuple[LayoutField, Any, str]] = []
    for entry in layout.fields:
        item = value.get(entry.name)
        where = join(path, entry.name)
        if is_inline(layout, entry) and isinstance(item, dict) and entry.wire.struct is not None:
            out.extend(_leaves(entry.wire.struct, item, where))
        else:
            out.append((entry, item, where))
    return out


def _same_shape(writer: StructLayout, reader: StructLayout) -> bool:
    """Same field names in the same order with the same kinds, recursively.

    Then the two value dicts hold the same keys with values of the same Python types, and
    ``==`` agrees with the field-by-field comparison whenever it says "equal".
    """
    left, right = writer.all_fields(), reader.all_fields()
    if [lf.name for lf in left] != [lf.name for lf in right]:
        return False
    return all(_same_kind(a.wire, b.wire) for a, b in zip(left, right, strict=True))


def _same_kind(left: Wire, right: Wire) -> bool:
    if left.kind is not right.kind:
        return False
    if left.kind is Kind.ARRAY:
        assert left.element is not None and right.element is not None
        return _same_kind(left.element, right.element)
    if left.kind is Kind.STRUCT:
        assert left.struct is not None and right.struct is not None
        return _same_shape(left.struct, right.struct)
    return True


def _single_field(wire: Wire) -> LayoutField | None:
    """The field of a struct with exactly one (untagged) field, for the []T -> []S rule."""
    if wire.kind is not Kind.STRUCT or wire.struct is None:
        return None
    struct = wire.struct
    if len(struct.fields) == 1 and not struct.tagged:
        return struct.fields[0]
    return None


def same_scalar(written: Any, read: Any) -> bool:
    """Equal values of the same kind (bool is not int; NaN equals NaN)."""
    if isinstance(written, bytearray | memoryview):
        written = bytes(written)
    if isinstance(read, bytearray | memoryview):
        read = bytes(read)
    if type(written) is not type(read):
        return False
    if isinstance(written, float):
        return written == read or (math.isnan(written) and math.isnan(read))
    return bool(written == read)
