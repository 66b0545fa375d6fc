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


# -- point 11: never report what the change did not change ---------------------------------------

HEARTBEAT = f"{CLIENTS}/ConsumerGroupHeartbeatRequest.json"


def heartbeat(about: str, unstable: bool) -> str:
    top: dict[str, Any] = {"apiKey": 68}
    if unstable:
        top["latestVersionUnstable"] = True
    return spec(
        "ConsumerGroupHeartbeatRequest", "0", [field("GroupId", "string", about=about)], **top
    )


def test_an_unstable_marker_base_already_had_is_not_this_changes_doing(tmp_path: Path) -> None:
    repo = init_repo(tmp_path / "r")
    start = commit_tree(repo, {HEARTBEAT: heartbeat("The grup id.", True)}, "KIP-848: v0")
    stable = commit_tree(repo, {HEARTBEAT: heartbeat("The grup id.", False)}, "v0 is stable")
    release_from(repo, stable, "3.7.0")  # a later release ships v0 as stable
    git(repo, "checkout", "-q", "-b", "typos", start)
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
