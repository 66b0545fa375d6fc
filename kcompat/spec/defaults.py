"""Field defaults: from the text a spec writes to the typed value a reader assumes.

Kafka pastes integer defaults into Java source, so ``0x10`` is hex and ``010`` is octal
(8), while its own range check reads ``010`` as decimal; kcompat follows the generated
code, because that is what goes on the wire. JSON numbers and booleans are read as their
text, as Jackson does.
"""

from __future__ import annotations

import base64
import binascii
import math
import re
import uuid
from typing import Any

from kcompat.spec.model import EMPTY_STRUCT, INT_TYPES, ZERO_UUID, Default, FieldType
from kcompat.spec.versions import Versions

_DECIMAL = re.compile(r"-?(?:0|[1-9][0-9]*)\Z")
_HEX = re.compile(r"0[xX]([0-9a-fA-F]+)\Z")
_OCTAL = re.compile(r"(-?)0([0-7]+)\Z")


def implicit_default(field_type: FieldType) -> Any:
    """The value a reader assumes for an absent field with no custom default."""
    if field_type.is_array:
        return ()
    name = field_type.text
    if name in INT_TYPES:
        return 0
    return {
        "bool": False,
        "float64": 0.0,
        "string": "",
        "bytes": b"",
        "records": None,
        "uuid": ZERO_UUID,
    }.get(name, EMPTY_STRUCT)


def default_text(raw: object) -> str | None:
    """The default as Kafka's JSON binding sees it: scalars coerced to their text."""
    if raw is None:
        return None
    if isinstance(raw, bool):
        return "true" if raw else "false"
    if isinstance(raw, int | float | str):
        return str(raw)
    return None


def parse_default(
    raw: object, field_type: FieldType, versions: Versions, nullable_versions: Versions
) -> Default:
    """Interpret a ``default`` value for a field; never raises (errors go in ``error``)."""
    implicit = implicit_default(field_type)
    if raw is None:
        return Default(None, implicit)
    text = default_text(raw)
    if text is None:
        return Default(repr(raw), implicit, "a default must be a string (or a plain number)")
    try:
        value = _typed(text, field_type, versions, nullable_versions)
    except ValueError as err:
        return Default(text, implicit, str(err))
    return Default(text, value)


def _typed(text: str, field_type: FieldType, versions: Versions, nullable: Versions) -> Any:
    name = field_type.text
    if text == "null" and (field_type.can_be_nullable or name == "records"):
        if name != "records" and not nullable.contains(versions):
            raise ValueError(
                f"null cannot be the default: the field is not nullable in every version "
                f"(versions {versions}, nullableVersions {nullable})"
            )
        return None
    if field_type.is_array:
        if text:
            raise ValueError("an array default can only be empty or null")
        return ()
    if name in INT_TYPES:
        return parse_int_default(text, name)
    if name == "bool":
        lowered = text.lower()
        if lowered in ("true", "false"):
            return lowered == "true"
        raise ValueError(f'invalid bool default {text!r}: use "true" or "false"')
    if name == "float64":
        return _parse_float(text)
    if name == "string":
        return text
    if name == "bytes":
        if text:
            raise ValueError("a bytes default can only be empty or null")
        return b""
    if name == "records":
        return None
    if name == "uuid":
        return parse_uuid_default(text)
    if field_type.is_struct:
        if text:
            raise ValueError("a struct default can only be empty or null")
        return EMPTY_STRUCT
    raise ValueError(f"no default is possible for type {name!r}")


def parse_int_default(text: str, type_name: str) -> int:
    """A decimal, ``0x`` hex or ``0``-octal integer within the type's range."""
    bits, signed = INT_TYPES[type_name]
    hex_match = _HEX.match(text)
    octal_match = _OCTAL.match(text)
    if hex_match:
        value = int(hex_match.group(1), 16)
    elif octal_match:
        value = int(octal_match.group(2), 8) * (-1 if octal_match.group(1) else 1)
    elif _DECIMAL.match(text):
        value = int(text)
    else:
        raise ValueError(
            f"invalid {type_name} default {text!r}: write a decimal, 0x-hex or 0-octal integer"
        )
    low, high = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
    if not low <= value <= high:
        raise ValueError(f"{type_name} default {text!r} is out of range [{low}, {high}]")
    return value


def _parse_float(text: str) -> float:
    cleaned = text.strip()
    if cleaned.endswith(("d", "D", "f", "F")) and not cleaned.lower().endswith("inf"):
        cleaned = cleaned[:-1]
    try:
        value = float(cleaned)
    except ValueError:
        raise ValueError(f"invalid float64 default {text!r}") from None
    if math.isnan(value) and cleaned.lower() not in ("nan", "+nan", "-nan"):
        raise ValueError(f"invalid float64 default {text!r}")
    return value


LEGACY_UUID = re.compile(
    r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\Z"
)


def parse_uuid_default(text: str) -> uuid.UUID:
    """Kafka's uuid text form: 22 characters of URL-safe base64 (16 bytes).

    Kafka 2.5 to 2.7 used java.util.UUID and its hyphenated hex form; that is read too
    (the same 128 bits), and lint warns about it.
    """
    if LEGACY_UUID.match(text):
        return uuid.UUID(text)
    padded = text + "=" * (-len(text) % 4)
    try:
        raw = base64.urlsafe_b64decode(padded.encode("ascii"))
    except (binascii.Error, UnicodeEncodeError, ValueError):
        raw = b""
    if len(raw) != 16 or "+" in text or "/" in text:
        raise ValueError(
            f"invalid uuid default {text!r}: write the 22-character URL-safe base64 form "
            "that Uuid.toString() prints"
        )
    return uuid.UUID(bytes=raw)


def uuid_text(value: uuid.UUID) -> str:
    """The inverse of :func:`parse_uuid_default`."""
    return base64.urlsafe_b64encode(value.bytes).decode("ascii").rstrip("=")
