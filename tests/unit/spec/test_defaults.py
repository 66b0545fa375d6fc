"""Field defaults: the text a spec writes -> the typed value a reader assumes, or an error."""

from __future__ import annotations

import math
import uuid
from typing import Any

import pytest

from kcompat.spec.defaults import (
    default_text,
    implicit_default,
    parse_default,
    parse_uuid_default,
    uuid_text,
)
from kcompat.spec.model import EMPTY_STRUCT, ZERO_UUID, Default, FieldType
from kcompat.spec.versions import Versions

ALL = Versions.parse("0+")
NONE = Versions.none()
SAMPLE_UUID = uuid.UUID("5f1d3c2a-8b4e-4f6a-9c7d-2e1b0a9f8e7d")
SAMPLE_BASE64 = "Xx08KotOT2qcfS4bCp-OfQ"


def default(
    type_text: str,
    raw: object,
    versions: Versions = ALL,
    nullable: Versions = NONE,
) -> Default:
    return parse_default(raw, FieldType(type_text), versions, nullable)


# (type, default as written) -> value. JSON numbers and booleans arrive as Python values.
VALID: list[tuple[str, object, Any]] = [
    # integers: decimal, hex, octal (Java source), negative, limits
    ("int8", "0", 0),
    ("int8", "127", 127),
    ("int8", "-128", -128),
    ("int8", "0x7f", 127),
    ("int8", "+5", 5),
    ("int16", "-1", -1),
    ("int16", "32767", 32767),
    ("int16", "0x7fff", 32767),
    ("uint16", "65535", 65535),
    ("uint16", "0xffff", 65535),
    ("int32", "0x7fffffff", 2147483647),
    ("int32", "0x7FFFFFFF", 2147483647),  # hex digits in either case, prefix lowercase
    ("int32", "-2147483648", -2147483648),
    ("int32", "010", 8),  # a leading 0 makes a Java octal literal
    ("int32", "-010", -8),
    ("int32", "00", 0),
    ("uint32", "4294967295", 4294967295),
    ("uint32", "0xffffffff", 4294967295),
    ("int64", "9223372036854775807", 9223372036854775807),
    ("int64", "-9223372036854775808", -9223372036854775808),
    ("int64", "0x0000000000000010", 16),
    ("int32", -1, -1),  # a JSON number is read as its text
    ("int64", 100, 100),
    ("int32", "", 0),  # empty means no default, as in Kafka
    # bool: any letter case
    ("bool", "true", True),
    ("bool", "false", False),
    ("bool", "TRUE", True),
    ("bool", "False", False),
    ("bool", "tRuE", True),
    ("bool", True, True),  # a JSON boolean
    ("bool", "", False),
    # float64: what Java's Double.parseDouble reads
    ("float64", "1.5", 1.5),
    ("float64", "-2", -2.0),
    ("float64", "1e3", 1000.0),
    ("float64", "1.5E-3", 0.0015),
    ("float64", ".5", 0.5),
    ("float64", "5.", 5.0),
    ("float64", "2.5d", 2.5),
    ("float64", "2.5F", 2.5),
    ("float64", "0x1p4", 16.0),
    ("float64", "0x1.8p1", 3.0),
    ("float64", "Infinity", math.inf),
    ("float64", "-Infinity", -math.inf),
    ("float64", " 7 ", 7.0),  # parseDouble trims
    ("float64", 0.25, 0.25),  # a JSON number
    ("float64", 3, 3.0),
    ("float64", "", 0.0),
    # strings take anything; "null" needs nullable versions (below)
    ("string", "", ""),
    ("string", "hello world", "hello world"),
    ("string", "NULL", "NULL"),  # only lowercase null is special
    ("string", 42, "42"),
    # bytes, arrays and structs: only empty
    ("bytes", "", b""),
    ("[]int32", "", ()),
    ("[]Topic", "", ()),
    ("Topic", "", EMPTY_STRUCT),
    # records: the default text is ignored; always null
    ("records", "", None),
    ("records", "null", None),
    # uuid: 22-character URL-safe base64, or the old hyphenated form
    ("uuid", SAMPLE_BASE64, SAMPLE_UUID),
    ("uuid", SAMPLE_BASE64 + "==", SAMPLE_UUID),
    ("uuid", "AAAAAAAAAAAAAAAAAAAAAA", ZERO_UUID),
    ("uuid", "AAAAAAAAAAAAAAAAAAAAAQ", uuid.UUID(int=1)),
    ("uuid", str(SAMPLE_UUID), SAMPLE_UUID),
    ("uuid", str(SAMPLE_UUID).upper(), SAMPLE_UUID),
    ("uuid", "", ZERO_UUID),
]


@pytest.mark.parametrize(("type_text", "raw", "expected"), VALID)
def test_valid_default(type_text: str, raw: object, expected: Any) -> None:
    parsed = default(type_text, raw)
    assert parsed.error is None, parsed.error
    assert parsed.value == expected
    assert type(parsed.value) is type(expected)
    assert parsed.explicit
    assert parsed.text == default_text(raw)


def test_nan_default() -> None:
    parsed = default("float64", "NaN")
    assert parsed.error is None and math.isnan(parsed.value)
    assert parsed.key() == default("float64", "NaN").key()  # NaN defaults compare equal


# (type, default as written) -> words the error must contain.
INVALID: list[tuple[str, object, str]] = [
    ("int8", "128", "out of range [-128, 127]"),
    ("int8", "-129", "out of range"),
    ("int8", "0x80", "out of range"),
    ("int8", "0177", "decimal 177"),  # Kafka's range check reads it as decimal
    ("int16", "32768", "out of range [-32768, 32767]"),
    ("int16", "0x10000", "out of range"),
    ("uint16", "-1", "out of range [0, 65535]"),
    ("uint16", "65536", "out of range"),
    ("int32", "2147483648", "out of range"),
    ("int32", "0xffffffff", "out of range"),  # hex is never negative in Kafka
    ("uint32", "-1", "out of range [0, 4294967295]"),
    ("uint32", "4294967296", "out of range"),
    ("uint32", "0x100000000", "out of range"),
    ("int64", "9223372036854775808", "out of range"),
    ("int64", "1" + "0" * 5000, "out of range"),  # no crash on thousands of digits
    ("int64", "0x" + "f" * 5000, "out of range"),
    ("int32", "09", "not octal digits"),
    ("int32", "-0x1", "lowercase 0x prefix and no sign"),
    ("int32", "0X10", "lowercase 0x prefix"),
    ("int32", "1.0", "write a decimal, 0x-hex or 0-octal integer"),
    ("int32", 1.5, "write a decimal"),
    ("int32", "one", "write a decimal"),
    ("int32", " 1", "write a decimal"),
    ("int32", "1_000", "write a decimal"),
    ("int32", "null", "write a decimal"),
    ("int32", "\u0663", "write a decimal"),  # a non-ASCII digit
    ("bool", "yes", 'use "true" or "false"'),
    ("bool", "1", 'use "true" or "false"'),
    ("bool", " true", 'use "true" or "false"'),
    ("float64", "abc", "invalid float64 default"),
    ("float64", "inf", "invalid float64 default"),  # Python reads it, Java does not
    ("float64", "nan", "invalid float64 default"),
    ("float64", "1_000.5", "invalid float64 default"),
    ("float64", "0x1.8", "invalid float64 default"),  # a hex float needs its p exponent
    ("float64", "1e", "invalid float64 default"),
    ("float64", " ", "invalid float64 default"),
    ("bytes", "abc", "bytes default can only be empty or null"),
    ("[]int32", "[1, 2]", "array default can only be empty or null"),
    ("[]string", "a", "array default can only be empty or null"),
    ("Topic", "{}", "struct default can only be empty or null"),
    ("uuid", "not-a-uuid", "22-character URL-safe base64"),
    ("uuid", "AAAAAAAAAAAAAAAAAAAAA", "22-character"),  # 21 characters
    ("uuid", "AAAAAAAAAAAAAAAAAAAAAAAA", "22-character"),  # 24 characters, no padding
    ("uuid", "AAAAAAAAAAAAAAAAAAAA+/", "22-character"),  # standard, not URL-safe, alphabet
    ("uuid", "AAAAAAAAAA!AAAAAAAAAAA", "22-character"),  # b64decode would skip the '!'
    ("uuid", "null", "22-character"),  # a uuid has no null form
    ("uuid", "0", "22-character"),
    ("Topic", 12, "struct default can only be empty or null"),
]


@pytest.mark.parametrize(("type_text", "raw", "words"), INVALID)
def test_invalid_default(type_text: str, raw: object, words: str) -> None:
    parsed = default(type_text, raw)
    assert parsed.error is not None, parsed
    assert words in parsed.error
    # the value falls back to the type's own default, so later stages can go on
    assert parsed.value == implicit_default(FieldType(type_text)) or (
        parsed.value is None and type_text == "records"
    )


@pytest.mark.parametrize("raw", [[1], {"a": 1}])
def test_default_that_is_not_a_scalar(raw: object) -> None:
    parsed = default("int32", raw)
    assert parsed.error == "a default must be a string (or a plain number)"
    assert parsed.value == 0


# -- "null": only when every version of the field is nullable ---------------------------------


@pytest.mark.parametrize("type_text", ["string", "bytes", "[]int32", "[]Topic", "Topic"])
def test_null_default_when_every_version_is_nullable(type_text: str) -> None:
    parsed = default(type_text, "null", Versions.parse("2+"), Versions.parse("0+"))
    assert parsed.error is None and parsed.value is None


@pytest.mark.parametrize(
    ("versions", "nullable"),
    [("0+", "none"), ("0+", "1+"), ("0-5", "0-4"), ("3+", "0-9")],
)
@pytest.mark.parametrize("type_text", ["string", "bytes", "[]int32", "Topic"])
def test_null_default_needs_nullable_in_every_version(
    type_text: str, versions: str, nullable: str
) -> None:
    parsed = default(type_text, "null", Versions.parse(versions), Versions.parse(nullable))
    assert parsed.error is not None
    assert "null cannot be the default" in parsed.error
    assert versions in parsed.error


def test_null_default_on_records_needs_no_nullable_versions() -> None:
    assert default("records", "null").error is None


@pytest.mark.parametrize("type_text", ["int32", "bool", "float64", "uuid"])
def test_null_default_on_a_type_without_null(type_text: str) -> None:
    parsed = default(type_text, "null", ALL, ALL)
    assert parsed.error is not None


# -- no default -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("type_text", "value"),
    [
        ("int8", 0),
        ("uint32", 0),
        ("int64", 0),
        ("bool", False),
        ("float64", 0.0),
        ("string", ""),
        ("bytes", b""),
        ("records", None),
        ("uuid", ZERO_UUID),
        ("[]string", ()),
        ("Topic", EMPTY_STRUCT),
    ],
)
def test_absent_default_is_the_types_own(type_text: str, value: Any) -> None:
    parsed = default(type_text, None)
    assert parsed == Default(None, value)
    assert not parsed.explicit


@pytest.mark.parametrize(
    ("raw", "text"),
    [(-1, "-1"), (7, "7"), (1.5, "1.5"), (True, "true"), (False, "false"), ("x", "x")],
)
def test_json_scalars_are_coerced_to_text(raw: object, text: str) -> None:
    assert default_text(raw) == text


def test_uuid_text_round_trip() -> None:
    assert uuid_text(SAMPLE_UUID) == SAMPLE_BASE64
    assert parse_uuid_default(uuid_text(SAMPLE_UUID)) == SAMPLE_UUID
    for value in (ZERO_UUID, uuid.UUID(int=(1 << 128) - 1), uuid.UUID(int=12345)):
        text = uuid_text(value)
        assert len(text) == 22
        assert parse_uuid_default(text) == value


def test_equal_meaning_gives_equal_keys() -> None:
    assert default("int32", "0x10").key() == default("int32", "16").key()
    assert default("int32", "020").key() == default("int32", "16").key()
    assert default("bool", "TRUE").key() == default("bool", "true").key()
    assert default("bool", "true").key() != default("int8", "1").key()
    assert default("float64", "1").key() == default("float64", "1.0d").key()
