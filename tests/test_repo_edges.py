"""Repositories that are not the plain case, through the CLI in a real process.

A file named ``HEAD`` in the working directory, a bare repository (with and without a
linked worktree), a submodule with a touched file, a repository owned by another user,
a merge conflict: each either works as in the plain case or is one line saying what is
wrong and what to do. And whatever runs, nothing under ``.git`` changes.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
from pathlib import Path

import pytest

from tests.conftest import EXAMPLES
from tests.diff_runner import CliRun, commit_tree, git, init_repo, run_process

BREAK = ('"name": "TimeoutMs", "type": "int32"', '"name": "TimeoutMs", "type": "int64"')
OTHER = ('"name": "TimeoutMs", "type": "int32"', '"name": "TimeoutMs", "type": "int16"')


def _examples() -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in EXAMPLES.glob("*.json")}


def _edit(path: Path, change: tuple[str, str]) -> None:
    text = path.read_text(encoding="utf-8")
    assert change[0] in text
    path.write_text(text.replace(*change), encoding="utf-8")


def one_line(run: CliRun) -> str:
    """The single stderr line of a run that exited 2."""
    assert run.code == 2, (run.code, run.stdout, run.stderr)
    lines = run.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("kcompat: error: "), run.stderr
    return lines[0]


@pytest.fixture()
def staged_break(tmp_path: Path) -> Path:
    """A repository with a breaking change to WidgetRequest staged."""
    repo = init_repo(tmp_path / "repo")
    commit_tree(repo, _examples(), "base")
    _edit(repo / "WidgetRequest.json", BREAK)
    git(repo, "add", "WidgetRequest.json")
    return repo


# -- the implicit BASE ----------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["file", "directory"])
def test_a_path_named_head_does_not_replace_the_default_base(staged_break: Path, kind: str) -> None:
    """The pre-commit hook's ``diff --staged`` still compares with the HEAD commit."""
    head = staged_break / "HEAD"
    if kind == "file":
        head.write_text("not a spec\n", encoding="utf-8")
    else:
        head.mkdir()
        (head / "notes.txt").write_text("not a spec\n", encoding="utf-8")
    for args in (["diff", "--staged"], ["diff"]):
        run = run_process([*args, "--no-proof", "--format", "json"], staged_break)
        assert run.code == 1, run.stderr
        assert {f["rule"] for f in run.findings() if f["severity"] == "error"} == {
            "field-type-changed"
        }


def test_a_side_both_a_path_and_a_revision_is_one_line(staged_break: Path) -> None:
    (staged_break / "HEAD").write_text("not a spec\n", encoding="utf-8")
    line = one_line(run_process(["diff", "HEAD", "--staged", "--no-proof"], staged_break))
    assert "both a path and a revision" in line
    assert "./HEAD" in line and "HEAD^{commit}" in line
    chosen = run_process(["diff", "HEAD^{commit}", "--staged", "--no-proof"], staged_break)
    assert chosen.code == 1, chosen.stderr


# -- bare repositories ----------------------------------------------------------------------


@pytest.fixture()
def bare(staged_break: Path, tmp_path: Path) -> Path:
    git(staged_break, "commit", "-q", "-m", "break")
    target = tmp_path / "bare.git"
    subprocess.run(["git", "clone", "-q", "--bare", str(staged_break), str(target)], check=True)
    return target


def test_a_bare_repository_refuses_the_index_and_the_working_tree(bare: Path) -> None:
    staged = one_line(run_process(["diff", "--staged", "--no-proof"], bare))
    assert "bare repository" in staged and "--staged" in staged
    assert "give BASE and HEAD revisions" in staged
    worktree = one_line(run_process(["diff", "--no-proof"], bare))
    assert "bare repository" in worktree and "no working tree" in worktree
    revisions = run_process(["diff", "HEAD~1", "HEAD", "--no-proof"], bare)
    assert revisions.code == 1, revisions.stderr  # two revisions: the break is found


def test_a_bare_repository_names_its_worktrees(bare: Path, tmp_path: Path) -> None:
    linked = tmp_path / "linked"
    git(bare, "worktree", "add", "-q", str(linked), "main")
    line = one_line(run_process(["diff", "--no-proof"], bare))
    assert "bare repository" in line and str(linked) in line
    assert "diff-index" not in line
    inside = run_process(["diff", "--no-proof"], linked)
    assert inside.code == 0, inside.stderr


# -- nothing under .git changes -------------------------------------------------------------


def snapshot(git_dir: Path) -> dict[str, tuple[str, int]]:
    """Every file and directory under ``git_dir``: its content digest and mtime."""
    found: dict[str, tuple[str, int]] = {}
    for path in sorted(git_dir.rglob("*")):
        stat = path.lstat()
        digest = hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else "dir"
        found[str(path.relative_to(git_dir))] = (digest, stat.st_mtime_ns)
    return found


@pytest.fixture()
def with_submodule(tmp_path: Path) -> Path:
    """A repository with a real submodule, a submodule file touched, a spec edited."""
    sub = init_repo(tmp_path / "sub")
    commit_tree(sub, {"notes.txt": "x\n", "Vendored.json": _examples()["WidgetRequest.json"]}, "s")
    top = init_repo(tmp_path / "top")
    commit_tree(top, _examples(), "base")
    git(top, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(sub), "vendor")
    git(top, "commit", "-q", "-m", "submodule")
    git(top, "tag", "1.0.0")
    os.utime(top / "vendor" / "notes.txt")  # stat-dirty: git would refresh the index
    _edit(top / "WidgetRequest.json", BREAK)
    return top


def test_nothing_under_git_changes(with_submodule: Path) -> None:
    top = with_submodule
    before = snapshot(top / ".git")
    assert any(name.startswith("modules/vendor/") for name in before)
    commands = [
        ["diff", "--no-proof"],
        ["diff", "--staged", "--no-proof"],
        ["diff", "HEAD", "--no-proof"],
        ["diff", "1.0.0", "HEAD", "--no-proof"],
        ["lint", "."],
        ["drift", "HEAD", "."],
        ["explain", "WidgetRequest", "--against", "HEAD", "--no-proof"],
    ]
    for args in commands:
        run = run_process(args, top)
        assert run.code in (0, 1), (args, run.stderr)
        assert snapshot(top / ".git") == before, args
    assert not list((top / ".git").rglob("*.lock"))


# -- a repository another user owns ---------------------------------------------------------


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to give a repository to nobody")
def test_a_repository_another_user_owns_says_how_to_trust_it(staged_break: Path) -> None:
    git(staged_break, "tag", "1.0.0")
    for path in [staged_break, *staged_break.rglob("*")]:
        os.lchown(path, 65534, 65534)
    no_global = {"GIT_CONFIG_GLOBAL": os.devnull}
    for args in (["diff", "--staged"], ["diff", "1.0.0"], ["diff", "3.7.0"]):
        line = one_line(run_process([*args, "--no-proof"], staged_break, env=no_global))
        assert "another user owns it" in line, args
        assert f"git config --global --add safe.directory {staged_break}" in line, args


# -- merge conflicts ------------------------------------------------------------------------


@pytest.fixture()
def conflicted(tmp_path: Path) -> Path:
    """A merge stopped on a conflict in WidgetRequest.json."""
    repo = init_repo(tmp_path / "repo")
    commit_tree(repo, _examples(), "base")
    git(repo, "checkout", "-q", "-b", "other")
    _edit(repo / "WidgetRequest.json", BREAK)
    git(repo, "commit", "-q", "-am", "other")
    git(repo, "checkout", "-q", "main")
    _edit(repo / "WidgetRequest.json", OTHER)
    git(repo, "commit", "-q", "-am", "mine")
    done = subprocess.run(["git", "merge", "-q", "other"], cwd=repo, capture_output=True)
    assert done.returncode != 0  # the conflict
    return repo


def _marker_line(path: Path) -> int:
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if line.startswith("<<<<<<<"))


def test_a_conflict_in_the_index_says_resolve_and_add(conflicted: Path) -> None:
    line = one_line(run_process(["diff", "--staged", "--no-proof"], conflicted))
    assert "WidgetRequest.json: unresolved merge conflict" in line
    assert "git add WidgetRequest.json" in line
    assert "removed" not in line


def test_conflict_markers_parse_as_an_unresolved_conflict(conflicted: Path) -> None:
    marker = _marker_line(conflicted / "WidgetRequest.json")
    lint = run_process(["lint", "WidgetRequest.json"], conflicted)
    assert lint.code == 1
    assert f"WidgetRequest.json:{marker}:1: error [invalid-json] unresolved merge conflict" in (
        lint.stdout
    )
    diff = run_process(["diff", "--no-proof", "--format", "json"], conflicted)
    [finding] = diff.findings()
    assert finding["rule"] == "spec-unreadable" and finding["line"] == marker
    assert "unresolved merge conflict" in finding["message"]


@pytest.mark.parametrize("query", ["WidgetRequest", "Widget"])
def test_explain_names_the_file_that_does_not_parse(conflicted: Path, query: str) -> None:
    marker = _marker_line(conflicted / "WidgetRequest.json")
    line = one_line(run_process(["explain", query], conflicted))
    assert f"WidgetRequest.json:{marker}:1 does not parse: unresolved merge conflict" in line
    assert "no message named" not in line
