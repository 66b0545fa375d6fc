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
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from kcompat.spec.model import EMPTY_STRUCT, INT_TYPES, ZERO_UUID, Default, FieldType
from kcompat.spec.versions import Versions

_DECIMAL = re.compile(r"([-+]?)([0-9]+)\Z")
_HEX = re.compile(r"0x([0-9a-fA-F]+)\Z")
_HEX_LIKE = re.compile(r"[-+]?0[xX][0-9a-fA-F]+\Z")
_OCTAL_DIGITS = re.compile(r"[0-7]+\Z")


def implicit_default(field_type: FieldType) -> Any:
    """The value a reader assumes for an absent field with no custom default."""
    if field_type.is_array:
        return ()
    return _IMPLICIT.get(field_type.text, EMPTY_STRUCT)


#: The implicit default of each primitive type (any other name is a struct's).
_IMPLICIT: dict[str, Any] = {
    **{name: 0 for name in INT_TYPES},
    "bool": False,
    "float64": 0.0,
    "string": "",
    "bytes": b"",
    "records": None,
    "uuid": ZERO_UUID,
}


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
    if raw is None:
        return _no_default(field_type.text)
    implicit = implicit_default(field_type)
    text = default_text(raw)
    if text is None:
        return Default(repr(raw), implicit, "a default must be a string (or a plain number)")
    try:
        value = _typed(text, field_type, versions, nullable_versions)
    except ValueError as err:
        return Default(text, implicit, str(err))
    return Default(text, value)


@lru_cache(maxsize=1024)
def _no_default(type_text: str) -> Default:
    """The default of a field that sets none: one per type (most fields set none, and a
    :class:`Default` is immutable)."""
    return Default(None, implicit_default(FieldType(type_text)))


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
    if field_type.is_struct and name not in _PRIMITIVE_DEFAULTS:
        if text:
            raise ValueError("a struct default can only be empty or null")
        return EMPTY_STRUCT
    parse = _PRIMITIVE_DEFAULTS.get(name)
    if parse is None:
        raise ValueError(f"no default is possible for type {name!r}")
    return parse(text, name)


def _bool_default(text: str, _name: str) -> bool:
    if text == "":  # Kafka reads an empty default as no default: false
        return False
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    raise ValueError(f'invalid bool default {text!r}: use "true" or "false"')


def _bytes_default(text: str, _name: str) -> bytes:
    if text:
        raise ValueError("a bytes default can only be empty or null")
    return b""


def parse_int_default(text: str, type_name: str) -> int:
    """A decimal, ``0x`` hex or ``0``-octal integer within the type's range.

    Kafka's generator range-checks the text as decimal (or hex after a lowercase ``0x``)
    and then pastes it into Java source, where a leading ``0`` makes it octal. So
    ``010`` means 8, ``09`` does not compile, and ``0177`` fails for an int8 because
    the check reads it as 177. An empty text means 0, as when there is no default.
    """
    bits, signed = INT_TYPES[type_name]
    low, high = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
    out_of_range = f"{type_name} default {text!r} is out of range [{low}, {high}]"
    if text == "":
        return 0
    hex_match = _HEX.match(text)
    decimal_match = _DECIMAL.match(text)
    if hex_match:
        digits = hex_match.group(1).lstrip("0") or "0"
        if len(digits) > 16:
            raise ValueError(out_of_range)
        value = int(digits, 16)
    elif decimal_match:
        sign, digits = decimal_match.groups()
        if len(digits.lstrip("0")) > 20:  # checked before int(): no huge conversions
            raise ValueError(out_of_range)
        value = int(sign + digits)
        if len(digits) > 1 and digits.startswith("0"):
            if not _OCTAL_DIGITS.match(digits):
                raise ValueError(
                    f"invalid {type_name} default {text!r}: a leading 0 makes a Java octal "
                    "literal, and 8 and 9 are not octal digits; drop the leading zeros"
                )
            if not low <= value <= high:
                raise ValueError(
                    f"{out_of_range}: Kafka's generator range-checks it as the decimal {value}"
                )
            value = int(digits, 8) * (-1 if sign == "-" else 1)
    elif _HEX_LIKE.match(text):
        raise ValueError(
            f"invalid {type_name} default {text!r}: Kafka reads hex only with a lowercase "
            "0x prefix and no sign; write a negative value in decimal"
        )
    else:
        raise ValueError(
            f"invalid {type_name} default {text!r}: write a decimal, 0x-hex or 0-octal integer"
        )
    if not low <= value <= high:
        raise ValueError(out_of_range)
    return value


# Java's Double.parseDouble grammar (after trimming): NaN, Infinity, decimal or hex
# floating-point literals with an optional f/F/d/D suffix. Python's float() differs: it
# takes "inf", "nan" in any case and "1_000", and refuses hex floats.
_JAVA_FLOAT = re.compile(
    r"""
    (?P<sign>[+-]?)
    (?:
      (?P<special>NaN|Infinity)
    | (?P<decimal>(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)[fFdD]?
    | (?P<hex>0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)[pP][+-]?[0-9]+)[fFdD]?
    )\Z
    """,
    re.VERBOSE,
)


def _parse_float(text: str) -> float:
    """A float64 default as Java's ``Double.parseDouble`` reads it ("" means 0.0)."""
    if text == "":
        return 0.0
    cleaned = text.strip(_JAVA_SPACE)
    match = _JAVA_FLOAT.match(cleaned)
    if match is None:
        raise ValueError(
            f"invalid float64 default {text!r}: write a number such as 1.5, -2e3 or 0x1p4 "
            "(or NaN, Infinity)"
        )
    sign = -1.0 if match.group("sign") == "-" else 1.0
    special = match.group("special")
    if special is not None:
        return math.nan if special == "NaN" else sign * math.inf
    if match.group("hex") is not None:
        try:
            return sign * float.fromhex(match.group("hex"))
        except OverflowError:  # Java rounds a hex literal past Double.MAX_VALUE to Infinity
            return sign * math.inf
    return sign * float(match.group("decimal"))  # float() already gives inf past the range


#: Characters Java's String.trim() removes: everything up to and including the space.
_JAVA_SPACE = "".join(chr(code) for code in range(0x21))

LEGACY_UUID = re.compile(
    r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\Z"
)


_BASE64_UUID = re.compile(r"[A-Za-z0-9_-]{22}(?:==)?\Z")


def parse_uuid_default(text: str) -> uuid.UUID:
    """Kafka's uuid text form: 22 characters of URL-safe base64 (16 bytes).

    Kafka 2.5 to 2.7 used java.util.UUID and its hyphenated hex form; that is read too
    (the same 128 bits), and lint warns about it.
    """
    if text == "":
        return ZERO_UUID
    if LEGACY_UUID.match(text):
        return uuid.UUID(text)
    raw = b""
    if _BASE64_UUID.match(text):  # urlsafe_b64decode would silently skip other characters
        try:
            raw = base64.urlsafe_b64decode(text[:22] + "==")
        except (binascii.Error, ValueError):
            raw = b""
    if len(raw) != 16:
        raise ValueError(
            f"invalid uuid default {text!r}: write the 22-character URL-safe base64 form "
            "that Uuid.toString() prints"
        )
    return uuid.UUID(bytes=raw)


def uuid_text(value: uuid.UUID) -> str:
    """The inverse of :func:`parse_uuid_default`."""
    return base64.urlsafe_b64encode(value.bytes).decode("ascii").rstrip("=")


#: How a primitive type's default text is read (the type's name is handed on for ints).
_PRIMITIVE_DEFAULTS: dict[str, Callable[[str, str], Any]] = {
    **{name: parse_int_default for name in INT_TYPES},
    "bool": _bool_default,
    "float64": lambda text, _name: _parse_float(text),
    "string": lambda text, _name: text,
    "bytes": _bytes_default,
    "records": lambda _text, _name: None,
    "uuid": lambda text, _name: parse_uuid_default(text),
}
