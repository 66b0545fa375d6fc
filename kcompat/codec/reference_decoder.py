"""The reference decoder: a plain interpreter of a layout that reads bytes field by field,
checking every length against the bytes left before allocating, bounding every varint,
and recording the span of every field (see :mod:`kcompat.codec.reference`)."""

from __future__ import annotations

import struct
import uuid
from collections.abc import Callable
from typing import Any, NoReturn

from kcompat.codec.errors import DecodeError
from kcompat.codec.ints import FLOAT64, INT16, INT32, INT_CODES, unzigzag
from kcompat.codec.java import INT32_MAX, JAVA_UTF8, UINT32_MASK, compact_length, int32
from kcompat.codec.labels import join, wire_label
from kcompat.codec.spans import NO_VALUE, Span
from kcompat.codec.values import (
    LENGTH_BITS,
    MAX_STRING_BYTES,
    UNKNOWN_TAGS,
    StructKeys,
    declared_fields,
    default_value,
    int_range,
    layout_owner_fields,
    struct_keys,
    varint_max_bytes,
)
from kcompat.spec.resolve import Kind, Layout, StructLayout, Wire


class _Reader:
    """One pass over ``buf``; ``sink`` receives every span, in order of their start.

    ``java`` reads as Kafka's generated Java readers do (:mod:`kcompat.codec.java`);
    ``keep`` false drops array items once read (a streamed dump needs no value).
    """

    def __init__(
        self,
        layout: Layout,
        buf: bytes,
        sink: Callable[[Span], None] | None,
        *,
        java: bool = False,
        keep: bool = True,
    ) -> None:
        self.layout = layout
        self.buf = buf
        self.pos = 0
        self.end = len(buf)
        self.sink = sink
        self.java = java
        self.keep = keep
        self.owners = layout_owner_fields(layout)
        self.keys: dict[int, StructKeys] = {}

    # -- plumbing ----------------------------------------------------------------------
    def fail(self, path: str, reason: str, offset: int | None = None) -> NoReturn:
        raise DecodeError(self.pos if offset is None else offset, path, reason)

    def take(self, size: int, path: str, what: str) -> int:
        left = self.end - self.pos
        if size > left:
            self.fail(path, f"{size} bytes needed ({what}), {left} left")
        start = self.pos
        self.pos += size
        return start

    def span(self, start: int, path: str, what: str, value: Any = NO_VALUE, depth: int = 0) -> None:
        if self.sink is not None:
            self.sink(Span(start, self.pos, path, what, value, depth))

    def uvarint(self, path: str, what: str, bits: int = LENGTH_BITS) -> int:
        start = self.pos
        limit = varint_max_bytes(bits)
        result = shift = 0
        for _ in range(limit):
            if self.pos >= self.end:
                self.fail(path, f"truncated varint ({what}): 1 more byte needed, 0 left")
            byte = self.buf[self.pos]
            self.pos += 1
            result |= (byte & 0x7F) << shift
            if byte < 0x80:
                if result >> bits and not self.java:
                    self.fail(path, f"varint ({what}) overflows {bits} bits", start)
                return result & UINT32_MASK if self.java else result
            shift += 7
        self.fail(path, f"varint ({what}) longer than {limit} bytes", start)

    def length_varint(self, path: str, what: str) -> int:
        """A varint length, count, tag or size: 32 bits (Java keeps the low 32 of 35)."""
        return self.uvarint(path, what, LENGTH_BITS)

    def struct_keys(self, layout: StructLayout) -> StructKeys:
        keys = self.keys.get(id(layout))
        if keys is None:
            owner = self.owners.get(id(layout))
            keys = struct_keys(self.layout.message, layout, owner)
            self.keys[id(layout)] = keys
        return keys

    # -- values ------------------------------------------------------------------------
    def read_struct(self, layout: StructLayout, path: str, depth: int) -> dict[str, Any]:
        value: dict[str, Any] = {}
        for lf in layout.fields:
            value[lf.name] = self.read_value(lf.wire, join(path, lf.name), depth)
        if layout.flexible:
            value.update(self.read_tags(layout, path, depth))
        else:
            for lf in layout.tagged:
                value[lf.name] = default_value(lf)
        return value

    def read_tags(self, layout: StructLayout, path: str, depth: int) -> dict[str, Any]:
        start = self.pos
        count = self.length_varint(path, "tagged field count")
        if self.java and count > INT32_MAX:
            # Java's loop ``for (int i = 0; i < count; i++)`` runs no time for a negative int.
            self.span(start, path, f"tagged fields: {int32(count)} (none read)", NO_VALUE, depth)
            count = 0
        else:
            self.span(start, path, f"tagged fields: {count}", NO_VALUE, depth)
        by_tag = tag_index(layout)
        found: dict[int, Any] = {}
        unknown: list[list[Any]] = []
        seen: set[int] = set()
        for _ in range(count):
            header = self.pos
            tag = self.length_varint(path, "tag")
            if self.java:
                tag = int32(tag)
            elif tag > INT32_MAX:
                self.fail(
                    join(path, f"<tag {tag}>"),
                    f"tag {tag} is over {INT32_MAX}, the largest tag (tags are Java ints)",
                    header,
                )
            size = self.length_varint(path, f"size of tag {tag}")
            index = by_tag.get(tag)
            where = join(path, layout.tagged[index].name if index is not None else f"<tag {tag}>")
            if not self.java:
                left = self.end - self.pos
                if size > left:
                    self.fail(where, f"tag {tag} declares {size} bytes, {left} left", header)
                if tag in seen:  # any order is read, as Java does; a repeat is not
                    self.fail(where, f"tag {tag} appears twice", header)
                seen.add(tag)
            if index is None:
                if tag in self.struct_keys(layout).declared_tags:
                    declared = self.tagged_elsewhere(layout, tag)
                    self.fail(
                        join(path, declared),
                        f"tag {tag} is not valid at version {self.layout.version}",
                        header,
                    )
                unknown.append([tag, self.read_unknown(tag, size, where, header, depth)])
                continue
            lf = layout.tagged[index]
            if self.java:
                # Java reads a known tag by its type, from the stream, ignoring the size.
                self.span(header, where, f"tag {tag}, {int32(size)} bytes (size not checked)",
                          NO_VALUE, depth)  # fmt: skip
                found[index] = self.read_value(lf.wire, where, depth + 1, tagged=True)
                continue
            self.span(header, where, f"tag {tag}, {size} bytes", NO_VALUE, depth)
            payload = self.pos
            saved_end, self.end = self.end, self.pos + size
            found[index] = self.read_value(lf.wire, where, depth + 1, tagged=True)
            if self.pos != self.end:
                self.fail(
                    where, f"tag {tag} declares {size} bytes, its value uses {self.pos - payload}"
                )
            self.end = saved_end
        result: dict[str, Any] = {}
        for index, lf in enumerate(layout.tagged):
            result[lf.name] = found[index] if index in found else default_value(lf)
        if unknown:
            result[UNKNOWN_TAGS] = unknown
        return result

    def read_unknown(self, tag: int, size: int, where: str, header: int, depth: int) -> bytes:
        if self.java:
            size = int32(size)
            left = self.end - self.pos
            if size < 0:
                self.fail(where, f"tag {tag} declares a negative size ({size})", header)
            if size > left:
                self.fail(where, f"tag {tag} declares {size} bytes, {left} left", header)
        data = bytes(self.buf[self.pos : self.pos + size])
        self.pos += size
        self.span(header, where, f"unknown tag {tag}, {size} bytes", data, depth)
        return data

    def tagged_elsewhere(self, layout: StructLayout, tag: int) -> str:
        owner = self.owners.get(id(layout))
        for field in declared_fields(self.layout.message, owner):
            if field.tag == tag:
                return field.name
        return f"<tag {tag}>"

    def read_value(self, wire: Wire, path: str, depth: int, tagged: bool = False) -> Any:
        kind = wire.kind
        start = self.pos
        label = wire_label(wire)
        if kind is Kind.BOOL:
            self.take(1, path, label)
            value: Any = self.buf[start] != 0
        elif kind is Kind.INT:
            value = self.read_int(wire, path, label)
        elif kind is Kind.FLOAT64:
            self.take(8, path, label)
            value = FLOAT64.unpack_from(self.buf, start)[0]
        elif kind is Kind.UUID:
            self.take(16, path, label)
            value = uuid.UUID(bytes=bytes(self.buf[start : start + 16]))
        elif kind in (Kind.STRING, Kind.BYTES, Kind.RECORDS):
            value = self.read_blob(wire, path, label)
        elif kind is Kind.ARRAY:
            return self.read_array(wire, path, label, depth)
        else:
            return self.read_struct_value(wire, path, label, depth)
        self.span(start, path, label, value, depth)
        return value

    def read_int(self, wire: Wire, path: str, label: str) -> int:
        start = self.pos
        low, high = int_range(wire)
        if wire.form == "fixed":
            size = wire.bits // 8
            self.take(size, path, label)
            code = INT_CODES[(wire.bits, wire.signed)]
            value: int = struct.unpack_from(">" + code, self.buf, start)[0]
        else:  # the `encoding` extension's varints are not Kafka's: strict in both modes
            java, self.java = self.java, False
            try:
                raw = self.uvarint(path, label, wire.bits)
            finally:
                self.java = java
            if wire.form == "packed":
                value = unzigzag(raw)
            elif wire.signed and raw >> (wire.bits - 1):
                value = raw - (1 << wire.bits)
            else:
                value = raw
        if not low <= value <= high:
            self.fail(path, f"{value} is out of range for {label} [{low}, {high}]", start)
        return value

    def read_length(self, wire: Wire, path: str, label: str, short: bool) -> int | None:
        """A length or count prefix; ``None`` for null (checked against nullability)."""
        start = self.pos
        if wire.compact:
            raw = self.length_varint(path, f"{label} length")
            length = compact_length(raw) if self.java else raw - 1
        else:
            size = 2 if short else 4
            self.take(size, path, f"{label} length")
            length = (INT16 if short else INT32).unpack_from(self.buf, start)[0]
            if length < -1 and not self.java:
                self.fail(path, f"negative length {length}", start)
        if length < 0:  # -1 (strict), or any negative int (Java)
            if not wire.nullable:
                self.fail(
                    path,
                    f"null, but the field is not nullable at version {self.layout.version}",
                    start,
                )
            return None
        return length

    def read_blob(self, wire: Wire, path: str, label: str) -> Any:
        is_string = wire.kind is Kind.STRING
        length = self.read_length(wire, path, label, short=is_string)
        if length is None:
            return None
        if is_string and length > MAX_STRING_BYTES:
            self.fail(path, f"string length {length} is over Kafka's limit of 32767 bytes")
        begin = self.take(length, path, label)
        data = bytes(self.buf[begin : self.pos])
        if not is_string:
            return data
        if self.java:
            return data.decode("utf-8", JAVA_UTF8)
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as err:
            self.fail(path, f"invalid UTF-8 ({err.reason})", begin + err.start)

    def read_array(self, wire: Wire, path: str, label: str, depth: int) -> list[Any] | None:
        start = self.pos
        count = self.read_length(wire, path, label, short=False)
        element = wire.element
        assert element is not None
        if count is None:
            self.span(start, path, f"{label}, null", None, depth)
            return None
        left = self.end - self.pos
        if count > left:
            self.fail(path, f"array of {count} items, only {left} bytes left", start)
        size = element.fixed_size
        if size is not None and count * size > left:
            self.fail(path, f"{count} items need {count * size} bytes, {left} left", start)
        self.span(start, path, f"{label}, {count} item{'' if count == 1 else 's'}", NO_VALUE, depth)
        if not self.keep:
            for index in range(count):
                self.read_value(element, f"{path}[{index}]", depth + 1)
            return []
        return [self.read_value(element, f"{path}[{index}]", depth + 1) for index in range(count)]

    def read_struct_value(
        self, wire: Wire, path: str, label: str, depth: int
    ) -> dict[str, Any] | None:
        start = self.pos
        layout = wire.struct
        assert layout is not None
        if wire.nullable:
            if wire.null_marker == "uvarint":
                raw = self.length_varint(path, "null marker")
                present = 0 < raw <= INT32_MAX  # Java: readUnsignedVarint() <= 0 is null
            else:
                self.take(1, path, "null marker")
                present = self.buf[start] < 0x80  # Java: readByte() < 0 is null
            if not present:
                self.span(start, path, f"{label}, null", None, depth)
                return None
            self.span(start, path, f"{label}, present", NO_VALUE, depth)
        return self.read_struct(layout, path, depth + 1)

    def read_message(self) -> dict[str, Any]:
        value = self.read_struct(self.layout.root, "", 0)
        if self.pos != self.end and not self.java:
            self.fail("", f"{self.end - self.pos} trailing bytes after the message")
        return value


def tag_index(layout: StructLayout) -> dict[int, int]:
    """Each tag of the struct's tagged fields -> the index of the first field declaring it
    (a spec that repeats a tag is broken; both decoders read it the same way)."""
    found: dict[int, int] = {}
    for index, lf in enumerate(layout.tagged):
        if lf.tag is not None:
            found.setdefault(lf.tag, index)
    return found


def decode_spans(
    layout: Layout, data: bytes, *, java: bool = False
) -> tuple[dict[str, Any] | None, list[Span], DecodeError | None]:
    """Decode recording every span; stops at the first error and returns it."""
    spans: list[Span] = []
    reader = _Reader(layout, bytes(data), spans.append, java=java)
    try:
        value = reader.read_message()
    except DecodeError as err:
        return None, spans, err
    return value, spans, None


def walk_spans(
    layout: Layout, data: bytes, sink: Callable[[Span], None], *, java: bool = False
) -> DecodeError | None:
    """Hand every span to ``sink`` as it is read, keeping no value (memory stays flat
    however long the message); the error if reading failed."""
    reader = _Reader(layout, bytes(data), sink, java=java, keep=False)
    try:
        reader.read_message()
    except DecodeError as err:
        return err
    return None


def decode(layout: Layout, data: bytes, *, java: bool = False) -> dict[str, Any]:
    """Decode ``data`` (the body of ``layout.message`` at ``layout.version``); ``java``
    reads as Kafka's generated Java readers do (see :mod:`kcompat.codec.java`)."""
    return _Reader(layout, bytes(data), None, java=java).read_message()
