"""Ctrl-C: one line (``kcompat: interrupted``), exit 130, and nothing left running.

Each test starts kcompat for real, in a session of its own (as a terminal's foreground
job is), and sends SIGINT to the whole process group, as a terminal's Ctrl-C does: at a
moment chosen by watching the session's processes (the preparation workers, the JVM,
Spark's Python workers) or by a hook that holds ``diff`` inside its proof. The caller
must get the one line, exit status 130, and its pipes back: no process of the session
may be left running (a zombie waiting for its parent's exit is not running).
"""

from __future__ import annotations

import io
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from tests.conftest import EXAMPLES, ROOT
from tests.diff_runner import GIT_ENV, KCOMPAT, commit_tree, init_repo

INTERRUPTED = "kcompat: interrupted\n"

#: ``diff`` held inside its proof: the proof touches MARKER, then sleeps
HELD_IN_PROOF = """
import pathlib, sys, time
import kcompat.codec.proof as proof

marker = pathlib.Path(sys.argv.pop(1))

def held(*args, **kwargs):
    marker.touch()
    time.sleep(120)

proof.prove = held
from kcompat.cli import run
run()
"""


def _stat(pid: int) -> list[str]:
    """The fields of /proc/PID/stat after the command name (state, ppid, pgrp, sid, ...)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            return handle.read().decode("ascii", "replace").rpartition(")")[2].split()
    except OSError:
        return []


def _cmdline(pid: int) -> bytes:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            return handle.read()
    except OSError:
        return b""


def session_processes(sid: int) -> list[int]:
    """The processes of session ``sid`` still running (zombies are not)."""
    found = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            fields = _stat(int(name))
            if len(fields) > 3 and fields[3] == str(sid) and fields[0] not in ("Z", "X"):
                found.append(int(name))
    return found


def _env() -> dict[str, str]:
    return {
        **os.environ,
        **GIT_ENV,
        "NO_COLOR": "1",
        "KCOMPAT_SPARK_CDS": "off",
        "PYTHONPATH": str(ROOT),
    }


def _kcompat() -> list[str]:
    return [str(KCOMPAT)] if KCOMPAT.is_file() else [sys.executable, "-m", "kcompat"]


def interrupt_when(
    command: Sequence[str], cwd: Path, ready: Callable[[int], bool], wait: float = 120
) -> tuple[int, str]:
    """Start ``command`` in a session of its own; once ``ready(sid)`` holds, SIGINT to its
    process group; its exit status and stderr, once no process of it is left running."""
    process = subprocess.Popen(
        list(command),
        cwd=cwd,
        env=_env(),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + wait
        while not ready(process.pid):
            assert process.poll() is None, "the command ended before the moment came"
            assert time.monotonic() < deadline, "the moment never came"
            time.sleep(0.02)
        os.killpg(process.pid, signal.SIGINT)
        _out, err = process.communicate(timeout=wait)  # the pipes are given back
        deadline = time.monotonic() + 30
        while session_processes(process.pid) and time.monotonic() < deadline:
            time.sleep(0.05)  # multiprocessing's resource tracker ends after its parent
        left = [(pid, _cmdline(pid)[:120]) for pid in session_processes(process.pid)]
        assert not left, f"still running: {left}"
        return process.returncode, err.decode("utf-8", "replace")
    finally:
        if process.poll() is None or session_processes(process.pid):
            with_pids = session_processes(process.pid)
            for pid in with_pids:
                os.kill(pid, signal.SIGKILL)
            process.wait(timeout=10)


def _marker_exists(marker: Path) -> Callable[[int], bool]:
    return lambda _sid: marker.exists()


def _any_process(sid: int, test: Callable[[int], bool]) -> bool:
    return any(test(pid) for pid in session_processes(sid) if pid != sid)


def _preparation_worker(sid: int) -> bool:
    return _any_process(sid, lambda pid: b"multiprocessing.spawn" in _cmdline(pid))


def _jvm(sid: int) -> bool:
    return _any_process(sid, lambda pid: b"java" in _cmdline(pid).split(b"\0")[0])


def _python_worker(sid: int) -> bool:
    return _any_process(sid, lambda pid: b"pyspark.daemon" in _cmdline(pid))


def _after(seconds: float) -> Callable[[int], bool]:
    start = time.monotonic()
    return lambda _sid: time.monotonic() - start >= seconds


# -- diff ---------------------------------------------------------------------------------


@pytest.fixture()
def breaking_change(tmp_path: Path) -> Path:
    """A repository whose working tree changes a field's type (the proof runs on it)."""
    repo = init_repo(tmp_path / "repo")
    files = {p.name: p.read_text(encoding="utf-8") for p in EXAMPLES.glob("*.json")}
    commit_tree(repo, files, "base")
    spec = repo / "WidgetRequest.json"
    text = spec.read_text(encoding="utf-8")
    spec.write_text(
        text.replace(
            '"name": "TimeoutMs", "type": "int32"', '"name": "TimeoutMs", "type": "int64"'
        ),
        encoding="utf-8",
    )
    return repo


def test_ctrl_c_during_diffs_proof_is_one_line_and_130(
    breaking_change: Path, tmp_path: Path
) -> None:
    marker = tmp_path / "in-proof"
    command = [sys.executable, "-c", HELD_IN_PROOF, str(marker), "diff", "HEAD"]
    code, err = interrupt_when(command, breaking_change, _marker_exists(marker))
    assert (code, err) == (130, INTERRUPTED)


def test_ctrl_c_in_process_says_so(breaking_change: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``main`` in this process: the same line and status, and the caller's own SIGINT
    handler is back afterwards."""
    import kcompat.codec.proof as proof
    from kcompat.cli import main

    def ctrl_c(*args: object, **kwargs: object) -> None:
        signal.raise_signal(signal.SIGINT)

    monkeypatch.setattr(proof, "prove", ctrl_c)
    monkeypatch.chdir(breaking_change)
    before = signal.getsignal(signal.SIGINT)
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(["diff", "HEAD"])
    assert (code, err.getvalue()) == (130, INTERRUPTED)
    assert signal.getsignal(signal.SIGINT) is before


def test_a_keyboard_interrupt_from_a_library_says_so(
    breaking_change: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A library's own SIGINT handler (pyspark's raises KeyboardInterrupt, which typer
    turns into a silent exit 130): the line all the same."""
    import kcompat.codec.proof as proof
    from kcompat.cli import main

    def keyboard_interrupt(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(proof, "prove", keyboard_interrupt)
    monkeypatch.chdir(breaking_change)
    err = io.StringIO()
    with redirect_stdout(io.StringIO()), redirect_stderr(err):
        code = main(["diff", "HEAD"])
    assert (code, err.getvalue()) == (130, INTERRUPTED)


# -- history ------------------------------------------------------------------------------


def _needs_spark() -> None:
    pytest.importorskip("pyspark", reason="pyspark is not installed (the spark extra)")
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        pytest.skip("Java is not installed (Spark needs Java 17+)")


@pytest.fixture(scope="module")
def long_history(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """40 commits, each changing the examples: enough comparisons for worker processes."""
    repo = init_repo(tmp_path_factory.mktemp("history") / "repo")
    files = {p.name: p.read_text(encoding="utf-8") for p in EXAMPLES.glob("*.json")}
    for step in range(40):
        text = files["WidgetRequest.json"]
        files["WidgetRequest.json"] = text.replace('"about": "', f'"about": "{step} ', 1)
        commit_tree(repo, files, f"step {step}")
    yield repo


HISTORY = ["history", "--no-proof", "--master", "local[2]"]
MOMENTS: dict[str, Callable[[], Callable[[int], bool]]] = {
    "preparation workers": lambda: _preparation_worker,
    "JVM start": lambda: _jvm,
    "Python workers": lambda: _python_worker,
    "after 0.5 s": lambda: _after(0.5),
    "after 1.5 s": lambda: _after(1.5),
    "after 3 s": lambda: _after(3.0),
}


@pytest.mark.spark
@pytest.mark.parametrize("moment", list(MOMENTS))
def test_ctrl_c_during_history_stops_spark(moment: str, long_history: Path, tmp_path: Path) -> None:
    _needs_spark()
    command = [*_kcompat(), *HISTORY, "--out", str(tmp_path / "out")]
    code, err = interrupt_when(command, long_history, MOMENTS[moment]())
    assert (code, err) == (130, INTERRUPTED)


# -- finding the processes to stop ------------------------------------------------------

#: A process that starts a child which starts a grandchild (both asleep; the grandchild's
#: first lines are GRANDCHILD's), stops whatever it started as an interrupted kcompat does,
#: and reports what is still running.
STOPPING = """
import os, subprocess, sys, tempfile, time
import psutil
from kcompat import interrupt

ready = os.path.join(tempfile.mkdtemp(), "ready")
grandchild = sys.argv[1] + "; import pathlib; pathlib.Path(sys.argv[1]).touch(); time.sleep(120)"
starter = (
    "import subprocess, sys, time; "
    f"subprocess.Popen([sys.executable, '-c', {grandchild!r}, {ready!r}]); time.sleep(120)"
)
subprocess.Popen([sys.executable, "-c", starter])
while not os.path.exists(ready):
    time.sleep(0.02)
started = [p.pid for p in psutil.Process().children(recursive=True)]
interrupt.stop_children(grace=1)
running = []
for pid in started:
    try:
        if psutil.Process(pid).status() != psutil.STATUS_ZOMBIE:
            running.append(pid)
    except psutil.NoSuchProcess:
        pass
for pid in running:
    os.kill(pid, 9)
print(len(started), running)
"""

GRANDCHILD = {
    "asleep": "import sys, time",
    # ends only when killed: its parent ends first, and it is given to init, so it is no
    # descendant any more, yet it was started below kcompat and must not outlive it
    "deaf to SIGTERM": "import signal, sys, time; signal.signal(signal.SIGTERM, signal.SIG_IGN)",
}


@pytest.mark.parametrize("grandchild", list(GRANDCHILD))
def test_every_process_below_is_stopped(grandchild: str) -> None:
    """Children and theirs, found as psutil finds them on any platform (not from /proc,
    which macOS has not), are stopped."""
    done = subprocess.run(
        [sys.executable, "-c", STOPPING, GRANDCHILD[grandchild]],
        env=_env(),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert done.stdout.split(maxsplit=1) == ["2", "[]\n"]


#: A library's own SIGINT handler (pyspark's, before kcompat takes SIGINT back) turns
#: Ctrl-C into a KeyboardInterrupt; what the library then logs at exit (py4j of the
#: connection the stopped JVM cut) must not follow the one line.
FOREIGN_HANDLER = """
import atexit, logging, os, signal, time
from kcompat import interrupt

logging.basicConfig()
with interrupt.handling(owns_process=True):
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(30)
    except KeyboardInterrupt:
        pass
    atexit.register(lambda: logging.error("Exception while sending command."))
    interrupt.leave()
"""


def test_what_a_library_logs_after_its_own_ctrl_c_is_not_shown() -> None:
    done = subprocess.run(
        [sys.executable, "-c", FOREIGN_HANDLER],
        env=_env(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (done.returncode, done.stderr) == (130, INTERRUPTED)
