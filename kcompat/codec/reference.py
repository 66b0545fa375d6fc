"""The reference codec: a plain interpreter of a layout, slow, exact and talkative.

It is the executable statement of the wire rules (FORMAT-NOTES.md and Kafka's generated
code), and it is used where speed does not matter but precision does:

* diagnosing failures of the compiled codec (:mod:`kcompat.codec.compiler` runs without
  per-field bookkeeping; when it fails, this module re-runs the input to name the byte
  offset and the field path);
* recording the byte span of every field for the annotated hex dump;
* a second implementation that tests compare the compiled codec with.

Decoding is hardened: every length is checked against the bytes that remain before
anything is allocated, varints are bounded, and every failure is a :class:`DecodeError`.
It reads strictly by default, or as Kafka's Java readers do (``java=True``; see
:mod:`kcompat.codec.java`).
"""

from __future__ import annotations

import struct
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, NoReturn

from kcompat.codec.errors import DecodeError, EncodeError
from kcompat.codec.java import INT32_MAX, JAVA_UTF8, UINT32_MASK, compact_length, int32
from kcompat.codec.values import (
    LENGTH_BITS,
    MAX_STRING_BYTES,
    UNKNOWN_TAGS,
    StructKeys,
    declared_fields,
    default_value,
    int_range,
    is_default,
    layout_owner_fields,
    struct_keys,
    varint_max_bytes,
)
from kcompat.spec.model import Field
from kcompat.spec.resolve import Kind, Layout, StructLayout, Wire

#: struct codes of fixed-width integers: (bits, signed) -> code.
INT_CODES = {
    (8, True): "b",
    (8, False): "B",
    (16, True): "h",
    (16, False): "H",
    (32, True): "i",
    (32, False): "I",
    (64, True): "q",
    (64, False): "Q",
}
_INT16 = struct.Struct(">h")
_INT32 = struct.Struct(">i")
_FLOAT = struct.Struct(">d")


class _NoValue:
    def __repr__(self) -> str:
        return "<no value>"


#: A span that has no decoded value of its own (a prefix, a header, a container).
NO_VALUE: Any = _NoValue()


@dataclass(frozen=True, slots=True)
class Span:
    """Bytes ``start..end`` of the input and what they mean."""

    start: int
    end: int
    path: str
    what: str
    value: Any = NO_VALUE
    depth: int = 0


def join(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


def type_name(value: object) -> str:
    return "null" if value is None else type(value).__name__


def int_text(value: int) -> str:
    """An int for a message: its digits, or its size when too long to print."""
    return str(value) if value.bit_length() <= 64 else f"a {value.bit_length()}-bit integer"


def zigzag(value: int, bits: int) -> int:
    return (value << 1) ^ (value >> (bits - 1))


def unzigzag(raw: int) -> int:
    return (raw >> 1) ^ -(raw & 1)


def write_uvarint(out: bytearray, value: int) -> None:
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)


def uvarint_bytes(value: int) -> bytes:
    out = bytearray()
    write_uvarint(out, value)
    return bytes(out)


def wire_label(wire: Wire) -> str:
    """A short lower-case name of a wire for the hex dump: ``compact string``, ``int32``."""
    kind = wire.kind
    if kind is Kind.INT:
        if wire.form == "fixed":
            name = ("int" if wire.signed else "uint") + str(wire.bits)
        else:
            name = f"{'varint' if wire.form == 'packed' else 'uvarint'}{wire.bits}"
        if wire.type_bits and wire.type_bits != wire.bits:
            name += f" (of int{wire.type_bits})"
        return name
    if kind in (Kind.BOOL, Kind.FLOAT64, Kind.UUID):
        return kind.value
    prefix = ("compact " if wire.compact else "") + (
        "nullable " if wire.nullable and kind is not Kind.RECORDS else ""
    )
    if kind is Kind.ARRAY:
        return prefix + "array"
    if kind is Kind.STRUCT:
        name = wire.struct.name if wire.struct is not None else "struct"
        return ("nullable " if wire.nullable else "") + f"struct {name}"
    return prefix + kind.value


# ------------------------------------------------------------------------------------
# Decoding
# ------------------------------------------------------------------------------------


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
            value = _FLOAT.unpack_from(self.buf, start)[0]
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
        else:  # seed 004's varints are not Kafka's: strict in both modes
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
            length = (_INT16 if short else _INT32).unpack_from(self.buf, start)[0]
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


# ------------------------------------------------------------------------------------
# Encoding
# ------------------------------------------------------------------------------------


class Writer:
    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self.version = layout.version
        self.owners = layout_owner_fields(layout)
        self.keys: dict[int, StructKeys] = {}

    def struct_keys(self, layout: StructLayout) -> StructKeys:
        keys = self.keys.get(id(layout))
        if keys is None:
            keys = struct_keys(self.layout.message, layout, self.owners.get(id(layout)))
            self.keys[id(layout)] = keys
        return keys

    def write_struct(self, layout: StructLayout, value: Any, path: str, out: bytearray) -> None:
        if not isinstance(value, Mapping):
            raise EncodeError(path, f"expected an object (dict), got {type_name(value)}")
        keys = self.struct_keys(layout)
        unknown = self.check_keys(layout, keys, value, path)
        for lf in layout.fields:
            item = value[lf.name] if lf.name in value else default_value(lf)
            self.write_value(lf.wire, item, join(path, lf.name), out)
        if layout.flexible:
            self.write_tags(layout, keys, value, unknown, path, out)
            return
        for lf in layout.tagged:
            if lf.name in value and not self.tag_is_default(lf.wire, value[lf.name], lf):
                raise EncodeError(
                    join(path, lf.name),
                    f"a tagged field needs a flexible version; {self.version} is not",
                )
        if unknown:
            raise EncodeError(
                join(path, UNKNOWN_TAGS),
                f"tagged fields need a flexible version; {self.version} is not",
            )

    def check_keys(
        self, layout: StructLayout, keys: StructKeys, value: Mapping[Any, Any], path: str
    ) -> Any:
        unknown = None
        for key, item in value.items():
            if key in keys.names:
                continue
            if key == UNKNOWN_TAGS:
                unknown = item
                continue
            other: Field | None = keys.others.get(key) if isinstance(key, str) else None
            where = join(path, str(key))
            if other is None:
                import difflib

                guess = difflib.get_close_matches(str(key), sorted(keys.names), n=1)
                hint = f" (did you mean {guess[0]!r}?)" if guess else ""
                raise EncodeError(where, f"{layout.name} has no such field{hint}")
            if not other.ignorable and not is_default(other, item, self.layout.message):
                raise EncodeError(
                    where,
                    f"not in version {self.version} (versions {other.versions}), and not "
                    "ignorable: only its default can be given",
                )
        return unknown

    def write_tags(
        self,
        layout: StructLayout,
        keys: StructKeys,
        value: Mapping[str, Any],
        unknown: Any,
        path: str,
        out: bytearray,
    ) -> None:
        entries: list[tuple[int, bytes]] = []
        for lf in layout.tagged:
            if lf.name not in value:
                continue
            where = join(path, lf.name)
            buffer = bytearray()
            self.write_value(lf.wire, value[lf.name], where, buffer)
            if bytes(buffer) != self.default_payload(lf):
                assert lf.tag is not None
                if not 0 <= lf.tag <= INT32_MAX:  # an invalid spec (lint: tag-negative)
                    raise EncodeError(
                        where, f"its tag {int_text(lf.tag)} is not a valid tag (0 to 2^31-1)"
                    )
                entries.append((lf.tag, bytes(buffer)))
        if unknown is not None:
            entries.extend(self.unknown_entries(keys, unknown, join(path, UNKNOWN_TAGS)))
        entries.sort(key=lambda entry: entry[0])
        write_uvarint(out, len(entries))
        for tag, payload in entries:
            write_uvarint(out, tag)
            write_uvarint(out, len(payload))
            out += payload

    def default_payload(self, lf: Any) -> bytes | None:
        """The bytes the default would take; a tagged value with these bytes is omitted."""
        payload = bytearray()
        try:
            self.write_value(lf.wire, default_value(lf), lf.path, payload)
        except EncodeError:
            return None
        return bytes(payload)

    def tag_is_default(self, wire: Wire, item: Any, lf: Any) -> bool:
        payload = bytearray()
        try:
            self.write_value(wire, item, lf.path, payload)
        except EncodeError:
            return False
        return bytes(payload) == self.default_payload(lf)

    def unknown_entries(self, keys: StructKeys, unknown: Any, path: str) -> list[tuple[int, bytes]]:
        if not isinstance(unknown, list | tuple):
            raise EncodeError(
                path, f"expected a list of [tag, bytes] pairs, got {type_name(unknown)}"
            )
        entries: list[tuple[int, bytes]] = []
        previous = -1
        for index, item in enumerate(unknown):
            where = f"{path}[{index}]"
            if not isinstance(item, list | tuple) or len(item) != 2:
                raise EncodeError(where, "expected a [tag, bytes] pair")
            tag, data = item
            if not isinstance(tag, int) or isinstance(tag, bool) or not 0 <= tag < (1 << 31):
                shown = int_text(tag) if isinstance(tag, int) else type_name(tag)
                raise EncodeError(where, f"invalid tag {shown}: a tag is an int in [0, 2^31)")
            if tag in keys.declared_tags:
                raise EncodeError(where, f"tag {tag} belongs to a known field; it is not unknown")
            if tag <= previous:  # Kafka's writer refuses them too (RawTaggedFieldWriter)
                raise EncodeError(
                    where,
                    f"tag {tag} appears twice"
                    if tag == previous
                    else f"tag {tag} comes after tag {previous}: unknown tags must ascend",
                )
            previous = tag
            if not isinstance(data, bytes | bytearray | memoryview):
                raise EncodeError(where, f"expected bytes for the data, got {type_name(data)}")
            entries.append((tag, bytes(data)))
        return entries

    def write_value(self, wire: Wire, value: Any, path: str, out: bytearray) -> None:
        kind = wire.kind
        if kind is Kind.BOOL:
            if type(value) is not bool:
                raise EncodeError(path, f"expected a bool, got {type_name(value)}")
            out.append(1 if value else 0)
        elif kind is Kind.INT:
            self.write_int(wire, value, path, out)
        elif kind is Kind.FLOAT64:
            if not isinstance(value, int | float):
                raise EncodeError(path, f"expected a float, got {type_name(value)}")
            try:
                out += _FLOAT.pack(value)
            except (OverflowError, struct.error):
                shown = int_text(value) if isinstance(value, int) else str(value)
                raise EncodeError(path, f"{shown} does not fit a float64") from None
        elif kind is Kind.UUID:
            if not isinstance(value, uuid.UUID):
                raise EncodeError(path, f"expected a uuid.UUID, got {type_name(value)}")
            out += value.bytes
        elif kind in (Kind.STRING, Kind.BYTES, Kind.RECORDS):
            self.write_blob(wire, value, path, out)
        elif kind is Kind.ARRAY:
            self.write_array(wire, value, path, out)
        else:
            self.write_struct_value(wire, value, path, out)

    def write_int(self, wire: Wire, value: Any, path: str, out: bytearray) -> None:
        if not isinstance(value, int):
            raise EncodeError(path, f"expected an int, got {type_name(value)}")
        low, high = int_range(wire)
        if not low <= value <= high:
            raise EncodeError(
                path, f"{int_text(value)} is out of range for {wire_label(wire)} [{low}, {high}]"
            )
        if wire.form == "fixed":
            out += struct.pack(">" + INT_CODES[(wire.bits, wire.signed)], value)
        elif wire.form == "packed":
            write_uvarint(out, zigzag(value, wire.bits))
        else:
            write_uvarint(out, value & ((1 << wire.bits) - 1))

    def write_null(self, wire: Wire, path: str, out: bytearray, short: bool) -> None:
        if not wire.nullable:
            raise EncodeError(
                path, f"null, but the field is not nullable at version {self.version}"
            )
        if wire.compact:
            out.append(0)
        else:
            out += b"\xff\xff" if short else b"\xff\xff\xff\xff"

    def write_length(self, wire: Wire, length: int, out: bytearray, short: bool) -> None:
        if wire.compact:
            write_uvarint(out, length + 1)
        else:
            out += (_INT16 if short else _INT32).pack(length)

    def write_blob(self, wire: Wire, value: Any, path: str, out: bytearray) -> None:
        is_string = wire.kind is Kind.STRING
        if value is None:
            self.write_null(wire, path, out, short=is_string)
            return
        if is_string:
            if not isinstance(value, str):
                raise EncodeError(path, f"expected a str, got {type_name(value)}")
            try:
                data = value.encode("utf-8")
            except UnicodeEncodeError as err:
                raise EncodeError(
                    path, f"not encodable as UTF-8 ({err.reason} at index {err.start})"
                ) from None
            if len(data) > MAX_STRING_BYTES:
                raise EncodeError(
                    path, f"{len(data)} UTF-8 bytes is over Kafka's limit of 32767 for a string"
                )
        else:
            if not isinstance(value, bytes | bytearray | memoryview):
                raise EncodeError(path, f"expected bytes, got {type_name(value)}")
            data = bytes(value)
            if len(data) >= (1 << 31) - 1:
                raise EncodeError(path, "too long for an int32 length")
        self.write_length(wire, len(data), out, short=is_string)
        out += data

    def write_array(self, wire: Wire, value: Any, path: str, out: bytearray) -> None:
        if value is None:
            self.write_null(wire, path, out, short=False)
            return
        if type(value) not in (list, tuple):
            raise EncodeError(path, f"expected a list, got {type_name(value)}")
        element = wire.element
        assert element is not None
        self.write_length(wire, len(value), out, short=False)
        for index, item in enumerate(value):
            self.write_value(element, item, f"{path}[{index}]", out)

    def write_struct_value(self, wire: Wire, value: Any, path: str, out: bytearray) -> None:
        layout = wire.struct
        assert layout is not None
        if wire.nullable:
            if value is None:
                out.append(0 if wire.null_marker == "uvarint" else 0xFF)
                return
            out.append(1)
        elif value is None:
            raise EncodeError(
                path, f"null, but the field is not nullable at version {self.version}"
            )
        self.write_struct(layout, value, path, out)


def encode(layout: Layout, value: Any) -> bytes:
    """Encode a value dict (the body of ``layout.message`` at ``layout.version``)."""
    out = bytearray()
    Writer(layout).write_struct(layout.root, value, "", out)
    return bytes(out)
