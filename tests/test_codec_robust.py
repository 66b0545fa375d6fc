"""Specs and bytes the codec must survive: broken specs reach it through ``diff``'s proof
and ``encode``/``decode``, hostile bytes through ``decode`` (issue 12, defects 7, 8, 15).

* Nothing from a spec becomes Python source text: a negative tag, a name that is no
  identifier, a default with thousands of digits all compile.
* A spec that repeats a tag or a field name is read the same way by the compiled decoder
  and the reference interpreter (the first field declaring a tag gets it; a repeated name
  holds the value of its last declaration), so the proof never reports a ``CodecBug``.
* Memory is bounded: the annotated dump streams, and ``decode`` refuses input over its cap.
"""

from __future__ import annotations

import json
import tracemalloc
from pathlib import Path
from typing import Any

import pytest

from kcompat.codec import DecodeError, EncodeError, codec_for, reference
from kcompat.codec.annotate import annotate, write_annotation
from kcompat.codec.samples import generate_samples
from kcompat.spec.resolve import Layout, resolve
from tests.codec_helpers import field, hexbytes, message
from tests.diff_runner import diff_last_commit, run_process, two_commits


def outcome(layout: Layout, data: bytes, java: bool = False) -> str:
    """What a decoder makes of ``data``: the value's repr, or the error's text."""
    try:
        return repr(codec_for(layout).decode(data, java=java))
    except DecodeError as err:
        return f"error: {err}"


def reference_outcome(layout: Layout, data: bytes, java: bool = False) -> str:
    try:
        return repr(reference.decode(layout, data, java=java))
    except DecodeError as err:
        return f"error: {err}"


def spec_text(fields: list[dict[str, Any]], name: str = "OddMessage") -> str:
    document = {"name": name, "type": "data", "validVersions": "0", "flexibleVersions": "0+"}
    return json.dumps({**document, "fields": fields})


# ----------------------------------------------------------------------------------------
# 7: no generated name from spec values
# ----------------------------------------------------------------------------------------

NEGATIVE_TAG = [field("A", "int32", taggedVersions="0+", tag=-1)]


def test_a_negative_tag_compiles_and_both_decoders_read_it_alike() -> None:
    layout = resolve(message(NEGATIVE_TAG), 0)
    codec = codec_for(layout)
    assert codec.decode(hexbytes("00")) == {"A": 0}
    with pytest.raises(EncodeError, match="its tag -1 is not a valid tag"):
        codec.encode({"A": 5})
    # Raw tag 2^32 - 1 is the Java int -1: Java's ``case -1`` would read it; strict refuses.
    data = hexbytes("01 ffffffff0f 04 00000007")
    assert outcome(layout, data, java=True) == reference_outcome(layout, data, java=True)
    assert codec.decode(data, java=True) == {"A": 7}
    assert outcome(layout, data).startswith(
        "error: offset 1, <tag 4294967295>: tag 4294967295 is over"
    )
    assert outcome(layout, data) == reference_outcome(layout, data)


def test_no_spec_text_reaches_the_generated_source() -> None:
    odd = 'x"); import os  #'
    m = message(
        [
            field(odd, "string", default="zq'\"\\n"),
            field("Big", "int64", taggedVersions="0+", tag=1234567, default="-7654321"),
            field("N", "int32", taggedVersions="0+", tag=-12345),
        ]
    )
    layout = resolve(m, 0)
    codec = codec_for(layout)
    code = codec.source.split("\n# _K0 = ", 1)[0]
    for text in (odd, "zq", "1234567", "7654321", "12345"):
        assert text not in code
    value = {odd: "v", "Big": 5, "N": 0}
    data = codec.encode(value)
    assert data == reference.encode(layout, value)
    assert codec.decode(data) == {odd: "v", "Big": 5, "N": 0}


def test_layouts_differing_only_in_a_default_have_different_sources() -> None:
    # The proof skips a pair of layouts whose codec sources are equal: constants count.
    first = codec_for(resolve(message([field("T", "int32", taggedVersions="0+", tag=0)]), 0))
    second = codec_for(
        resolve(message([field("T", "int32", taggedVersions="0+", tag=0, default="5")]), 0)
    )
    assert first.source != second.source


def test_encode_and_decode_of_a_negative_tag_spec_are_one_line_not_a_crash(
    tmp_path: Path,
) -> None:
    (tmp_path / "OddMessage.json").write_text(spec_text(NEGATIVE_TAG))
    specs = ["--specs", str(tmp_path)]
    decoded = run_process(["decode", "OddMessage", "--version", "0", "00", *specs], tmp_path)
    assert (decoded.code, json.loads(decoded.stdout)) == (0, {"A": 0})
    encoded = run_process(
        ["encode", "OddMessage", "--version", "0", str(tmp_path / "v.json"), *specs], tmp_path
    )
    assert encoded.code == 2  # no such file: usage, not a crash
    (tmp_path / "v.json").write_text('{"A": 5}')
    encoded = run_process(
        ["encode", "OddMessage", "--version", "0", str(tmp_path / "v.json"), *specs], tmp_path
    )
    assert encoded.code == 1, encoded.stderr
    assert encoded.stderr.strip() == (
        "kcompat: error: cannot encode OddMessage v0: A: its tag -1 is not a valid tag "
        "(0 to 2^31-1)"
    )


def test_diff_of_a_spec_given_a_negative_tag_reports_findings(tmp_path: Path) -> None:
    base = spec_text([field("A", "int32", taggedVersions="0+", tag=0)])
    repo = two_commits(tmp_path / "repo", {"OddMessage.json": base},
                       {"OddMessage.json": spec_text(NEGATIVE_TAG)})  # fmt: skip
    run = diff_last_commit(repo, proof=True)
    assert run.code == 1, run.stderr
    assert run.findings()


# ----------------------------------------------------------------------------------------
# 8: a repeated tag and a repeated field name
# ----------------------------------------------------------------------------------------

REPEATS = [
    field("A", "int32", taggedVersions="0+", tag=0),
    field("A", "int32", taggedVersions="0+", tag=0),
    field("B", "string", taggedVersions="0+", tag=0),
    field("C", "int8"),
    field("C", "int16"),
]


@pytest.mark.parametrize("java", [False, True], ids=["strict", "java"])
def test_repeated_tags_and_names_read_alike_in_both_decoders(java: bool) -> None:
    layout = resolve(message(REPEATS), 0)
    cases = [
        "01 0002 00",  # C, C, no tags
        "01 0002 01 0004 00000005",  # tag 0 as the first field declaring it: A int32
        "01 0002 01 0002 0261",  # tag 0 holding B's string bytes: A cannot read it
        "01 0002 02 0004 00000005 0004 00000006",  # tag 0 twice
    ]
    for sample in generate_samples(layout, 12, 1):
        try:
            cases.append(codec_for(layout).encode(sample).hex())
        except EncodeError:  # C holds an int16 sample that its first, int8 field refuses
            with pytest.raises(EncodeError):
                reference.encode(layout, sample)
    for case in cases:
        data = hexbytes(case)
        assert outcome(layout, data, java) == reference_outcome(layout, data, java), case
    # Tag 0 reaches the first A; the second A (never on the wire) has the last word.
    assert codec_for(layout).decode(hexbytes("01 0002 01 0004 00000005")) == {
        "C": 2,
        "A": 0,
        "B": "",
    }


def test_repeated_fields_encode_alike_in_both_encoders() -> None:
    layout = resolve(message(REPEATS), 0)
    value = {"A": 3, "B": "b", "C": 4}
    assert codec_for(layout).encode(value) == reference.encode(layout, value)


def test_diff_of_a_spec_with_a_repeated_tag_and_field_is_findings_not_a_codec_bug(
    tmp_path: Path,
) -> None:
    base = spec_text([field("B", "string", taggedVersions="0+", tag=0)])
    head = spec_text(REPEATS[:3])
    repo = two_commits(tmp_path / "repo", {"OddMessage.json": base}, {"OddMessage.json": head})
    run = diff_last_commit(repo, proof=True)
    assert run.code == 1, run.stderr
    assert "CodecBug" not in run.stderr
    # a layout with a tag (and a field) declared twice is a guess: diff does not compare
    # it, and says which lint rule explains why (the codec is deterministic regardless)
    (finding,) = run.findings()
    assert finding["rule"] == "spec-invalid"
    assert finding["message"].endswith(("(tag-duplicate)", "(duplicate-field-name)"))


# ----------------------------------------------------------------------------------------
# 15: consistent tag limits, bounded memory
# ----------------------------------------------------------------------------------------


def test_the_strict_decoder_refuses_the_tags_the_encoder_refuses() -> None:
    layout = resolve(message([field("A", "int8")]), 0)
    for tag_bytes, tag in (("ffffffff07", (1 << 31) - 1), ("8080808008", 1 << 31)):
        data = hexbytes(f"01 01 {tag_bytes} 00")
        written = {"A": 1, "_unknown_tagged_fields": [[tag, b""]]}
        if tag < 1 << 31:
            assert codec_for(layout).decode(data) == written
            assert codec_for(layout).encode(written) == data
        else:
            assert outcome(layout, data).endswith("(tags are Java ints)")
            with pytest.raises(EncodeError):
                codec_for(layout).encode(written)


def test_the_annotated_dump_streams_in_flat_memory() -> None:
    layout = resolve(message([field("Items", "[]Item", fields=[field("V", "int8")])],
                             flexible="none"), 0)  # fmt: skip
    count = 20_000
    data = count.to_bytes(4, "big") + bytes(range(100)) * (count // 100)
    written: list[int] = []
    tracemalloc.start()
    try:
        error = write_annotation(layout, data, lambda line: written.append(len(line)))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert error is None
    assert len(written) == count + 1
    # Lines are counted, not kept: what the dump itself holds stays far below the input's
    # size in Python objects (a list of spans would take some 500 bytes per item).
    assert peak < 4 * len(data) + 8 * len(written) + 1_000_000
    small = (5).to_bytes(4, "big") + bytes(range(5))
    assert annotate(layout, small)[1:] == [
        "0004  00                            Items[0].V (int8) = 0",
        "0005  01                            Items[1].V (int8) = 1",
        "0006  02                            Items[2].V (int8) = 2",
        "0007  03                            Items[3].V (int8) = 3",
        "0008  04                            Items[4].V (int8) = 4",
    ]
