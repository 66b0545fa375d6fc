"""The field that changed: where two layouts of one version differ, and which change
explains a misreading.

A reader fails or misreads where the bytes stop making sense, which is often after the
change that caused it; :func:`blame` walks back to the change. :func:`layout_delta`
names what differs between two layouts without the version, so versions that changed
alike are recognised as one change.
"""

from __future__ import annotations

from typing import Any

from kcompat.codec.errors import DecodeError
from kcompat.codec.evidence import BASE_TO_HEAD, INDEX
from kcompat.codec.reference_decoder import decode_spans
from kcompat.codec.spans import NO_VALUE
from kcompat.spec.resolve import Layout, LayoutField, StructLayout
from kcompat.spec.shape import layout_signature, own_shape, struct_inside, wire_shape


def divergence(writer: Layout, reader: Layout, data: bytes, error: DecodeError) -> tuple[str, Any]:
    """The first field where the reader's byte boundaries leave the writer's.

    A reader that fails usually fails later than the change that broke it (an int32 read
    as an int64 swallows the next field and fails further on), so the evidence names the
    writer's field at the first span the two readings disagree on, and what the reader
    made of those bytes. The error itself stays in the evidence.
    """
    _, written_spans, _ = decode_spans(writer, data)
    _, read_spans, _ = decode_spans(reader, data, java=True)
    for index, span in enumerate(written_spans):
        if index >= len(read_spans):
            return span.path or "(message)", None
        other = read_spans[index]
        if (span.start, span.end) != (other.start, other.end):
            read = None if other.value is NO_VALUE else other.value
            return span.path or "(message)", read
    return error.path or "(message)", None


def layout_delta(base: StructLayout, head: StructLayout, path: str = "") -> tuple[object, ...]:
    """What differs between two layouts, named without the version: the fields added,
    removed or written differently (with their wire forms, tags, nullability and
    defaults), the order of the fields both have, and the message's flexibility on each
    side. Two versions with equal deltas changed the same way."""
    # Flexibility is part of what a change means: the same retyped field is other bytes
    # in a flexible version (compact lengths, tagged sections).
    out: list[object] = [("flexible", path, base.flexible, head.flexible)] if not path else []
    base_by_name = {f.name: f for f in base.all_fields()}
    head_by_name = {f.name: f for f in head.all_fields()}
    shared_base = [f.name for f in base.fields if f.name in head_by_name]
    shared_head = [f.name for f in head.fields if f.name in base_by_name]
    if shared_base != shared_head:
        out.append(("order", path, tuple(shared_base), tuple(shared_head)))
    for name in sorted(base_by_name.keys() | head_by_name.keys()):
        old, new = base_by_name.get(name), head_by_name.get(name)
        if old is None or new is None:
            entry = new if old is None else old
            assert entry is not None
            kind = "added" if old is None else "removed"
            out.append((kind, path, name, entry.tag, layout_signature_of(entry)))
            continue
        if _own_form(old) != _own_form(new):
            out.append(("changed", path, name, _own_form(old), _own_form(new)))
        inner_old, inner_new = struct_inside(old.wire), struct_inside(new.wire)
        if inner_old is not None and inner_new is not None:
            out.extend(layout_delta(inner_old, inner_new, f"{path}.{name}" if path else name))
    return tuple(out)


def _own_form(entry: LayoutField) -> tuple[object, ...]:
    wire = entry.wire
    return (entry.tag, entry.nullable, entry.default.key(), wire.type_bits, *own_shape(wire))


def layout_signature_of(entry: LayoutField) -> tuple[object, ...]:
    """A field's whole signature (its insides included), as :func:`layout_signature`."""
    holder = StructLayout("", "", (entry,), (), False)
    return layout_signature(holder)


def blame(writer: StructLayout, reader: StructLayout, value_path: str, direction: str) -> str:
    """The spec path of the field whose change explains a misreading at ``value_path``.

    A reader fails or misreads where the bytes stop making sense, which is often after the
    change that caused it: a field removed from the first element of an array makes the
    next element, or a later field of the message, read the wrong bytes. So walk from the
    message down the path and, at each struct, look for the first untagged field (in wire
    order) whose bytes differ between the two sides: added, removed, moved, or written
    differently, its insides included. If it comes before the field on the path, the
    change is inside it (the deepest such field is named); otherwise go one level deeper.
    A change of flexibility is the message's own (""). Paths are the head revision's
    where a field exists on both sides.
    """
    if writer.flexible != reader.flexible:
        return ""
    names = [part for part in INDEX.sub("", value_path).split(".") if part and part != "(message)"]
    head_is_reader = direction == BASE_TO_HEAD
    level_w, level_r = writer, reader
    for depth, name in enumerate(names):
        changed = _first_change(level_w, level_r, head_is_reader)
        position = _position(level_w, level_r, name)
        if changed is not None and (position is None or changed[0] <= position):
            return _deepest(changed[1], changed[2], head_is_reader)
        entry_w, entry_r = _named(level_w, name), _named(level_r, name)
        if entry_w is None or entry_r is None:
            return _counterpart(level_w, level_r, entry_w, entry_r, head_is_reader, names, depth)
        child_w, child_r = struct_inside(entry_w.wire), struct_inside(entry_r.wire)
        if (
            child_w is None
            or child_r is None
            or own_shape(entry_w.wire) != own_shape(entry_r.wire)
            or depth == len(names) - 1
        ):
            return (entry_r if head_is_reader else entry_w).path
        level_w, level_r = child_w, child_r
    changed = _first_change(level_w, level_r, head_is_reader)
    if changed is None:
        return ".".join(names)
    return _deepest(changed[1], changed[2], head_is_reader)


def blame_anywhere(writer: StructLayout, reader: StructLayout, direction: str) -> str | None:
    """What :func:`blame` names for every value path, when the path cannot change it: the
    sides differ in flexibility, or in an untagged field of the struct itself (fields
    before it are the same bytes on both sides, so every misreading comes at or after it,
    and it is the change blamed). None when the change lies deeper, or only among tagged
    fields, and the path decides. The proof stops sampling once it has evidence for it."""
    if writer.flexible != reader.flexible:
        return ""
    head_is_reader = direction == BASE_TO_HEAD
    changed = _first_change(writer, reader, head_is_reader)
    if changed is None:
        return None
    return _deepest(changed[1], changed[2], head_is_reader)


def _first_change(
    writer: StructLayout, reader: StructLayout, head_is_reader: bool
) -> tuple[int, LayoutField | None, LayoutField | None] | None:
    """(wire position, writer field, reader field) of the first untagged field whose bytes
    differ, or that only one side has there; renames (same slot, same bytes) and fields
    that merely moved a struct's insides into place are not changes."""
    names_w = {f.name for f in writer.fields}
    names_r = {f.name for f in reader.fields}
    for index in range(max(len(writer.fields), len(reader.fields))):
        w = writer.fields[index] if index < len(writer.fields) else None
        r = reader.fields[index] if index < len(reader.fields) else None
        if w is not None and r is not None:
            same_bytes = wire_shape(w.wire) == wire_shape(r.wire)
            if w.name == r.name and same_bytes:
                continue
            if w.name not in names_r and r.name not in names_w and same_bytes:
                continue  # a rename
            if w.name == r.name:
                return index, w, r
            if r.name not in names_w:
                return index, None, r  # added on the reader's side
            if w.name not in names_r:
                return index, w, None  # gone from the reader's side
            return (index, None, r) if head_is_reader else (index, w, None)  # moved
        return index, w, r
    return None


def _deepest(writer: LayoutField | None, reader: LayoutField | None, head_is_reader: bool) -> str:
    """The innermost field that differs inside a changed field (the field itself when it
    is added, removed, or written differently on its own)."""
    if writer is None or reader is None:
        found = reader if writer is None else writer
        assert found is not None
        return found.path
    named = reader if head_is_reader else writer
    if own_shape(writer.wire) != own_shape(reader.wire):
        return named.path
    child_w, child_r = struct_inside(writer.wire), struct_inside(reader.wire)
    if child_w is None or child_r is None:
        return named.path
    inner = _first_change(child_w, child_r, head_is_reader)
    if inner is None:
        return named.path
    return _deepest(inner[1], inner[2], head_is_reader)


def _counterpart(
    level_w: StructLayout,
    level_r: StructLayout,
    entry_w: LayoutField | None,
    entry_r: LayoutField | None,
    head_is_reader: bool,
    names: list[str],
    depth: int,
) -> str:
    """The path of a field only one side knows by name: for a tagged field, the field the
    other side has under the same tag, named as the head revision names it."""
    found = entry_r if entry_w is None else entry_w
    if found is None:
        return ".".join(names[: depth + 1])
    if found.tagged:
        other_level = level_w if entry_w is None else level_r
        other = next((f for f in other_level.tagged if f.tag == found.tag), None)
        if other is not None:
            head_side = (other if entry_w is not None else found) if head_is_reader else None
            if head_side is None:
                head_side = found if entry_w is not None else other
            return head_side.path
    return found.path


def _position(writer: StructLayout, reader: StructLayout, name: str) -> int | None:
    """Where a field sits among the untagged fields (writer's order), None if tagged."""
    for fields in (writer.fields, reader.fields):
        for index, entry in enumerate(fields):
            if entry.name == name:
                return index
    return None


def _named(layout: StructLayout, name: str) -> LayoutField | None:
    return next((f for f in layout.all_fields() if f.name == name), None)
