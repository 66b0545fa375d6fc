"""Attribution (issue 23, points 6-9): which release a finding names, which releases a
comparison counts, through the CLI on repositories laid out as Kafka's (releases tagged on
release branches main never reaches)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.diff_runner import commit_tree, git, init_repo, run_cli

NAME = "ClusterInfoResponse.json"


def response(fields: list[dict[str, Any]], versions: str = "0-2") -> str:
    document: dict[str, Any] = {"apiKey": 3, "type": "response", "name": "ClusterInfoResponse"}
    document.update(validVersions=versions, flexibleVersions="0+", fields=fields)
    return json.dumps(document, indent=2) + "\n"


def field(name: str, kind: str = "int32", versions: str = "0+", **extra: Any) -> dict[str, Any]:
    return {"name": name, "type": kind, "versions": versions, "about": "x", **extra}


def start(repo: Path, *, empty_first: bool = True) -> Path:
    init_repo(repo)
    if empty_first:
        git(repo, "commit", "-q", "--allow-empty", "-m", "start of history")
    return repo


def release_from(repo: Path, commit: str, tag: str, branch: str | None = None) -> None:
    branch = branch or tag.rpartition(".")[0]
    exists = git(repo, "branch", "--list", branch).strip()
    if exists:
        git(repo, "checkout", "-q", branch)
        git(repo, "cherry-pick", "--allow-empty", "--keep-redundant-commits", commit)
    else:
        git(repo, "checkout", "-q", "-b", branch, commit)
    git(repo, "commit", "-q", "--allow-empty", "-m", f"Bump version to {tag}")
    git(repo, "tag", tag)
    git(repo, "checkout", "-q", "main")


def diff(repo: Path, *args: str) -> dict[str, Any]:
    run = run_cli(["diff", *args, "--format", "json", "--no-proof"], repo)
    assert run.code in (0, 1), run.stderr
    document: dict[str, Any] = run.json()
    return document


def errors(document: dict[str, Any]) -> list[tuple[str, str, str]]:
    return [
        (f["rule"], f["field_path"], f["released_by"])
        for f in document["findings"]
        if f["severity"] == "error"
    ]


# -- point 6: the first release that shipped the layout being broken ------------------------------


def test_a_break_names_the_release_that_shipped_the_broken_layout(tmp_path: Path) -> None:
    """v0 shipped in 3.5.0 as an early-access layout, reshaped for 3.6.0; 3.8 breaks
    3.6.0's layout, which 3.5.0 never had."""
    repo = start(tmp_path / "r")
    early = response([field("Epoch")], "0")
    release_from(repo, commit_tree(repo, {NAME: early}, "KIP-848 early access"), "3.5.0")
    reshaped = response([field("Epoch"), field("Assigned", "[]int32")], "0")
    release_from(repo, commit_tree(repo, {NAME: reshaped}, "reshape v0"), "3.6.0")
    commit_tree(repo, {NAME: response([field("Epoch")], "0")}, "drop Assigned")
    assert errors(diff(repo, "HEAD~1", "HEAD")) == [
        ("field-removed", "Assigned", "released in 3.6.0")
    ]


def test_where_history_starts_with_the_version_the_release_is_an_upper_bound(
    tmp_path: Path,
) -> None:
    """Kafka's history starts at 2.2 with JoinGroup v0 already there (it dates from 0.9)."""
    for empty_first, why in ((False, "released in ≤ 2.2.0"), (True, "released in 2.2.0")):
        repo = start(tmp_path / str(empty_first), empty_first=empty_first)
        shipped = commit_tree(repo, {NAME: response([field("Epoch")])}, "the protocol")
        release_from(repo, shipped, "2.2.0")
        commit_tree(repo, {NAME: response([field("Epoch", "int64")])}, "widen Epoch")
        assert errors(diff(repo, "HEAD~1", "HEAD")) == [("field-type-changed", "Epoch", why)]


# -- point 7: a release that contains the change by content does not count ------------------------


def test_a_backported_fix_is_in_the_next_minor_release_too(tmp_path: Path) -> None:
    repo = start(tmp_path / "r")
    before = {NAME: response([field("Epoch")])}
    release_from(repo, commit_tree(repo, before, "3.6 branch point"), "3.6.0")
    fix = {NAME: response([field("Epoch"), field("Hint", tag=0, taggedVersions="0+")])}
    on_trunk = commit_tree(repo, fix, "KAFKA-1: add a tagged hint")
    release_from(repo, on_trunk, "3.6.1", branch="3.6")  # backported (a cherry-pick)
    later = {NAME: response([field("Epoch"), field("Hint", tag=0, taggedVersions="0+")], "0-3")}
    release_from(repo, commit_tree(repo, later, "v3"), "3.7.0")
    document = diff(repo, "3.6.0", "3.6.1")
    assert document["released"] == (
        "versions shipped by 1 release (3.6.0); 2 later releases already contain this change"
    )
    # Without the change, nothing is contained: the newer release is not listed for itself.
    document = diff(repo, "3.6.0", "3.7.0")
    assert "3.7.0" not in document["released"].partition(";")[0]


# -- point 8: releases that disagree on a version's layout ----------------------------------------


def test_head_is_judged_against_each_shipped_layout(tmp_path: Path) -> None:
    """2.2.0 shipped ClusterId's default as "", 2.3.0 as null; a pull request written
    before 2.3 (BASE as 2.2.0 on the wire) changes it: that breaks 2.2.0."""
    rack = field("Rack", "string", default="")
    cluster = field("ClusterId", "string", nullableVersions="0+", default="", tag=0)
    cluster["taggedVersions"] = "0+"
    repo = start(tmp_path / "r")
    release_from(repo, commit_tree(repo, {NAME: response([rack, cluster])}, "2.2"), "2.2.0")
    null_rack = {**rack, "default": "unknown"}  # no byte carries it: the same wire layout
    base = commit_tree(repo, {NAME: response([null_rack, cluster])}, "Rack's default")
    changed = {NAME: response([null_rack, {**cluster, "default": "null"}])}
    release_from(repo, commit_tree(repo, changed, "KIP-430 (merged)"), "2.3.0")
    git(repo, "checkout", "-q", "-b", "kip430", base)
    commit_tree(repo, changed, "KIP-430: ClusterId defaults to null")
    document = diff(repo, "kip430~1", "kip430")
    assert errors(document) == [("default-changed", "ClusterId", "released in 2.2.0")]
    assert [f for f in document["findings"] if f["rule"] == "release-restored"] == []


# -- point 4: early access, bounded by releases ------------------------------------------------


def _group_value(fields: list[dict[str, Any]]) -> str:
    document: dict[str, Any] = {"type": "data", "name": "ConsumerGroupMemberValue"}
    document.update(validVersions="0", flexibleVersions="0+", fields=fields)
    return json.dumps(document, indent=2) + "\n"


VALUE = "group-coordinator/ConsumerGroupMemberValue.json"
PREVIEW = """[[preview]]
messages = "ConsumerGroup*"
until = "3.8.0"
reason = "early access (KIP-848)"
"""


def _early_access(tmp_path: Path, name: str, releases: tuple[str, ...]) -> Path:
    """ConsumerGroupMemberValue v0 as ``releases`` shipped it; then trunk drops a field."""
    repo = start(tmp_path / name)
    shipped = commit_tree(repo, {VALUE: _group_value([field("Epoch"), field("Assignors")])}, "v0")
    for tag in releases:
        release_from(repo, shipped, tag)
    commit_tree(repo, {VALUE: _group_value([field("Epoch")])}, "drop Assignors")
    (repo / "kcompat.toml").write_text(PREVIEW)
    return repo


def test_a_preview_until_a_release_covers_breaks_of_what_only_those_releases_shipped(
    tmp_path: Path,
) -> None:
    repo = _early_access(tmp_path, "early", ("3.7.0", "3.8.0"))
    (finding,) = diff(repo, "HEAD~1", "HEAD")["findings"]
    assert (finding["rule"], finding["severity"]) == ("field-removed", "warning")
    assert finding["notes"][-1] == (
        "ConsumerGroup*: early access (KIP-848) (preview until 3.8.0), so a warning, not an error"
    )


def test_once_a_later_release_shipped_the_layout_its_break_is_an_error(tmp_path: Path) -> None:
    repo = _early_access(tmp_path, "ga", ("3.8.0", "4.0.0"))
    assert errors(diff(repo, "HEAD~1", "HEAD")) == [
        ("field-removed", "Assignors", "released in 3.8.0")
    ]
    # Without tags nothing says which releases shipped it: the bounded entry does not
    # apply, an entry without `until` still does.
    assert errors(diff(repo, "HEAD~1", "HEAD", "--released", "base"))[0][0] == "field-removed"
    (repo / "kcompat.toml").write_text('preview = ["ConsumerGroup*"]\n')
    assert errors(diff(repo, "HEAD~1", "HEAD")) == []


def test_a_preview_until_that_is_no_release_is_a_one_line_error(tmp_path: Path) -> None:
    repo = _early_access(tmp_path, "bad", ("3.7.0",))
    (repo / "kcompat.toml").write_text(PREVIEW.replace('"3.8.0"', '"soon"'))
    run = run_cli(["diff", "HEAD~1", "HEAD"], repo)
    assert run.code == 2
    assert run.stderr.strip().endswith(
        "kcompat.toml:1: preview entry #1: until = 'soon' is no release (write one like '3.8.0')"
    )
    (repo / "kcompat.toml").write_text(PREVIEW + 'since = "3.7.0"\n')
    run = run_cli(["diff", "HEAD~1", "HEAD"], repo)
    assert run.code == 2 and "preview entry #1: unknown key 'since'" in run.stderr


# -- point 9: release pairs whose older release is not an ancestor of the newer -----------------


@pytest.mark.spark
def test_history_says_when_a_pair_of_releases_sits_on_two_branches(
    spark: Any, tmp_path: Path
) -> None:
    """2.8.2 -> 3.0.0 in version order: 2.8.2 was tagged on the 2.8 branch after 3.0
    branched off trunk, so 3.0.0 does not contain it."""
    repo = start(tmp_path / "r")
    first = commit_tree(repo, {NAME: response([field("Epoch")])}, "2.8 branch point")
    release_from(repo, first, "2.8.0")
    fix = commit_tree(
        repo, {NAME: response([field("Epoch"), field("Hint", versions="3+")], "0-3")}, "3.0"
    )
    release_from(repo, fix, "3.0.0")
    release_from(repo, first, "2.8.2", branch="2.8")
    out = tmp_path / "out"
    args = [
        "history",
        "--mode",
        "releases",
        "--no-proof",
        "--master",
        "local[2]",
        "--out",
        str(out),
    ]
    run = run_cli(args, repo)
    assert run.code in (0, 1), run.stderr
    notes = [line for line in run.stderr.splitlines() if line.startswith("kcompat: note: ")]
    assert notes == [
        "kcompat: note: 2.8.2 is not an ancestor of 3.0.0 (a release of another branch): "
        "compared the specs of 2.8.2 with those of 3.0.0 as they are, so what 2.8.2's "
        "branch changed after 3.0.0's branched off shows as undone"
    ]
    summary = json.loads((out / "summary.json").read_text())
    assert summary["notes"] == [notes[0].removeprefix("kcompat: note: ")]
