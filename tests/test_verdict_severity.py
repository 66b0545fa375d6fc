"""Severity follows the wire effect (issue 23, points 1-3 and 5), through the CLI.

Each test builds a small repository laid out as Kafka's (a release tagged on a release
branch main never reaches, then BASE and HEAD on main) and runs ``kcompat diff``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.diff_runner import commit_tree, git, init_repo, run_cli

NAME = "LoanShelfRequest.json"


def shelf(fields: list[dict[str, Any]], *, versions: str = "0-2", **top: Any) -> str:
    document: dict[str, Any] = {
        "apiKey": 140,
        "type": "request",
        "name": "LoanShelfRequest",
        "validVersions": versions,
        "flexibleVersions": "1+",
        **top,
        "fields": fields,
    }
    return json.dumps(document, indent=2) + "\n"


def released(repo: Path, files: dict[str, str], tag: str = "1.0.0") -> Path:
    """``files`` committed on main, then released on a branch (tag not reachable from main)."""
    init_repo(repo)
    git(repo, "commit", "-q", "--allow-empty", "-m", "start of history")
    commit_tree(repo, files, "branch point")
    branch = tag.rpartition(".")[0]
    git(repo, "checkout", "-q", "-b", branch)
    git(repo, "commit", "-q", "--allow-empty", "-m", f"Bump version to {tag}")
    git(repo, "tag", tag)
    git(repo, "checkout", "-q", "main")
    return repo


def diff(repo: Path, *args: str) -> list[dict[str, Any]]:
    run = run_cli(["diff", *args, "--format", "json", "--no-proof"], repo)
    assert run.code in (0, 1), run.stderr
    findings: list[dict[str, Any]] = run.json()["findings"]
    return findings


def of_rule(findings: list[dict[str, Any]], rule: str) -> list[tuple[str, str, str]]:
    return [(f["severity"], f["field_path"], f["versions"]) for f in findings if f["rule"] == rule]


# -- point 1: default-changed by wire effect -----------------------------------------------------

SHELF_ID = {"name": "ShelfId", "type": "int32", "versions": "0+", "about": "The shelf."}


def _field(name: str, default: str, **extra: Any) -> dict[str, Any]:
    return {"name": name, "type": "int32", "default": default, "about": "x", **extra}


def test_a_tagged_default_is_an_error_on_its_tagged_versions(tmp_path: Path) -> None:
    tagged = _field("Hint", "1", versions="1+", taggedVersions="1+", tag=0)
    repo = released(tmp_path / "r", {NAME: shelf([SHELF_ID, tagged])})
    commit_tree(repo, {NAME: shelf([SHELF_ID, {**tagged, "default": "2"}])}, "change")
    findings = diff(repo, "HEAD~1", "HEAD")
    assert of_rule(findings, "default-changed") == [("error", "Hint", "1-2")]
    (finding,) = [f for f in findings if f["rule"] == "default-changed"]
    assert "where it is tagged" in finding["message"]


def test_a_default_read_by_versions_without_the_field_is_a_warning(tmp_path: Path) -> None:
    late = _field("Limit", "1", versions="2+")
    repo = released(tmp_path / "r", {NAME: shelf([SHELF_ID, late])})
    commit_tree(repo, {NAME: shelf([SHELF_ID, {**late, "default": "5"}])}, "change")
    findings = diff(repo, "HEAD~1", "HEAD")
    assert of_rule(findings, "default-changed") == [("warning", "Limit", "0-1")]
    (finding,) = [f for f in findings if f["rule"] == "default-changed"]
    assert (
        "readers of released versions 0-1, which lack the field, now fill in 5"
        in (finding["message"])
    )
    assert "a writer asked to send 1 to them fails to write it" in finding["message"]


def test_a_default_of_a_field_always_written_is_an_info(tmp_path: Path) -> None:
    always = _field("Limit", "1", versions="0+")
    repo = released(tmp_path / "r", {NAME: shelf([SHELF_ID, always])})
    commit_tree(repo, {NAME: shelf([SHELF_ID, {**always, "default": "5"}])}, "change")
    findings = diff(repo, "HEAD~1", "HEAD")
    assert of_rule(findings, "default-changed") == [("info", "Limit", "0-2")]
    run = run_cli(["diff", "HEAD~1", "HEAD", "--no-proof"], repo)
    assert run.code == 0
