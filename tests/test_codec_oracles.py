"""kcompat's codec against two independent codecs: kafka-python 3.x and kio 0.6.x.

Every message and version of kafka-python's 108 bundled specs (Kafka 4.x, read with
kcompat's own loader): kcompat's bytes must equal both oracles' bytes, and each side must
decode the other's bytes to the same value. kio is asked wherever its generated class has
the spec's layout (all of them for these specs).

Where the oracles disagree with each other or with kcompat, Kafka's Java generator is the
reference (see /work/notes/kafka-generator-facts.md, section 7b). ``QUIRKS`` records each
disagreement found and asserts what every party does, so the table stays true.
"""

from __future__ import annotations

import io
import json
import math
import os
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

pytest.importorskip("kafka", reason="kafka-python is not installed (the dev extra)")
pytest.importorskip("kio", reason="kio is not installed (the dev extra)")

from kcompat.codec import DecodeError, EncodeError, codec_for
from kcompat.codec.samples import generate_samples
from kcompat.spec.model import Message
from kcompat.spec.resolve import resolve
from kcompat.spec.specfile import read_spec
from tests.codec_strategies import values
from tests.oracles import UNKNOWN, Oracles, kafka_python_spec_dir

pytestmark = pytest.mark.oracle

SPEC_DIR = Path(kafka_python_spec_dir())
ORACLES = Oracles(str(SPEC_DIR))
SAMPLES_PER_VERSION = 25


def _load() -> dict[str, Message]:
    messages = {}
    for path in sorted(SPEC_DIR.glob("*.json")):
        spec = read_spec(str(path), path.read_bytes())
        assert spec.message is not None, spec.error
        messages[spec.message.name] = spec.message
    return messages


MESSAGES = _load()
VERSIONS = [(name, v) for name, message in MESSAGES.items() for v in message.valid_versions]


def same(left: Any, right: Any) -> bool:
    """Equality where NaN equals NaN (hypothesis floats exclude NaN; samples too)."""
    if isinstance(left, float) and isinstance(right, float):
        return left == right or (math.isnan(left) and math.isnan(right))
    return bool(left == right)


def check_value(name: str, version: int, value: dict[str, Any]) -> None:
    """kcompat, kafka-python and kio agree on the bytes of ``value`` and on decoding them."""
    layout = resolve(MESSAGES[name], version)
    codec = codec_for(layout)
    ours = codec.encode(value)
    assert ORACLES.kp_encode(name, version, value) == ours, (name, version, value)
    assert codec.decode(ours) == value
    assert ORACLES.kp_decode(name, version, ours) == value
    if ORACLES.kio_layout_mismatch(name, version) is None:
        theirs = ORACLES.kio_encode(name, version, value)
        assert theirs == ours, (name, version, value)
        assert ORACLES.kio_decode(name, version, ours) == value
        assert codec.decode(theirs) == value


def test_the_bundle_is_all_there() -> None:
    assert len(MESSAGES) == 108
    assert len(VERSIONS) >= 480
    assert all(ORACLES.kio_layout_mismatch(n, v) is None for n, v in VERSIONS[::7])


@pytest.mark.parametrize("name", sorted(MESSAGES))
@settings(
    max_examples=1,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(seed=st.integers(0, 2**32 - 1))
@example(seed=0)
def test_samples_agree_with_both_oracles(name: str, seed: int) -> None:
    """Every version of every message, on kcompat's edge-case samples (hypothesis seeds)."""
    message = MESSAGES[name]
    for version in message.valid_versions:
        for value in generate_samples(resolve(message, version), SAMPLES_PER_VERSION, seed):
            check_value(name, version, value)


@settings(max_examples=int(os.environ.get("KCOMPAT_ORACLE_EXAMPLES", "300")), deadline=None)
@given(data=st.data())
def test_hypothesis_values_agree_with_both_oracles(data: st.DataObject) -> None:
    """Values drawn by an independent hypothesis strategy, so failures shrink."""
    name, version = data.draw(st.sampled_from(VERSIONS), label="message version")
    value = data.draw(values(resolve(MESSAGES[name], version)), label="value")
    check_value(name, version, value)


# ----------------------------------------------------------------------------------------
# The quirk table: where the parties differ, and who is right
# ----------------------------------------------------------------------------------------

OK = "ok"


@dataclass(frozen=True)
class Quirk:
    """One disagreement. ``kcompat``/``kafka_python``/``kio`` are the observed outcomes:
    a value, or the name of the exception. ``java`` is what Kafka's generated code does."""

    id: str
    message: str
    version: int
    run: str  # "decode" (of ``data``) or "encode" (of ``value``)
    data: bytes | Callable[[], bytes] | None
    value: Any
    kcompat: Any
    kafka_python: Any
    kio: Any
    java: str
    right: str


def _metadata_v12_host_null() -> bytes:
    good = _kp("MetadataResponse", 12, {"Brokers": [{"NodeId": 1, "Host": "h", "Port": 1}]})
    return good.replace(bytes.fromhex("00000001026800000001"), bytes.fromhex("000000010000000001"))


def _metadata_v1_rack_minus_two() -> bytes:
    good = _kp("MetadataResponse", 1, {"Brokers": [{"NodeId": 1, "Host": "h", "Port": 1}]})
    return good.replace(bytes.fromhex("00000001ffff"), bytes.fromhex("00000001fffe"))


def _cursor_marker(marker: int, keep_body: bool = True) -> Callable[[], bytes]:
    """DescribeTopicPartitionsRequest v0 with another KIP-893 marker byte for Cursor."""

    def build() -> bytes:
        value = {"Topics": [], "ResponsePartitionLimit": 1,
                 "Cursor": {"TopicName": "a", "PartitionIndex": 3}}  # fmt: skip
        good = _kp("DescribeTopicPartitionsRequest", 0, value)
        at = good.index(bytes.fromhex("0000000101")) + 4
        body = 7  # "a" (2 bytes), the partition index (4), an empty tagged section (1)
        return good[:at] + bytes([marker]) + good[at + 1 + (0 if keep_body else body) :]

    return build


def _kp(name: str, version: int, value: dict[str, Any]) -> bytes:
    return ORACLES.kp_encode(name, version, value)


_API_VERSIONS_BODY = bytes.fromhex("0000 01 00000000")
_CURSOR = {"TopicName": "a", "PartitionIndex": 3}
_EPOCH5 = (5).to_bytes(8, "big")

QUIRKS = [
    Quirk(
        "unknown-tag-read", "ApiVersionsResponse", 3, "decode",
        _API_VERSIONS_BODY + bytes([1, 7, 2]) + b"zz", None,
        kcompat={"ErrorCode": 0, "ApiKeys": [], "ThrottleTimeMs": 0,
                 "SupportedFeatures": [], "FinalizedFeaturesEpoch": -1,
                 "FinalizedFeatures": [], "ZkMigrationReady": False,
                 "_unknown_tagged_fields": [[7, b"zz"]]},
        kafka_python="kept", kio="KeyError",
        java="kept as a RawTaggedField and written back", right="kcompat, kafka-python",
    ),
    Quirk(
        "unknown-tag-rewrite", "ApiVersionsResponse", 3, "encode", None,
        {"ErrorCode": 0, "ApiKeys": [], "ThrottleTimeMs": 0,
         "_unknown_tagged_fields": [[7, b"zz"]]},
        kcompat=_API_VERSIONS_BODY + bytes([1, 7, 2]) + b"zz",
        kafka_python="dropped", kio="n/a",
        java="re-emitted in tag order", right="kcompat",
    ),
    Quirk(
        "bool-byte-2", "ApiVersionsResponse", 3, "decode",
        _API_VERSIONS_BODY + bytes([1, 3, 1, 2]), None,
        kcompat=True, kafka_python=True, kio="ValueError",
        java="readByte() != 0 is true", right="kcompat, kafka-python",
    ),
    Quirk(
        "duplicate-tag", "ApiVersionsResponse", 3, "decode",
        _API_VERSIONS_BODY + bytes([2, 1, 8]) + _EPOCH5 + bytes([1, 8]) + (6).to_bytes(8, "big"),
        None, kcompat="DecodeError", kafka_python=6, kio=6,
        java="accepted, the last one wins", right="deliberate: kcompat rejects ambiguous input",
    ),
    Quirk(
        "tag-size-too-big", "ApiVersionsResponse", 3, "decode",
        _API_VERSIONS_BODY + bytes([1, 1, 9]) + _EPOCH5 + b"\x00", None,
        kcompat="DecodeError", kafka_python="ValueError", kio="ValueError",
        java="reads 8 bytes and misparses the rest", right="kcompat (all reject it)",
    ),
    Quirk(
        "tags-descending-read", "ApiVersionsResponse", 3, "decode",
        _API_VERSIONS_BODY + bytes([2, 3, 1, 1, 1, 8]) + _EPOCH5, None,
        kcompat=5, kafka_python=5, kio=5,
        java="accepted (no order check)", right="all agree",
    ),
    Quirk(
        "kip893-marker-0x80", "DescribeTopicPartitionsRequest", 0, "decode",
        _cursor_marker(0x80, keep_body=False), None,
        kcompat=None, kafka_python="error", kio="UnexpectedNull",
        java="readByte() < 0 is null", right="kcompat (the oracles read a struct, and fail)",
    ),
    Quirk(
        "kip893-marker-0x02", "DescribeTopicPartitionsRequest", 0, "decode",
        _cursor_marker(0x02), None,
        kcompat=_CURSOR, kafka_python=_CURSOR, kio=_CURSOR,
        java="any byte >= 0 is present", right="all agree",
    ),
    Quirk(
        "null-in-non-nullable-string", "MetadataResponse", 12, "decode",
        _metadata_v12_host_null, None,
        kcompat="DecodeError", kafka_python=None, kio="UnexpectedNull",
        java="throws: non-nullable field was serialized as null", right="kcompat, kio",
    ),
    Quirk(
        "null-in-non-nullable-array", "MetadataResponse", 12, "decode",
        bytes.fromhex("000000000000ffffffff0100"), None,
        kcompat="DecodeError", kafka_python=None, kio=None,
        java="throws: non-nullable field was serialized as null", right="kcompat",
    ),
    Quirk(
        "legacy-array-length-minus-2", "MetadataResponse", 0, "decode",
        bytes.fromhex("fffffffe00000000"), None,
        kcompat="DecodeError", kafka_python=[], kio="ValueError",
        java="throws (the field is not nullable)", right="kcompat, kio",
    ),
    Quirk(
        "legacy-nullable-string-minus-2", "MetadataResponse", 1, "decode",
        _metadata_v1_rack_minus_two, None,
        kcompat="DecodeError", kafka_python=None, kio="NegativeByteLength",
        java="any negative length is null for a nullable field",
        right="deliberate: kcompat accepts only -1 (Java would read null)",
    ),
    Quirk(
        "invalid-utf8", "MetadataResponse", 12, "decode",
        lambda: _kp("MetadataResponse", 12,
                    {"Brokers": [{"NodeId": 1, "Host": "h", "Port": 1}]}).replace(
            b"\x02h", b"\x02\xff"),
        None, kcompat="DecodeError", kafka_python="UnicodeDecodeError", kio="InvalidUnicode",
        java="replaced by U+FFFD (new String(bytes, UTF_8))",
        right="deliberate: kcompat rejects it, as both oracles do",
    ),
    Quirk(
        "none-in-non-nullable-string", "MetadataResponse", 12, "encode", None,
        {"Brokers": [{"NodeId": 1, "Host": None, "Port": 1}]},
        kcompat="EncodeError", kafka_python="written as null", kio="TypeError",
        java="NullPointerException", right="kcompat, kio",
    ),
    Quirk(
        "none-in-non-nullable-array", "MetadataResponse", 12, "encode", None,
        {"Topics": None},
        kcompat="EncodeError", kafka_python="written as null", kio="written as null",
        java="throws", right="kcompat",
    ),
    Quirk(
        "tagged-struct-at-default", "FetchResponse", 16, "encode", None,
        {"Responses": [{"Partitions": [{"CurrentLeader": {"LeaderId": -1, "LeaderEpoch": -1}}]}]},
        kcompat="omitted", kafka_python="written", kio="omitted",
        java="omitted (!equals(new LeaderIdAndEpoch()))", right="kcompat, kio",
    ),
    Quirk(
        "tag-order-on-write", "ApiVersionsResponse", 3, "encode", None,
        {"ErrorCode": 0, "ApiKeys": [], "ThrottleTimeMs": 0, "ZkMigrationReady": True,
         "FinalizedFeaturesEpoch": 5},
        kcompat="ascending", kafka_python="dict order", kio="ascending",
        java="ascending (TreeMap by tag)", right="kcompat, kio",
    ),
]  # fmt: skip


def _outcome(run: Callable[[], Any]) -> Any:
    try:
        return run()
    except Exception as err:
        return type(err).__name__


def _decoded_field(quirk: Quirk, value: Any) -> Any:
    """The field a decode quirk is about (the whole value where that is the point)."""
    if not isinstance(value, dict):
        return value
    pick = {
        "bool-byte-2": "ZkMigrationReady",
        "duplicate-tag": "FinalizedFeaturesEpoch",
        "tags-descending-read": "FinalizedFeaturesEpoch",
        "kip893-marker-0x80": "Cursor",
        "kip893-marker-0x02": "Cursor",
        "null-in-non-nullable-string": "Brokers",
        "null-in-non-nullable-array": "Brokers",
        "legacy-array-length-minus-2": "Brokers",
        "legacy-nullable-string-minus-2": "Brokers",
    }.get(quirk.id)
    if pick is None:
        return "kept" if UNKNOWN in value else value
    found = value[pick]
    if quirk.id.startswith(("null-in-non-nullable-string", "legacy-nullable-string")):
        return found[0]["Host" if "non-nullable" in quirk.id else "Rack"]
    return found


@pytest.mark.parametrize("quirk", QUIRKS, ids=[q.id for q in QUIRKS])
def test_quirk_table(quirk: Quirk) -> None:
    layout = resolve(MESSAGES[quirk.message], quirk.version)
    codec = codec_for(layout)
    name, version = quirk.message, quirk.version
    if quirk.run == "decode":
        data = quirk.data() if callable(quirk.data) else quirk.data
        assert isinstance(data, bytes)
        ours = _outcome(lambda: codec.decode(data))
        if quirk.id == "unknown-tag-read":
            assert ours == quirk.kcompat
            assert codec.encode(ours) == data  # written back unchanged
        else:
            assert _decoded_field(quirk, ours) == quirk.kcompat
        kp = _outcome(lambda: ORACLES.kp_decode(name, version, data))
        kio = _outcome(lambda: ORACLES.kio_decode(name, version, data))
        assert _decoded_field(quirk, kp) == quirk.kafka_python
        assert _decoded_field(quirk, kio) == quirk.kio
        return
    _check_encode_quirk(quirk, codec.encode)


def _check_encode_quirk(quirk: Quirk, encode: Callable[[Any], bytes]) -> None:
    name, version, value = quirk.message, quirk.version, quirk.value
    if quirk.id == "unknown-tag-rewrite":
        assert encode(value) == quirk.kcompat
        kp_value = {k: v for k, v in value.items() if not k.startswith("_")}
        raw = ORACLES._kp_struct(name)
        snake = {**ORACLES._to_snake(spec_fields(name), version, kp_value), "_7": b"zz"}
        written = raw.encode(snake, version=version, compact=True, tagged=True)
        assert written == _API_VERSIONS_BODY + b"\x00"  # the unknown tag is gone
        return
    if quirk.id in ("none-in-non-nullable-string", "none-in-non-nullable-array"):
        assert _outcome(lambda: encode(value)) == "EncodeError"
        kp = _outcome(lambda: ORACLES.kp_encode(name, version, value))
        kio = _outcome(lambda: ORACLES.kio_encode(name, version, value))
        null = "0000" if "string" in quirk.id else "00ffffffff"
        assert ("written as null" if isinstance(kp, bytes) and null in kp.hex() else kp) == (
            quirk.kafka_python
        )
        assert ("written as null" if isinstance(kio, bytes) else kio) == quirk.kio
        return
    if quirk.id == "tagged-struct-at-default":
        ours = encode(value)
        assert ours == ORACLES.kio_encode(name, version, value)
        raw = ORACLES._kp_struct(name)
        part = {"partition_index": 0, "error_code": 0, "high_watermark": 0,
                "last_stable_offset": -1, "log_start_offset": -1, "aborted_transactions": [],
                "preferred_read_replica": -1, "records": None,
                "current_leader": {"leader_id": -1, "leader_epoch": -1}}  # fmt: skip
        body = {"throttle_time_ms": 0, "error_code": 0, "session_id": 0,
                "responses": [{"topic_id": None, "partitions": [part]}]}  # fmt: skip
        written = raw.encode(body, version=version, compact=True, tagged=True)
        assert len(written) > len(ours)  # kafka-python writes the default struct as a tag
        return
    assert quirk.id == "tag-order-on-write"
    ours = encode(value)
    assert ours.endswith(bytes([2, 1, 8]) + _EPOCH5 + bytes([3, 1, 1]))  # ascending
    assert ORACLES.kio_encode(name, version, value) == ours
    raw = ORACLES._kp_struct(name)
    snake = {"error_code": 0, "api_keys": [], "throttle_time_ms": 0,
             "zk_migration_ready": True, "finalized_features_epoch": 5}  # fmt: skip
    written = raw.encode(snake, version=version, compact=True, tagged=True)
    assert written.endswith(bytes([2, 3, 1, 1, 1, 8]) + _EPOCH5)  # dict order: 3, then 1


def spec_fields(name: str) -> list[dict[str, Any]]:
    fields: list[dict[str, Any]] = ORACLES.spec(name)["fields"]
    return fields


def test_tagged_nullable_struct_null_with_non_null_default(tmp_path: Path) -> None:
    """KIP-893 in a tagged field: Java writes varint 0 for null; kafka-python cannot.

    kafka-python omits the null (its default for a struct is None), so a reader sees the
    default struct instead; and it reads the varint 0 as an int8 "present" marker.
    """
    spec = {
        "apiKey": 90, "type": "request", "name": "TaggedNullRequest", "validVersions": "0",
        "flexibleVersions": "0+",
        "fields": [
            {"name": "A", "type": "int32", "versions": "0+"},
            {"name": "S", "type": "Inner", "versions": "0+", "nullableVersions": "0+",
             "taggedVersions": "0+", "tag": 0,
             "fields": [{"name": "X", "type": "int16", "versions": "0+"}]},
        ],
    }  # fmt: skip
    path = tmp_path / "TaggedNullRequest.json"
    path.write_text(json.dumps(spec))
    message = read_spec(str(path), path.read_bytes()).message
    assert message is not None
    codec = codec_for(resolve(message, 0))
    ours = codec.encode({"A": 1, "S": None})
    assert ours == bytes.fromhex("00000001 01 00 01 00")  # tag 0, size 1, varint 0
    assert codec.decode(ours) == {"A": 1, "S": None}
    assert codec.encode({"A": 1, "S": {"X": 0}}) == bytes.fromhex("00000001 00")
    assert codec.encode({"A": 1, "S": {"X": 7}}) == bytes.fromhex("00000001 01 00 04 01 0007 00")
    oracle = Oracles(str(tmp_path))
    assert oracle.kp_encode("TaggedNullRequest", 0, {"A": 1, "S": None}) == bytes.fromhex(
        "0000000100"
    )  # the null is lost: a reader sees the default struct
    # It reads the marker as an int8 where 0 means "present", so Java's null fails to parse.
    assert _outcome(lambda: oracle.kp_decode("TaggedNullRequest", 0, ours)) == "error"
    present = codec.encode({"A": 1, "S": {"X": 7}})
    assert oracle.kp_encode("TaggedNullRequest", 0, {"A": 1, "S": {"X": 7}}) == present


def test_kafka_python_reads_kcompat_unknown_tags_and_drops_them_on_write() -> None:
    value = {"ErrorCode": 0, "ApiKeys": [], "ThrottleTimeMs": 0,
             "_unknown_tagged_fields": [[7, b"zz"], [300, bytes(200)]]}  # fmt: skip
    codec = codec_for(resolve(MESSAGES["ApiVersionsResponse"], 3))
    data = codec.encode(value)
    assert codec.decode(data)["_unknown_tagged_fields"] == [[7, b"zz"], [300, bytes(200)]]
    decoded = ORACLES.kp_decode("ApiVersionsResponse", 3, data)
    assert decoded[UNKNOWN] == {7: b"zz", 300: bytes(200)}


def test_uuid_zero_is_never_none() -> None:
    """Both oracles map the zero uuid to None internally; the adapters and kcompat do not."""
    codec = codec_for(resolve(MESSAGES["MetadataRequest"], 12))
    value = {"Topics": [{"TopicId": uuid.UUID(int=0), "Name": "foo"}],
             "AllowAutoTopicCreation": True, "IncludeTopicAuthorizedOperations": False}  # fmt: skip
    data = codec.encode(value)
    assert data.hex() == "020000000000000000000000000000000004666f6f00010000"
    assert codec.decode(data) == value == ORACLES.kio_decode("MetadataRequest", 12, data)
    raw = ORACLES._kp_struct("MetadataRequest").decode(
        io.BytesIO(data), version=12, compact=True, tagged=True
    )
    assert raw["topics"][0]["topic_id"] is None


def test_errors_are_codec_errors() -> None:
    codec = codec_for(resolve(MESSAGES["MetadataResponse"], 12))
    with pytest.raises(DecodeError):
        codec.decode(b"\x00")
    with pytest.raises(EncodeError):
        codec.encode({"ControllerId": 2**31})
