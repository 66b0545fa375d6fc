"""Ctrl-C: one line (``kcompat: interrupted``), exit status 130, nothing left running.

typer turns a KeyboardInterrupt into a silent exit 130, libraries catch it on the way
(py4j, pyspark and multiprocessing each print their own traceback), and Spark's JVM
ignores SIGINT by design, keeping the caller's pipes open. So kcompat handles SIGINT
itself: its handler raises :class:`Interrupted`, which is no KeyboardInterrupt (neither
typer nor a library's ``except KeyboardInterrupt`` takes it), and notes the request, so
whatever the same Ctrl-C broke on the way out (a pool whose worker died of it, a py4j
call cut short) still ends as an interruption. When kcompat owns the process (the
console script), its later stderr goes to /dev/null once interrupted, and every process
it started, with theirs, is stopped before it exits.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from types import FrameType
from typing import TYPE_CHECKING, NoReturn

if TYPE_CHECKING:
    import psutil  # imported when needed: only an interrupted run stops processes

#: What kcompat prints, alone, when interrupted.
MESSAGE = "kcompat: interrupted"
#: Exit status of an interrupted run (128 + SIGINT, as shells report it).
EXIT_STATUS = 130
#: Seconds a process is given to end after SIGTERM before SIGKILL.
GRACE = 3.0


class Interrupted(BaseException):
    """Ctrl-C (SIGINT), raised by kcompat's own handler."""


class _State:
    """This process's handling of SIGINT (a plain class: this module is imported before
    anything else, so that Ctrl-C is handled from the first moment)."""

    def __init__(self) -> None:
        self.active = False  # kcompat's handler is installed
        self.owns_process = False  # the console script: stderr and children are kcompat's
        self.requested = False  # SIGINT arrived during this run
        self.stderr: int | None = None  # the caller's stderr (fd 2 may point elsewhere)
        self.reported = False  # the one line was printed


_STATE = _State()


def _on_sigint(signum: int, frame: FrameType | None) -> None:
    first = not _STATE.requested
    _STATE.requested = True
    if first and _STATE.owns_process:
        _point_stderr_at(os.devnull)
    raise Interrupted


def _point_stderr_at(path: str) -> None:
    """fd 2 is ``path`` from now on (after an interruption, what a dying py4j thread or
    library prints goes nowhere: the caller's stderr, kept, gets the one line)."""
    with contextlib.suppress(OSError, ValueError, RuntimeError):
        sys.stderr.flush()
    with contextlib.suppress(OSError):
        target = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        os.dup2(target, 2)
        os.close(target)


@contextlib.contextmanager
def stderr_to(path: str) -> Iterator[None]:
    """fd 2 is ``path`` while the block runs, for the processes it starts to inherit
    (the JVM's chatter to Spark's log, workers' to /dev/null); after it, the caller's
    stderr again, unless Ctrl-C came meanwhile: then /dev/null, as after any."""
    with contextlib.suppress(OSError, ValueError):
        sys.stderr.flush()
    saved = os.dup(2)
    try:
        _point_stderr_at(path)
        yield
    finally:
        if _STATE.requested and _STATE.owns_process:
            _point_stderr_at(os.devnull)
        else:
            os.dup2(saved, 2)
        os.close(saved)


def _in_main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


@contextlib.contextmanager
def handling(owns_process: bool = False) -> Iterator[None]:
    """SIGINT raises :class:`Interrupted` while the block runs (in the main thread; a
    run from another thread keeps the handler it has). ``owns_process``: the whole
    process is this run's (the console script), not a caller's that embeds kcompat: its
    handler then stays to the end. Nested uses share the outer one."""
    if _STATE.active or not _in_main_thread():
        yield
        return
    _STATE.requested, _STATE.reported, _STATE.owns_process = False, False, owns_process
    _STATE.stderr = os.dup(2) if owns_process else None
    previous = signal.signal(signal.SIGINT, _on_sigint)
    _STATE.active = True
    try:
        yield
    finally:
        if not owns_process:
            _STATE.active = False
            if previous is not None:
                signal.signal(signal.SIGINT, previous)


def reclaim() -> None:
    """Take SIGINT back after a library installed its own handler (pyspark does when
    its SparkContext starts: it cancels the jobs and raises a KeyboardInterrupt)."""
    if _STATE.active and _in_main_thread():
        signal.signal(signal.SIGINT, _on_sigint)


def requested() -> bool:
    """Whether SIGINT arrived during this run (whatever exception it turned into)."""
    return _STATE.requested


def report() -> None:
    """Print the one line, to the caller's stderr (once per run)."""
    if _STATE.reported:
        return
    _STATE.reported = True
    line = MESSAGE + "\n"
    if _STATE.stderr is None:
        print(MESSAGE, file=sys.stderr)
        return
    with contextlib.suppress(OSError):
        os.write(_STATE.stderr, line.encode())


# -- stopping the processes this one started ------------------------------------------------


def stop_children(grace: float = GRACE) -> None:
    """Stop every process below this one: frozen first (none starts another or writes
    again), then asked to end (SIGTERM), then killed after ``grace`` seconds.

    The processes are found with psutil (``children(recursive=True)``), which knows them
    on Linux, macOS and Windows alike; a process is signalled through psutil too, which
    checks that it is still the process found (a pid reused meanwhile is left alone).
    multiprocessing's resource tracker is left alone: it ends by itself when this process
    exits, after cleaning up, and one stopped early would be started again. Children are
    never reaped here (waited for): multiprocessing waits for its own, and would wait
    forever for one already reaped; a zombie counts as ended.
    """
    if _in_main_thread():  # a pyspark daemon's shutdown sends SIGHUP to its group
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
    frozen = _freeze()
    for process in frozen:
        _send(process, signal.SIGTERM)
        _send(process, signal.SIGCONT)
    deadline = time.monotonic() + grace
    while _running() and time.monotonic() < deadline:
        time.sleep(0.05)
    for _attempt in range(3):
        left = _running()
        if not left:
            return
        for process in left:
            _send(process, signal.SIGKILL)
        time.sleep(0.1)


def _freeze(rounds: int = 20) -> list[psutil.Process]:
    """SIGSTOP to every descendant, until a pass finds no new one; the frozen processes."""
    frozen: list[psutil.Process] = []
    for _round in range(rounds):
        new = [process for process in _running() if process not in frozen]
        if not new:
            break
        for process in new:
            _send(process, signal.SIGSTOP)
        frozen.extend(new)
    return frozen


def _send(process: psutil.Process, signum: int) -> None:
    import psutil

    with contextlib.suppress(psutil.Error):
        process.send_signal(signum)


def _running() -> list[psutil.Process]:
    """Descendants of this process that have not ended, the resource tracker (and what
    it started) aside."""
    import psutil

    found: list[psutil.Process] = []
    left_out: set[int] = set()
    parents: dict[int, int] = {}
    for process in psutil.Process().children(recursive=True):
        try:
            parents[process.pid] = process.ppid()
            if _is_resource_tracker(process):
                left_out.add(process.pid)
            elif process.status() not in (psutil.STATUS_ZOMBIE, psutil.STATUS_DEAD):
                found.append(process)
        except psutil.Error:
            continue  # it ended meanwhile
    return [p for p in found if not _below(p.pid, left_out, parents)]


def _below(pid: int, left_out: set[int], parents: dict[int, int]) -> bool:
    """Whether ``pid`` was started, directly or not, by a process left out."""
    seen: set[int] = set()
    while pid in parents and pid not in seen:
        seen.add(pid)
        pid = parents[pid]
        if pid in left_out:
            return True
    return False


def _is_resource_tracker(process: psutil.Process) -> bool:
    return any("multiprocessing.resource_tracker" in part for part in process.cmdline())


def leave() -> NoReturn:
    """End an interrupted run: the one line (if not yet printed), every process this one
    started stopped, exit 130. The exit is a normal one (atexit handlers clean up, such
    as multiprocessing's), but sure: were some library thread to hold it up, the process
    still ends within seconds."""
    if _in_main_thread():  # from now on Ctrl-C changes nothing: this is the way out
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    report()
    stop_children()

    def last_resort() -> None:
        time.sleep(10)
        os._exit(EXIT_STATUS)

    threading.Thread(target=last_resort, daemon=True, name="kcompat-exit").start()
    sys.exit(EXIT_STATUS)
