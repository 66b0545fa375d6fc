"""Round trips on real specs, and a bounded fuzz of the decoder.

* ``decode(encode(v)) == v`` for hypothesis-drawn values and for the sample generator's
  values, on every message and version of the example specs (specs/examples) and of
  Kafka's trunk (the corpus fixture), with the compiled codec and the reference
  interpreter giving identical bytes.
* The decoder on random bytes and on mutated valid encodings, strictly and as Kafka's
  Java readers read: it returns a value or raises :class:`DecodeError`, never anything
  else; the compiled decoder and the reference agree on which, and on the message; Java
  reads what strict reading accepts the same way; and every input is decided quickly.
  ``benchmarks/fuzz_decode.py`` runs the mutation fuzz for a million cases.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kcompat.codec import DecodeError, codec_for, reference
from kcompat.codec.samples import generate_samples
from kcompat.spec.model import Message
from kcompat.spec.resolve import Layout, resolve
from tests.codec_helpers import EXAMPLES, field, load_dir, message
from tests.codec_strategies import values
from tests.decode_fuzz import check_decoding, hostile_messages, run_cases, seed_cases

EXAMPLE_MESSAGES = load_dir(EXAMPLES)
INLINE = [
    message(
        [
            field("A", "int64", encoding={"0": "fixed32", "1+": "packed64"}),
            field("B", "[]Item", fields=[field("S", "string"), field("U", "uuid")]),
            field("N", "Inner", nullableVersions="0+", fields=[field("X", "uint16")]),
            field("T", "[]string", versions="1+", taggedVersions="1+", tag=0),
            field("R", "records", nullableVersions="0+"),
        ],
        name="InlineMessage",
        valid="0-1",
        flexible="1+",
    )
]


def _layouts(messages: list[Message]) -> list[Layout]:
    return [resolve(m, v) for m in messages for v in m.valid_versions]


LAYOUTS = _layouts([*EXAMPLE_MESSAGES, *INLINE])


def test_the_examples_are_there() -> None:
    names = {m.name for m in EXAMPLE_MESSAGES}
    assert "WidgetRequest" in names


def same(left: Any, right: Any) -> bool:
    """Equality of values where NaN equals NaN (the sample floats hold none; be safe)."""
    return repr(left) == repr(right) or bool(left == right)


def check_roundtrip(layout: Layout, value: dict[str, Any], with_reference: bool = True) -> None:
    codec = codec_for(layout)
    data = codec.encode(value)
    assert same(codec.decode(data), value)
    if with_reference:
        assert reference.encode(layout, value) == data
        assert same(reference.decode(layout, data), value)


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_hypothesis_round_trip_on_examples(data: st.DataObject) -> None:
    layout = data.draw(st.sampled_from(LAYOUTS), label="layout")
    value = data.draw(values(layout), label="value")
    check_roundtrip(layout, value)


@pytest.mark.parametrize("layout", LAYOUTS, ids=lambda lay: f"{lay.message.name}-v{lay.version}")
def test_samples_round_trip_on_examples(layout: Layout) -> None:
    for value in generate_samples(layout, 30, seed=7):
        check_roundtrip(layout, value)


@pytest.mark.corpus
def test_samples_round_trip_on_kafka_trunk(kafka_repo: Path) -> None:
    messages = load_dir(kafka_repo)
    assert len(messages) > 200
    count = 0
    for layout in _layouts(messages):
        for index, value in enumerate(generate_samples(layout, 8, seed=11)):
            check_roundtrip(layout, value, with_reference=index < 2)
            count += 1
    assert count > 5000


@pytest.mark.corpus
@settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_hypothesis_round_trip_on_kafka_trunk(kafka_repo: Path, data: st.DataObject) -> None:
    layouts = _trunk_layouts(kafka_repo)
    layout = data.draw(st.sampled_from(layouts), label="layout")
    check_roundtrip(layout, data.draw(values(layout), label="value"))


_TRUNK: dict[Path, list[Layout]] = {}


def _trunk_layouts(repo: Path) -> list[Layout]:
    if repo not in _TRUNK:
        _TRUNK[repo] = _layouts(load_dir(repo))
    return _TRUNK[repo]


# ----------------------------------------------------------------------------------------
# Fuzzing the decoder
# ----------------------------------------------------------------------------------------


def decide(layout: Layout, data: bytes) -> str:
    """Decode with both codecs, strictly and as Java does; they must agree (see
    :func:`tests.decode_fuzz.check_decoding`). Returns the strict outcome as text."""
    try:
        fast: str = repr(codec_for(layout).decode(data))
    except DecodeError as err:
        fast = f"DecodeError: {err}"
    check_decoding(layout, data)
    return fast


@settings(max_examples=400, deadline=None)
@given(data=st.data())
def test_fuzz_random_bytes(data: st.DataObject) -> None:
    layout = data.draw(st.sampled_from(LAYOUTS), label="layout")
    decide(layout, data.draw(st.binary(max_size=120), label="bytes"))


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(data=st.data())
def test_fuzz_mutated_encodings(data: st.DataObject) -> None:
    layout = data.draw(st.sampled_from(LAYOUTS), label="layout")
    value = data.draw(values(layout, max_items=2), label="value")
    encoded = bytearray(codec_for(layout).encode(value))
    for _ in range(data.draw(st.integers(1, 4), label="mutations")):
        where = data.draw(st.integers(0, max(len(encoded) - 1, 0)), label="at")
        kind = data.draw(st.sampled_from(["set", "cut", "insert", "delete"]), label="kind")
        if kind == "set" and encoded:
            encoded[where] = data.draw(st.sampled_from([0, 1, 0x7F, 0x80, 0xFE, 0xFF]))
        elif kind == "cut":
            del encoded[where:]
        elif kind == "insert":
            encoded[where:where] = data.draw(st.binary(min_size=1, max_size=5))
        elif encoded:
            del encoded[where]
    decide(layout, bytes(encoded))


def test_fuzz_mutated_samples_in_both_modes() -> None:
    """A bounded run of ``benchmarks/fuzz_decode.py`` on the examples (fixed seed)."""
    seeds = seed_cases([*EXAMPLE_MESSAGES, *INLINE, *hostile_messages()], 6)
    tally = run_cases(seeds, 2500, random.Random(20261121))
    assert sum(tally.values()) == 2500
    assert tally["both read"] and tally["only Java reads"] and tally["neither reads"]


@pytest.mark.corpus
def test_fuzz_mutated_samples_of_kafka_trunk_in_both_modes(kafka_repo: Path) -> None:
    seeds = seed_cases(load_dir(kafka_repo), 2)
    assert len(seeds) > 1000
    tally = run_cases(seeds, 3000, random.Random(7))
    assert sum(tally.values()) == 3000


def test_hostile_lengths_are_decided() -> None:
    """Huge counts and sizes in a few bytes: rejected before any allocation (how fast is
    measured by benchmarks/fuzz_decode.py)."""
    hostile = [
        bytes.fromhex("ffffffff0f"),  # a compact count of 2^32 - 2
        bytes.fromhex("7fffffff"),  # a classic count of 2^31 - 1
        bytes.fromhex("00") + bytes.fromhex("ffffffff0f") * 3,
        bytes.fromhex("ff") * 64,
        bytes(2000),
    ]
    outcomes = 0
    for layout in LAYOUTS:
        for data in hostile:
            decide(layout, data)
            outcomes += 1
    assert outcomes == len(LAYOUTS) * len(hostile)
