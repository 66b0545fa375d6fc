"""Build small git repositories and run ``kcompat diff`` on them, in-process or for real.

The diff tests (rule pages, mutations, the CLI) all do the same thing: commit a BASE
tree, commit a HEAD tree on top, and run the CLI. In-process runs call
:func:`kcompat.cli.main` with stdout and stderr captured and the working directory set
to the repository, so they see exactly what a user would; :func:`run_process` runs the
installed ``kcompat`` in a child process where real exit codes and streams matter.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

GIT_ENV = {
    "GIT_AUTHOR_NAME": "kcompat tests",
    "GIT_AUTHOR_EMAIL": "tests@kcompat.invalid",
    "GIT_COMMITTER_NAME": "kcompat tests",
    "GIT_COMMITTER_EMAIL": "tests@kcompat.invalid",
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_TERMINAL_PROMPT": "0",
}

KCOMPAT = Path(sys.executable).with_name("kcompat")


def git(cwd: Path, *args: str) -> str:
    """Run git with a fixed identity; returns stdout."""
    done = subprocess.run(
        ["git", *args],
        cwd=cwd,
        env={**os.environ, **GIT_ENV},
        check=True,
        capture_output=True,
        text=True,
    )
    return done.stdout


def init_repo(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    git(path, "init", "-q", "-b", "main")
    return path


def write_tree(repo: Path, files: Mapping[str, str | bytes]) -> None:
    """Make the working tree hold exactly ``files`` (paths relative to the repo)."""
    for entry in repo.iterdir():
        if entry.name == ".git":
            continue
        if entry.is_dir():
            shutil.rmtree(entry)
        else:
            entry.unlink()
    write_files(repo, files)


def write_files(repo: Path, files: Mapping[str, str | bytes]) -> None:
    for name, content in files.items():
        target = repo / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            target.write_bytes(content)
        else:
            target.write_text(content, encoding="utf-8")


def commit_tree(repo: Path, files: Mapping[str, str | bytes], message: str) -> str:
    """Commit a tree holding exactly ``files``; returns the new commit's SHA."""
    write_tree(repo, files)
    git(repo, "add", "-A", ".")
    git(repo, "commit", "-q", "--allow-empty", "-m", message)
    return git(repo, "rev-parse", "HEAD").strip()


def two_commits(
    repo: Path, base: Mapping[str, str | bytes], head: Mapping[str, str | bytes]
) -> Path:
    """A fresh repository whose HEAD~1 holds ``base`` and HEAD holds ``head``."""
    init_repo(repo)
    commit_tree(repo, base, "base")
    commit_tree(repo, head, "head")
    return repo


def released_then_two_commits(
    repo: Path,
    release: Mapping[str, str | bytes],
    base: Mapping[str, str | bytes],
    head: Mapping[str, str | bytes],
) -> Path:
    """Kafka's layout: ``release`` committed on main, then released on a branch (``1.0``,
    tag ``1.0.0`` on a commit only the branch has); main goes on with BASE and HEAD. The
    tag is not reachable from main. History starts before the spec does, so the release
    is known to be the first that shipped it."""
    init_repo(repo)
    git(repo, "commit", "-q", "--allow-empty", "-m", "start of history")
    commit_tree(repo, release, "release branch point")
    git(repo, "checkout", "-q", "-b", "1.0")
    git(repo, "commit", "-q", "--allow-empty", "-m", "bump version to 1.0.0")
    git(repo, "tag", "1.0.0")
    git(repo, "checkout", "-q", "main")
    commit_tree(repo, base, "base")
    commit_tree(repo, head, "head")
    return repo


@dataclass(frozen=True)
class CliRun:
    code: int
    stdout: str
    stderr: str

    def json(self) -> dict[str, Any]:
        document = json.loads(self.stdout)
        assert isinstance(document, dict)
        return document

    def findings(self) -> list[dict[str, Any]]:
        found = self.json()["findings"]
        assert isinstance(found, list)
        return found


@contextlib.contextmanager
def _cwd(path: Path) -> Iterator[None]:
    before = Path.cwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(before)


def run_cli(args: Sequence[str], cwd: Path) -> CliRun:
    """``kcompat ARGS`` in this process, from ``cwd``."""
    from kcompat.cli import main

    out, err = io.StringIO(), io.StringIO()
    with _cwd(cwd), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return CliRun(code, out.getvalue(), err.getvalue())


def run_process(
    args: Sequence[str],
    cwd: Path,
    env: Mapping[str, str] | None = None,
    timeout: float = 60,
    memory: int | None = None,
) -> CliRun:
    """``kcompat ARGS`` as a child process (the installed console script); ``memory``
    caps its address space in bytes (a run that would take the machine's memory ends in
    a MemoryError instead)."""
    command = [str(KCOMPAT)] if KCOMPAT.is_file() else [sys.executable, "-m", "kcompat"]
    done = subprocess.run(
        [*command, *args],
        cwd=cwd,
        env={**os.environ, **GIT_ENV, "NO_COLOR": "1", **(env or {})},
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
        preexec_fn=None if memory is None else lambda: _cap_memory(memory),
    )
    return CliRun(done.returncode, done.stdout, done.stderr)


def _cap_memory(limit: int) -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def diff_last_commit(repo: Path, *extra: str, proof: bool = False) -> CliRun:
    """``kcompat diff HEAD~1 HEAD --format json`` in-process."""
    args = ["diff", "HEAD~1", "HEAD", "--format", "json", *extra]
    if not proof:
        args.append("--no-proof")
    return run_cli(args, repo)
