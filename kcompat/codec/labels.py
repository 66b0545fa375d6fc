"""How the codecs name things in their messages: field paths, Python types, ints too long
to print, and wire types as the hex dump shows them."""

from __future__ import annotations

from kcompat.spec.resolve import Kind, Wire


def join(path: str, name: str) -> str:
    """The path of field ``name`` inside ``path`` (dotted; the root is the empty path)."""
    return f"{path}.{name}" if path else name


def type_name(value: object) -> str:
    """What a wrong value is, for a message: JSON-ish ``null`` for None."""
    return "null" if value is None else type(value).__name__


def int_text(value: int) -> str:
    """An int for a message: its digits, or its size when too long to print."""
    return str(value) if value.bit_length() <= 64 else f"a {value.bit_length()}-bit integer"


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
