"""The git layer against a hostile repository and a hostile environment (issue 22, points
5, 9, 12 and 19), each through the CLI as a user or CI runs it:

- a repository's ``.git/config`` names programs git would run while reading (an
  fsmonitor hook, a GPG program, filters, an external diff, hooks, a partial clone's
  upload-pack): none ever runs, whatever kcompat does;
- an inherited ``GIT_DIR``/``GIT_INDEX_FILE`` never silently replaces ``--repo``, while a
  partial commit's own index is still read;
- a spec whose path holds a newline is compared like any other;
- a ``release-tags`` pattern that backtracks forever on a long tag name ends in one line.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from kcompat.sources.gitcmd import HARDENING
from tests.conftest import EXAMPLES
from tests.diff_runner import commit_tree, git, init_repo, run_cli, run_process
from tests.git_calls import record

#: One break per place a change can sit: committed, staged, in the working tree only.
COMMITTED = ('"name": "TimeoutMs", "type": "int32"', '"name": "TimeoutMs", "type": "int64"')
STAGED = ('"name": "ThrottleTimeMs", "type": "int32"', '"name": "ThrottleTimeMs", "type": "int64"')
WORKTREE = ('"name": "Priority", "type": "int8"', '"name": "Priority", "type": "int16"')
#: HEAD's own break, of the request header (a break of WidgetRequest would leave BASE
#: incompatible with 1.0.0's Widget API already: the staged and working-tree breaks of it
#: would then break no release anew).
HEADER_COMMITTED = ('"name": "CallId", "type": "int32"', '"name": "CallId", "type": "int64"')

#: Everything a repository's configuration can make git run while it reads, each a
#: program that leaves its name in the marker file.
HOSTILE_CONFIG = """
[core]
\tfsmonitor = {bin}/fsmonitor
\thooksPath = {hooks}
\tpager = {bin}/pager
\tsshCommand = {bin}/ssh
\taskPass = {bin}/askpass
[diff]
\texternal = {bin}/external
[diff "x"]
\ttextconv = {bin}/textconv
\tcommand = {bin}/diffcommand
[filter "x"]
\tclean = {bin}/clean
\tsmudge = {bin}/smudge
[log]
\tshowSignature = true
[gpg]
\tprogram = {bin}/gpg
[credential]
\thelper = {bin}/credential
"""
HOOKS = ("post-index-change", "reference-transaction", "post-checkout", "pre-auto-gc")


def _program(path: Path, marker: Path, tail: str = "exit 1") -> None:
    path.write_text(f'#!/bin/sh\necho "{path.name} $*" >> "{marker}"\n{tail}\n', encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)


def _edit(path: Path, change: tuple[str, str]) -> None:
    text = path.read_text(encoding="utf-8")
    assert change[0] in text
    path.write_text(text.replace(*change), encoding="utf-8")


def _fake_signature(repo: Path) -> None:
    """Rewrite HEAD as a commit carrying a (bogus) GPG signature: ``git log`` with
    ``log.showSignature`` runs ``gpg.program`` to check it."""
    body = git(repo, "cat-file", "commit", "HEAD")
    head, _, message = body.partition("\n\n")
    signature = "gpgsig -----BEGIN PGP SIGNATURE-----\n \n iQE\n -----END PGP SIGNATURE-----"
    signed = f"{head}\n{signature}\n\n{message}"
    path = repo / ".git" / "signed-commit"
    path.write_text(signed, encoding="utf-8")
    sha = git(repo, "hash-object", "-t", "commit", "-w", str(path)).strip()
    path.unlink()
    git(repo, "update-ref", "HEAD", sha)


@pytest.fixture()
def hostile(tmp_path: Path) -> tuple[Path, Path]:
    """A repository with a released BASE, a signed HEAD with a break, a staged break and
    a working-tree break, whose ``.git/config`` (written last: setting up runs nothing of
    it) names a marker-writing program for every command git could run while reading."""
    repo = init_repo(tmp_path / "repo")
    files = {p.name: p.read_text(encoding="utf-8") for p in EXAMPLES.glob("*.json")}
    commit_tree(repo, files, "base")
    git(repo, "tag", "1.0.0")
    _edit(repo / "WidgetRequestHeader.json", HEADER_COMMITTED)
    git(repo, "commit", "-q", "-am", "head")
    _fake_signature(repo)
    _edit(repo / "WidgetResponse.json", STAGED)
    git(repo, "add", "WidgetResponse.json")
    _edit(repo / "WidgetRequest.json", WORKTREE)
    (repo / ".gitattributes").write_text("*.json filter=x diff=x\n", encoding="utf-8")
    marker = tmp_path / "ran"
    bin_dir, hooks = tmp_path / "bin", tmp_path / "hooks"
    bin_dir.mkdir()
    hooks.mkdir()
    for name in ("fsmonitor", "pager", "ssh", "askpass", "external", "diffcommand", "gpg"):
        _program(bin_dir / name, marker)
    for name in ("textconv", "clean", "smudge", "credential"):
        _program(bin_dir / name, marker, 'cat "$@"')
    for name in HOOKS:
        _program(hooks / name, marker, "exit 0")
    config = HOSTILE_CONFIG.format(bin=bin_dir, hooks=hooks)
    with (repo / ".git" / "config").open("a", encoding="utf-8") as handle:
        handle.write(config)
    os.utime(repo / "WidgetResponseHeader.json")  # stat-dirty, same bytes
    return repo, marker


def test_no_command_a_repository_configures_ever_runs(hostile: tuple[Path, Path]) -> None:
    repo, marker = hostile
    expected = {
        ("diff", "--format", "json"): {"field-type-changed"},
        ("diff", "--staged", "--format", "json"): {"field-type-changed"},
        ("diff", "HEAD~1", "HEAD", "--format", "json"): {"field-type-changed"},
        ("diff", "1.0.0", "HEAD", "--format", "json"): {"field-type-changed"},
    }
    for args, rules in expected.items():
        run = run_process(list(args), repo)
        assert run.code == 1, (args, run.stderr)
        assert rules <= {f["rule"] for f in run.findings()}, args
        assert not marker.exists(), (args, marker.read_text(encoding="utf-8"))
    for other in (
        ["explain", "WidgetRequest", "--against", "HEAD", "--no-proof"],
        ["explain", "WidgetRequest", "--against", "1.0.0", "--rev", "HEAD"],
        ["drift", "HEAD", "."],
        ["lint", "."],
    ):
        run = run_process(other, repo)
        assert run.code in (0, 1), (other, run.stderr)
        assert not marker.exists(), (other, marker.read_text(encoding="utf-8"))


def test_every_git_call_carries_the_hardening(
    hostile: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every git process GitPython starts, the persistent cat-file included, has the
    ``-c`` settings and the read-only environment."""
    repo, marker = hostile
    calls = record(monkeypatch)
    for args in (["diff", "--staged"], ["diff"], ["explain", "WidgetRequest", "--against", "HEAD"]):
        run = run_cli(args, repo)
        assert run.code in (0, 1), run.stderr
    assert {"cat-file", "diff-index", "ls-files", "rev-parse"} <= {c.command[0] for c in calls}
    assert all(call.hardened for call in calls), [c.argv for c in calls if not c.hardened]
    assert all("core.fsmonitor=false" in c.argv for c in calls), HARDENING
    assert not marker.exists()


@pytest.mark.spark
@pytest.mark.slow
def test_history_runs_no_configured_command(hostile: tuple[Path, Path], tmp_path: Path) -> None:
    """``history`` names each introducing commit with ``git log``: with
    ``log.showSignature`` that would check the signed HEAD with ``gpg.program``."""
    repo, marker = hostile
    run = run_process(
        ["history", "--master", "local[1]", "--out", str(tmp_path / "out"), "--format", "json"],
        repo,
        timeout=300,
    )
    assert run.code in (0, 1), run.stderr
    assert '"introduced_in"' in run.stdout
    assert not marker.exists(), marker.read_text(encoding="utf-8")


def _partial_clone(tmp_path: Path) -> tuple[Path, Path]:
    """A partial clone (no blobs) of a repository whose HEAD changes WidgetRequest.json,
    its remote's upload-pack a program that leaves a marker: (the clone, the marker)."""
    source = init_repo(tmp_path / "source")
    files = {p.name: p.read_text(encoding="utf-8") for p in EXAMPLES.glob("*.json")}
    commit_tree(source, files, "base")
    git(source, "tag", "1.0.0")
    _edit(source / "WidgetRequest.json", COMMITTED)
    git(source, "commit", "-q", "-am", "head")
    git(source, "config", "uploadpack.allowFilter", "true")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--filter=blob:none", f"file://{source}", str(clone))
    marker = tmp_path / "ran"
    upload = tmp_path / "upload-pack"
    _program(upload, marker, 'exec git-upload-pack "$@"')
    git(clone, "config", "remote.origin.uploadpack", str(upload))
    return clone, marker


def test_a_partial_clone_is_never_fetched_from(tmp_path: Path) -> None:
    """A blob missing from a partial clone is fetched lazily by git, running what the
    remote's configuration names (here an upload-pack that leaves a marker): kcompat
    allows no transport, and says which text is missing and how to fetch it."""
    clone, marker = _partial_clone(tmp_path)
    run = run_process(["diff", "1.0.0", "HEAD"], clone)
    assert not marker.exists(), marker.read_text(encoding="utf-8")
    assert run.code == 2, run.stdout + run.stderr
    assert "WidgetRequest.json: the text (blob " in run.stderr
    assert "is not in this partial clone, and kcompat never fetches" in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1, run.stderr


def test_a_cat_file_that_ends_is_seen_however_early_it_is_polled(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """git's ``cat-file`` ends when it cannot fetch a partial clone's blob; on a busy
    machine it may still run when kcompat looks. Its empty answer is its end all the same
    (never "no such object": the text would be read as absent, and the next question to
    the ended process would fail somewhere else with "stopped answering")."""
    from kcompat.sources.git import GitRepo
    from kcompat.sources.gitcmd import GitStopped, ObjectReader

    clone, marker = _partial_clone(tmp_path)
    monkeypatch.setattr(ObjectReader, "_alive", lambda self: True)  # polled too early
    repo = GitRepo.open(clone)
    blob = git(clone, "rev-parse", "1.0.0:WidgetRequest.json").strip()
    try:
        with pytest.raises(GitStopped):
            repo.objects.read(blob, 1000)
    finally:
        repo.close()
    assert not marker.exists()


# -- an inherited environment and --repo (point 19) ------------------------------------------
@pytest.fixture()
def two_repos(tmp_path: Path) -> tuple[Path, Path]:
    """``mine`` has a staged break; ``other`` has nothing staged and no break at all."""
    files = {p.name: p.read_text(encoding="utf-8") for p in EXAMPLES.glob("*.json")}
    mine, other = init_repo(tmp_path / "mine"), init_repo(tmp_path / "other")
    for repo in (mine, other):
        commit_tree(repo, files, "base")
    _edit(mine / "WidgetRequest.json", COMMITTED)
    git(mine, "add", "WidgetRequest.json")
    return mine, other


def test_an_inherited_git_dir_does_not_replace_repo(
    two_repos: tuple[Path, Path], tmp_path: Path
) -> None:
    mine, other = two_repos
    env = {
        "GIT_DIR": str(other / ".git"),
        "GIT_WORK_TREE": str(other),
        "GIT_INDEX_FILE": str(other / ".git" / "index"),
        "GIT_OBJECT_DIRECTORY": str(other / ".git" / "objects"),
        "GIT_CONFIG_COUNT": "1",
        "GIT_CONFIG_KEY_0": "core.fsmonitor",
        "GIT_CONFIG_VALUE_0": "false",
    }
    run = run_process(["diff", "--staged", "--repo", str(mine), "--format", "json"], tmp_path, env)
    assert run.code == 1, run.stderr
    assert "field-type-changed" in {f["rule"] for f in run.findings()}
    notes = [line for line in run.stderr.splitlines() if line.startswith("kcompat: --repo")]
    assert notes == [
        f"kcompat: --repo {mine}: ignoring GIT_CONFIG_COUNT, GIT_CONFIG_KEY_0, "
        "GIT_CONFIG_VALUE_0, GIT_DIR, GIT_INDEX_FILE, GIT_OBJECT_DIRECTORY, GIT_WORK_TREE "
        "from the environment (they name parts of another repository)"
    ], run.stderr
    for args in (["explain", "WidgetRequest", "--against", "HEAD"], ["drift", "HEAD", "."]):
        run = run_process([*args, "--repo", str(mine)], mine, env)
        assert run.code in (0, 1), (args, run.stderr)
        assert "ignoring GIT_CONFIG_COUNT" in run.stderr


def test_corpus_repo_sets_the_inherited_git_dir_aside_before_spark(
    two_repos: tuple[Path, Path], tmp_path: Path
) -> None:
    """``corpus build --repo`` and ``corpus verify --repo`` say which inherited variables
    they set aside, as every ``--repo`` does, before anything else (here a bad Spark
    master, checked before Spark starts, ends the run)."""
    mine, other = two_repos
    env = {"GIT_DIR": str(other / ".git"), "GIT_WORK_TREE": str(other)}
    for command in (["build", "--rev", "HEAD"], ["verify", str(tmp_path / "c"), "--rev", "HEAD"]):
        argv = ["corpus", *command, "--out", str(tmp_path / "out"), "--repo", str(mine)]
        run = run_process([*argv, "--master", "bogus://x"], tmp_path, env)
        assert run.code == 2, run.stderr
        assert run.stderr.splitlines()[0] == (
            f"kcompat: --repo {mine}: ignoring GIT_DIR, GIT_WORK_TREE from the environment "
            "(they name parts of another repository)"
        ), run.stderr


def test_a_partial_commits_index_is_still_read(two_repos: tuple[Path, Path]) -> None:
    """pre-commit on ``git commit FILE``: git hands the hook a temporary index inside the
    repository's own git directory. Without ``--repo`` it is git's word; with ``--repo``
    naming the same repository it is kept too, and nothing is said."""
    mine, _ = two_repos
    temporary = mine / ".git" / "next-index-1.lock"
    git(mine, "read-tree", "--index-output", str(temporary), "HEAD")  # nothing staged there
    env = {"GIT_INDEX_FILE": str(temporary)}
    for extra in ([], ["--repo", str(mine)]):
        run = run_process(["diff", "--staged", *extra], mine, env)
        assert run.code == 0, (extra, run.stdout, run.stderr)
        assert "ignoring" not in run.stderr
    # and the real index, without the variable, holds the break
    assert run_process(["diff", "--staged"], mine).code == 1


# -- a path holding a newline (point 5) ----------------------------------------------------
def test_a_spec_whose_path_holds_a_newline_is_compared(tmp_path: Path) -> None:
    repo = init_repo(tmp_path / "repo")
    folder = "specs/odd\nname"
    name = f"{folder}/WidgetRequest.json"
    files = {f"{folder}/{p.name}": p.read_text(encoding="utf-8") for p in EXAMPLES.glob("*.json")}
    commit_tree(repo, files, "base")
    _edit(repo / name, COMMITTED)
    git(repo, "commit", "-q", "-am", "head")
    _edit(repo / name, WORKTREE)
    git(repo, "add", "-A")
    shown = os.path.join("specs", "odd\nname", "WidgetRequest.json")
    for args in (["diff", "HEAD~1", "HEAD"], ["diff", "--staged"], ["diff", "HEAD~1"]):
        run = run_cli([*args, "--format", "json"], repo)
        assert run.code == 1, (args, run.stdout, run.stderr)
        found = {(f["rule"], f["file"]) for f in run.findings()}
        assert ("field-type-changed", shown) in found, (args, found)
    lint = run_cli(["lint", ".", "--format", "json"], repo)
    assert (lint.code, lint.json()["summary"]["files"]) == (0, 4), lint.stdout + lint.stderr
    lint = run_cli(["lint", shown, "--format", "json"], repo)
    assert (lint.code, lint.json()["summary"]["files"]) == (0, 1), lint.stdout + lint.stderr


# -- a release-tags pattern that backtracks (point 12) -------------------------------------
@pytest.mark.parametrize(
    ("pattern", "code"),
    [
        ("^(1+)+$", 1),  # the engine sees through it: the diff runs as usual
        ("^(1|11)+$", 2),  # it does not: one line, within the budget
    ],
)
def test_a_backtracking_release_pattern_never_hangs(
    tmp_path: Path, pattern: str, code: int
) -> None:
    """Python's ``re`` takes hours on both (exponential backtracking on a long tag)."""
    repo = init_repo(tmp_path / "repo")
    files = {p.name: p.read_text(encoding="utf-8") for p in EXAMPLES.glob("*.json")}
    files["kcompat.toml"] = f"release-tags = '{pattern}'\n"
    commit_tree(repo, files, "base")
    tag = "1" * 60 + "x"
    git(repo, "tag", tag)
    _edit(repo / "WidgetRequest.json", COMMITTED)
    run = run_process(["diff"], repo, timeout=60)
    assert run.code == code, run.stdout + run.stderr
    if code == 2:
        assert run.stderr.strip() == (
            f"kcompat: error: release-tags {pattern!r} takes over 1 s to match the names in "
            f"this repository (stuck on {tag!r}): simplify the pattern"
        )
    else:
        assert "field-type-changed" in run.stdout
