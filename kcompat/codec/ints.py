"""Number wire forms the reference encoder and decoder share: fixed-width structs and
struct codes, zig-zag and unsigned varints (the compiled codec uses the same codes)."""

from __future__ import annotations

import struct

#: a classic string's or array's int16/int32 length, and a float64, as both reference
#: codecs read and write them.
INT16 = struct.Struct(">h")
INT32 = struct.Struct(">i")
FLOAT64 = struct.Struct(">d")

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


def zigzag(value: int, bits: int) -> int:
    """The zig-zag form of a signed ``bits``-wide int: small magnitudes, small varints."""
    return (value << 1) ^ (value >> (bits - 1))


def unzigzag(raw: int) -> int:
    """The signed int a zig-zag varint stands for."""
    return (raw >> 1) ^ -(raw & 1)


def write_uvarint(out: bytearray, value: int) -> None:
    """Append ``value`` as an unsigned varint: seven bits a byte, low bits first."""
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
