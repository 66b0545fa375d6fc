"""One finding per edit, and the hook agrees with CI (issue 23, points 15-16), through
the CLI on small repositories."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from tests.conftest import EXAMPLES
from tests.diff_runner import commit_tree, git, init_repo, run_cli, two_commits

EXAMPLES_V2 = EXAMPLES.parent / "examples-v2"
NAME = "ShelfAuditResponse.json"


def audit(fields: list[dict[str, Any]], structs: list[dict[str, Any]] = ()) -> str:  # type: ignore[assignment]
    document: dict[str, Any] = {"apiKey": 111, "type": "response", "name": "ShelfAuditResponse"}
    document.update(validVersions="0-2", flexibleVersions="1+", fields=fields)
    if structs:
        document["commonStructs"] = list(structs)
    return json.dumps(document, indent=2) + "\n"


def field(name: str, kind: str = "int32", versions: str = "0+", **extra: Any) -> dict[str, Any]:
    return {"name": name, "type": kind, "versions": versions, "about": "x", **extra}


def loud(repo: Path, *args: str) -> list[dict[str, Any]]:
    run = run_cli(["diff", "HEAD~1", "HEAD", "--format", "json", *args], repo)
    assert run.code in (0, 1), run.stderr
    return [f for f in run.json()["findings"] if f["severity"] != "info"]


# -- point 15: one edit, one error, the bytes on it -------------------------------------------


def test_a_common_struct_field_used_twice_is_one_finding(tmp_path: Path) -> None:
    endpoint = {"name": "Endpoint", "versions": "0+", "fields": [field("Host", "string")]}
    uses = [field("Leader", "Endpoint"), field("Replicas", "[]Endpoint")]
    retyped = {**endpoint, "fields": [field("Host", "bytes")]}
    repo = two_commits(
        tmp_path / "r", {NAME: audit(uses, [endpoint])}, {NAME: audit(uses, [retyped])}
    )
    (finding,) = loud(repo)
    assert (finding["rule"], finding["field_path"]) == ("field-type-changed", "Leader.Host")
    assert "the same definition is used at Replicas.Host" in finding["notes"]
    assert finding["evidence"] is not None  # the proof's bytes, on the one finding


def test_a_narrowed_nullability_is_not_also_a_default_change(tmp_path: Path) -> None:
    name = field("Name", "string", nullableVersions="0+", default="null")
    narrowed = {**name, "nullableVersions": "1+"}
    repo = two_commits(tmp_path / "r", {NAME: audit([name])}, {NAME: audit([narrowed])})
    assert [(f["rule"], f["field_path"]) for f in loud(repo)] == [("nullable-narrowed", "Name")]


def test_a_tag_moved_onto_a_used_number_is_one_finding(tmp_path: Path) -> None:
    hint = field("Hint", versions="1+", tag=0, taggedVersions="1+")
    note = field("Note", "string", versions="1+", tag=1, taggedVersions="1+")
    repo = init_repo(tmp_path / "r")
    commit_tree(repo, {NAME: audit([hint, note])}, "tags 0 and 1")
    commit_tree(repo, {NAME: audit([hint])}, "drop Note")
    commit_tree(repo, {NAME: audit([{**hint, "tag": 1}])}, "move Hint to tag 1")
    (finding,) = loud(repo)
    assert (finding["rule"], finding["field_path"]) == ("tag-changed", "Hint")
    assert any(
        n.startswith("also tag-reused: tag 1 of ShelfAuditResponse") for n in finding["notes"]
    )


def test_a_reorder_inside_a_common_struct_carries_its_own_bytes(tmp_path: Path) -> None:
    repo = two_commits(tmp_path / "r", _tree(EXAMPLES), _tree(EXAMPLES_V2))
    found = [(f["rule"], f["field_path"]) for f in loud(repo, "--samples", "50")]
    assert ("roundtrip-mismatch", "Coordinator.Port") not in found
    (reorder,) = [f for f in loud(repo, "--samples", "50") if f["rule"] == "fields-reordered"]
    assert any("Coordinator.Port" in n for n in reorder["notes"])


# -- point 16: the same change, the same findings, whatever the sample count ------------------


def _tree(folder: Path) -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in folder.glob("*.json")}


def _verdicts(repo: Path, samples: str) -> list[tuple[str, str, str, str, str]]:
    run = run_cli(["diff", "HEAD~1", "HEAD", "--format", "json", "--samples", samples], repo)
    return sorted(
        (f["severity"], f["rule"], f["field_path"], f["versions"], f["fingerprint"])
        for f in run.json()["findings"]
    )


def test_samples_only_add_evidence(tmp_path: Path) -> None:
    repo = two_commits(tmp_path / "r", _tree(EXAMPLES), _tree(EXAMPLES_V2))
    by_count = {n: _verdicts(repo, n) for n in ("1", "10", "20", "50")}
    assert by_count["1"] == by_count["10"] == by_count["20"] == by_count["50"]


def test_a_baseline_the_hook_writes_is_the_one_ci_reads(tmp_path: Path) -> None:
    repo = init_repo(tmp_path / "r")
    commit_tree(repo, _tree(EXAMPLES), "v1")
    for path in EXAMPLES_V2.glob("*.json"):
        shutil.copy(path, repo / path.name)
    git(repo, "add", "-A")
    baseline = tmp_path / "baseline.json"
    hook = run_cli(["diff", "--staged", "--write-baseline", str(baseline)], repo)  # 10 samples
    assert hook.code == 0, hook.stderr
    git(repo, "commit", "-q", "-m", "v2")
    ci = run_cli(["diff", "HEAD~1", "HEAD", "--baseline", str(baseline), "--format", "json"], repo)
    assert ci.code == 0, ci.stdout
    assert ci.json()["findings"] == []
