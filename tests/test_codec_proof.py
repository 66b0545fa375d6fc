"""The round-trip proof: evidence for wire breaks, silence for changes that keep the wire.

Each case edits a spec's JSON text (an example spec or a small inline one) and proves the
edited message against the original across all their common versions.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from copy import deepcopy
from functools import partial
from typing import Any

import json5
import jsonschema
import pytest

from kcompat.codec import codec_for
from kcompat.codec.proof import Evidence, prove, samples_per_second
from kcompat.codec.samples import LONG_ARRAY, generate_samples
from kcompat.spec.model import Message
from kcompat.spec.resolve import Kind, resolve
from kcompat.spec.specfile import read_spec
from tests.codec_helpers import EXAMPLES, ROOT, load_dir

SCHEMA = json.loads((ROOT / "kcompat" / "data" / "findings.schema.json").read_text())
EVIDENCE_SCHEMA = SCHEMA["$defs"]["finding"]["properties"]["evidence"]


def read(document: dict[str, Any]) -> Message:
    spec = read_spec(f"{document['name']}.json", json.dumps(document).encode())
    assert spec.message is not None, spec.error
    return spec.message


def example(name: str) -> dict[str, Any]:
    path = EXAMPLES / f"{name}.json"
    document: dict[str, Any] = json5.loads(path.read_text())
    return document


def find(document: dict[str, Any], path: str) -> dict[str, Any]:
    """The field at a dotted path (inline structs and common structs)."""
    fields = document["fields"]
    found: dict[str, Any] = {}
    for name in path.split("."):
        if not fields and found:
            base = found["type"].removeprefix("[]")
            fields = next(s["fields"] for s in document["commonStructs"] if s["name"] == base)
        found = next(f for f in fields if f["name"] == name)
        fields = found.get("fields", [])
    return found


def proven(base: dict[str, Any], head: dict[str, Any], samples: int = 20) -> list[Evidence]:
    old, new = read(base), read(head)
    return prove(old, new, old.valid_versions, samples=samples, seed=3)


def changed(document: dict[str, Any], change: Callable[[dict[str, Any]], object]) -> Any:
    copy = deepcopy(document)
    change(copy)
    return copy


def tiny() -> dict[str, Any]:
    return {
        "name": "TinyRequest",
        "type": "request",
        "apiKey": 300,
        "validVersions": "0-1",
        "flexibleVersions": "1+",
        "fields": [
            {"name": "Id", "type": "int32", "versions": "0+"},
            {"name": "Epoch", "type": "int32", "versions": "0+"},
            {"name": "Ids", "type": "[]int32", "versions": "0+"},
            {"name": "Note", "type": "string", "versions": "0+", "nullableVersions": "0+"},
            {"name": "Hint", "type": "int64", "versions": "1+", "taggedVersions": "1+",
             "tag": 0},
        ],
    }  # fmt: skip


def set_key(path: str, key: str, value: Any) -> Callable[[dict[str, Any]], object]:
    return lambda doc: find(doc, path).__setitem__(key, value)


def drop_key(path: str, key: str) -> Callable[[dict[str, Any]], object]:
    return lambda doc: find(doc, path).pop(key)


def remove_field(path: str) -> Callable[[dict[str, Any]], object]:
    parent = path.rpartition(".")[0]

    def change(doc: dict[str, Any]) -> None:
        fields = find(doc, parent)["fields"] if parent else doc["fields"]
        fields.remove(find(doc, path))

    return change


def add_field(spec: dict[str, Any], at: int = -1) -> Callable[[dict[str, Any]], object]:
    return lambda doc: doc["fields"].insert(len(doc["fields"]) if at < 0 else at, spec)


# ----------------------------------------------------------------------------------------
# Changes that keep the wire: no evidence
# ----------------------------------------------------------------------------------------

NEW_TAG = {"name": "Region", "type": "string", "versions": "2+", "taggedVersions": "2+",
           "tag": 2, "about": "A new tagged field."}  # fmt: skip

COMPATIBLE: dict[str, Callable[[dict[str, Any]], object]] = {
    "identical": lambda doc: None,
    "doc": set_key("Widgets.Kind", "about", "The kind of widget; see the docs."),
    "rename untagged": set_key("TimeoutMs", "name", "TimeoutMillis"),
    "rename nested untagged": set_key("Widgets.PartIds", "name", "Parts"),
    "rename tagged": set_key("DryRun", "name", "ValidateOnly"),
    "rename struct type": set_key("Widgets", "type", "[]WidgetItem"),
    "ignorable": set_key("Widgets.RelatedIds", "ignorable", False),
    "mapKey and entityType": set_key("Widgets.Name", "mapKey", False),
    "new tagged field": add_field(NEW_TAG),
    "removed tagged field": remove_field("DryRun"),
    "removed nested tagged field": remove_field("Widgets.Note"),
    "new version only in head": lambda doc: doc.__setitem__("validVersions", "0-5"),
}


@pytest.mark.parametrize("case", sorted(COMPATIBLE))
def test_no_evidence_for_changes_that_keep_the_wire(case: str) -> None:
    base = example("WidgetRequest")
    assert proven(base, changed(base, COMPATIBLE[case])) == []


def test_a_field_widened_with_a_narrow_encoding_for_old_versions_is_compatible() -> None:
    """Why ``encoding`` exists: int32 -> int64 with fixed32 in the released versions."""

    def widen(doc: dict[str, Any]) -> None:
        find(doc, "Epoch").update({"type": "int64", "encoding": "fixed32"})

    assert proven(tiny(), changed(tiny(), widen)) == []


def test_primitive_array_to_single_field_structs_keeps_the_classic_wire() -> None:
    def to_structs(doc: dict[str, Any]) -> None:
        find(doc, "Ids").update(
            {"type": "[]Id", "fields": [{"name": "Value", "type": "int32", "versions": "0+"}]}
        )

    found = proven(tiny(), changed(tiny(), to_structs))
    assert {e.version for e in found} == {1}  # flexible: each struct adds a tagged section


def test_untagged_default_change_is_not_visible_in_bytes() -> None:
    assert proven(tiny(), changed(tiny(), set_key("Epoch", "default", "-1"))) == []


# ----------------------------------------------------------------------------------------
# Wire breaks: evidence
# ----------------------------------------------------------------------------------------


def _swap(doc: dict[str, Any]) -> None:
    doc["fields"][0], doc["fields"][1] = doc["fields"][1], doc["fields"][0]


BREAKS: dict[str, Callable[[dict[str, Any]], object]] = {
    "int32 to int64": set_key("Id", "type", "int64"),
    "int32 to uint32": set_key("Id", "type", "uint32"),
    "int32 to float64": set_key("Id", "type", "float64"),
    "int32 to bool": set_key("Id", "type", "bool"),
    "string to bytes": set_key("Note", "type", "bytes"),
    "swap two fields": _swap,
    "removed field": remove_field("Epoch"),
    "field removed from released versions": set_key("Epoch", "versions", "2+"),
    "added field": add_field({"name": "New", "type": "int8", "versions": "0+"}, at=1),
    "not nullable any more": drop_key("Note", "nullableVersions"),
    "tag changed": set_key("Hint", "tag", 1),
    "tag moved to untagged": lambda doc: (find(doc, "Hint").pop("tag"),
                                          find(doc, "Hint").pop("taggedVersions")),
    "flexible earlier": lambda doc: doc.__setitem__("flexibleVersions", "0+"),
    "packed encoding": set_key("Epoch", "encoding", "packed32"),
    "tagged default": set_key("Hint", "default", "-1"),
    "array element type": set_key("Ids", "type", "[]int64"),
}  # fmt: skip


@pytest.mark.parametrize("case", sorted(BREAKS))
def test_evidence_for_wire_breaks(case: str) -> None:
    found = proven(tiny(), changed(tiny(), BREAKS[case]))
    assert found, f"no evidence for {case}"
    for evidence in found:
        _check_evidence(evidence)


def test_a_field_added_to_a_released_version_is_caught_both_ways() -> None:
    base = example("WidgetResponseHeader")
    head = changed(base, add_field({"name": "Extra", "type": "int16", "versions": "0+"}, at=0))
    found = proven(base, head)
    assert {e.direction for e in found} == {"base->head", "head->base"}


def test_a_break_deep_in_the_example_is_found() -> None:
    base = example("WidgetRequest")
    head = changed(base, set_key("Widgets.Dimensions.WidthMm", "type", "int64"))
    found = proven(base, head, samples=12)
    assert found and {e.version for e in found} >= {1, 2, 3}
    assert {e.field_path for e in found} == {"Widgets.Dimensions.WidthMm"}
    assert all(e.value_path.startswith("Widgets[") for e in found)
    assert all(e.value_path in str(e).splitlines()[0] for e in found)
    for evidence in found:
        _check_evidence(evidence)


def test_nullable_added_to_released_versions_breaks_old_readers_only() -> None:
    found = proven(tiny(), changed(tiny(), set_key("Ids", "nullableVersions", "0+")))
    assert {e.direction for e in found} == {"head->base"}
    assert all(e.error is not None and "not nullable" in e.error for e in found)


def test_evidence_of_a_decode_error_names_the_field_and_the_value() -> None:
    found = proven(tiny(), changed(tiny(), drop_key("Note", "nullableVersions")))
    evidence = next(e for e in found if e.version == 0)
    assert evidence.direction == "base->head"
    assert evidence.field_path == "Note"
    assert evidence.written is None and evidence.read is None
    assert evidence.error is not None and evidence.error.endswith("not nullable at version 0")
    assert any("Note" in line for line in evidence.annotated)


def test_evidence_of_a_misread_value() -> None:
    evidence = proven(tiny(), changed(tiny(), set_key("Id", "type", "uint32")))[0]
    assert evidence.field_path == "Id"
    assert evidence.error is None
    assert isinstance(evidence.written, int) and evidence.written < 0
    assert evidence.read == evidence.written + 2**32
    assert str(evidence).splitlines()[0] == (
        f"TinyRequest v0 base->head: Id: wrote {evidence.written}, read {evidence.read} "
        f"({evidence.size} bytes)"
    )


def test_the_proof_is_deterministic_and_takes_the_smallest_sample() -> None:
    head = changed(tiny(), set_key("Id", "type", "uint32"))
    first, again = proven(tiny(), head), proven(tiny(), head)
    assert [e.to_dict() for e in first] == [e.to_dict() for e in again]
    layout = resolve(read(tiny()), 0)
    sizes = sorted(len(codec_for(layout).encode(s)) for s in generate_samples(layout, 20, 3))
    assert first[0].size <= sizes[len(sizes) // 2]


def _check_evidence(evidence: Evidence) -> None:
    data = evidence.to_dict()
    jsonschema.validate(data, EVIDENCE_SCHEMA)
    assert set(data) == {"message", "version", "direction", "field_path", "value_path", "hex",
                         "annotated", "written", "read", "error"}  # fmt: skip
    json.dumps(data)
    text = str(evidence)
    assert len(text.splitlines()) <= 25
    assert text.splitlines()[0].startswith(f"{evidence.message} v{evidence.version} ")
    assert evidence.direction in ("base->head", "head->base")
    assert len(evidence.annotated) <= 40
    assert len(evidence.hex) <= 2 * 1024 + 40
    # the changed field ("" when the message's own flexibility changed), never an index
    assert "[" not in evidence.field_path
    assert evidence.field_path or "flexib" in evidence.summary() or evidence.value_path
    assert {evidence} == {evidence}  # hashable although it holds dicts and lists


# ----------------------------------------------------------------------------------------
# Samples
# ----------------------------------------------------------------------------------------


def test_samples_are_deterministic_and_encodable() -> None:
    for message in load_dir(EXAMPLES):
        for version in message.valid_versions:
            layout = resolve(message, version)
            first = generate_samples(layout, 12, seed=5)
            assert first == generate_samples(layout, 12, seed=5)
            assert first != generate_samples(layout, 12, seed=6)
            for sample in first:
                assert len(codec_for(layout).encode(sample)) < 64 * 1024


def test_samples_cover_the_edges() -> None:
    layout = resolve(read(example("WidgetRequest")), 3)
    samples = generate_samples(layout, 6, seed=0)
    defaults, low, high, long, small = samples[:5]
    assert defaults["TimeoutMs"] == 0x7530 and defaults["TraceContext"] == b""
    assert low["Attachments"] is None and low["Widgets"] == [] and low["TimeoutMs"] == -(2**31)
    assert high["TimeoutMs"] == 2**31 - 1 and high["QuotaBytes"] == 2**32 - 1
    assert high["OwnerGroup"] == "ünïcødé ✓ 🙂" and high["DryRun"] is True
    assert high["Widgets"][0]["Audit"] is not None
    assert len(long["Widgets"]) == LONG_ARRAY
    assert any(len(w["Labels"]) == LONG_ARRAY for w in long["Widgets"][:1]) or long["Widgets"]
    assert small["Widgets"][0]["Dimensions"] is not None
    assert low["Quantity"] == -(2**31)  # upacked32 of an int32: the signed range
    kinds = {lf.wire.kind for lf in layout.root.all_fields()}
    assert Kind.UUID in kinds and Kind.RECORDS in kinds


def test_samples_respect_narrow_encodings() -> None:
    base = changed(tiny(), lambda doc: find(doc, "Epoch").update(type="int64", encoding="fixed32"))
    layout = resolve(read(base), 0)
    values = {s["Epoch"] for s in generate_samples(layout, 30, seed=1)}
    assert max(values) == 2**31 - 1 and min(values) == -(2**31)


def test_samples_per_second_counts_every_direction() -> None:
    messages = load_dir(EXAMPLES)
    rate = samples_per_second(messages, samples=4)
    versions = sum(len(m.valid_versions) for m in messages)
    assert rate.versions == versions
    assert rate.samples == versions * 4 * 2
    assert rate.per_second > 0


def test_prove_needs_common_versions_only() -> None:
    base = read(tiny())
    head = read(changed(tiny(), lambda doc: doc.__setitem__("validVersions", "1-2")))
    found = prove(base, head, base.valid_versions, samples=5)
    assert found == []


def test_a_change_alike_in_many_versions_is_sampled_once() -> None:
    """Versions that changed the same way share the first one's counterexample; a version
    whose change differs is sampled on its own."""
    from kcompat.codec.blame import layout_delta

    base = {
        "name": "WideRequest",
        "type": "request",
        "apiKey": 301,
        "validVersions": "0-5",
        "flexibleVersions": "3+",
        "fields": [
            {"name": "Id", "type": "int32", "versions": "0+"},
            {"name": "Note", "type": "string", "versions": "2+"},
        ],
    }
    head = changed(base, set_key("Id", "type", "int64"))
    found = proven(base, head)
    by_version: dict[int, set[str]] = {}
    for evidence in found:
        by_version.setdefault(evidence.version, set()).add(evidence.hex)
    assert sorted(by_version) == [0, 1, 2, 3, 4, 5]
    # 0-1 alike (Note absent, Id retyped), 2 alike too (Note unchanged), 3+ flexible: the
    # same delta is the same counterexample; a flexible version's bytes differ
    old, new = read(base), read(head)
    deltas = {v: layout_delta(resolve(old, v).root, resolve(new, v).root) for v in range(6)}
    assert len(set(deltas.values())) == 2  # non-flexible versions, flexible versions
    assert by_version[0] == by_version[1] == by_version[2]
    assert by_version[3] == by_version[4] == by_version[5]
    assert by_version[0] != by_version[3]


def test_a_long_arrays_default_structs_are_equal_copies() -> None:
    """Built once and copied (a long sample of a big message is 129 of them): equal to the
    one built, never the same object, so nothing done to one sample item reaches another."""
    layout = resolve(read(example("WidgetRequest")), 3)
    long = generate_samples(layout, 5, seed=0)[3]
    items = long["Widgets"][1:]
    assert len(items) == LONG_ARRAY - 1
    assert all(item == items[0] for item in items)
    assert all(item is not items[0] for item in items[1:])
    nested = [key for key, value in items[0].items() if isinstance(value, list | dict)]
    assert nested and all(items[1][key] is not items[0][key] for key in nested)
    assert generate_samples(layout, 5, seed=0) == generate_samples(layout, 5, seed=0)


# ----------------------------------------------------------------------------------------
# Big messages: the proof samples only what can show something new (issue 22.11)
# ----------------------------------------------------------------------------------------

#: Every break above, and one deep in the example (inside an array of structs).
ALL_BREAKS = [(tiny(), changed(tiny(), change)) for change in BREAKS.values()] + [
    (example("WidgetRequest"), changed(example("WidgetRequest"), set_key(path, key, value)))
    for path, key, value in (
        ("Widgets.Dimensions.WidthMm", "type", "int64"),
        ("Widgets.Note", "tag", 5),
        ("TimeoutMs", "type", "int64"),
    )
]


def test_blame_anywhere_is_what_blame_names_for_every_path() -> None:
    """Where :func:`blame_anywhere` names a field, :func:`blame` names it for every value
    path where a reading can part from the writer's (any of the writer's byte spans from
    the first one the reader does not share on): the premise of stopping at the first
    counterexample."""
    from kcompat.codec.blame import blame, blame_anywhere
    from kcompat.codec.reference_decoder import decode_spans

    checked = 0
    for base, head in ALL_BREAKS:
        old, new = read(base), read(head)
        for version in old.valid_versions & new.valid_versions:
            for writer, reader, direction in (
                (resolve(old, version), resolve(new, version), "base->head"),
                (resolve(new, version), resolve(old, version), "head->base"),
            ):
                anywhere = blame_anywhere(writer.root, reader.root, direction)
                if anywhere is None:
                    continue
                for sample in generate_samples(writer, 6, seed=1):
                    data = codec_for(writer).encode(sample)
                    _, spans, _ = decode_spans(writer, data)
                    _, read_spans, _ = decode_spans(reader, data, java=True)
                    bounds = [(s.start, s.end) for s in read_spans]
                    parted = next(
                        (
                            i
                            for i, s in enumerate(spans)
                            if (s.start, s.end) not in bounds[i : i + 1]
                        ),
                        len(spans),
                    )
                    for path in {span.path or "(message)" for span in spans[parted:]}:
                        assert blame(writer.root, reader.root, path, direction) == anywhere
                        checked += 1
    assert checked > 1000


def test_stopping_at_the_first_counterexample_changes_no_evidence(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The proof with its shortcut finds exactly what sampling every sample finds."""
    from kcompat.codec import proof
    from kcompat.memo import Lru

    def evidence(base: dict[str, Any], head: dict[str, Any]) -> list[dict[str, Any]]:
        monkeypatch.setattr(proof, "_PROVEN", Lru("proofs", 20_000))  # none from the other run
        return [e.to_dict() for e in proven(base, head)]

    shortcut = [evidence(base, head) for base, head in ALL_BREAKS]
    monkeypatch.setattr(proof, "blame_anywhere", lambda *_: None)
    assert shortcut == [evidence(base, head) for base, head in ALL_BREAKS]
    assert all(shortcut)


def test_the_reference_codec_stands_in_for_the_compiled_one() -> None:
    """What the proof uses for a layout sampled too few times to compile: the same bytes,
    the same values and the same errors, strict and as Java reads."""
    from kcompat.codec.codec import (
        COMPILE_AT_MOST,
        COMPILE_PAYS_AFTER,
        Interpreted,
        codec_for_uses,
    )
    from kcompat.codec.errors import DecodeError, EncodeError

    def outcome(action: Callable[[], Any]) -> str:
        try:
            return repr(action())
        except (DecodeError, EncodeError) as err:
            return f"{type(err).__name__}: {err}"

    for message in load_dir(EXAMPLES):
        for version in message.valid_versions:
            layout = resolve(message, version)
            interpreted, compiled = Interpreted(layout), codec_for(layout)  # side by side
            for sample in generate_samples(layout, 8, seed=2):
                data = compiled.encode(sample)
                assert interpreted.encode(sample) == data
                for cut in (data, data[: len(data) // 2], data + b"\x00", b"\xff" * 9):
                    for java in (False, True):
                        assert outcome(partial(interpreted.decode, cut, java=java)) == outcome(
                            partial(compiled.decode, cut, java=java)
                        )
            wrong = {"NoSuchField": 1}
            assert outcome(partial(interpreted.encode, wrong)) == outcome(
                partial(compiled.encode, wrong)
            )
    small = resolve(read(tiny()), 0)
    assert codec_for_uses(small, 1) is codec_for(small)  # small: compiled, as always
    big = changed(tiny(), lambda doc: doc["fields"].extend(
        {"name": f"F{n}", "type": "int8", "versions": "0+"} for n in range(COMPILE_AT_MOST)
    ))  # fmt: skip
    fresh = resolve(read(big), 0)
    assert isinstance(codec_for_uses(fresh, 20), Interpreted)
    assert codec_for_uses(fresh, COMPILE_PAYS_AFTER) is codec_for(fresh)
    assert codec_for_uses(fresh, 1) is codec_for(fresh)  # compiled already: use it
