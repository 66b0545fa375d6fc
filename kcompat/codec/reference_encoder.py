"""The reference encoder: a plain interpreter of a layout that writes a value field by
field and names the field path of anything it cannot write (see
:mod:`kcompat.codec.reference`)."""

from __future__ import annotations

import struct
import uuid
from collections.abc import Mapping
from typing import Any

from kcompat.codec.errors import EncodeError
from kcompat.codec.ints import FLOAT64, INT16, INT32, INT_CODES, write_uvarint, zigzag
from kcompat.codec.java import INT32_MAX
from kcompat.codec.labels import int_text, join, type_name, wire_label
from kcompat.codec.values import (
    MAX_STRING_BYTES,
    UNKNOWN_TAGS,
    StructKeys,
    default_value,
    int_range,
    is_default,
    layout_owner_fields,
    struct_keys,
)
from kcompat.spec.resolve import Kind, Layout, StructLayout, Wire


class Writer:
    """Writes values of one layout, caching each struct's keys: keep one per layout (the
    compiled codec's generator keeps one to write tagged defaults)."""

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
        unknown, others = keys.extra(value)
        for key, item, other in others:
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
                out += FLOAT64.pack(value)
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
            out += (INT16 if short else INT32).pack(length)

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
