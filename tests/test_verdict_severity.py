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


# -- point 1: default-changed by wire effect ------------------------------------------------------

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


# -- point 5: a response field that answers old clients badly (KAFKA-10239) -----------------------


def _group(kind: str, versions: str, extra: list[dict[str, Any]]) -> str:
    name = f"DescribeGroups{kind.capitalize()}"
    member_id = {"name": "MemberId", "type": "string", "versions": "0+", "about": "x"}
    members: dict[str, Any] = {"name": "Members", "type": "[]Member", "versions": "0+"}
    members.update(about="x", fields=[member_id, *extra])
    document = {
        "apiKey": 15,
        "type": kind,
        "name": name,
        "validVersions": versions,
        "flexibleVersions": "5+",
        "fields": [members],
    }
    return json.dumps(document, indent=2) + "\n"


INSTANCE = {"name": "GroupInstanceId", "type": "string", "versions": "4+", "about": "x"}
INSTANCE.update(nullableVersions="4+", default="null")


def _static_members(tmp_path: Path, kind: str, field: dict[str, Any]) -> list[dict[str, Any]]:
    file = f"DescribeGroups{kind.capitalize()}.json"
    repo = released(tmp_path / kind, {file: _group(kind, "0-3", [])})
    commit_tree(repo, {file: _group(kind, "0-4", [field])}, "KIP-345: v4")
    return diff(repo, "HEAD~1", "HEAD")


def test_a_non_ignorable_field_new_in_a_response_version_is_a_warning(tmp_path: Path) -> None:
    findings = _static_members(tmp_path, "response", INSTANCE)
    rule = "response-field-not-ignorable"
    assert of_rule(findings, rule) == [("warning", "Members.GroupInstanceId", "0-3")]
    (finding,) = [f for f in findings if f["rule"] == rule]
    assert finding["released_by"] == "released in 1.0.0"
    run = run_cli(["rules", rule], tmp_path)
    assert "KAFKA-10239" in run.stdout


def test_an_ignorable_one_or_a_request_field_is_not(tmp_path: Path) -> None:
    rule = "response-field-not-ignorable"
    ignorable = _static_members(tmp_path, "response", {**INSTANCE, "ignorable": True})
    assert of_rule(ignorable, rule) == []
    assert [f for f in ignorable if f["severity"] != "info"] == []
    assert of_rule(_static_members(tmp_path, "request", INSTANCE), rule) == []


def test_a_response_field_added_to_released_versions_is_field_added(tmp_path: Path) -> None:
    early = {**INSTANCE, "versions": "3+", "nullableVersions": "3+"}
    findings = _static_members(tmp_path, "response", early)
    assert of_rule(findings, "response-field-not-ignorable") == []
    assert of_rule(findings, "field-added") == [("error", "Members.GroupInstanceId", "3")]


# -- point 2: test fixtures never ship ------------------------------------------------------------

FIXTURE = "clients/src/test/resources/common/message/SimpleExampleMessage.json"


def _example(fields: list[dict[str, Any]]) -> str:
    document: dict[str, Any] = {"name": "SimpleExampleMessage", "type": "data"}
    document["validVersions"] = "0-1"
    document.update(flexibleVersions="1+", fields=fields)
    return json.dumps(document, indent=2) + "\n"


def test_findings_about_test_specs_are_infos_and_the_summary_says_so(tmp_path: Path) -> None:
    one = {"name": "ProcessId", "type": "uuid", "versions": "0+", "about": "x"}
    two = {"name": "MyInt16", "type": "int16", "versions": "1+", "about": "x"}
    base = {FIXTURE: _example([one]), NAME: shelf([SHELF_ID])}
    repo = released(tmp_path / "r", base)
    moved = {**SHELF_ID, "type": "int64"}
    commit_tree(repo, {FIXTURE: _example([one, two]), NAME: shelf([moved])}, "test spec")
    findings = diff(repo, "HEAD~1", "HEAD")
    (fixture,) = [f for f in findings if f["file"] == FIXTURE]
    assert (fixture["rule"], fixture["severity"]) == ("field-added", "info")
    assert "a test fixture (configuration 'fixtures')" in fixture["notes"][-1]
    assert of_rule(findings, "field-type-changed") == [("error", "ShelfId", "0-2")]
    run = run_cli(["diff", "HEAD~1", "HEAD", "--no-proof", "--format", "json"], repo)
    assert run.json()["summary"]["fixtures"] == 1
    run = run_cli(["diff", "HEAD~1", "HEAD", "--no-proof", "--color", "never"], repo)
    assert "(1 about test fixtures, at most info)" in run.stdout.splitlines()[-1]
    # Configurable: with no fixture folders the test spec's break is an error again.
    (repo / "kcompat.toml").write_text("fixtures = []\n")
    findings = diff(repo, "HEAD~1", "HEAD")
    assert [f["severity"] for f in findings if f["file"] == FIXTURE] == ["error"]
    (repo / "kcompat.toml").write_text("fixtures = 'src/test'\n")
    run = run_cli(["diff", "HEAD~1", "HEAD", "--no-proof"], repo)
    assert run.code == 2
    assert "'fixtures' must be a list of path globs" in run.stderr


# -- point 3: headers by what the wire uses -------------------------------------------------------

HEADER = "clients/src/main/resources/common/message/RequestHeader.json"


def _header(versions: str, client: dict[str, Any], *extra: dict[str, Any]) -> str:
    fields = [
        {"name": "RequestApiKey", "type": "int16", "versions": "0+", "about": "x"},
        {"name": "RequestApiVersion", "type": "int16", "versions": "0+", "about": "x"},
        {"name": "CorrelationId", "type": "int32", "versions": "0+", "about": "x"},
        client,
        *extra,
    ]
    document: dict[str, Any] = {"type": "header", "name": "RequestHeader"}
    document["validVersions"] = versions
    document.update(flexibleVersions="none" if versions == "0" else "2+", fields=fields)
    return json.dumps(document, indent=2) + "\n"


CLIENT_23 = {"name": "ClientId", "type": "string", "versions": "0+", "about": "x"}
CLIENT_24: dict[str, Any] = {"name": "ClientId", "type": "string", "versions": "1+"}
CLIENT_24["nullableVersions"] = "1+"
CLIENT_24.update(ignorable=True, flexibleVersions="none", about="x")


def test_a_header_renumbering_that_keeps_every_api_versions_bytes_is_no_error(
    tmp_path: Path,
) -> None:
    """Kafka 2.4: 2.3's RequestHeader v0 became v1, v0 became ControlledShutdown v0's."""
    repo = released(tmp_path / "r", {HEADER: _header("0", CLIENT_23)}, "2.3.0")
    commit_tree(repo, {HEADER: _header("0-2", CLIENT_24)}, "KIP-482: header versions")
    findings = diff(repo, "HEAD~1", "HEAD")
    assert [f for f in findings if f["severity"] != "info"] == []
    assert of_rule(findings, "header-renumbered") == [("info", "", "0")]
    (renumbered,) = [f for f in findings if f["rule"] == "header-renumbered"]
    assert renumbered["message"] == (
        "RequestHeader: non-flexible API versions use v1 in HEAD, v0 in BASE, with the same "
        "header bytes (ClientId also allows null in HEAD)"
    )


def test_a_header_renumbering_that_changes_the_bytes_is_an_error(tmp_path: Path) -> None:
    repo = released(tmp_path / "r", {HEADER: _header("0", CLIENT_23)}, "2.3.0")
    rack = {"name": "ClientRack", "type": "string", "versions": "1+", "about": "x"}
    commit_tree(repo, {HEADER: _header("0-2", CLIENT_24, rack)}, "renumber, and a field")
    findings = diff(repo, "HEAD~1", "HEAD")
    assert [(f["severity"], f["rule"]) for f in findings if f["severity"] != "info"] == [
        ("error", "header-renumbered")
    ]
    # Without a renumbering, a header version changed in place is judged as usual.
    repo = released(tmp_path / "s", {HEADER: _header("0-2", CLIENT_24)}, "2.4.0")
    commit_tree(repo, {HEADER: _header("0-2", {**CLIENT_24, "versions": "2+"})}, "drop")
    findings = diff(repo, "HEAD~1", "HEAD")
    assert of_rule(findings, "field-removed") == [("error", "ClientId", "1")]
    assert of_rule(findings, "header-renumbered") == []
