"""The codec, feature by feature, on byte strings checked by hand against the wire rules.

Every expected byte string here was written from docs/FORMAT.md and the generator facts
(section 7b), not copied from the codec's output. Each test also checks that the compiled
codec and the reference interpreter agree, and that decoding gives the value back.
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from kcompat.codec import DecodeError, EncodeError, codec_for, reference
from kcompat.codec.annotate import annotate
from kcompat.codec.jsonform import from_json, to_json
from kcompat.spec.model import Message
from kcompat.spec.resolve import Layout, resolve
from tests.codec_helpers import field, hexbytes, message


def roundtrip(layout: Layout, value: dict[str, Any], expected: str) -> None:
    """``value`` encodes to ``expected`` (both codecs) and decodes back to the full value."""
    data = codec_for(layout).encode(value)
    assert data.hex() == hexbytes(expected).hex()
    assert reference.encode(layout, value) == data
    decoded = codec_for(layout).decode(data)
    assert decoded == reference.decode(layout, data)
    for key, item in value.items():
        assert decoded[key] == item, key


def decode_error(layout: Layout, data: str) -> DecodeError:
    with pytest.raises(DecodeError) as caught:
        codec_for(layout).decode(hexbytes(data))
    with pytest.raises(DecodeError) as again:
        reference.decode(layout, hexbytes(data))
    assert str(caught.value) == str(again.value)
    return caught.value


def encode_error(layout: Layout, value: Any) -> EncodeError:
    with pytest.raises(EncodeError) as caught:
        codec_for(layout).encode(value)
    return caught.value


# ----------------------------------------------------------------------------------------
# Primitives and compact encodings
# ----------------------------------------------------------------------------------------


def test_every_fixed_primitive_big_endian() -> None:
    m = message(
        [
            field("B", "bool"),
            field("I8", "int8"),
            field("I16", "int16"),
            field("U16", "uint16"),
            field("I32", "int32"),
            field("U32", "uint32"),
            field("I64", "int64"),
            field("F", "float64"),
            field("U", "uuid"),
        ],
        flexible="none",
    )
    value = {
        "B": True,
        "I8": -2,
        "I16": -3,
        "U16": 65535,
        "I32": 0x01020304,
        "U32": 4294967295,
        "I64": -1,
        "F": 1.5,
        "U": uuid.UUID("00112233-4455-6677-8899-aabbccddeeff"),
    }
    roundtrip(
        resolve(m, 0),
        value,
        "01 fe fffd ffff 01020304 ffffffff ffffffffffffffff 3ff8000000000000 "
        "00112233445566778899aabbccddeeff",
    )


def test_strings_classic_and_compact() -> None:
    m = message([field("Name", "string"), field("Opt", "string", nullableVersions="0+")],
                valid="0-1", flexible="1+")  # fmt: skip
    roundtrip(resolve(m, 0), {"Name": "abc", "Opt": None}, "0003 616263 ffff")
    roundtrip(resolve(m, 1), {"Name": "abc", "Opt": None}, "04 616263 00 00")
    roundtrip(resolve(m, 1), {"Name": "", "Opt": "é"}, "01 03 c3a9 00")


def test_bytes_records_and_arrays_classic_and_compact() -> None:
    m = message(
        [
            field("Data", "bytes"),
            field("Recs", "records", nullableVersions="0+"),
            field("Ids", "[]int32"),
            field("Names", "[]string", nullableVersions="0+"),
        ],
        valid="0-1",
        flexible="1+",
    )
    value = {"Data": b"\x01\x02", "Recs": None, "Ids": [1, -1], "Names": ["a"]}
    roundtrip(
        resolve(m, 0),
        value,
        "00000002 0102 ffffffff 00000002 00000001 ffffffff 00000001 0001 61",
    )
    roundtrip(resolve(m, 1), value, "03 0102 00 03 00000001 ffffffff 02 02 61 00")
    roundtrip(
        resolve(m, 1),
        {**value, "Names": None, "Recs": b""},
        "03 0102 01 03 00000001 ffffffff 00 00",
    )


def test_length_prefix_crosses_one_varint_byte() -> None:
    m = message([field("Ids", "[]int8"), field("Text", "string")])
    layout = resolve(m, 0)
    data = codec_for(layout).encode({"Ids": [7] * 127, "Text": "x" * 128})
    assert data[:2] == hexbytes("80 01")  # 127 + 1 = 128 as a varint
    assert data[2 + 127 : 2 + 127 + 2] == hexbytes("81 01")  # 128 + 1 = 129
    assert codec_for(layout).decode(data)["Text"] == "x" * 128


# ----------------------------------------------------------------------------------------
# Tagged fields
# ----------------------------------------------------------------------------------------

TAGGED = message(
    [
        field("A", "int32"),
        field("Late", "int64", taggedVersions="0+", tag=1),
        field("Early", "string", taggedVersions="0+", tag=0),
        field("Epoch", "int32", taggedVersions="0+", tag=2, default="-1"),
    ]
)


def test_tagged_section_is_written_in_ascending_tag_order() -> None:
    layout = resolve(TAGGED, 0)
    value = {"A": 1, "Epoch": 7, "Late": 5, "Early": "x"}  # dict order: 2, 1, 0
    roundtrip(
        layout,
        value,
        "00000001 03 00 02 02 78 01 08 0000000000000005 02 04 00000007",
    )


def test_tagged_fields_at_their_default_are_not_written() -> None:
    layout = resolve(TAGGED, 0)
    roundtrip(layout, {"A": 1, "Late": 0, "Early": "", "Epoch": -1}, "00000001 00")
    roundtrip(layout, {"A": 1, "Epoch": 0}, "00000001 01 02 04 00000000")  # 0 is not -1
    assert codec_for(layout).decode(hexbytes("00000001 00")) == {
        "A": 1,
        "Early": "",
        "Late": 0,
        "Epoch": -1,
    }


def test_tags_out_of_order_on_the_wire_are_read() -> None:
    layout = resolve(TAGGED, 0)
    decoded = codec_for(layout).decode(hexbytes("00000001 02 01 08 0000000000000005 00 02 02 78"))
    assert decoded == {"A": 1, "Early": "x", "Late": 5, "Epoch": -1}


def test_unknown_tags_round_trip_in_tag_order() -> None:
    layout = resolve(TAGGED, 0)
    data = hexbytes("00000001 03 00 02 02 78 05 01 ff 07 00")
    decoded = codec_for(layout).decode(data)
    assert decoded["_unknown_tagged_fields"] == [[5, b"\xff"], [7, b""]]
    assert codec_for(layout).encode(decoded) == data
    mixed = {"A": 1, "Early": "x", "_unknown_tagged_fields": [(5, bytearray(b"\xff")), [7, b""]]}
    assert codec_for(layout).encode(mixed) == data
    assert reference.encode(layout, mixed) == data


def test_unknown_tags_out_of_order_are_refused_on_write_as_kafka_does() -> None:
    # Kafka's RawTaggedFieldWriter: "tag 5 comes after tag 7, but is not higher than it".
    layout = resolve(TAGGED, 0)
    value = {"A": 1, "_unknown_tagged_fields": [[7, b""], [5, b"\xff"]]}
    err = encode_error(layout, value)
    assert (err.path, err.reason) == (
        "_unknown_tagged_fields[1]",
        "tag 5 comes after tag 7: unknown tags must ascend",
    )
    with pytest.raises(EncodeError, match="must ascend"):
        reference.encode(layout, value)


def test_unknown_tags_may_not_reuse_a_known_tag() -> None:
    layout = resolve(TAGGED, 0)
    err = encode_error(layout, {"A": 1, "_unknown_tagged_fields": [[1, b"\x00"]]})
    assert err.path == "_unknown_tagged_fields[0]"
    assert "known field" in str(err)


def test_a_tag_of_another_version_is_rejected_on_read() -> None:
    m = message(
        [field("A", "int8"), field("T", "int8", versions="1+", taggedVersions="1+", tag=0)],
        valid="0-1",
    )
    err = decode_error(resolve(m, 0), "01 01 00 01 05")
    assert (err.offset, err.path) == (2, "T")
    assert "not valid at version 0" in str(err)
    assert codec_for(resolve(m, 1)).decode(hexbytes("01 01 00 01 05")) == {"A": 1, "T": 5}


def test_tagged_struct_equal_to_its_default_is_omitted() -> None:
    m = message(
        [
            field(
                "Leader",
                "LeaderAndEpoch",
                taggedVersions="0+",
                tag=0,
                fields=[field("Id", "int32", default="-1"), field("Epoch", "int32", default="-1")],
            )
        ]
    )
    layout = resolve(m, 0)
    roundtrip(layout, {"Leader": {"Id": -1, "Epoch": -1}}, "00")
    roundtrip(layout, {"Leader": {"Id": 3, "Epoch": -1}}, "01 00 09 00000003 ffffffff 00")


# ----------------------------------------------------------------------------------------
# KIP-893 nullable structs and the request header
# ----------------------------------------------------------------------------------------

POINT = [field("X", "int16")]


def test_nullable_struct_int8_marker() -> None:
    m = message([field("P", "Point", nullableVersions="0+", fields=POINT)], valid="0-1",
                flexible="1+")  # fmt: skip
    roundtrip(resolve(m, 0), {"P": None}, "ff")
    roundtrip(resolve(m, 0), {"P": {"X": 7}}, "01 0007")
    roundtrip(resolve(m, 1), {"P": {"X": 7}}, "01 0007 00 00")
    # Java reads any negative marker as null and any other as present.
    assert codec_for(resolve(m, 0)).decode(hexbytes("80")) == {"P": None}
    assert codec_for(resolve(m, 0)).decode(hexbytes("00 0007")) == {"P": {"X": 7}}


def test_tagged_nullable_struct_varint_marker() -> None:
    m = message([field("P", "Point", nullableVersions="0+", taggedVersions="0+", tag=0,
                       fields=POINT)])  # fmt: skip
    layout = resolve(m, 0)
    roundtrip(layout, {"P": None}, "01 00 01 00")  # tag 0, size 1, varint 0: null
    roundtrip(layout, {"P": {"X": 7}}, "01 00 04 01 0007 00")
    roundtrip(layout, {"P": {"X": 0}}, "00")  # the default struct is not written


def test_non_nullable_struct_rejects_null() -> None:
    m = message([field("P", "Point", fields=POINT)])
    err = encode_error(resolve(m, 0), {"P": None})
    assert err.path == "P"
    assert "not nullable" in str(err)


def test_client_id_stays_a_classic_string_in_a_flexible_header() -> None:
    header = message(
        [
            field("RequestApiKey", "int16"),
            field("RequestApiVersion", "int16"),
            field("CorrelationId", "int32"),
            field("ClientId", "string", "1+", nullableVersions="1+", flexibleVersions="none"),
        ],
        name="RequestHeader",
        kind="header",
        valid="1-2",
        flexible="2+",
    )
    value = {"RequestApiKey": 3, "RequestApiVersion": 12, "CorrelationId": 7, "ClientId": "cli"}
    roundtrip(resolve(header, 1), value, "0003 000c 00000007 0003 636c69")
    roundtrip(resolve(header, 2), value, "0003 000c 00000007 0003 636c69 00")
    roundtrip(resolve(header, 2), {**value, "ClientId": None}, "0003 000c 00000007 ffff 00")


# ----------------------------------------------------------------------------------------
# Integer encodings
# ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("encoding", "kind", "value", "expected"),
    [
        ("packed32", "int32", 0, "00"),
        ("packed32", "int32", -1, "01"),
        ("packed32", "int32", 1, "02"),
        ("packed32", "int32", 63, "7e"),
        ("packed32", "int32", -64, "7f"),
        ("packed32", "int32", 64, "80 01"),
        ("packed32", "int32", 2**31 - 1, "fe ff ff ff 0f"),
        ("packed32", "int32", -(2**31), "ff ff ff ff 0f"),
        ("upacked32", "int32", 127, "7f"),
        ("upacked32", "int32", 128, "80 01"),
        ("upacked32", "int32", -1, "ff ff ff ff 0f"),  # two's complement, 5 bytes
        ("packed16", "int16", 32767, "fe ff 03"),
        ("packed16", "int16", -32768, "ff ff 03"),
        ("upacked16", "int16", -1, "ff ff 03"),
        ("packed64", "int64", -(2**63), "ff ff ff ff ff ff ff ff ff 01"),
        ("upacked64", "int64", -1, "ff ff ff ff ff ff ff ff ff 01"),
        ("fixed32", "int64", -1, "ffffffff"),
        ("fixed16", "int32", 300, "012c"),
        ("fixed64", "int64", 5, "0000000000000005"),
    ],
)
def test_seed_004_encodings(encoding: str, kind: str, value: int, expected: str) -> None:
    m = message([field("N", kind, encoding=encoding)], flexible="none")
    roundtrip(resolve(m, 0), {"N": value}, expected)


@pytest.mark.parametrize(
    ("encoding", "kind", "value"),
    [
        ("fixed32", "int64", 2**31),
        ("fixed32", "int64", -(2**31) - 1),
        ("packed32", "int64", 2**40),
        ("upacked32", "int64", 2**31),
        ("fixed16", "int32", 40000),
        ("packed16", "int16", 40000),
        ("packed64", "int64", 2**63),
    ],
)
def test_seed_004_narrow_widths_are_range_checked(encoding: str, kind: str, value: int) -> None:
    m = message([field("N", kind, encoding=encoding)], flexible="none")
    err = encode_error(resolve(m, 0), {"N": value})
    assert err.path == "N"
    assert "out of range" in str(err)


def test_seed_004_narrow_width_widens_on_read_and_varints_are_bounded() -> None:
    m = message([field("N", "int64", encoding={"0": "fixed32", "1+": "packed32"})],
                valid="0-1", flexible="none")  # fmt: skip
    assert codec_for(resolve(m, 0)).decode(hexbytes("80000000")) == {"N": -(2**31)}
    err = decode_error(resolve(m, 1), "ff ff ff ff ff 01")
    assert (err.offset, err.path) == (0, "N")
    assert "longer than 5 bytes" in str(err)
    err = decode_error(resolve(m, 1), "ff ff ff ff 7f")
    assert "overflows 32 bits" in str(err)


# ----------------------------------------------------------------------------------------
# Values, defaults and encode errors
# ----------------------------------------------------------------------------------------

SIMPLE = message(
    [
        field("A", "int16", default="7"),
        field("Name", "string", default="x"),
        field("Old", "int32", versions="0", default="-1"),
        field("Gone", "int32", versions="0", ignorable=True),
        field("Flag", "bool", versions="1+"),
    ],
    valid="0-1",
    flexible="none",
)


def test_absent_fields_take_their_defaults() -> None:
    roundtrip(resolve(SIMPLE, 1), {}, "0007 0001 78 00")
    assert codec_for(resolve(SIMPLE, 1)).decode(hexbytes("0007 0001 78 00")) == {
        "A": 7,
        "Name": "x",
        "Flag": False,
    }


def test_fields_of_other_versions_only_at_default_or_when_ignorable() -> None:
    layout = resolve(SIMPLE, 1)
    assert codec_for(layout).encode({"Old": -1, "Gone": 5}) == hexbytes("0007 0001 78 00")
    err = encode_error(layout, {"Old": 3})
    assert err.path == "Old"
    assert "not in version 1" in str(err)


@pytest.mark.parametrize(
    ("value", "path", "words"),
    [
        ({"A": 40000}, "A", "out of range for int16"),
        ({"A": "7"}, "A", "expected an int, got str"),
        ({"A": 1.0}, "A", "expected an int, got float"),
        ({"Name": None}, "Name", "not nullable"),
        ({"Name": b"x"}, "Name", "expected a str, got bytes"),
        ({"Name": "\ud800"}, "Name", "not encodable as UTF-8"),
        ({"Name": "x" * 40000}, "Name", "limit of 32767"),
        ({"Flag": 1}, "Flag", "expected a bool, got int"),
        ({"Nmae": "x"}, "Nmae", "did you mean 'Name'"),
        ([1, 2], "", "expected an object"),
    ],
)
def test_encode_errors_name_the_field(value: Any, path: str, words: str) -> None:
    err = encode_error(resolve(SIMPLE, 1), value)
    assert err.path == path
    assert words in str(err)


def test_encode_errors_deep_in_arrays_name_the_element() -> None:
    part = field("Parts", "[]Part", fields=[field("Leader", "int32")])
    m = message([field("Topics", "[]Topic", fields=[part])])
    value = {"Topics": [{"Parts": [{"Leader": 1}]}, {"Parts": [{}, {"Leader": 2**40}]}]}
    err = encode_error(resolve(m, 0), value)
    assert err.path == "Topics[1].Parts[1].Leader"
    assert str(err).startswith("Topics[1].Parts[1].Leader: 1099511627776 is out of range")


# ----------------------------------------------------------------------------------------
# Hardened decoding
# ----------------------------------------------------------------------------------------

NESTED = message(
    [
        field("Topics", "[]Topic", fields=[
            field("Name", "string"),
            field("Partitions", "[]Partition", fields=[
                field("Index", "int32"), field("LeaderId", "int32")]),
        ]),
        field("Blob", "bytes", nullableVersions="0+"),
    ]
)  # fmt: skip


def test_truncated_input_names_offset_and_path() -> None:
    layout = resolve(NESTED, 0)
    good = codec_for(layout).encode(
        {"Topics": [{"Name": "t", "Partitions": [{"Index": 0, "LeaderId": 1}] * 4}]}
    )
    err = decode_error(layout, good[:37].hex())
    assert str(err) == "offset 35, Topics[0].Partitions[3].LeaderId: 4 bytes needed (int32), 2 left"


def test_lengths_beyond_the_input_fail_before_allocating() -> None:
    layout = resolve(NESTED, 0)
    err = decode_error(layout, "ffffffff0f")  # a count of 2^32 - 2 items
    assert err.offset == 0 and err.path == "Topics"
    assert "items" in str(err)
    err = decode_error(layout, "01 e8 07 010203")  # 999 bytes declared at offset 3, 3 left
    assert (err.offset, err.path) == (3, "Blob")
    assert "999 bytes needed" in str(err)


def test_negative_lengths_other_than_null_are_rejected() -> None:
    m = message([field("S", "string", nullableVersions="0+"), field("A", "[]int8")],
                flexible="none")  # fmt: skip
    err = decode_error(resolve(m, 0), "fffe 00000000")
    assert (err.offset, err.path, err.reason) == (0, "S", "negative length -2")
    err = decode_error(resolve(m, 0), "ffff fffffffe")
    assert (err.offset, err.path) == (2, "A")


def test_null_in_a_non_nullable_field() -> None:
    layout = resolve(NESTED, 0)
    err = decode_error(layout, "00 00")
    assert (err.offset, err.path) == (0, "Topics")
    assert "not nullable at version 0" in str(err)
    err = decode_error(layout, "02 00 01 00 00")
    assert (err.offset, err.path) == (1, "Topics[0].Name")


def test_invalid_utf8_points_at_the_bad_byte() -> None:
    layout = resolve(NESTED, 0)
    err = decode_error(layout, "02 04 61 62 ff 01 00 00 00")
    assert (err.offset, err.path) == (4, "Topics[0].Name")
    assert "invalid UTF-8" in str(err)


def test_overlong_varints_and_trailing_bytes() -> None:
    layout = resolve(NESTED, 0)
    err = decode_error(layout, "81 80 80 80 80 00")
    assert (err.offset, err.path) == (0, "Topics")
    assert "longer than 5 bytes" in str(err)
    err = decode_error(layout, "01 00 00 ff")
    assert (err.offset, err.path, err.reason) == (3, "", "1 trailing bytes after the message")


def test_tag_sizes_must_match_their_values() -> None:
    layout = resolve(TAGGED, 0)
    err = decode_error(layout, "00000001 01 01 09 0000000000000005 00")
    assert err.path == "Late"
    assert "declares 9 bytes, its value uses 8" in str(err)
    err = decode_error(layout, "00000001 02 02 04 00000001 02 04 00000002")
    assert "appears twice" in str(err)


def test_compact_strings_over_kafkas_limit_are_rejected() -> None:
    m = message([field("S", "string")])
    data = bytes.fromhex("81 80 02") + b"x" * 32768 + b"\x00"  # length 32768
    with pytest.raises(DecodeError, match="over Kafka's limit"):
        codec_for(resolve(m, 0)).decode(data)


def test_deep_nesting_compiles_and_round_trips() -> None:
    """30 levels of nested struct arrays: more loops than CPython allows in one function."""
    inner: dict[str, Any] = field("Leaf", "int8")
    for level in range(30):
        inner = field(f"L{level}", f"[]S{level}", fields=[inner, field(f"N{level}", "int8")])
    layout = resolve(message([inner]), 0)
    value: Any = {"Leaf": 5, "N0": 0}
    for level in range(1, 30):
        value = {f"L{level - 1}": [value], f"N{level}": level}
    value = {"L29": [value]}
    data = codec_for(layout).encode(value)
    assert codec_for(layout).decode(data) == value
    assert reference.encode(layout, value) == data
    with pytest.raises(DecodeError):
        codec_for(layout).decode(data[:-3])


# ----------------------------------------------------------------------------------------
# Annotated dumps and the JSON form
# ----------------------------------------------------------------------------------------


def test_annotated_dump_names_every_span() -> None:
    m = message([field("Id", "int32"), field("Names", "[]string"),
                 field("T", "int8", taggedVersions="0+", tag=3)])  # fmt: skip
    layout = resolve(m, 0)
    data = codec_for(layout).encode({"Id": 5, "Names": ["ab"], "T": 9})
    assert annotate(layout, data) == [
        "0000  00 00 00 05               Id (int32) = 5",
        "0004  02                        Names (compact array, 1 item)",
        '0005  03 61 62                    Names[0] (compact string) = "ab"',
        "0008  01                        (message) (tagged fields: 1)",
        "0009  03 01                     T (tag 3, 1 bytes)",
        "000b  09                          T (int8) = 9",
    ]
    broken = annotate(layout, data[:6])
    assert broken[-2] == ("0006  !! offset 6, Names[0]: 2 bytes needed (compact string), 0 left")
    assert broken[-1] == "0005  03                        (1 bytes not decoded)"


def test_json_form_round_trip() -> None:
    m = message(
        [
            field("U", "uuid"),
            field("B", "bytes"),
            field("F", "float64"),
            field("S", "Inner", fields=[field("R", "records", nullableVersions="0+")]),
        ]
    )
    layout = resolve(m, 0)
    value = {"U": uuid.UUID(int=5), "B": b"\x00\xff", "F": float("inf"), "S": {"R": None},
             "_unknown_tagged_fields": [[9, b"z"]]}  # fmt: skip
    shown = to_json(layout, value)
    assert shown == {
        "U": "AAAAAAAAAAAAAAAAAAAABQ",
        "B": "AP8=",
        "F": "Infinity",
        "S": {"R": None},
        "_unknown_tagged_fields": [{"tag": 9, "data": "eg=="}],
    }
    assert from_json(layout, shown) == value
    with pytest.raises(EncodeError, match=r"^S\.R: invalid base64"):
        from_json(layout, {"S": {"R": "!!"}})
    with pytest.raises(EncodeError, match=r"^U: invalid uuid"):
        from_json(layout, {"U": "nope"})
    with pytest.raises(EncodeError, match=r"^F: expected a number, got a boolean"):
        from_json(layout, {"F": True})


def test_codecs_are_compiled_once_and_cached() -> None:
    m: Message = message([field("A", "int8")])
    layout = resolve(m, 0)
    assert codec_for(layout) is codec_for(layout)
    assert "def _dec(buf)" in codec_for(layout).source


def test_records_follow_nullable_versions() -> None:
    """Kafka's generated readers reject a null records field without nullableVersions
    (FetchSnapshotResponse.UnalignedRecords): "non-nullable field ... serialized as null"."""
    m = message([field("Recs", "records"), field("Opt", "records", nullableVersions="0+")])
    layout = resolve(m, 0)
    roundtrip(layout, {"Recs": b"\x01", "Opt": None}, "02 01 00 00")
    err = decode_error(layout, "00 00 00")
    assert (err.offset, err.path) == (0, "Recs")
    assert encode_error(layout, {"Opt": b""}).path == "Recs"  # its default is null
