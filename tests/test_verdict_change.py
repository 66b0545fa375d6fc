"""Judge the change, not the state (issue 23, points 10-14), through the CLI.

The repositories are laid out as Kafka's: releases are tagged on release branches that
main never reaches, and pull requests are branches of main; each reproduces, in small,
a real Apache Kafka pull request the issue names.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.diff_runner import commit_tree, git, init_repo, run_cli

CLIENTS = "clients/src/main/resources/common/message"


def spec(name: str, versions: str, fields: list[dict[str, Any]], **top: Any) -> str:
    document: dict[str, Any] = {
        "type": "request" if name.endswith("Request") else "data",
        "name": name,
        "validVersions": versions,
        "flexibleVersions": "0+",
        **top,
        "fields": fields,
    }
    return json.dumps(document, indent=2) + "\n"


def field(name: str, kind: str = "int32", versions: str = "0+", **extra: Any) -> dict[str, Any]:
    return {"name": name, "type": kind, "versions": versions, "about": "x", **extra}


def start(repo: Path) -> Path:
    """A repository whose history starts before any spec (so releases are first ones)."""
    init_repo(repo)
    git(repo, "commit", "-q", "--allow-empty", "-m", "start of history")
    return repo


def release_from(repo: Path, commit: str, tag: str) -> None:
    """Cut branch ``X.Y`` at ``commit`` and tag ``tag`` on it (main never reaches it)."""
    branch = tag.rpartition(".")[0]
    git(repo, "checkout", "-q", "-b", branch, commit)
    git(repo, "commit", "-q", "--allow-empty", "-m", f"Bump version to {tag}")
    git(repo, "tag", tag)
    git(repo, "checkout", "-q", "main")


def diff(repo: Path, *args: str) -> list[dict[str, Any]]:
    run = run_cli(["diff", *args, "--format", "json", "--no-proof"], repo)
    assert run.code in (0, 1), run.stderr
    findings: list[dict[str, Any]] = run.json()["findings"]
    return findings


def loud(findings: list[dict[str, Any]]) -> list[tuple[str, str, str]]:
    return [
        (f["severity"], f["rule"], f["message_name"])
        for f in findings
        if f["severity"] in ("error", "warning")
    ]


# -- point 11: never report what the change did not change ----------------------------------------

HEARTBEAT = f"{CLIENTS}/ConsumerGroupHeartbeatRequest.json"


def heartbeat(about: str, unstable: bool) -> str:
    top: dict[str, Any] = {"apiKey": 68}
    if unstable:
        top["latestVersionUnstable"] = True
    return spec(
        "ConsumerGroupHeartbeatRequest", "0", [field("GroupId", "string", about=about)], **top
    )


def test_an_unstable_marker_base_already_had_is_not_this_changes_doing(tmp_path: Path) -> None:
    repo = start(tmp_path / "r")
    first = commit_tree(repo, {HEARTBEAT: heartbeat("The grup id.", True)}, "KIP-848: v0")
    stable = commit_tree(repo, {HEARTBEAT: heartbeat("The grup id.", False)}, "v0 is stable")
    release_from(repo, stable, "3.7.0")  # a later release ships v0 as stable
    git(repo, "checkout", "-q", "-b", "typos", first)
    commit_tree(repo, {HEARTBEAT: heartbeat("The group id.", True)}, "fix typos")
    findings = diff(repo, "typos~1", "typos")
    assert [f for f in findings if f["rule"] == "released-version-unstable"] == []
    assert loud(findings) == []
    # Setting the marker on a version a release shipped stable is still reported.
    git(repo, "checkout", "-q", "main")
    commit_tree(repo, {HEARTBEAT: heartbeat("The grup id.", True)}, "mark v0 unstable again")
    findings = diff(repo, "main~1", "main")
    assert loud(findings) == [
        ("error", "released-version-unstable", "ConsumerGroupHeartbeatRequest")
    ]


# -- point 10: a break must be new against BASE ---------------------------------------------------

CREATE = f"{CLIENTS}/CreateTopicsRequest.json"


def create_topics(versions: str, *extra: dict[str, Any]) -> str:
    fields = [field("Name", "string"), *extra]
    return spec("CreateTopicsRequest", versions, fields, apiKey=19)


def test_a_draft_version_folded_back_breaks_no_release_of_that_number(tmp_path: Path) -> None:
    """CreateTopics v6: a trunk draft folded back into v5; 2.7.0's v6 is KIP-599's."""
    draft, kip599 = field("Draft", versions="6+"), field("Throttled", "bool", versions="6+")
    repo = start(tmp_path / "r")
    shipped = commit_tree(repo, {CREATE: create_topics("0-4")}, "2.6 branch point")
    release_from(repo, shipped, "2.6.0")
    base = commit_tree(repo, {CREATE: create_topics("0-6", draft)}, "drafts of v5 and v6")
    folded = {**draft, "versions": "5+"}
    commit_tree(repo, {CREATE: create_topics("0-5", folded)}, "fold v6 into v5 (merged)")
    later = commit_tree(repo, {CREATE: create_topics("0-6", folded, kip599)}, "KIP-599: v6")
    release_from(repo, later, "2.7.0")  # ships v6, another layout than BASE's draft
    git(repo, "checkout", "-q", "-b", "fold", base)  # the pull request's own head
    commit_tree(repo, {CREATE: create_topics("0-5", folded)}, "fold v6 into v5")
    findings = diff(repo, "fold~1", "fold")
    assert loud(findings) == []
    (info,) = [f for f in findings if f["rule"] == "unreleased-change"]
    assert "removes v6, which is not in any release as BASE has it" in info["message"]
    assert "(already incompatible with 2.7.0 in BASE)" in info["message"]


QUORUM = "raft/src/main/resources/common/message/QuorumStateData.json"


def quorum(versions: str, *extra: dict[str, Any]) -> str:
    return spec("QuorumStateData", versions, [field("LeaderId"), *extra])


def test_a_revert_of_a_short_lived_version_is_no_break(tmp_path: Path) -> None:
    """QuorumStateData v1 lived five days before its revert; 3.8.0's v1 is KIP-853's."""
    repo = start(tmp_path / "r")
    shipped = commit_tree(repo, {QUORUM: quorum("0")}, "3.7 branch point")
    release_from(repo, shipped, "3.7.0")
    draft = field("Voters", "[]int32", versions="1+")
    base = commit_tree(repo, {QUORUM: quorum("0-1", draft)}, "v1")
    commit_tree(repo, {QUORUM: quorum("0")}, "Revert v1 (merged)")
    kip853 = field("CurrentVoters", "[]int64", versions="1+")
    release_from(repo, commit_tree(repo, {QUORUM: quorum("0-1", kip853)}, "KIP-853"), "3.8.0")
    git(repo, "checkout", "-q", "-b", "revert", base)
    commit_tree(repo, {QUORUM: quorum("0")}, "Revert v1")
    findings = diff(repo, "revert~1", "revert")
    assert loud(findings) == []
    assert [f["rule"] for f in findings] == ["unreleased-change"]
    # Removing v1 as 3.8.0 shipped it is still a break.
    git(repo, "checkout", "-q", "main")
    commit_tree(repo, {QUORUM: quorum("0")}, "drop v1")
    assert loud(diff(repo, "main~1", "main")) == [
        ("error", "released-version-removed", "QuorumStateData")
    ]


# -- point 13: lineage across file renames --------------------------------------------------------

OLD_QUORUM = "raft/src/main/resources/common/message/QuorumState.json"


def test_a_release_under_an_old_file_name_still_counts(tmp_path: Path) -> None:
    repo = start(tmp_path / "r")
    shipped = commit_tree(repo, {OLD_QUORUM: quorum("0")}, "2.7 branch point")
    release_from(repo, shipped, "2.7.0")  # QuorumStateData ships as QuorumState.json
    commit_tree(repo, {QUORUM: quorum("0")}, "rename QuorumState.json")
    commit_tree(repo, {QUORUM: spec("QuorumStateData", "0", [field("LeaderId", "int64")])}, "x")
    findings = diff(repo, "HEAD~1", "HEAD")
    assert loud(findings) == [("error", "field-type-changed", "QuorumStateData")]
    assert findings[0]["released_by"] == "released in 2.7.0"


def test_an_rpc_renamed_with_its_file_is_followed_by_api_key(tmp_path: Path) -> None:
    old, new = f"{CLIENTS}/ListOffsetRequest.json", f"{CLIENTS}/ListOffsetsRequest.json"
    offsets = [field("ReplicaId"), field("IsolationLevel", "int8")]
    repo = start(tmp_path / "r")
    shipped = commit_tree(repo, {old: spec("ListOffsetRequest", "0", offsets, apiKey=2)}, "2.7")
    release_from(repo, shipped, "2.7.0")
    commit_tree(repo, {new: spec("ListOffsetsRequest", "0", offsets, apiKey=2)}, "rename")
    commit_tree(repo, {new: spec("ListOffsetsRequest", "0", offsets[:1], apiKey=2)}, "drop")
    findings = diff(repo, "HEAD~1", "HEAD")
    assert loud(findings) == [("error", "field-removed", "ListOffsetsRequest")]
    assert findings[0]["released_by"] == "released in 2.7.0"


# -- point 14: the same change, the same verdict --------------------------------------------------

METADATA = "metadata/src/main/resources/common/metadata"
PARTITION, CONFIG = f"{METADATA}/PartitionRecord.json", f"{METADATA}/ConfigRecord.json"


def record(name: str, flexible: str, epoch_default: str = "-1") -> str:
    fields = [field("Id"), field("Epoch", default=epoch_default)]
    document = json.loads(spec(name, "0", fields, apiKey=3 if name == "PartitionRecord" else 4))
    document.update(type="metadata", flexibleVersions=flexible)
    return json.dumps(document, indent=2) + "\n"


def test_one_change_to_two_records_gets_one_verdict(tmp_path: Path) -> None:
    """The KRaft records of 2.8 made flexible for 3.0: PartitionRecord's BASE differs from
    2.8.0 only by a default no byte carries; it is the same break as ConfigRecord's."""
    repo = start(tmp_path / "r")
    shipped = {PARTITION: record("PartitionRecord", "none"), CONFIG: record("ConfigRecord", "none")}
    release_from(repo, commit_tree(repo, shipped, "2.8 branch point"), "2.8.0")
    base_tree = {**shipped, PARTITION: record("PartitionRecord", "none", "0")}
    base = commit_tree(repo, base_tree, "PartitionRecord: Epoch defaults to 0")
    flexible = {
        PARTITION: record("PartitionRecord", "0+", "0"),
        CONFIG: record("ConfigRecord", "0+"),
    }
    release_from(repo, commit_tree(repo, flexible, "KIP-746 (merged)"), "3.0.0")
    git(repo, "checkout", "-q", "-b", "kip746", base)
    commit_tree(repo, flexible, "KIP-746")
    findings = diff(repo, "kip746~1", "kip746")
    assert sorted(loud(findings)) == [
        ("error", "flexible-versions-changed", "ConfigRecord"),
        ("error", "flexible-versions-changed", "PartitionRecord"),
    ]
    assert {f["released_by"] for f in findings if f["severity"] == "error"} == {"released in 2.8.0"}
    assert [f for f in findings if f["rule"] == "release-restored"] == []


# -- point 12: tags by bytes and meaning ----------------------------------------------------------

API_VERSIONS = f"{CLIENTS}/ApiVersionsResponse.json"


def api_versions(versions: str, ready: dict[str, Any]) -> str:
    document = json.loads(spec("ApiVersionsResponse", versions, [field("ErrorCode", "int16")]))
    document.update(type="response", apiKey=18, flexibleVersions="3+")
    document["fields"].append(ready)
    return json.dumps(document, indent=2) + "\n"


READY = field("ZkMigrationReady", "bool", "3+", taggedVersions="3+", tag=3, default="false")
READY["ignorable"] = True


def test_a_case_only_rename_that_moves_tagged_versions_is_that_break(tmp_path: Path) -> None:
    """Kafka's readers throw "Tag 3 is not valid for version 3" for what 3.4.0 writes."""
    repo = start(tmp_path / "r")
    release_from(
        repo, commit_tree(repo, {API_VERSIONS: api_versions("0-3", READY)}, "3.4"), "3.4.0"
    )
    renamed = {**READY, "name": "ZKMigrationReady", "versions": "4+", "taggedVersions": "4+"}
    commit_tree(repo, {API_VERSIONS: api_versions("0-4", renamed)}, "v4")
    findings = diff(repo, "HEAD~1", "HEAD")
    assert loud(findings) == [("error", "tagged-versions-changed", "ApiVersionsResponse")]
    assert findings[0]["line"] > 1  # on HEAD's field, found whatever its name's case


def test_the_same_field_under_a_byte_identical_type_or_name_is_no_tag_reuse(
    tmp_path: Path,
) -> None:
    repo = start(tmp_path / "r")
    release_from(
        repo, commit_tree(repo, {API_VERSIONS: api_versions("0-3", READY)}, "3.4"), "3.4.0"
    )
    later = {**READY, "versions": "4+", "taggedVersions": "4+"}  # v3 diverged on trunk
    commit_tree(repo, {API_VERSIONS: api_versions("0-4", later)}, "only from v4")
    as_int8 = {**later, "type": "int8", "default": "0"}
    commit_tree(repo, {API_VERSIONS: api_versions("0-4", as_int8)}, "bool -> int8")
    assert [f for f in diff(repo, "HEAD~1", "HEAD") if f["rule"] == "tag-reused"] == []
    recased = {**later, "name": "ZKMigrationReady"}
    commit_tree(repo, {API_VERSIONS: api_versions("0-4", recased)}, "case")
    assert [f for f in diff(repo, "HEAD~1", "HEAD") if f["rule"] == "tag-reused"] == []
    # Another field on the tag is still a reuse.
    other = {**later, "name": "ControllerReady", "type": "int32", "default": "0"}
    commit_tree(repo, {API_VERSIONS: api_versions("0-4", other)}, "reuse")
    assert "tag-reused" in {f["rule"] for f in diff(repo, "HEAD~1", "HEAD")}


def test_a_flexible_draft_reshaped_again_breaks_no_release_of_that_number(tmp_path: Path) -> None:
    """PartitionRecord v1: trunk drafted it flexible, then reshaped the draft; the v1 a
    later release shipped is another layout."""
    repo = start(tmp_path / "r")
    v0 = json.loads(record("PartitionRecord", "none"))
    release_from(repo, commit_tree(repo, {PARTITION: json.dumps(v0)}, "2.8"), "2.8.0")
    draft = {**v0, "validVersions": "0-1", "flexibleVersions": "1+"}
    draft["fields"] = [*v0["fields"], field("Directories", "[]int32", "1+")]
    base = commit_tree(repo, {PARTITION: json.dumps(draft)}, "draft v1")
    shipped = {**draft, "fields": [*v0["fields"], field("LeaderRecoveryState", "int8", "1+")]}
    release_from(
        repo, commit_tree(repo, {PARTITION: json.dumps(shipped)}, "v1 as shipped"), "3.1.0"
    )
    git(repo, "checkout", "-q", "-b", "draft", base)
    reshaped = {**draft, "fields": [*v0["fields"], field("Directories", "[]int64", "1+")]}
    commit_tree(repo, {PARTITION: json.dumps(reshaped)}, "reshape the draft")
    findings = diff(repo, "draft~1", "draft")
    assert loud(findings) == []
    (info,) = [f for f in findings if f["rule"] == "unreleased-change"]
    assert "(already incompatible with 3.1.0 in BASE)" in info["message"]


def test_a_further_change_to_a_release_base_had_already_broken_is_no_error(
    tmp_path: Path,
) -> None:
    """BASE dropped a field of released v0 (an error when it landed); HEAD now retypes
    another: BASE's v0 is no release's layout, so no release is broken anew (issue 31)."""
    file = "Shelf.json"
    repo = start(tmp_path / "r")
    shipped = spec("ShelfRequest", "0", [field("ShelfId"), field("Label", "string")], apiKey=1)
    release_from(repo, commit_tree(repo, {file: shipped}, "1.0"), "1.0.0")
    commit_tree(repo, {file: spec("ShelfRequest", "0", [field("ShelfId")], apiKey=1)}, "drop")
    assert loud(diff(repo, "HEAD~1", "HEAD")) == [("error", "field-removed", "ShelfRequest")]
    wider = spec("ShelfRequest", "0", [field("ShelfId", "int64")], apiKey=1)
    commit_tree(repo, {file: wider}, "retype ShelfId")
    findings = diff(repo, "HEAD~1", "HEAD")
    assert loud(findings) == []
    (info,) = findings
    assert info["rule"] == "unreleased-change"
    assert info["message"] == (
        "ShelfRequest changes v0, which is not in any release as BASE has it (already "
        "incompatible with 1.0.0 in BASE): no client depends on it yet"
    )
