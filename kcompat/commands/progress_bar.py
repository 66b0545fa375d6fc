"""A progress bar on stderr for a command that may take a while (``kcompat diff``).

Shown only on a terminal, and only once the command has run for about a second: a
pre-commit hook or a small diff prints nothing extra, a diff across Kafka's releases
(seconds of reading tags and proving with bytes) says what it is doing. Transient: it
is gone when the command prints its findings. Nothing at all when stderr is not a
terminal (CI logs, pipes). ``--color never`` means no escape code at all: no bar, which
moves the cursor, but one plain line per step; ``NO_COLOR`` (colour only) draws the bar
without colour.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO, Any, Self

from kcompat import progress
from kcompat.escaping import shown

#: seconds before the bar appears
DELAY = 1.0


class _Delayed:
    """What both sinks share: they appear once ``delay`` seconds have passed, unless the
    block ended first (a timer thread, and a lock the steps and the timer take turns on)."""

    def __init__(self, delay: float) -> None:
        self._lock = threading.Lock()
        self._closed = False
        self._timer = threading.Timer(delay, self._show)
        self._timer.daemon = True

    def _appear(self) -> None:
        """Show what there is (called under the lock, once, unless the block ended)."""
        raise NotImplementedError

    def _vanish(self) -> None:
        """Take back what was shown (called under the lock when the block ends)."""

    def _show(self) -> None:
        with self._lock:
            if not self._closed:
                self._appear()

    def __enter__(self) -> Self:
        self._timer.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._timer.cancel()
        with self._lock:
            self._closed = True
            self._vanish()


class DelayedBar(_Delayed):
    """A :class:`kcompat.progress.Sink` drawn by rich once ``delay`` seconds have passed."""

    def __init__(self, console: Any, delay: float = DELAY) -> None:
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            SpinnerColumn,
            TextColumn,
            TimeElapsedColumn,
        )

        self._bar = Progress(
            SpinnerColumn(),
            TextColumn("{task.description}", markup=False),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=console,
            transient=True,
        )
        self._task: Any = None
        self._started = False
        super().__init__(delay)

    def step(self, description: str, total: int | None) -> None:
        text = shown(description)
        with self._lock:
            if self._task is None:
                self._task = self._bar.add_task(text, total=total)
            else:
                self._bar.reset(self._task, description=text, total=total)

    def advance(self, count: int) -> None:
        if self._task is not None:
            self._bar.advance(self._task, count)

    def _appear(self) -> None:
        self._bar.start()
        self._started = True

    def _vanish(self) -> None:
        if self._started:
            self._bar.stop()


class DelayedLines(_Delayed):
    """A :class:`kcompat.progress.Sink` that writes each step as one plain line once
    ``delay`` seconds have passed (the step then under way first): no cursor movement,
    no colour, for ``--color never``."""

    def __init__(self, stream: IO[str], delay: float = DELAY) -> None:
        self._stream = stream
        self._current: str | None = None
        self._shown = False
        super().__init__(delay)

    def step(self, description: str, total: int | None) -> None:
        with self._lock:
            self._current = shown(description)
            if self._shown:
                self._write(self._current)

    def advance(self, count: int) -> None:
        pass  # counts would need the cursor: the steps say enough

    def _appear(self) -> None:
        self._shown = True
        if self._current is not None:
            self._write(self._current)

    def _write(self, description: str) -> None:
        try:
            self._stream.write(f"kcompat: {description}...\n")
            self._stream.flush()
        except (OSError, ValueError):
            pass  # the terminal went away: progress is no reason to fail


@contextmanager
def progress_on_terminal(color: str, delay: float = DELAY) -> Iterator[None]:
    """Progress of the block on stderr, when stderr is a terminal; ``color`` is
    ``--color``'s value."""
    import os
    import sys

    if not sys.stderr.isatty():
        yield
        return
    sink: DelayedBar | DelayedLines
    if color == "never":
        sink = DelayedLines(sys.stderr, delay)
    else:
        from rich.console import Console

        console = Console(
            stderr=True,
            highlight=False,
            markup=False,
            emoji=False,
            no_color="NO_COLOR" in os.environ and color != "always",
        )
        sink = DelayedBar(console, delay)
    with sink, progress.reporting(sink):
        yield
