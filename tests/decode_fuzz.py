"""The decoder fuzz: mutations of real encodings, and the check every case goes through.

Shared by the test suite (a bounded run) and ``benchmarks/fuzz_decode.py`` (a million
cases). A case is a layout and some bytes, usually a valid encoding of a sample with a few
mutations aimed at the wire format (varints at the edges of 32 bits, big-endian lengths
of -1 and 2^31, invalid UTF-8, repeated chunks that make repeated tags, trailing bytes).
:func:`check_decoding` decodes it strictly and as Java does, with the compiled decoder and
the reference interpreter, and fails on anything but agreement.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from kcompat.codec import DecodeError, EncodeError, codec_for, reference
from kcompat.codec.samples import generate_samples
from kcompat.spec.model import Message
from kcompat.spec.resolve import Layout, resolve
from kcompat.spec.specfile import read_spec

#: The outcomes :func:`check_decoding` reports: (strict read it, Java read it).
OUTCOMES = {
    (True, True): "both read",
    (False, True): "only Java reads",
    (False, False): "neither reads",
}


def _uvarint(value: int) -> bytes:
    out = bytearray()
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


#: Varint values at the edges: one and two bytes, the string limit, the int32 sign bit.
_EDGES = (0, 1, 2, 127, 128, 0x7FFF, 0x8000, (1 << 31) - 1, 1 << 31, (1 << 31) + 1, (1 << 32) - 1)
#: Byte strings that sit on the wire format's edges.
TOKENS: tuple[bytes, ...] = (
    *(_uvarint(n) for n in _EDGES),
    bytes.fromhex("ffffffff7f"),  # 35 bits: Java keeps the low 32
    bytes.fromhex("ffffffffff01"),  # six bytes: too long for anyone
    bytes.fromhex("ffff"),  # int16 -1
    bytes.fromhex("fffe"),  # int16 -2
    bytes.fromhex("7fff"),
    bytes.fromhex("ffffffff"),  # int32 -1
    bytes.fromhex("fffffffe"),
    bytes.fromhex("80000000"),
    bytes.fromhex("7fffffff"),
    b"\xff",
    b"\xc3",
    b"\xe2\x82",
    b"\xed\xa0\x80",  # an encoded surrogate
    b"\xf0\x90\x80",
    b"\xf4\x90\x80\x80",
    b"\xc0\xaf",
)
_BYTES = (0x00, 0x01, 0x02, 0x7F, 0x80, 0x81, 0xFE, 0xFF)


def mutate(rng: random.Random, data: bytes) -> bytes:
    """``data`` with one to four mutations."""
    out = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        _MUTATIONS[rng.randrange(len(_MUTATIONS))](rng, out)
    return bytes(out)


def _at(rng: random.Random, out: bytearray) -> int:
    return rng.randint(0, len(out))


def _set_byte(rng: random.Random, out: bytearray) -> None:
    if out:
        out[rng.randrange(len(out))] = (
            rng.choice(_BYTES) if rng.random() < 0.6 else rng.randrange(256)
        )


def _flip_bit(rng: random.Random, out: bytearray) -> None:
    if out:
        out[rng.randrange(len(out))] ^= 1 << rng.randrange(8)


def _insert_token(rng: random.Random, out: bytearray) -> None:
    where = _at(rng, out)
    out[where:where] = rng.choice(TOKENS)


def _overwrite_token(rng: random.Random, out: bytearray) -> None:
    token = rng.choice(TOKENS)
    where = _at(rng, out)
    out[where : where + len(token)] = token


def _insert_random(rng: random.Random, out: bytearray) -> None:
    where = _at(rng, out)
    out[where:where] = rng.randbytes(rng.randint(1, 4))


def _delete(rng: random.Random, out: bytearray) -> None:
    where = _at(rng, out)
    del out[where : where + rng.randint(1, 4)]


def _truncate(rng: random.Random, out: bytearray) -> None:
    del out[_at(rng, out) :]


def _append(rng: random.Random, out: bytearray) -> None:
    out += rng.randbytes(rng.randint(1, 4))


def _repeat_chunk(rng: random.Random, out: bytearray) -> None:
    """A chunk copied elsewhere: a repeated tagged entry, an element read twice."""
    if not out:
        return
    start = rng.randrange(len(out))
    chunk = out[start : start + rng.randint(1, 12)]
    where = _at(rng, out)
    out[where:where] = chunk


_MUTATIONS: tuple[Callable[[random.Random, bytearray], None], ...] = (
    _set_byte,
    _set_byte,
    _flip_bit,
    _insert_token,
    _overwrite_token,
    _overwrite_token,
    _insert_random,
    _delete,
    _truncate,
    _append,
    _repeat_chunk,
)


def hostile_messages() -> list[Message]:
    """Messages at the codec's corners: float64 defaults Java reads as Infinity, -Infinity
    and NaN, an int64 default at a long's edge, and tags spread far apart (more than the
    generated decoder dispatches in one ``if``/``elif`` chain, so it bisects; the largest
    tag a Java int holds)."""
    tagged = [
        {"name": "Ratio", "type": "float64", "default": "0x1p1024"},
        {"name": "Floor", "type": "float64", "default": "-Infinity"},
        {"name": "Odd", "type": "float64", "default": "NaN"},
        {"name": "Edge", "type": "int64", "default": "-9223372036854775808"},
        *({"name": f"T{n}", "type": "int32", "default": str(n)} for n in range(48)),
        {"name": "Last", "type": "string", "nullableVersions": "1+", "default": "null"},
    ]
    tags = [0, 1, 2, 3, *(10 * n + 5 for n in range(48)), (1 << 31) - 1]
    fields: list[dict[str, object]] = [
        {"name": "Id", "type": "int32", "versions": "0+"},
        {"name": "Plain", "type": "float64", "versions": "0+", "default": "0x1p1024"},
    ]
    for field, tag in zip(tagged, tags, strict=True):
        fields.append({**field, "versions": "1+", "taggedVersions": "1+", "tag": tag})
    document = {
        "name": "HostileNumbersData",
        "type": "data",
        "validVersions": "0-1",
        "flexibleVersions": "1+",
        "fields": fields,
    }
    spec = read_spec("HostileNumbersData.json", json.dumps(document).encode())
    assert spec.message is not None, spec.error
    return [spec.message]


def seed_cases(
    messages: Iterable[Message], samples: int, seed: int = 0
) -> list[tuple[Layout, bytes]]:
    """Valid encodings of the sample generator's values, for every version of each message."""
    cases = []
    for message in messages:
        for version in message.valid_versions.clip(400):
            layout = resolve(message, version)
            codec = codec_for(layout)
            for value in generate_samples(layout, samples, seed):
                try:
                    cases.append((layout, codec.encode(value)))
                except EncodeError:
                    continue  # a sample a broken default makes unwritable
    return cases


def _compiled(layout: Layout, data: bytes, java: bool) -> tuple[str, Any]:
    try:
        value = codec_for(layout).decode(data, java=java)
    except DecodeError as err:
        return f"error: {err}", None
    return repr(value), value


def check_decoding(layout: Layout, data: bytes) -> str:
    """Decode ``data`` strictly and as Java does, with both decoders; raise
    ``AssertionError`` unless they agree, and let any exception but :class:`DecodeError`
    through (an internal error). Also: what strict reading accepts, Java reads the same
    way; and a decoded value that can be written encodes to the same bytes with both
    encoders, and those bytes read back as the value. Returns the outcome's name.
    """
    read: list[bool] = []
    texts: list[str] = []
    for java in (False, True):
        text, value = _compiled(layout, data, java)
        spanned, _, error = reference.decode_spans(layout, data, java=java)
        expected = f"error: {error}" if error is not None else repr(spanned)
        assert text == expected, (f"java={java}", text, expected)
        read.append(value is not None)
        texts.append(text)
        if value is not None:
            _check_rewrite(layout, value)
    assert not read[0] or texts[1] == texts[0], ("Java reads otherwise", texts)
    return OUTCOMES[(read[0], read[1])]


def _check_rewrite(layout: Layout, value: dict[str, Any]) -> None:
    codec = codec_for(layout)
    try:
        encoded = codec.encode(value)
    except EncodeError:
        try:
            reference.encode(layout, value)
        except EncodeError:
            return
        raise AssertionError("the compiled encoder refuses what the reference writes") from None
    assert reference.encode(layout, value) == encoded, "the encoders differ"
    assert repr(codec.decode(encoded)) == repr(value), "a written value reads back otherwise"


def run_cases(
    seeds: Sequence[tuple[Layout, bytes]], count: int, rng: random.Random
) -> dict[str, int]:
    """``count`` cases: mostly mutated seeds, a few unmutated; the tally of outcomes."""
    tally = dict.fromkeys(OUTCOMES.values(), 0)
    for _ in range(count):
        layout, data = seeds[rng.randrange(len(seeds))]
        case = data if rng.random() < 0.03 else mutate(rng, data)
        try:
            tally[check_decoding(layout, case)] += 1
        except BaseException as failure:
            failure.add_note(f"case: {layout.message.name} v{layout.version} {case.hex()}")
            raise
    return tally
