"""The gate says what a removal costs in releases: when a change raises a request's
lowest version or removes versions, ``diff``, the changelog and the Action's comment name
the client releases it strands (their highest version is what they would have sent),
from the release tags; deprecated-then-removed stays a warning, with that cost."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.action_runner import Runner, event_of
from tests.changelog_specs import spec
from tests.diff_runner import commit_tree, git, init_repo, run_cli
from tests.fake_github import FakeGitHub, serving

OLD = "protocol/ListOffsetRequest.json"
NEW = "protocol/ListOffsetsRequest.json"


def list_offsets(valid: str, name: str = "ListOffsetsRequest", **extra: object) -> str:
    return spec(name, key=2, valid=valid, flexible="none", **extra)  # type: ignore[arg-type]


def released(path: Path, head_valid: str, *, deprecated: bool = True) -> Path:
    """Releases as Kafka tags them, each on its branch: 2.2.0 (ListOffsetRequest 0-5, in a
    file of its old name), 2.6.3 (0-5), 2.7.0 (0-6, deprecating 0-5 unless not
    ``deprecated``); main's BASE is 2.7.0's spec, HEAD has ``head_valid``."""
    marked = {"deprecatedVersions": "0-5"} if deprecated else {}
    init_repo(path)
    git(path, "commit", "-q", "--allow-empty", "-m", "start of history")
    for tag, files in (
        ("2.2.0", {OLD: list_offsets("0-5", "ListOffsetRequest")}),
        ("2.6.3", {NEW: list_offsets("0-5")}),
        ("2.7.0", {NEW: list_offsets("0-6", **marked)}),
    ):
        commit_tree(path, files, f"specs of {tag}")
        git(path, "checkout", "-q", "-b", tag.rsplit(".", 1)[0])
        git(path, "commit", "-q", "--allow-empty", "-m", f"bump version to {tag}")
        git(path, "tag", tag)
        git(path, "checkout", "-q", "main")
    commit_tree(path, {NEW: list_offsets("0-6", **marked)}, "BASE")
    commit_tree(path, {NEW: list_offsets(head_valid)}, "HEAD")
    return path


def _finding(repo: Path, rule: str) -> dict[str, object]:
    done = run_cli(["diff", "HEAD~1", "HEAD", "--format", "json", "--no-proof"], repo)
    found: list[dict[str, object]] = [f for f in done.findings() if f["rule"] == rule]
    assert len(found) == 1, done.stdout
    return found[0]


def test_a_raised_lowest_version_names_the_client_releases_it_strands(tmp_path: Path) -> None:
    repo = released(tmp_path / "repo", "6")
    finding = _finding(repo, "deprecated-version-removed")
    assert finding["severity"] == "warning"  # deprecated first: still a warning
    assert str(finding["message"]).endswith(
        "can no longer use them; clients of 2.2.0–2.6.3 can no longer send ListOffsets "
        "(their highest version is 5)"
    )
    text = run_cli(["diff", "HEAD~1", "HEAD", "--no-proof", "--color", "never"], repo).stdout
    assert "clients of 2.2.0–2.6.3 can no longer send ListOffsets" in text


def test_without_a_deprecation_the_error_names_them_too(tmp_path: Path) -> None:
    repo = released(tmp_path / "repo", "6", deprecated=False)
    finding = _finding(repo, "lowest-version-raised")
    assert finding["severity"] == "error"
    assert finding["message"] == (
        "ListOffsetsRequest no longer supports released versions 0-5 (lowest version raised "
        "from 0 to 6); clients of 2.2.0–2.6.3 can no longer send ListOffsets (their highest "
        "version is 5)"
    )


def test_a_removal_that_strands_no_release_says_so(tmp_path: Path) -> None:
    repo = released(tmp_path / "repo", "3-6")
    finding = _finding(repo, "deprecated-version-removed")
    assert str(finding["message"]).endswith(
        "; no client release is stranded: each still shares a version with it"
    )


def test_without_release_tags_nothing_is_claimed(tmp_path: Path) -> None:
    repo = released(tmp_path / "repo", "6")
    for tag in ("2.2.0", "2.6.3", "2.7.0"):
        git(repo, "tag", "-d", tag)
    done = run_cli(["diff", "HEAD~1", "HEAD", "--format", "json", "--no-proof"], repo)
    messages = [str(f["message"]) for f in done.json()["findings"]]
    assert messages and not any("client" in m and "stranded" in m for m in messages)
    assert not any("can no longer send" in m for m in messages)


def test_the_changelog_says_it_where_the_versions_go(tmp_path: Path) -> None:
    repo = released(tmp_path / "repo", "6")
    done = run_cli(["changelog", "HEAD~1", "HEAD", "--color", "never"], repo)
    assert done.code == 0, done.stderr
    assert (
        "  - released versions 0-5 removed, deprecated first (since 2.7.0); clients of "
        "2.2.0–2.6.3 can no longer send ListOffsets (their highest version is 5) "
        "(validVersions now 6)"
    ) in done.stdout.splitlines(), done.stdout
    markdown = run_cli(["changelog", "HEAD~1", "HEAD", "--format", "markdown"], repo).stdout
    assert "clients of 2.2.0–2.6.3 can no longer send ListOffsets" in markdown
    document = json.loads(run_cli(["changelog", "HEAD~1", "HEAD", "--format", "json"], repo).stdout)
    removed = [c for c in document["changes"] if c["kind"] == "versions-removed"]
    assert "clients of 2.2.0–2.6.3 can no longer send ListOffsets" in removed[0]["text"]


@pytest.fixture()
def github() -> Iterator[FakeGitHub]:
    with serving() as state:
        yield state


def test_the_action_s_comment_says_it(tmp_path: Path, github: FakeGitHub) -> None:
    origin = released(tmp_path / "origin", "0-6")
    workspace = tmp_path / "workspace"
    subprocess.run(["git", "clone", "-q", str(origin), str(workspace)], check=True)
    git(workspace, "checkout", "-q", "-b", "feature")
    commit_tree(workspace, {NEW: list_offsets("6")}, "drop the deprecated versions")
    runner = Runner(tmp_path / "home", workspace, event_of(workspace), api=github.url, token="t")
    done = runner.run(comment="true")
    assert done.returncode == 0, done.stdout + done.stderr  # a warning: not a failure
    body = github.comments[-1]["body"]
    assert "clients of 2.2.0–2.6.3 can no longer send ListOffsets" in body
    assert "(their highest version is 5)" in body
