"""Running git read-only: one process per command, and one ``git cat-file --batch`` that
stays up to hand out blobs.

Plain :mod:`subprocess`, not GitPython: kcompat runs a handful of git commands, and a cold
``kcompat diff --staged`` (the pre-commit hook) paid about 45 ms importing GitPython and
running the two ``git version`` it runs on its own before reading anything, about a
sixth of its CPU time (benchmarks/README.md). Commands run as GitPython ran them: no
shell, from the repository's root, in the C locale (git's messages are read: a refusal
for another user's repository), and without git's optional locks
(:data:`READ_ONLY_ENV`), so no command refreshes and rewrites an index.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import re
import subprocess
import weakref
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from kcompat.errors import UsageError

#: The environment of every git command kcompat runs: no optional locks, so no command
#: (``git diff-index``, a submodule's status) refreshes and rewrites an index.
READ_ONLY_ENV = {"GIT_OPTIONAL_LOCKS": "0"}
#: git's messages in plain English, whatever the user's locale: some are read.
PLAIN_ENV = {"LANGUAGE": "C", "LC_ALL": "C"}
#: Bytes skipped at a time past a blob's cap (a huge blob costs no memory).
SKIP_CHUNK = 1 << 20

_HEADER = re.compile(rb"([0-9a-f]{40,64}) ([a-z]+) ([0-9]+)\n\Z")


class GitFailed(Exception):
    """A git command that exited non-zero: its status and what it said on stderr."""

    def __init__(self, command: Sequence[str], status: int, stderr: str, out: str = "") -> None:
        super().__init__(f"git {' '.join(command)}: exit status {status}")
        self.status = status
        self.stderr = stderr
        self.out = out  # what it wrote before failing

    def last_line(self) -> str:
        """git's last word (its ``fatal:`` line), or the exit status when it said nothing."""
        lines = [line.strip(" '") for line in self.stderr.splitlines() if line.strip(" '")]
        return lines[-1] if lines else str(self)


def git_env() -> dict[str, str]:
    return {**os.environ, **PLAIN_ENV, **READ_ONLY_ENV}


def run_git_in(cwd: Path, args: Sequence[str], stdin: IO[bytes] | None = None) -> str:
    """``git ARGS`` run in ``cwd``: its output as text (one trailing newline dropped, bytes
    that are not UTF-8 kept as surrogate escapes); :class:`GitFailed` when it fails."""
    try:
        done = subprocess.run(
            ["git", *args],
            cwd=cwd,
            env=git_env(),
            stdin=stdin if stdin is not None else subprocess.DEVNULL,
            capture_output=True,
            check=False,
        )
    except FileNotFoundError as err:
        raise not_started(cwd, err) from None
    out = done.stdout.decode("utf-8", "surrogateescape")
    out = out[:-1] if out.endswith("\n") else out
    if done.returncode != 0:
        stderr = done.stderr.decode("utf-8", "surrogateescape")
        raise GitFailed(args, done.returncode, stderr, out)
    return out


def not_started(cwd: Path, err: FileNotFoundError) -> UsageError:
    """Why git could not start: no git, or the directory to run it in has gone."""
    if err.filename == "git":
        return UsageError("git is not installed (or not on PATH); install git")
    return UsageError(f"{cwd}: no such directory")


@dataclass(frozen=True)
class Location:
    """Where a repository is: its git directory, whether it is bare, and its root (the
    working tree's top, or the git directory of a bare repository); and the commit HEAD
    is (None before the first commit)."""

    root: Path
    git_dir: Path
    bare: bool
    head: str | None = None


#: Where the repository is, and HEAD's commit (asked here too: every command wants it).
_LOCATE = (
    "rev-parse",
    "--is-bare-repository",
    "--is-inside-work-tree",
    "--git-dir",
    "--show-cdup",  # no line at all outside a working tree
    "--verify",
    "--quiet",
    "--end-of-options",
    "HEAD^{commit}",
)


def locate(start: Path) -> Location:
    """The repository around ``start`` (a directory, or a file in one), in one git call;
    :class:`GitFailed` when there is none or git refuses it."""
    cwd = start if start.is_dir() else start.parent
    here = Path(os.path.abspath(cwd))
    try:
        out = run_git_in(here, _LOCATE)
    except GitFailed as err:
        if err.status != 1 or err.stderr.strip() or len(err.out.splitlines()) < 3:
            raise
        out = err.out + "\n"  # HEAD is unborn: the rest was answered
    lines = [*out.splitlines(), "", ""]
    bare, inside, git_dir = lines[:3]
    rest = lines[4:] if inside == "true" else lines[3:]
    head = rest[0] if rest and re.fullmatch(r"[0-9a-f]{40,64}", rest[0]) else None
    full_git_dir = Path(os.path.normpath(here / git_dir))
    if bare == "true":
        return Location(full_git_dir, full_git_dir, True, head)
    if inside == "true":
        return Location(Path(os.path.normpath(here / lines[3])), full_git_dir, False, head)
    # Inside the .git directory of a repository with a working tree: that tree is next to it.
    return Location(full_git_dir.parent, full_git_dir, False, head)


def refused_at(stderr: str) -> Path | None:
    """The repository git names when it refuses one (another user's: ``dubious ownership
    in repository at '/path'``)."""
    found = re.search(r"repository at '([^'\n]+)'", stderr)
    return Path(found.group(1)) if found else None


@dataclass
class BatchReader:
    """Objects from git's store through one persistent ``git cat-file --batch``, each read
    only up to a cap (the rest skipped in chunks, so the stream stays in step)."""

    cwd: Path
    env: dict[str, str]
    process: subprocess.Popen[bytes] | None = field(default=None, repr=False)  # once asked

    def read(self, name: str, cap: int) -> tuple[str, bytes] | None:
        """(object type, its first ``cap + 1`` bytes at most), or None if git has no object
        of that name (or it cannot be asked: a line feed would end the request early)."""
        if "\n" in name:
            return None
        process = self._started()
        assert process.stdin is not None and process.stdout is not None
        try:
            process.stdin.write(name.encode("utf-8", "surrogateescape") + b"\n")
            process.stdin.flush()
        except BrokenPipeError:
            raise self._stopped() from None
        header = process.stdout.readline()
        if not header.endswith(b"\n"):
            raise self._stopped()
        found = _HEADER.match(header)
        if found is None:  # "<name> missing", "<name> ambiguous"
            return None
        size = int(found.group(3))
        data = process.stdout.read(min(size, cap + 1))
        left = size - len(data)
        while left > 0:
            skipped = len(process.stdout.read(min(left, SKIP_CHUNK)))
            if not skipped:
                raise self._stopped()
            left -= skipped
        if len(data) < min(size, cap + 1) or process.stdout.read(1) != b"\n":
            raise self._stopped()
        return found.group(2).decode("ascii"), data

    def _started(self) -> subprocess.Popen[bytes]:
        if self.process is None:
            try:
                self.process = subprocess.Popen(
                    ["git", "cat-file", "--batch"],
                    cwd=self.cwd,
                    env=self.env,
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.DEVNULL,
                )
            except FileNotFoundError as err:
                raise not_started(self.cwd, err) from None
            _RUNNING.add(self.process)
        return self.process

    def _stopped(self) -> UsageError:
        self.close()
        return UsageError(f"{self.cwd}: git cat-file stopped answering; is the repository intact?")

    def close(self) -> None:
        """End the git process (it stops when its input closes)."""
        process, self.process = self.process, None
        if process is not None:
            _RUNNING.discard(process)
            _end(process)


#: Batch processes still running: ended when kcompat exits, not left behind it.
_RUNNING: weakref.WeakSet[subprocess.Popen[bytes]] = weakref.WeakSet()


def _end(process: subprocess.Popen[bytes]) -> None:
    """Close a batch process's input (git then exits) and wait for it."""
    for stream in (process.stdin, process.stdout):
        if stream is not None:
            with contextlib.suppress(OSError):  # a git that already stopped
                stream.close()
    try:
        process.wait(timeout=5)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@atexit.register
def _end_running() -> None:
    for process in list(_RUNNING):
        _end(process)
