"""Reading as Kafka's generated Java readers do (``java=True``), against strict reading.

docs/FORMAT.md ("What Kafka's Java readers accept") lists where Kafka's generated
``XData(Readable, version)`` classes accept what the strict codec refuses, and where the
two agree. Each point has a test here on hand-built bytes, run through both decoders (the
compiled one and the reference interpreter, which must agree value for value and error
for error) and through ``decode_spans`` (which the proof uses to find where two readings
part). The expected values follow Kafka's generator (``MessageDataGenerator``) and
``ByteUtils.readUnsignedVarint``; the UTF-8 cases follow the JDK's ``String`` decoder.
"""

from __future__ import annotations

import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kcompat.codec import DecodeError, EncodeError, codec_for, reference
from kcompat.codec.annotate import annotate
from kcompat.codec.java import JAVA_UTF8, compact_length, int32
from kcompat.spec.resolve import Layout, resolve
from tests.codec_helpers import EXAMPLES, field, hexbytes, load_dir, message
from tests.codec_strategies import values

MODES = pytest.mark.parametrize("java", [False, True], ids=["strict", "java"])


def read(layout: Layout, data: str, *, java: bool) -> Any:
    """The value both decoders (and ``decode_spans``) make of ``data``; they must agree."""
    raw = hexbytes(data)
    compiled = codec_for(layout).decode(raw, java=java)
    assert repr(reference.decode(layout, raw, java=java)) == repr(compiled)
    spanned, _, error = reference.decode_spans(layout, raw, java=java)
    assert error is None
    assert repr(spanned) == repr(compiled)
    return compiled


def refused(layout: Layout, data: str, *, java: bool) -> DecodeError:
    """The error both decoders (and ``decode_spans``) raise for ``data``; the same one."""
    raw = hexbytes(data)
    with pytest.raises(DecodeError) as compiled:
        codec_for(layout).decode(raw, java=java)
    with pytest.raises(DecodeError) as interpreted:
        reference.decode(layout, raw, java=java)
    _, _, error = reference.decode_spans(layout, raw, java=java)
    assert str(compiled.value) == str(interpreted.value) == str(error)
    return compiled.value


def write_refused(layout: Layout, value: dict[str, Any]) -> EncodeError:
    with pytest.raises(EncodeError) as compiled:
        codec_for(layout).encode(value)
    with pytest.raises(EncodeError) as interpreted:
        reference.encode(layout, value)
    assert str(compiled.value) == str(interpreted.value)
    return compiled.value


# Non-flexible v0 (int16/int32 lengths), flexible v1 (compact lengths).
NULLABLES = message(
    [
        field("S", "string", nullableVersions="0+"),
        field("B", "bytes", nullableVersions="0+"),
        field("L", "[]int32", nullableVersions="0+"),
    ],
    valid="0-1",
    flexible="1+",
)
NON_NULLABLES = message([field("S", "string"), field("L", "[]int32")], valid="0-1", flexible="1+")
# Flexible; A untagged, then three known tags (0, 1, 2) in the top-level tagged section.
TAGGED = message(
    [
        field("A", "int32"),
        field("Early", "string", taggedVersions="0+", tag=0),
        field("Late", "int64", taggedVersions="0+", tag=1),
        field("Epoch", "int32", taggedVersions="0+", tag=2, default="-1"),
    ]
)
TAGGED_DEFAULTS = {"A": 1, "Early": "", "Late": 0, "Epoch": -1}


# ----------------------------------------------------------------------------------------
# Where Java is lenient
# ----------------------------------------------------------------------------------------


def test_trailing_bytes_are_left_unread() -> None:
    layout = resolve(message([field("A", "int32")], flexible="none"), 0)
    err = refused(layout, "00000001 ffff", java=False)
    assert err.reason == "2 trailing bytes after the message"
    assert read(layout, "00000001 ffff", java=True) == {"A": 1}
    dump = annotate(layout, hexbytes("00000001 ffff"), java=True)
    assert dump[-1].endswith("ff ff                     (2 bytes after the message, unread)")


def test_invalid_utf8_reads_with_replacement_characters_as_java_does() -> None:
    v0, v1 = resolve(NULLABLES, 0), resolve(NULLABLES, 1)
    err = refused(v0, "0003 61ff62 ffffffff ffffffff", java=False)
    assert (err.offset, err.path) == (3, "S")
    assert read(v0, "0003 61ff62 ffffffff ffffffff", java=True)["S"] == "a\ufffdb"
    # An encoded surrogate (ED A0 80) is one U+FFFD in Java, three in Python's "replace".
    assert read(v0, "0003 eda080 ffffffff ffffffff", java=True)["S"] == "\ufffd"
    # A truncated sequence at the end of the string: one U+FFFD (Python's: two).
    assert read(v1, "03 eda0 00 00 00", java=True)["S"] == "\ufffd"
    assert b"\xed\xa0".decode("utf-8", "replace") == "\ufffd\ufffd"


@pytest.mark.parametrize(
    ("data", "text"),
    [
        (b"a\xffb", "a\ufffdb"),  # a byte that starts nothing
        (b"\xc3", "\ufffd"),  # two-byte start at the end
        (b"\xc3A", "\ufffdA"),  # two-byte start, no continuation
        (b"\xe0\x80A", "\ufffd\ufffdA"),  # overlong three-byte: lead, then the stray 0x80
        (b"\xed\xa0\x80x", "\ufffdx"),  # a surrogate: one for all three bytes
        (b"\xe2\x82", "\ufffd"),  # three-byte prefix cut off at the end
        (b"\xe2A", "\ufffdA"),  # three-byte start, bad second byte, at the end
        (b"\xf0\x90\x80", "\ufffd"),  # four-byte prefix cut off: one, and the loop stops
        (b"\xf0\x90A", "\ufffdA"),  # four-byte prefix, then a non-continuation
        (b"\xf0\x80\x80\x80", "\ufffd" * 4),  # overlong four-byte: lead, three strays
        (b"\xf4\x90\x80\x80", "\ufffd" * 4),  # above U+10FFFF
        (b"\xf8\x88\x80\x80\x80", "\ufffd" * 5),  # five-byte forms do not exist
        ("é😀".encode(), "é😀"),  # valid text is untouched
    ],
)
def test_java_utf8_replacement_follows_the_jdk_decoder(data: bytes, text: str) -> None:
    assert data.decode("utf-8", JAVA_UTF8) == text


_JDK_DECODER = """
import java.io.*;
import java.nio.charset.StandardCharsets;

public class Utf8Oracle {
    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        PrintWriter out = new PrintWriter(new BufferedWriter(new OutputStreamWriter(System.out)));
        for (String line; (line = in.readLine()) != null; ) {
            byte[] data = new byte[line.length() / 2];
            for (int i = 0; i < data.length; i++) {
                data[i] = (byte) Integer.parseInt(line.substring(2 * i, 2 * i + 2), 16);
            }
            String text = new String(data, StandardCharsets.UTF_8);
            StringBuilder hex = new StringBuilder();
            for (int i = 0; i < text.length(); i++) {
                hex.append(String.format("%04x", (int) text.charAt(i)));
            }
            out.println(hex);
        }
        out.flush();
    }
}
"""
#: Whole and broken UTF-8 sequences: truncated, overlong, surrogate, above U+10FFFF.
_PIECES_HEX = """
    ff c3 c3a9 e282 e282ac eda080 ed9fbf e080 e0a080 f09080 f0908080 f48fbfbf f4908080
    f580 f888 80 bf c0af c1 61
"""
_UTF8_PIECES = [bytes.fromhex(text) for text in _PIECES_HEX.split()]


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("javac") is None, reason="needs a JDK (javac)")
def test_java_utf8_replacement_equals_the_jdks_on_random_bytes(tmp_path: Path) -> None:
    """The JDK itself as the oracle: ``new String(bytes, UTF_8)`` on 20,000 byte strings
    built from UTF-8's edge pieces and random high bytes."""
    (tmp_path / "Utf8Oracle.java").write_text(_JDK_DECODER)
    subprocess.run(["javac", "Utf8Oracle.java"], cwd=tmp_path, check=True, timeout=120)
    rng = random.Random(482)
    cases = []
    for _ in range(20_000):
        if rng.random() < 0.5:
            cases.append(b"".join(rng.choice(_UTF8_PIECES) for _ in range(rng.randint(0, 6))))
        else:
            cases.append(bytes(rng.randrange(0x41, 0x100) for _ in range(rng.randint(0, 8))))
    done = subprocess.run(
        ["java", "-cp", str(tmp_path), "Utf8Oracle"],
        input="".join(case.hex() + "\n" for case in cases),
        capture_output=True, text=True, check=True, timeout=120,
    )  # fmt: skip
    jdk = done.stdout.split("\n")
    for index, case in enumerate(cases):
        assert case.decode("utf-8", JAVA_UTF8).encode("utf-16-be").hex() == jdk[index], case


def test_a_nullable_length_below_minus_one_is_null_in_java() -> None:
    v0 = resolve(NULLABLES, 0)
    assert refused(v0, "fffe ffffffff ffffffff", java=False).reason == "negative length -2"
    assert read(v0, "fffe ffffffff ffffffff", java=True)["S"] is None
    assert read(v0, "ffff fffffffb ffffffff", java=True)["B"] is None
    assert read(v0, "ffff ffffffff ffffff9c", java=True)["L"] is None


def test_compact_lengths_are_java_ints_minus_one() -> None:
    v1 = resolve(NULLABLES, 1)
    # 81 80 80 80 08 is 2^31 + 1: Java's int is -2^31 + 1, minus one is negative: null.
    refused(v1, "8180808008 00 00 00", java=False)  # strict: a 2^31-byte string
    assert read(v1, "8180808008 00 00 00", java=True) == {"S": None, "B": None, "L": None}
    # ff ff ff ff 0f is 2^32 - 1: the int -1, minus one: null.
    assert read(v1, "00 00 ffffffff0f 00", java=True)["L"] is None
    # ff ff ff ff 7f carries 35 bits: Java keeps the low 32 (-1); strict refuses it.
    assert "overflows 32 bits" in refused(v1, "00 ffffffff7f 00 00", java=False).reason
    assert read(v1, "00 ffffffff7f 00 00", java=True)["B"] is None
    assert (compact_length(0), compact_length(1 << 31), compact_length((1 << 31) + 1)) == (
        -1,
        (1 << 31) - 1,
        -(1 << 31),
    )
    assert int32((1 << 35) - 1) == -1


@MODES
def test_a_compact_length_of_2_to_the_31_wraps_to_a_huge_length_in_both(java: bool) -> None:
    # 80 80 80 80 08 is 2^31: minus one wraps to 2^31 - 1 in Java, not negative: too long.
    err = refused(resolve(NULLABLES, 1), "00 8080808008 00 00", java=java)
    assert err.path == "B"


def test_a_known_tag_is_read_by_its_type_whatever_size_it_declares() -> None:
    layout = resolve(TAGGED, 0)
    # Epoch (tag 2) declares 1 byte; Java reads its int32 from the stream, then tag 5.
    short = "00000001 02 0201 00000007 0500"
    assert refused(layout, short, java=False).path == "Epoch"
    assert read(layout, short, java=True) == {
        **TAGGED_DEFAULTS,
        "Epoch": 7,
        "_unknown_tagged_fields": [[5, b""]],
    }
    # Declaring 6 bytes: strict refuses the 2 bytes the value leaves; Java reads on
    # from where the value ends, so those bytes become the next tag (misaligned).
    long = "00000001 02 0206 00000007 0500"
    err = refused(layout, long, java=False)
    assert err.reason == "tag 2 declares 6 bytes, its value uses 4"
    assert read(layout, long, java=True) == read(layout, short, java=True)


def test_a_repeated_known_tag_last_one_wins_in_java() -> None:
    layout = resolve(TAGGED, 0)
    data = "00000001 02 0204 00000007 0204 00000009"
    assert refused(layout, data, java=False).reason == "tag 2 appears twice"
    assert read(layout, data, java=True) == {**TAGGED_DEFAULTS, "Epoch": 9}


def test_a_repeated_unknown_tag_is_kept_in_java_and_cannot_be_written_back() -> None:
    layout = resolve(TAGGED, 0)
    data = "00000001 02 090161 090162"
    assert refused(layout, data, java=False).reason == "tag 9 appears twice"
    value = read(layout, data, java=True)
    assert value["_unknown_tagged_fields"] == [[9, b"a"], [9, b"b"]]
    assert write_refused(layout, value).reason == "tag 9 appears twice"


@MODES
def test_descending_unknown_tags_are_kept_and_cannot_be_written_back(java: bool) -> None:
    # Kafka's RawTaggedFieldWriter: "tag 7 comes after tag 9, but is not higher than it".
    layout = resolve(TAGGED, 0)
    value = read(layout, "00000001 02 090161 070162", java=java)
    assert value["_unknown_tagged_fields"] == [[9, b"a"], [7, b"b"]]
    err = write_refused(layout, value)
    assert err.reason == "tag 7 comes after tag 9: unknown tags must ascend"


def test_an_unknown_tag_over_2_to_the_31_is_refused_strictly_and_negative_in_java() -> None:
    layout = resolve(TAGGED, 0)
    data = "00000001 01 8080808008 0161"  # tag 2^31
    err = refused(layout, data, java=False)
    assert err.reason == "tag 2147483648 is over 2147483647, the largest tag (tags are Java ints)"
    value = read(layout, data, java=True)
    assert value["_unknown_tagged_fields"] == [[-(1 << 31), b"a"]]
    assert write_refused(layout, value).reason.startswith("invalid tag -2147483648")


def test_a_negative_tagged_field_count_reads_no_tagged_field_in_java() -> None:
    m = message([field("S", "Inner", fields=[field("X", "int8")]), field("B", "int8")])
    layout = resolve(m, 0)
    data = "01 8080808008 02 00"  # S.X = 1, S's tag count 2^31 (a negative int), B = 2
    refused(layout, data, java=False)
    assert read(layout, data, java=True) == {"S": {"X": 1}, "B": 2}


def test_an_unknown_tag_with_a_negative_size_fails_in_java() -> None:
    err = refused(resolve(TAGGED, 0), "00000001 01 09 ffffffff0f 61", java=True)
    assert err.reason == "tag 9 declares a negative size (-1)"


# ----------------------------------------------------------------------------------------
# Where Java and strict reading agree
# ----------------------------------------------------------------------------------------


@MODES
def test_a_known_tag_outside_its_tagged_versions_fails(java: bool) -> None:
    m = message(
        [field("A", "int8"), field("T", "int8", versions="1+", taggedVersions="1+", tag=0)],
        valid="0-1",
    )
    err = refused(resolve(m, 0), "01 01 0001 05", java=java)
    assert (err.path, err.reason) == ("T", "tag 0 is not valid at version 0")
    assert read(resolve(m, 1), "01 01 0001 05", java=java) == {"A": 1, "T": 5}


@MODES
@pytest.mark.parametrize(
    ("version", "data", "path"),
    [
        (0, "ffff 00000000", "S"),
        (0, "0000 ffffffff", "L"),
        (1, "00 01 00", "S"),
        (1, "01 00 00", "L"),
        (0, "fffb 00000000", "S"),
    ],
)
def test_a_null_for_a_non_nullable_field_fails(
    java: bool, version: int, data: str, path: str
) -> None:
    err = refused(resolve(NON_NULLABLES, version), data, java=java)
    assert err.path == path
    if not java and data.startswith("fffb"):
        assert err.reason == "negative length -5"
    else:
        assert err.reason == f"null, but the field is not nullable at version {version}"


@MODES
@pytest.mark.parametrize(
    ("marker", "present"), [("80", False), ("ff", False), ("00", True), ("01", True), ("7f", True)]
)
def test_a_kip893_marker_byte_is_null_from_0x80(java: bool, marker: str, present: bool) -> None:
    m = message(
        [field("S", "Inner", nullableVersions="0+", fields=[field("X", "int8")])],
        flexible="none",
    )
    layout = resolve(m, 0)
    if present:
        assert read(layout, marker + "05", java=java) == {"S": {"X": 5}}
    else:
        assert read(layout, marker, java=java) == {"S": None}


@MODES
@pytest.mark.parametrize(
    ("byte", "value"), [("00", False), ("01", True), ("02", True), ("ff", True)]
)
def test_any_non_zero_bool_byte_is_true(java: bool, byte: str, value: bool) -> None:
    layout = resolve(message([field("F", "bool")], flexible="none"), 0)
    assert read(layout, byte, java=java) == {"F": value}


@MODES
def test_ascending_unknown_tags_are_kept_and_written_back_unchanged(java: bool) -> None:
    layout = resolve(TAGGED, 0)
    data = "00000001 03 0204 00000003 070161 0900"
    value = read(layout, data, java=java)
    assert value["_unknown_tagged_fields"] == [[7, b"a"], [9, b""]]
    assert codec_for(layout).encode(value) == hexbytes(data)
    assert reference.encode(layout, value) == hexbytes(data)


# ----------------------------------------------------------------------------------------
# Java reads what strict reading accepts, the same way
# ----------------------------------------------------------------------------------------

_LAYOUTS = [resolve(m, version) for m in load_dir(EXAMPLES) for version in m.valid_versions]


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.data())
def test_java_mode_reads_what_the_strict_decoder_accepts_the_same_way(data: st.DataObject) -> None:
    layout = data.draw(st.sampled_from(_LAYOUTS))
    encoded = bytearray(codec_for(layout).encode(data.draw(values(layout))))
    if encoded and data.draw(st.booleans()):  # a changed byte that strict reading accepts
        where = data.draw(st.integers(0, len(encoded) - 1))
        encoded[where] = data.draw(st.integers(0, 255))
    try:
        strict = codec_for(layout).decode(bytes(encoded))
    except DecodeError:
        return
    java = codec_for(layout).decode(bytes(encoded), java=True)
    assert repr(java) == repr(strict)
    assert repr(reference.decode(layout, bytes(encoded), java=True)) == repr(strict)
