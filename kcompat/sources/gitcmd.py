"""git, read-only, through GitPython: the one way kcompat runs git.

GitPython starts every git process (no shell, in the C locale: some of git's messages
are read) and keeps one ``git cat-file --batch`` up to hand out objects, each read
through its stream only up to a cap (the rest skipped in chunks, so a huge blob costs no
memory). It is imported on first use: a command that never touches git never pays for
it.

Every command carries the same hardening. A repository's own ``.git/config`` can name
programs git runs during ordinary reads (an fsmonitor hook on every index read, a GPG
program for ``log.showSignature``); :data:`HARDENING` overrides them on the command
line, which wins over every configuration file. :data:`READ_ONLY_ENV` takes no optional
locks (so no command refreshes and rewrites an index) and allows no transport (a partial
clone's lazy fetch would run the commands its remote's configuration names).
"""

from __future__ import annotations

import atexit
import contextlib
import os
import re
import subprocess
import threading
import weakref
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING

from kcompat.errors import UsageError

if TYPE_CHECKING:
    import git

#: ``-c`` settings on every git command: the commands a repository's configuration
#: could make git run while reading are switched off (``-c`` wins over every file).
HARDENING = (
    "core.fsmonitor=false",  # an fsmonitor hook runs on every read of the index
    "core.hooksPath=/dev/null",  # no hook at all, whatever a command does
    "log.showSignature=false",  # git log would run gpg.program on signed commits
    "core.pager=cat",  # never a configured pager
)
#: The environment of every git command, on top of GitPython's C locale.
READ_ONLY_ENV = {
    # no optional locks: no command (diff-index, a submodule's status) refreshes and
    # rewrites an index
    "GIT_OPTIONAL_LOCKS": "0",
    # no transport at all (an empty allow-list): a partial clone fetching a missing
    # object would run what its remote's configuration names (uploadpack, sshCommand)
    "GIT_ALLOW_PROTOCOL": "",
    "GIT_NO_LAZY_FETCH": "1",
    "GIT_TERMINAL_PROMPT": "0",
}
#: The filter drivers' keys: a working-tree file git hashes to compare goes through its
#: clean filter (the repository's ``.gitattributes`` picks one).
FILTER_KEYS = r"^filter\..*\.(clean|smudge|process)$"
#: Options of every command that compares trees: no external diff, no textconv filter.
NO_DRIVERS = ("--no-ext-diff", "--no-textconv")
_SHA = re.compile(r"[0-9a-f]{40,64}\Z")
#: Bytes skipped at a time past a blob's cap (a huge blob costs no memory).
SKIP_CHUNK = 1 << 20


class GitStopped(UsageError):
    """The persistent ``cat-file`` ended while answering (a broken repository, or a
    partial clone's object it could not fetch)."""


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


def gitpython() -> object:
    """The ``git`` package (GitPython), imported now; one line if git cannot run."""
    try:
        import git
    except ImportError as err:
        if "git executable" in str(err):  # GitPython's check at import: no git on PATH
            raise UsageError("git is not installed (or not on PATH); install git") from None
        raise UsageError(f"GitPython cannot be imported ({err}); reinstall kcompat") from None
    return git


def hardened(runner: git.Git) -> git.Git:
    """``runner`` with :data:`HARDENING` and :data:`READ_ONLY_ENV` on every command it
    starts, the persistent ``cat-file`` included."""
    runner.set_persistent_git_options(c=list(HARDENING))
    runner.update_environment(**READ_ONLY_ENV)
    return runner


def runner_in(cwd: Path) -> git.Git:
    """A hardened GitPython command runner working in ``cwd``."""
    gitpython()
    import git

    return hardened(git.Git(cwd))


def run(
    runner: git.Git,
    args: Sequence[str],
    stdin: IO[bytes] | None = None,
    settings: Sequence[str] = (),
) -> str:
    """``git ARGS`` (with more ``-c`` ``settings`` for this one command): its output as
    text (one trailing newline dropped, bytes that are not UTF-8 kept as surrogate
    escapes); :class:`GitFailed` when it fails."""
    import git

    verb, *rest = args
    if settings:
        runner = runner(c=list(settings))  # GitPython: options of the next command only
    command = getattr(runner, verb.replace("-", "_"))
    try:
        status, out, err = command(
            *rest, with_extended_output=True, with_exceptions=False, istream=stdin
        )
    except git.GitCommandNotFound as missing:
        raise not_started(Path(str(runner.working_dir or ".")), missing) from None
    if status != 0:
        raise GitFailed(args, status, str(err), str(out))
    return str(out)


def no_filters(runner: git.Git) -> list[str]:
    """``-c`` settings that empty every filter driver git's configuration names."""
    try:
        names = run(runner, ["config", "-z", "--name-only", "--get-regexp", FILTER_KEYS])
    except GitFailed:  # none (status 1)
        return []
    return [f"{name}=" for name in names.split("\x00") if name]


def not_started(cwd: Path, err: Exception) -> UsageError:
    """Why git could not start: no git, or the directory to run it in has gone."""
    if not cwd.is_dir():
        return UsageError(f"{cwd}: no such directory")
    return UsageError(f"git is not installed (or not on PATH); install git ({err})")


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
        out = run(runner_in(here), _LOCATE)
    except GitFailed as err:
        if err.status != 1 or err.stderr.strip() or len(err.out.splitlines()) < 3:
            raise
        out = err.out + "\n"  # HEAD is unborn: the rest was answered
    lines = [*out.splitlines(), "", ""]
    bare, inside, git_dir = lines[:3]
    rest = lines[4:] if inside == "true" else lines[3:]
    head = rest[0] if rest and _SHA.match(rest[0]) else None
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


def open_repo(where: Location) -> git.Repo:
    """GitPython's ``Repo`` of a located repository, its commands hardened."""
    gitpython()
    import git

    handle = git.Repo(where.git_dir if where.bare else where.root)
    hardened(handle.git)
    _OPEN[id(handle)] = handle
    return handle


class ObjectReader:
    """Objects through GitPython's persistent ``git cat-file --batch`` (started on the
    first read), each read only up to a cap."""

    def __init__(self, handle: git.Repo) -> None:
        self.handle = handle
        self._drained: object = None  # the process whose stderr is being drained
        self._lock = threading.RLock()  # one request at a time on the process's pipes

    def read(self, name: str, cap: int) -> tuple[str, bytes] | None:
        """(object type, its first ``cap + 1`` bytes at most), or None if git has no
        object of that name (or it cannot be asked: a line feed would end the request
        early). ``name`` is an object id or any name ``cat-file`` takes (``REV:path``).
        Threads take turns: a request and its answer share one pipe."""
        found = self.identified(name, cap)
        return (found[1], found[2]) if found is not None else None

    def identified(self, name: str, cap: int) -> tuple[str, str, bytes] | None:
        """As :meth:`read`, with the object's id first (what ``REV:path`` names)."""
        if "\n" in name:
            return None
        with self._lock:
            return self._read(name, cap)

    def _read(self, name: str, cap: int) -> tuple[str, str, bytes] | None:
        try:
            sha, kind, size, stream = self.handle.git.stream_object_data(name)
        except ValueError as err:  # GitPython's word for "missing" (or a git that has gone)
            if "Failed to parse header" in str(err):  # an object id that is not SHA-1
                self.close()  # the object's bytes were not read: the stream is out of step
                raise UsageError(
                    f"{self.handle.working_dir}: this repository's object ids are not SHA-1, "
                    "which GitPython (kcompat's git layer) cannot read"
                ) from None
            # An empty header is the end of git's output: the process is ending, whether or
            # not it has exited yet (polled too early on a busy machine, it still runs).
            if "SHA is empty" in str(err) or not self._alive():
                raise self._stopped() from None
            return None
        except OSError:  # the pipe to a git that has gone
            raise self._stopped() from None
        finally:
            self._drain()
        data = stream.read(min(size, cap + 1))
        left = size - len(data)
        while left > 0:  # the rest, in chunks: the stream stays in step, memory flat
            skipped = len(stream.read(min(left, SKIP_CHUNK)))
            if not skipped:
                break
            left -= skipped
        if left or len(data) < min(size, cap + 1):
            del stream  # at the pipe's end: nothing more to skip
            raise self._stopped()
        identity = sha if isinstance(sha, str) else sha.decode("ascii")
        return identity, str(kind if isinstance(kind, str) else kind.decode("ascii")), data

    def _drain(self) -> None:
        """Read the persistent process's stderr away (GitPython pipes it and never reads
        it: a git that said more than a pipe holds would block, and kcompat with it)."""
        process = self.process
        if process is None or process is self._drained or process.stderr is None:
            return
        self._drained = process
        threading.Thread(target=_discard, args=(process.stderr,), daemon=True).start()

    def _alive(self) -> bool:
        process = self.handle.git.cat_file_all
        return process is not None and process.proc is not None and process.poll() is None

    def _stopped(self) -> GitStopped:
        self.close()
        root = self.handle.working_dir
        return GitStopped(f"{root}: git cat-file stopped answering; is the repository intact?")

    @property
    def process(self) -> subprocess.Popen[bytes] | None:
        """The running ``cat-file`` process (None before the first read)."""
        return next(_persistent(self.handle), None)

    def close(self) -> None:
        """End the persistent git processes (each stops when its input closes)."""
        with self._lock:
            end(self.handle)


#: Repositories whose persistent processes may still run: ended when kcompat exits (by
#: identity: GitPython's ``Repo`` objects of one repository compare equal).
_OPEN: weakref.WeakValueDictionary[int, git.Repo] = weakref.WeakValueDictionary()


def end(handle: git.Repo) -> None:
    """Close a repository's persistent processes' input (git then exits by itself), wait
    for them, and let GitPython drop them."""
    for process in _persistent(handle):
        for stream in (process.stdin, process.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):  # a git that already stopped
                    stream.close()
        with contextlib.suppress(subprocess.TimeoutExpired):  # GitPython ends it below
            process.wait(timeout=5)
    handle.close()
    _OPEN.pop(id(handle), None)


def _discard(stream: IO[bytes]) -> None:
    with contextlib.suppress(OSError, ValueError):  # closed when the process ends
        while stream.read(SKIP_CHUNK):
            pass


def _persistent(handle: git.Repo) -> Iterator[subprocess.Popen[bytes]]:
    runner = handle.git
    for wrapper in (runner.cat_file_all, runner.cat_file_header):
        process = getattr(wrapper, "proc", None) if wrapper is not None else None
        if process is not None:
            yield process


@atexit.register
def _end_open() -> None:
    for handle in list(_OPEN.values()):
        end(handle)
