"""The answering thread: jobs in order, failures carried back, pending jobs cancelled at
shutdown, and a daemon (an editor's exit never waits for a request's work)."""

from __future__ import annotations

import functools
import threading

import pytest

from kcompat.lsp.answering import Answering


def test_jobs_run_one_at_a_time_in_order_on_one_daemon_thread() -> None:
    answering = Answering()
    seen: list[tuple[int, str, bool]] = []

    def job(n: int) -> int:
        current = threading.current_thread()
        seen.append((n, current.name, current.daemon))
        return n * 2

    futures = [answering.submit(functools.partial(job, n)) for n in range(5)]
    assert [f.result(10) for f in futures] == [0, 2, 4, 6, 8]
    assert [n for n, _, _ in seen] == [0, 1, 2, 3, 4]
    assert {(name, daemon) for _, name, daemon in seen} == {("kcompat-lsp-answer", True)}
    answering.shutdown()


def test_a_failing_job_fails_its_future_and_the_thread_goes_on() -> None:
    answering = Answering()

    def broken() -> int:
        raise ValueError("half-typed spec")

    failed = answering.submit(broken)
    after = answering.submit(lambda: 1)
    with pytest.raises(ValueError, match="half-typed"):
        failed.result(10)
    assert after.result(10) == 1
    answering.shutdown()


def test_shutdown_cancels_what_has_not_started_and_refuses_more() -> None:
    answering = Answering()
    entered, release = threading.Event(), threading.Event()

    def running() -> str:
        entered.set()
        release.wait(10)
        return "done"

    first = answering.submit(running)
    assert entered.wait(10)
    waiting = answering.submit(lambda: "never")
    answering.shutdown()
    release.set()
    assert first.result(10) == "done"  # the running job ends as it would
    assert waiting.cancelled()
    assert answering.submit(lambda: "late").cancelled()


def test_a_job_cancelled_while_it_waits_never_runs() -> None:
    """A $/cancelRequest for a request still queued: its work is skipped."""
    answering = Answering()
    entered, release = threading.Event(), threading.Event()
    ran: list[str] = []

    def running() -> bool:
        entered.set()
        return release.wait(10)

    answering.submit(running)
    assert entered.wait(10)
    queued = answering.submit(lambda: ran.append("queued"))
    assert queued.cancel()
    release.set()
    assert answering.submit(lambda: "next").result(10) == "next"
    assert ran == []
    answering.shutdown()
