"""Released means shipped by a release, wherever its tag sits (Kafka's branch layout).

Apache Kafka tags releases on release branches (``3.7`` -> ``3.7.0``) that never merge
back into trunk. These repositories are laid out the same way: the release tag sits on a
branch commit that main never reaches. A version a release shipped is judged against the
layout that shipped; one that only ever lived on main is not; a repair is an info.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.diff_runner import commit_tree, git, init_repo, run_cli, run_process

NAME = "LoanShelfRequest.json"


def spec(versions: str, *, fields: list[dict[str, Any]], unstable: bool = False) -> str:
    document: dict[str, Any] = {
        "apiKey": 140,
        "type": "request",
        "name": "LoanShelfRequest",
        "validVersions": versions,
        "flexibleVersions": "1+",
        "fields": fields,
    }
    if unstable:
        document["latestVersionUnstable"] = True
    return json.dumps(document, indent=2) + "\n"


SHELF = {"name": "ShelfId", "type": "int32", "versions": "0+", "about": "The shelf."}
HOLDER = {"name": "Holder", "type": "string", "versions": "1+", "about": "Who borrows it."}
UNTIL = {"name": "UntilMs", "type": "int64", "versions": "2+", "about": "When it comes back."}
SHIPPED = spec("0-1", fields=[SHELF, HOLDER])  # what release 1.0.0 shipped
TRUNK = spec("0-2", fields=[SHELF, HOLDER, UNTIL])  # main, after the 1.0 branch was cut


def kafka_layout(repo: Path) -> Path:
    """main: the branch point, then v2 on trunk; 1.0: a release commit tagged 1.0.0."""
    init_repo(repo)
    git(repo, "commit", "-q", "--allow-empty", "-m", "start of history")  # before the spec
    commit_tree(repo, {NAME: SHIPPED}, "branch point")
    git(repo, "checkout", "-q", "-b", "1.0")
    git(repo, "commit", "-q", "--allow-empty", "-m", "Bump version to 1.0.0")
    git(repo, "tag", "1.0.0")
    git(repo, "checkout", "-q", "main")
    commit_tree(repo, {NAME: TRUNK}, "KIP-1: version 2")
    return repo


def diff(repo: Path, *args: str) -> tuple[list[dict[str, Any]], str]:
    run = run_cli(["diff", *args, "--format", "json", "--no-proof"], repo)
    assert run.code in (0, 1), run.stderr
    return run.json()["findings"], run.stderr


def loud(findings: list[dict[str, Any]]) -> list[tuple[str, str, str]]:
    return [
        (f["rule"], f["versions"], f["released_by"] or "")
        for f in findings
        if f["severity"] in ("error", "warning")
    ]


def test_the_release_tag_is_not_reachable_from_main(tmp_path: Path) -> None:
    repo = kafka_layout(tmp_path / "r")
    done = subprocess.run(
        ["git", "merge-base", "--is-ancestor", "1.0.0", "main"], cwd=repo, check=False
    )
    assert done.returncode == 1


def test_a_change_to_a_version_a_release_shipped_is_an_error_naming_it(tmp_path: Path) -> None:
    repo = kafka_layout(tmp_path / "r")
    holder = {**HOLDER, "type": "bytes"}
    commit_tree(repo, {NAME: spec("0-2", fields=[SHELF, holder, UNTIL])}, "retype Holder")
    findings, stderr = diff(repo, "HEAD~1", "HEAD")
    assert stderr == ""
    # v1 shipped in 1.0.0: an error naming it; v2 only lives on main: an info
    assert loud(findings) == [("field-type-changed", "1", "released in 1.0.0")]
    (info,) = [f for f in findings if f["rule"] == "unreleased-change"]
    assert info["versions"] == "2"


def test_the_same_change_to_a_trunk_only_version_is_an_info(tmp_path: Path) -> None:
    repo = kafka_layout(tmp_path / "r")
    until = {**UNTIL, "type": "int32"}
    commit_tree(repo, {NAME: spec("0-2", fields=[SHELF, HOLDER, until])}, "retype UntilMs")
    findings, _ = diff(repo, "HEAD~1", "HEAD")
    assert loud(findings) == []
    (info,) = [f for f in findings if f["rule"] == "unreleased-change"]
    assert info["severity"] == "info" and info["versions"] == "2"
    assert "v2, which is not in any release" in info["message"]


def test_a_commit_that_restores_the_shipped_layout_is_a_repair(tmp_path: Path) -> None:
    repo = kafka_layout(tmp_path / "r")
    broken = spec("0-2", fields=[SHELF, {**HOLDER, "versions": "2+"}, UNTIL])
    commit_tree(repo, {NAME: broken}, "drop Holder from v1 (a break)")
    commit_tree(repo, {NAME: TRUNK}, "Revert: put Holder back")
    findings, _ = diff(repo, "HEAD~2", "HEAD~1")
    assert loud(findings) == [("field-removed", "1", "released in 1.0.0")]
    findings, _ = diff(repo, "HEAD~1", "HEAD")
    assert loud(findings) == []
    (repair,) = [f for f in findings if f["rule"] == "release-restored"]
    assert repair["severity"] == "info"
    assert repair["message"].startswith("restores LoanShelfRequest v1 as released in 1.0.0")


def test_a_release_that_already_contains_the_change_does_not_count(tmp_path: Path) -> None:
    repo = kafka_layout(tmp_path / "r")
    until = {**UNTIL, "type": "int32"}
    commit_tree(repo, {NAME: spec("0-2", fields=[SHELF, HOLDER, until])}, "retype UntilMs")
    git(repo, "checkout", "-q", "-b", "2.0")
    git(repo, "commit", "-q", "--allow-empty", "-m", "Bump version to 2.0.0")
    git(repo, "tag", "2.0.0")  # 2.0.0 ships v2 as this change left it
    git(repo, "checkout", "-q", "main")
    findings, _ = diff(repo, "main~1", "main")
    assert loud(findings) == []  # 2.0.0 came after the change: it cannot be broken by it
    run = run_cli(["diff", "main~1", "main", "--no-proof", "--color", "never"], repo)
    assert "Released: versions shipped by 1 release (1.0.0); 1 later release" in run.stdout


def test_release_branches_can_count_as_about_to_ship(tmp_path: Path) -> None:
    repo = kafka_layout(tmp_path / "r")
    git(repo, "branch", "2.0")  # cut from main: v2 is about to ship
    until = {**UNTIL, "type": "int32"}
    commit_tree(repo, {NAME: spec("0-2", fields=[SHELF, HOLDER, until])}, "retype UntilMs")
    findings, _ = diff(repo, "HEAD~1", "HEAD")
    assert loud(findings) == []  # off by default
    (repo / "kcompat.toml").write_text("release-branches = '^\\d+\\.\\d+$'\n")
    findings, _ = diff(repo, "HEAD~1", "HEAD")
    assert loud(findings) == [("field-type-changed", "2", "released in 2.0 (branch)")]


def test_a_release_branch_tip_comes_after_the_releases_tagged_on_it(tmp_path: Path) -> None:
    """The tip of release branch 1.0 is what 1.0.x ships next: 1.0.0 shipped the layout
    first, so ``why`` names 1.0.0 (the branch tip sorted before it was named instead)."""
    repo = kafka_layout(tmp_path / "r")
    holder = {**HOLDER, "type": "bytes"}
    commit_tree(repo, {NAME: spec("0-2", fields=[SHELF, holder, UNTIL])}, "retype Holder")
    (repo / "kcompat.toml").write_text("release-branches = '^\\d+\\.\\d+$'\n")
    findings, _ = diff(repo, "HEAD~1", "HEAD")
    assert loud(findings) == [("field-type-changed", "1", "released in 1.0.0")]


def test_without_tags_base_versions_count_and_the_fetch_is_named(tmp_path: Path) -> None:
    origin = kafka_layout(tmp_path / "origin")
    clone = tmp_path / "clone"
    subprocess.run(
        ["git", "clone", "-q", "--no-tags", "--single-branch", str(origin), str(clone)],
        check=True,
    )
    until = {**UNTIL, "type": "int32"}
    commit_tree(clone, {NAME: spec("0-2", fields=[SHELF, HOLDER, until])}, "retype UntilMs")
    findings, stderr = diff(clone, "HEAD~1", "HEAD")
    assert loud(findings) == [("field-type-changed", "2", "in BASE's validVersions")]
    assert stderr.count("\n") == 1
    assert stderr.startswith("kcompat: note: no release tags matching ")
    assert stderr.rstrip().endswith("fetch the tags: git fetch --tags origin")
    # The fetch it names brings the tags, and then the verdict is the release-true one.
    git(clone, "fetch", "-q", "--tags", "origin")
    findings, stderr = diff(clone, "HEAD~1", "HEAD")
    assert (loud(findings), stderr) == ([], "")


def test_a_shallow_clone_is_told_how_to_fetch_tags_shallowly(tmp_path: Path) -> None:
    origin = kafka_layout(tmp_path / "origin")
    until = {**UNTIL, "type": "int32"}
    commit_tree(origin, {NAME: spec("0-2", fields=[SHELF, HOLDER, until])}, "retype UntilMs")
    clone = tmp_path / "clone"
    subprocess.run(
        ["git", "clone", "-q", "--depth", "2", "--no-tags", origin.as_uri(), str(clone)],
        check=True,
    )
    _, stderr = diff(clone, "HEAD~1", "HEAD")
    assert "git fetch --depth=1 origin '+refs/tags/*:refs/tags/*'" in stderr
    git(clone, "fetch", "-q", "--depth=1", "origin", "+refs/tags/*:refs/tags/*")
    findings, stderr = diff(clone, "HEAD~1", "HEAD")
    assert (loud(findings), stderr) == ([], "")


def test_tags_mode_without_tags_never_silently_releases_nothing(tmp_path: Path) -> None:
    repo = init_repo(tmp_path / "r")  # no remote, no tags
    commit_tree(repo, {NAME: TRUNK}, "base")
    commit_tree(repo, {NAME: spec("0-2", fields=[SHELF, HOLDER])}, "drop UntilMs")
    findings, stderr = diff(repo, "HEAD~1", "HEAD")
    assert stderr == ""  # nothing to fetch: BASE's versions count, as before tags existed
    assert loud(findings) == [("field-removed", "2", "in BASE's validVersions")]
    findings, stderr = diff(repo, "HEAD~1", "HEAD", "--released", "tags")
    assert loud(findings) == [("field-removed", "2", "in BASE's validVersions")]
    assert stderr.startswith("kcompat: note: no release tags matching")
    findings, stderr = diff(repo, "HEAD~1", "HEAD", "--released", "base")
    assert stderr == ""


def test_base_mode_counts_every_version_in_base(tmp_path: Path) -> None:
    repo = kafka_layout(tmp_path / "r")
    until = {**UNTIL, "type": "int32"}
    commit_tree(repo, {NAME: spec("0-2", fields=[SHELF, HOLDER, until])}, "retype UntilMs")
    findings, _ = diff(repo, "HEAD~1", "HEAD", "--released", "base")
    assert loud(findings) == [("field-type-changed", "2", "in BASE's validVersions")]


def test_a_pull_request_diff_counts_a_release_cut_after_its_merge_base(tmp_path: Path) -> None:
    repo = kafka_layout(tmp_path / "r")
    git(repo, "checkout", "-q", "-b", "feature")
    until = {**UNTIL, "type": "int32"}
    commit_tree(repo, {NAME: spec("0-2", fields=[SHELF, HOLDER, until])}, "retype UntilMs")
    git(repo, "checkout", "-q", "main")
    git(repo, "checkout", "-q", "-b", "2.0")
    git(repo, "commit", "-q", "--allow-empty", "-m", "Bump version to 2.0.0")
    git(repo, "tag", "2.0.0")  # 2.0.0 ships v2 while the pull request is open
    git(repo, "checkout", "-q", "feature")
    findings, _ = diff(repo, "main", "feature", "--merge-base")
    assert loud(findings) == [("field-type-changed", "2", "released in 2.0.0")]


def test_text_output_says_which_versions_count(tmp_path: Path) -> None:
    repo = kafka_layout(tmp_path / "r")
    holder = {**HOLDER, "type": "bytes"}
    commit_tree(repo, {NAME: spec("0-2", fields=[SHELF, holder, UNTIL])}, "retype Holder")
    done = run_process(["diff", "HEAD~1", "HEAD", "--no-proof"], repo)
    assert done.code == 1
    lines = done.stdout.splitlines()
    assert "    why: released in 1.0.0" in lines
    assert lines[-2] == "Released: versions shipped by 1 release (1.0.0)."


# -- the bundle: Kafka's own history -------------------------------------------------------------

#: Real trunk commits (their first parent is BASE): a break of a version that only a tag on
#: a release branch shipped, its revert, and a change to a version no release has.
BREAK = "42e5656ee72d"  # InitProducerIdRequest v2 gains fields that 2.4.0 shipped without
REPAIR = "cb845d970d38"  # ... and gets them back out: v2 as released in 2.4.0 again
TRUNK_ONLY = "8878d9888527"  # ConsumerGroupDescribeResponse v0, in no release yet


@pytest.mark.corpus
def test_kafka_a_trunk_break_of_a_branch_release_is_an_error(kafka_repo: Path) -> None:
    reachable = subprocess.run(
        ["git", "merge-base", "--is-ancestor", "2.4.0", "trunk"], cwd=kafka_repo, check=False
    )
    assert reachable.returncode == 1  # 2.4.0 sits on the 2.4 branch only
    findings, _ = diff(kafka_repo, f"{BREAK}~1", BREAK)
    errors = [f for f in findings if f["severity"] == "error"]
    assert {(f["message_name"], f["rule"], f["released_by"]) for f in errors} == {
        ("InitProducerIdRequest", "field-added", "released in 2.4.0")
    }


@pytest.mark.corpus
def test_kafka_the_revert_is_a_repair(kafka_repo: Path) -> None:
    findings, _ = diff(kafka_repo, f"{REPAIR}~1", REPAIR)
    assert [f for f in findings if f["severity"] == "error"] == []
    repairs = [f for f in findings if f["rule"] == "release-restored"]
    assert any(
        f["message"].startswith("restores InitProducerIdRequest v2 as released in 2.4.0")
        for f in repairs
    )


@pytest.mark.corpus
def test_kafka_a_trunk_only_version_is_no_error(kafka_repo: Path) -> None:
    findings, _ = diff(kafka_repo, f"{TRUNK_ONLY}~1", TRUNK_ONLY)
    assert [f for f in findings if f["severity"] == "error"] == []
    (changed,) = [f for f in findings if f["rule"] == "unreleased-change"]
    assert changed["message_name"] == "ConsumerGroupDescribeResponse"
    assert "v0, which is not in any release" in changed["message"]


def test_the_policy_travels_as_data(tmp_path: Path) -> None:
    """What history ships to Spark executors is the policy diff applies, exactly."""
    from kcompat.diff.prepared import PreparedPair, prepare_pair
    from kcompat.sources.git import GitRepo
    from kcompat.sources.sides import side_for
    from kcompat.spec.released import Releases

    repo = kafka_layout(tmp_path / "r")
    broken = spec("0-2", fields=[SHELF, {**HOLDER, "versions": "2+"}, UNTIL])
    commit_tree(repo, {NAME: broken}, "drop Holder from v1 (a break)")
    commit_tree(repo, {NAME: spec("0-2", fields=[SHELF, {**HOLDER, "type": "bytes"}])}, "more")
    git_repo = GitRepo.open(repo)
    prepared = prepare_pair(side_for("HEAD~1", git_repo), side_for("HEAD", git_repo))
    shipped = prepared.releases.shipped_of("LoanShelfRequest")
    assert shipped.layouts  # the layouts 1.0.0 shipped of the versions HEAD changes
    assert dict(shipped.first) == {0: "1.0.0", 1: "1.0.0"}
    assert Releases.from_json(prepared.releases.to_json()) == prepared.releases
    assert PreparedPair.from_row(prepared.to_row()) == prepared
