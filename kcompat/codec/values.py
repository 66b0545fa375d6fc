"""What the codec needs to know about a layout beyond the wire: defaults, ranges, key sets.

The reference codec, the compiled codec, the sample generator and the proof all ask the
same questions ("what does a reader assume for an absent field?", "which integers fit
this wire?", "which keys may a value dict carry?"), so the answers live here once.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from types import MappingProxyType
from typing import Any

from kcompat.spec.defaults import implicit_default
from kcompat.spec.model import EMPTY_STRUCT, Field, Message
from kcompat.spec.placed import struct_fields
from kcompat.spec.resolve import Kind, Layout, LayoutField, StructLayout, Wire

#: The reserved key holding tagged fields a reader did not know: ``[[tag, bytes], ...]``.
UNKNOWN_TAGS = "_unknown_tagged_fields"

#: Kafka limits every string to 0x7fff UTF-8 bytes, compact or not.
MAX_STRING_BYTES = 0x7FFF

#: Varint lengths, counts and tags are unsigned 32-bit values.
LENGTH_BITS = 32


def int_range(wire: Wire) -> tuple[int, int]:
    """The integers a field can hold at this wire (see :func:`_int_range`)."""
    return _int_range(wire.form, wire.bits, wire.signed, wire.type_bits)


@cache
def _int_range(form: str, bits: int, signed: bool, type_bits: int) -> tuple[int, int]:
    """The integers a field can hold at this wire: the type's range within the encoding's.

    An `encoding` width narrower than the type (``fixed32`` on an ``int64``) narrows the
    range: values outside it are rejected on write. ``upacked`` on a signed type writes
    the two's complement bits as an unsigned varint, so its range is the signed one.
    """
    type_bits = type_bits or bits
    if signed:
        low, high = -(1 << (type_bits - 1)), (1 << (type_bits - 1)) - 1
        wire_low, wire_high = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    else:
        low, high = 0, (1 << type_bits) - 1
        wire_low, wire_high = 0, (1 << bits) - 1
    return max(low, wire_low), min(high, wire_high)


def varint_max_bytes(bits: int) -> int:
    """The longest legal unsigned varint for a ``bits``-wide value (5 for 32, 10 for 64)."""
    return (bits + 6) // 7


def declared_default(field: Field) -> Any:
    """The typed default a reader assumes for ``field`` (the spec's, else the type's)."""
    default = field.default
    if default.text is None and default.value is None:
        return implicit_default(field.type)
    return default.value


def default_value(lf: LayoutField) -> Any:
    """The field's default in the value model: a fresh list or dict where mutable."""
    return _coerce(declared_default(lf.field), lf.wire)


def _coerce(value: Any, wire: Wire) -> Any:
    kind = wire.kind
    if value is None:
        return None
    if kind is Kind.STRUCT:
        if wire.struct is None:
            return {}
        return default_struct(wire.struct)
    if kind is Kind.ARRAY:
        return list(value) if isinstance(value, tuple | list) else []
    if value is EMPTY_STRUCT:  # an invalid type resolved as opaque bytes
        return _KIND_ZERO.get(kind)
    return value


_KIND_ZERO: dict[Kind, Any] = {
    Kind.BOOL: False,
    Kind.INT: 0,
    Kind.FLOAT64: 0.0,
    Kind.UUID: uuid.UUID(int=0),
    Kind.STRING: "",
    Kind.BYTES: b"",
    Kind.RECORDS: None,
}


def default_struct(layout: StructLayout) -> dict[str, Any]:
    """A struct with every field at its default, keys in wire order."""
    return {lf.name: default_value(lf) for lf in layout.fields + layout.tagged}


@dataclass(frozen=True, slots=True)
class StructKeys:
    """The keys a value dict of one struct may carry at one version.

    ``others`` are fields the struct declares for other versions: Kafka's writer drops
    them when they hold their default (or are ``ignorable``) and refuses them otherwise.
    ``declared_tags`` are all tags the struct declares; an unknown tagged field may not
    reuse one, since a reader of this version would reject it.
    """

    names: frozenset[str]
    others: Mapping[str, Field]
    declared_tags: frozenset[int]

    def extra(self, value: Mapping[Any, Any]) -> tuple[Any, list[tuple[Any, Any, Field | None]]]:
        """A value's keys beyond this version's fields: its unknown tags (``None``: none),
        and each other key with its item and the field it names at other versions
        (``None``: no field). Both encoders judge the others, each in its own words."""
        unknown = None
        others: list[tuple[Any, Any, Field | None]] = []
        for key, item in value.items():
            if key in self.names:
                continue
            if key == UNKNOWN_TAGS:
                unknown = item
                continue
            others.append((key, item, self.others.get(key) if isinstance(key, str) else None))
        return unknown, others


def declared_fields(message: Message, field: Field | None) -> tuple[Field, ...]:
    """The fields a struct declares across all versions (``None``: the message body)."""
    return message.fields if field is None else struct_fields(message, field)


def struct_keys(message: Message, layout: StructLayout, owner: Field | None) -> StructKeys:
    names = frozenset(lf.name for lf in layout.all_fields())
    declared = declared_fields(message, owner)
    others = {f.name: f for f in declared if f.name not in names}
    tags = frozenset(f.tag for f in declared if f.tag is not None)
    return StructKeys(names, MappingProxyType(others), tags)


def is_default(field: Field, value: Any, message: Message) -> bool:
    """Whether ``value`` equals the field's default (Java's ``equals`` on the default)."""
    default = declared_default(field)
    if field.type.is_array:
        if value is None or default is None:
            return value is None and default is None
        return isinstance(value, list | tuple) and len(value) == 0 and len(default) == 0
    if field.type.is_struct:
        if value is None or default is None:
            return value is None and default is None
        if not isinstance(value, Mapping):
            return False
        children = {f.name: f for f in declared_fields(message, field)}
        return all(
            name in children and is_default(children[name], item, message)
            for name, item in value.items()
            if name != UNKNOWN_TAGS
        ) and not value.get(UNKNOWN_TAGS)
    if isinstance(value, bool) != isinstance(default, bool):
        return False
    if isinstance(value, bytearray | memoryview):
        value = bytes(value)
    return bool(value == default)


def layout_owner_fields(layout: Layout) -> dict[int, Field | None]:
    """For every struct layout in ``layout``: the field that declares it (root: ``None``)."""
    owners: dict[int, Field | None] = {id(layout.root): None}

    def visit(struct: StructLayout) -> None:
        for lf in struct.all_fields():
            wire = lf.wire
            inner = wire.element if wire.kind is Kind.ARRAY else wire
            if inner is not None and inner.kind is Kind.STRUCT and inner.struct is not None:
                owners[id(inner.struct)] = lf.field
                visit(inner.struct)

    visit(layout.root)
    return owners
