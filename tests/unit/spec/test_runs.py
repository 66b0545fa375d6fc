"""Runs of versions: diff pairs fields, and the proof samples bytes, once per run.

A run is a stretch of versions where no range of either side starts or ends, so every
version in it resolves to the same layout. Cutting at every range edge must lose no
change (the findings are exactly those of a version-by-version diff), and the diff must
resolve a message once per run, not once per version: that is what turned a spec of
2,000 fields over versions 0-32766 from not finishing into a second (the speed itself is
measured by ``benchmarks/diff_bench.py --synthetic``, not here).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

import kcompat.codec.proof as proof_module
import kcompat.rules.evolution.pairing as pairing_module
import kcompat.rules.evolution.versions as versions_module
from kcompat.diff.check import CheckOptions, check, pair_specs
from kcompat.rules.runner import Outcome
from kcompat.spec.model import Message
from kcompat.spec.resolve import Layout, resolve
from kcompat.spec.runs import boundaries, runs
from kcompat.spec.specfile import SpecFile, read_spec
from kcompat.spec.versions import Versions


def spec(document: dict[str, Any], name: str = "Thing") -> SpecFile:
    return read_spec(f"{name}.json", json.dumps(document).encode())


def message(document: dict[str, Any]) -> Message:
    found = spec(document).message
    assert found is not None
    return found


def data(fields: list[dict[str, Any]], valid: str = "0-20", **extra: Any) -> dict[str, Any]:
    return {
        "type": "data",
        "name": "Thing",
        "validVersions": valid,
        "flexibleVersions": "none",
        "fields": fields,
        **extra,
    }


def test_boundaries_are_every_range_edge_at_any_depth() -> None:
    found = message(
        data(
            [
                {"name": "A", "type": "int32", "versions": "3-5"},
                {"name": "B", "type": "string", "versions": "0+", "nullableVersions": "7+"},
                {
                    "name": "C",
                    "type": "int64",
                    "versions": "0+",
                    "encoding": {"0-8": "fixed32", "9+": "packed64"},
                },
                {
                    "name": "Items",
                    "type": "[]Item",
                    "versions": "0+",
                    "fields": [{"name": "D", "type": "int8", "versions": "11+"}],
                },
                {"name": "Common", "type": "Shared", "versions": "0+"},
            ],
            valid="0-20",
            flexibleVersions="13+",
            commonStructs=[
                {
                    "name": "Shared",
                    "versions": "0+",
                    "fields": [{"name": "E", "type": "int16", "versions": "15-16"}],
                }
            ],
        )
    )
    # starts, and the version after each end
    assert {3, 6, 7, 9, 11, 13, 15, 17} <= boundaries(found)
    assert {0, 21} <= boundaries(found)


def test_runs_cut_where_either_side_changes_and_stay_inside_the_versions() -> None:
    base = message(data([{"name": "A", "type": "int32", "versions": "4+"}]))
    head = message(
        data(
            [
                {"name": "A", "type": "int32", "versions": "4+", "nullableVersions": "none"},
                {"name": "B", "type": "int32", "versions": "9-12"},
            ]
        )
    )
    cut = runs(base, head, Versions.from_ranges([(2, 10), (15, 18)]))
    assert [str(r) for r in cut] == ["2-3", "4-8", "9-10", "15-18"]


def test_a_spec_of_one_range_is_one_run() -> None:
    fields = [{"name": f"F{i}", "type": "int32", "versions": "0+"} for i in range(50)]
    base = message(data(fields, valid="0-32765"))
    assert runs(base, base, base.valid_versions) == (Versions.of(0, 32765),)


def counting(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every version the diff and the proof resolve."""
    seen: list[int] = []

    def counted(found: Message, version: int) -> Layout:
        seen.append(version)
        return resolve(found, version)

    for module in (pairing_module, proof_module):
        monkeypatch.setattr(module, "resolve", counted)
    return seen


def test_diff_resolves_once_per_run(monkeypatch: pytest.MonkeyPatch) -> None:
    fields = [
        {"name": f"F{i}", "type": "int32", "versions": "0+" if i % 2 else "1000+"}
        for i in range(40)
    ]
    head_fields = [dict(f) for f in fields]
    head_fields[0]["type"] = "int64"  # a break in versions 1000-1999
    base = spec(data(fields, valid="0-1999"))
    head = spec(data(head_fields, valid="0-1999"))
    seen = counting(monkeypatch)
    findings = check(pair_specs([base], [head]), CheckOptions(proof=True, samples=3)).findings
    assert [str(f.versions) for f in findings if f.rule == "field-type-changed"] == ["1000-1999"]
    # pairing: two runs (0-999, 1000-1999); the proof: the broken run's first version
    assert sorted(set(seen)) == [0, 1000]
    assert len(seen) <= 6


def version_by_version(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make every version a run of its own: the diff as it was before runs."""

    def single(base: Message, head: Message, versions: Versions) -> tuple[Versions, ...]:
        return tuple(Versions.of(v, v) for v in versions)

    for module in (pairing_module, proof_module, versions_module):
        monkeypatch.setattr(module, "runs", single)


def rich_pair() -> tuple[SpecFile, SpecFile]:
    """A BASE and a HEAD whose changes start and end in many places."""

    def fields(head: bool) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = [
            {"name": "Lead", "type": "int32", "versions": "0+"},
            {"name": "Next", "type": "int32", "versions": "0+"},
        ]
        if head:
            out.reverse()  # a reorder in every version
        for i in range(30):
            low = (i * 7) % 18
            entry: dict[str, Any] = {
                "name": f"F{i}",
                "type": "string" if i % 3 == 0 else "int32",
                "versions": f"{low}+" if i % 2 else f"{low}-{min(17, low + 4)}",
            }
            if i % 3 == 0:
                entry["nullableVersions"] = f"{low + (2 if head and i == 6 else 0)}+"
            if head and i == 4:
                entry["type"] = "int64"  # retyped where it exists
            if head and i == 9:
                entry["versions"] = f"{low + 2}+"  # removed from two released versions
            out.append(entry)
        out.append(
            {
                "name": "Items",
                "type": "[]Item",
                "versions": "0+",
                "fields": [
                    {"name": "X" if not head else "Renamed", "type": "int8", "versions": "0+"},
                    {"name": "Y", "type": "Shared", "versions": "5+"},
                    {
                        "name": "T",
                        "type": "string",
                        "versions": "10+",
                        "taggedVersions": "10+",
                        "tag": 0 if not head else 1,
                    },
                ],
            }
        )
        return out

    shared = [
        {
            "name": "Shared",
            "versions": "0+",
            "fields": [
                {"name": "P", "type": "int32", "versions": "0+"},
                {"name": "Q", "type": "int16", "versions": "8-14"},
            ],
        }
    ]
    documents = []
    for head in (False, True):
        document = data(fields(head), valid="0-17" if not head else "0-18")
        document["flexibleVersions"] = "10+"
        document["commonStructs"] = json.loads(json.dumps(shared))
        if head:
            document["commonStructs"][0]["fields"].reverse()
        documents.append(document)
    return spec(documents[0]), spec(documents[1])


def as_rows(outcome: Outcome) -> list[tuple[object, ...]]:
    return [
        (
            f.rule,
            f.severity,
            f.message,
            f.location,
            f.base_location,
            f.field_path,
            f.versions,
            f.hint,
            f.notes,
            f.evidence,
        )
        for f in outcome.findings
    ]


@pytest.mark.parametrize("proof", [False, True])
def test_findings_per_run_are_those_per_version(
    monkeypatch: pytest.MonkeyPatch, proof: bool
) -> None:
    checked: Callable[[], Outcome] = lambda: check(  # noqa: E731
        pair_specs([rich_pair()[0]], [rich_pair()[1]]), CheckOptions(proof=proof, samples=6)
    )
    per_run = as_rows(checked())
    rules = {row[0] for row in per_run}
    assert {"fields-reordered", "field-type-changed", "field-removed"} <= rules
    assert {"nullable-narrowed", "tag-changed", "field-renamed"} <= rules
    with monkeypatch.context() as patched:
        version_by_version(patched)
        per_version = as_rows(checked())
    assert per_run == per_version


def test_drift_per_run_is_drift_per_version(monkeypatch: pytest.MonkeyPatch) -> None:
    import kcompat.drift.check as drift_module
    import kcompat.rules.drift.wire as wire_module

    upstream, local = rich_pair()
    per_run = as_rows(drift_module.drift_specs([upstream], [local]))
    assert "drift-wire-mismatch" in {row[0] for row in per_run}
    with monkeypatch.context() as patched:
        patched.setattr(wire_module, "runs", lambda b, h, vs: tuple(Versions.of(v, v) for v in vs))
        per_version = as_rows(drift_module.drift_specs([upstream], [local]))
    assert per_run == per_version
