"""A progress bar on stderr for a command that may take a while (``kcompat diff``).

Shown only on a terminal, and only once the command has run for about a second: a
pre-commit hook or a small diff prints nothing extra, a diff across Kafka's releases
(seconds of reading tags and proving with bytes) says what it is doing. Transient: it
is gone when the command prints its findings. Nothing at all when stderr is not a
terminal (CI logs, pipes).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from kcompat import progress
from kcompat.escaping import shown

#: seconds before the bar appears
DELAY = 1.0


class DelayedBar:
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
        self._lock = threading.Lock()
        self._closed = False
        self._started = False
        self._timer = threading.Timer(delay, self._show)
        self._timer.daemon = True

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

    def _show(self) -> None:
        with self._lock:
            if not self._closed:
                self._bar.start()
                self._started = True

    def __enter__(self) -> DelayedBar:
        self._timer.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._timer.cancel()
        with self._lock:
            self._closed = True
            if self._started:
                self._bar.stop()


@contextmanager
def progress_on_terminal(delay: float = DELAY) -> Iterator[None]:
    """Progress of the block on stderr, when stderr is a terminal."""
    from rich.console import Console

    console = Console(stderr=True, highlight=False, markup=False, emoji=False)
    if not console.is_terminal:
        yield
        return
    with DelayedBar(console, delay) as bar, progress.reporting(bar):
        yield
