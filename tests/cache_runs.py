"""What the cache tests share: a repository whose staged change breaks a released message
(so a run keeps both kinds of entry: compiled codecs and release facts), and the run."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import EXAMPLES
from tests.diff_runner import CliRun, commit_tree, git, init_repo, run_process

BREAK = ('"name": "TimeoutMs", "type": "int32"', '"name": "TimeoutMs", "type": "int64"')
WIDGET = "WidgetRequest.json"


def released_break_repo(folder: Path) -> Path:
    """Release 1.0.0 tagged, then a break of its WidgetRequest staged: the proof compiles
    codecs and the release ledger reads 1.0.0's text."""
    repo = init_repo(folder)
    git(repo, "commit", "-q", "--allow-empty", "-m", "start of history")  # before the specs
    files = {p.name: p.read_text(encoding="utf-8") for p in EXAMPLES.glob("*.json")}
    commit_tree(repo, files, "base")
    git(repo, "tag", "1.0.0")
    spec = repo / WIDGET
    spec.write_text(spec.read_text(encoding="utf-8").replace(*BREAK), encoding="utf-8")
    git(repo, "add", WIDGET)
    return repo


def staged(repo: Path, **env: str) -> CliRun:
    """``kcompat diff --staged`` as the pre-commit hook runs it; the break and its bytes
    must be there, judged against release 1.0.0."""
    run = run_process(["diff", "--staged"], repo, env=env)
    assert run.code == 1, run.stderr
    assert "why: released in 1.0.0" in run.stdout
    assert "base->head" in run.stdout  # the proof ran and showed the bytes
    return run


def entries(folder: Path) -> dict[str, int]:
    """The cache's entries in ``folder``: name -> modification time."""
    if not folder.is_dir():
        return {}
    return {p.name: p.stat().st_mtime_ns for p in folder.iterdir() if not p.name.startswith(".")}


def tree(folder: Path) -> list[str]:
    """Every path below ``folder``, relative to it."""
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))
