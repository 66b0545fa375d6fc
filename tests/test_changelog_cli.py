"""``kcompat changelog`` takes what ``kcompat diff`` takes: revisions, the index and the
working tree, directories, ``REV:path``, release tags; bad input is one line and exit 2;
``kcompat explain NAME --since REV`` is one message's changelog."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.changelog_specs import field, path_of, spec
from tests.diff_runner import (
    commit_tree,
    git,
    init_repo,
    released_then_two_commits,
    run_cli,
    run_process,
    write_files,
)

BASE = spec("FooRequest", fields=[field("A")])
HEAD = spec("FooRequest", valid="0-2", fields=[field("A"), field("B", "string", "2+")])
ADDED = [
    "FooRequest (API key 90)",
    "  + version 2 added (validVersions now 0-2)",
    "  + version 2 adds B (string)",
]


def _repo(tmp_path: Path) -> Path:
    repo = init_repo(tmp_path / "repo")
    commit_tree(repo, {path_of("FooRequest"): BASE}, "base")
    return repo


def test_the_working_tree_and_the_index_against_head(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    write_files(repo, {path_of("FooRequest"): HEAD})
    worktree = run_cli(["changelog", "--color", "never"], repo)
    assert worktree.code == 0, worktree.stderr
    assert worktree.stdout.splitlines()[0] == (
        "HEAD -> the working tree: 1 message re-versioned, 0 breaks"
    )
    assert worktree.stdout.splitlines()[2:] == ADDED
    staged = run_cli(["changelog", "--staged", "--color", "never"], repo)
    assert staged.stdout.splitlines() == ["HEAD -> the index: no protocol change, 0 breaks"]
    git(repo, "add", "-A")
    staged = run_cli(["changelog", "--staged", "--color", "never"], repo)
    assert staged.stdout.splitlines()[2:] == ADDED


def test_directories_and_a_folder_at_a_revision(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    elsewhere = tmp_path / "copy"
    write_files(elsewhere, {"FooRequest.json": HEAD})
    done = run_cli(["changelog", "HEAD:protocol", str(elsewhere), "--color", "never"], repo)
    assert done.code == 0, done.stderr
    assert done.stdout.splitlines()[2:] == ADDED
    first = tmp_path / "first"
    write_files(first, {"FooRequest.json": BASE})
    done = run_cli(["changelog", str(first), str(elsewhere), "--color", "never"], tmp_path)
    assert done.code == 0, done.stderr
    assert done.stdout.splitlines()[2:] == ADDED


def test_released_versions_come_from_release_tags(tmp_path: Path) -> None:
    old = spec("FooRequest", valid="0", fields=[field("A")])
    repo = released_then_two_commits(
        tmp_path / "repo",
        {path_of("FooRequest"): old},
        {path_of("FooRequest"): BASE},
        {path_of("FooRequest"): spec("FooRequest", valid="0-1", fields=[field("B", "string")])},
    )
    done = run_cli(["changelog", "HEAD~1", "HEAD", "--color", "never"], repo)
    assert done.code == 0, done.stderr
    out = done.stdout.splitlines()
    # version 0 shipped in 1.0.0: a break; version 1 shipped nowhere: a change
    assert "  + B (string) added to unreleased version 1" in out
    assert "  - A (int32) removed from unreleased version 1" in out
    assert any(line.startswith("  ! break [field-removed]: field A") for line in out)
    assert out[-1] == "Released: versions shipped by 1 release (1.0.0)."
    based = run_cli(["changelog", "HEAD~1", "HEAD", "--released", "base"], repo)
    assert "unreleased version 1" not in based.stdout


def test_the_diff_to_run_for_the_bytes_names_the_same_sides(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    commit_tree(repo, {path_of("FooRequest"): spec("FooRequest", fields=[])}, "drop A")
    done = run_cli(["changelog", "HEAD~1", "--merge-base", "--color", "never"], repo)
    assert "(bytes: kcompat diff 'HEAD~1' --merge-base)" in done.stdout
    shown = run_cli(["diff", "HEAD~1", "--merge-base", "--no-proof"], repo)
    assert "field A (int32) was removed from released versions 0-1" in shown.stdout


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["changelog", "no-such-rev", "HEAD"], "no-such-rev"),
        (["changelog", "HEAD", "HEAD", "--staged"], "--staged compares BASE with the index"),
        (["changelog", "HEAD~1", "HEAD", "--format", "yaml"], "--format"),
        (
            ["changelog", "HEAD~1", "HEAD", "--released", "maybe"],
            "--released must be auto, base or tags, not 'maybe'",
        ),
    ],
)
def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, args: list[str], says: str) -> None:
    repo = _repo(tmp_path)
    commit_tree(repo, {path_of("FooRequest"): HEAD}, "head")
    done = run_process(args, repo)
    assert done.code == 2, done.stdout + done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and says in done.stderr
    assert "Traceback" not in done.stderr


def test_nothing_under_the_repository_is_written(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    write_files(repo, {path_of("FooRequest"): HEAD})
    git(repo, "add", "-A")
    before = sorted((p.relative_to(repo), p.stat().st_mtime_ns) for p in repo.rglob("*"))
    for fmt in ("text", "markdown", "json", "html"):
        assert run_process(["changelog", "--staged", "--format", fmt], repo).code == 0
    after = sorted((p.relative_to(repo), p.stat().st_mtime_ns) for p in repo.rglob("*"))
    assert after == before


def test_a_reader_that_stops_early_is_no_failure(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    commit_tree(repo, {path_of("FooRequest"): HEAD}, "head")
    done = subprocess.run(
        f"{run_process.__globals__['KCOMPAT']} changelog HEAD~1 HEAD | head -1",
        shell=True,
        cwd=repo,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.stdout.startswith("HEAD~1 -> HEAD: ") and not done.stderr


def test_a_first_commit_has_nothing_to_compare(tmp_path: Path) -> None:
    repo = init_repo(tmp_path / "repo")
    write_files(repo, {path_of("FooRequest"): BASE})
    done = run_process(["changelog"], repo)
    assert done.code == 0
    assert "no commits yet" in done.stderr


# -- kcompat explain NAME --since REV ----------------------------------------------------------
def test_explain_since_is_one_message_s_changelog(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    other = spec("BarRequest", key=91, fields=[field("A")])
    commit_tree(repo, {path_of("FooRequest"): BASE, path_of("BarRequest"): other}, "bar")
    bar = spec("BarRequest", key=91, valid="0-3", fields=[field("A")])
    commit_tree(repo, {path_of("FooRequest"): HEAD, path_of("BarRequest"): bar}, "both")
    done = run_cli(["explain", "FooRequest", "--since", "HEAD~1", "--color", "never"], repo)
    assert done.code == 0, done.stderr
    assert done.stdout.splitlines() == [
        "HEAD~1 -> the working tree: 1 message re-versioned, 0 breaks",
        "",
        *ADDED,
    ]
    at = run_cli(["explain", "bar", "--since", "HEAD~2", "--rev", "HEAD~1", "-f", "json"], repo)
    assert [(c["message"], c["kind"]) for c in at.json()["changes"]] == [
        ("BarRequest", "message-added")
    ]
    wrong = run_process(["explain", "FooRequest", "--since", "HEAD~1", "-f", "svg"], repo)
    assert wrong.code == 2 and "not svg" in wrong.stderr
