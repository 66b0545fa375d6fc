"""Where a long command is, for whoever shows it (a progress bar on a terminal).

The core says what it is doing (:func:`step`) and how far it got (:func:`advance`); a
command that shows progress installs a sink with :func:`reporting` around its run, and
work done in another thread reports through :func:`carried`.
Without one (a library call, a Spark worker, the language server) both are no-ops, so
the checks stay what they were: functions of their inputs, whose results never depend
on whether anyone watches.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import ParamSpec, Protocol, TypeVar


class Sink(Protocol):
    """What shows progress: a new step (a total when it is counted), and counts in it."""

    def step(self, description: str, total: int | None) -> None: ...

    def advance(self, count: int) -> None: ...


_sink: ContextVar[Sink | None] = ContextVar("kcompat_progress", default=None)


def step(description: str, total: int | None = None) -> None:
    """The command now does ``description`` (``total`` items of it, when counted)."""
    sink = _sink.get()
    if sink is not None:
        sink.step(description, total)


def advance(count: int = 1) -> None:
    """``count`` more items of the current step are done."""
    sink = _sink.get()
    if sink is not None:
        sink.advance(count)


def watched() -> bool:
    """Whether anyone shows progress: what costs something to count (Spark's task
    tracker, polled over py4j) is counted only then."""
    return _sink.get() is not None


P = ParamSpec("P")
R = TypeVar("R")


def carried(function: Callable[P, R]) -> Callable[P, R]:
    """``function``, reporting where its caller's progress goes, from whichever thread
    calls it (a thread starts without its creator's context). The sink must take
    reports from several threads (the command's bar does)."""
    sink = _sink.get()

    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        token = _sink.set(sink)
        try:
            return function(*args, **kwargs)
        finally:
            _sink.reset(token)

    return run


@contextmanager
def reporting(sink: Sink) -> Iterator[None]:
    """Progress of the block goes to ``sink``."""
    token = _sink.set(sink)
    try:
        yield
    finally:
        _sink.reset(token)
