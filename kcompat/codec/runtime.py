"""What generated codec code calls at run time: varints, packers, tag sections.

:func:`namespace` is the module namespace a generated codec runs in; its names (``_ruv``,
``_Bad``, ...) are the only ones the generated source uses besides its own constants.
"""

from __future__ import annotations

import struct
import uuid
from collections.abc import Callable
from typing import Any

from kcompat.codec.java import JAVA_UTF8
from kcompat.codec.values import StructKeys, is_default
from kcompat.memo import Lru
from kcompat.spec.model import Message


class _Bad(Exception):
    """Raised by generated code on invalid input; the reference codec explains it."""


class _Missing:
    pass


_MISSING = _Missing()


# ------------------------------------------------------------------------------------
# Runtime helpers the generated code calls
# ------------------------------------------------------------------------------------


def _ruv(buf: bytes, pos: int, limit: int, bits: int) -> tuple[int, int]:
    """An unsigned varint of at most ``limit`` bytes and ``bits`` bits at ``pos``."""
    result = shift = 0
    for _ in range(limit):
        byte = buf[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if byte < 0x80:
            if result >> bits:
                raise _Bad
            return result, pos
        shift += 7
    raise _Bad


def _ruvj(buf: bytes, pos: int) -> tuple[int, int]:
    """Java's ``readUnsignedVarint``: at most five bytes, the low 32 bits kept (unsigned)."""
    result = shift = 0
    for _ in range(5):
        byte = buf[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if byte < 0x80:
            return result & 0xFFFFFFFF, pos
        shift += 7
    raise _Bad


def _wuv(out: bytearray, value: int) -> None:
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)


#: Packers by (format code, count): generated code asks for the same few again and again.
_STRUCTS: Lru[tuple[str, int], struct.Struct] = Lru("packers", 4096)


def _struct(code: str, count: int) -> struct.Struct:
    """The struct of ``count`` big-endian items of ``code``."""
    return _STRUCTS.get((code, count), lambda: struct.Struct(f">{count}{code}"))


def _uf(code: str, count: int) -> Callable[[bytes, int], tuple[Any, ...]]:
    """``unpack_from`` for ``count`` big-endian items of ``code``."""
    return _struct(code, count).unpack_from


def _pf(code: str, count: int) -> Callable[..., bytes]:
    """``pack`` for ``count`` big-endian items of ``code``."""
    return _struct(code, count).pack


def _small_unpackers(code: str) -> list[Callable[[bytes, int], tuple[Any, ...]]]:
    return [_uf(code, count) for count in range(64)]


def _uuid_slow(raw: bytes) -> uuid.UUID:
    return uuid.UUID(bytes=raw)


def _uuid_fast(raw: bytes) -> uuid.UUID:
    """``uuid.UUID(bytes=raw)`` in a third of the time: the checks it skips cannot fail
    here (always 16 bytes), and the result is an ordinary UUID (equal, hashable, picklable)."""
    made = object.__new__(uuid.UUID)
    object.__setattr__(made, "int", int.from_bytes(raw, "big"))
    object.__setattr__(made, "is_safe", uuid.SafeUUID.unknown)
    return made


def _pick_uuid() -> Callable[[bytes], uuid.UUID]:
    probe = bytes(range(16))
    try:
        made = _uuid_fast(probe)
        if made == uuid.UUID(bytes=probe) and str(made) == str(uuid.UUID(bytes=probe)):
            return _uuid_fast
    except (AttributeError, TypeError):  # a Python whose UUID differs inside
        pass
    return _uuid_slow


_uuid = _pick_uuid()


def _as_bytes(value: Any) -> bytes:
    if isinstance(value, bytearray | memoryview):
        return bytes(value)
    raise _Bad


def _extra(value: Any, keys: tuple[StructKeys, Message]) -> Any:
    """Keys beyond this version's fields: other versions' fields at default, unknown tags."""
    struct_keys_, message = keys
    unknown, others = struct_keys_.extra(value)
    for _, item, other in others:
        if other is None or not (other.ignorable or is_default(other, item, message)):
            raise _Bad
    return unknown


def _merge(
    entries: list[tuple[int, Any]] | None, unknown: Any, declared: frozenset[int]
) -> list[tuple[int, Any]]:
    """Known tagged entries plus unknown ones, validated and in ascending tag order."""
    merged = list(entries or ())
    if unknown.__class__ is not list and unknown.__class__ is not tuple:
        raise _Bad
    previous = -1
    for item in unknown:
        if (item.__class__ is not list and item.__class__ is not tuple) or len(item) != 2:
            raise _Bad
        tag, data = item
        if tag.__class__ is not int or not 0 <= tag < (1 << 31) or tag in declared:
            raise _Bad
        if tag <= previous:  # ascending, as Kafka's RawTaggedFieldWriter demands
            raise _Bad
        previous = tag
        if data.__class__ is not bytes:
            data = _as_bytes(data)
        merged.append((tag, data))
    merged.sort(key=lambda entry: entry[0])
    return merged


def _wtags(out: bytearray, entries: list[tuple[int, Any]]) -> None:
    _wuv(out, len(entries))
    for tag, payload in entries:
        _wuv(out, tag)
        _wuv(out, len(payload))
        out += payload


def namespace() -> dict[str, Any]:
    return {
        "_Bad": _Bad,
        "_MISSING": _MISSING,
        "_ruv": _ruv,
        "_ruvj": _ruvj,
        "_JAVA_UTF8": JAVA_UTF8,
        "_wuv": _wuv,
        "_uf": _uf,
        "_pf": _pf,
        "_as_bytes": _as_bytes,
        "_extra": _extra,
        "_merge": _merge,
        "_wtags": _wtags,
        "_Struct": struct.Struct,
        "_UUID": uuid.UUID,
        "_uuid": _uuid,
        "_small_unpackers": _small_unpackers,
        "__builtins__": __builtins__,
    }


def constant_text(value: Any) -> str:
    """A one-line, deterministic text of a constant, for the codec's identity (the text
    is compared, never run; ints in hex, which has no digit limit, floats exactly)."""
    if value is None or isinstance(value, bool | str | bytes):
        return repr(value)
    if isinstance(value, int):
        return hex(value)
    if isinstance(value, float):
        return value.hex()
    if isinstance(value, uuid.UUID):
        return f"uuid:{value.hex}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(constant_text(item) for item in value) + "]"
    if isinstance(value, dict):
        items = (f"{constant_text(k)}: {constant_text(v)}" for k, v in value.items())
        return "{" + ", ".join(items) + "}"
    if isinstance(value, frozenset):
        return "frozenset(" + ", ".join(sorted(constant_text(item) for item in value)) + ")"
    raise TypeError(f"no constant text for {type(value).__name__}")


def constant_key(value: Any) -> tuple[type, Any] | None:
    """A key under which equal constants share one name (``None``: never shared)."""
    if isinstance(value, float):
        return (float, value.hex())
    if value is None or isinstance(value, bool | int | str | bytes | uuid.UUID | frozenset):
        return (type(value), value)
    return None
