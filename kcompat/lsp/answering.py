"""The one thread that answers the language server's requests, in the order they came.

Not a :class:`~concurrent.futures.ThreadPoolExecutor`: Python waits for an executor's
threads before it exits, so an editor's exit would wait for the outline of a megabyte
spec nobody reads any more. A request's work is pure (it takes a snapshot and answers
from it: nothing to finish or undo), so this thread is a daemon and a job still running
at exit is abandoned; jobs not started yet are cancelled by :meth:`Answering.shutdown`.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any, TypeVar

Result = TypeVar("Result")
Job = tuple[Future[Any], Callable[[], Any]]


class Answering:
    """Runs jobs one at a time on a daemon thread (started with the first job)."""

    def __init__(self, name: str = "kcompat-lsp-answer") -> None:
        self.name = name
        self._jobs: queue.SimpleQueue[Job | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._closed = False

    def submit(self, job: Callable[[], Result]) -> Future[Result]:
        """Queue ``job``; its result (or exception) in the future."""
        future: Future[Result] = Future()
        with self._lock:
            if self._closed:
                future.cancel()
                return future
            if self._thread is None:
                self._thread = threading.Thread(target=self._work, name=self.name, daemon=True)
                self._thread.start()
            self._jobs.put((future, job))
        return future

    def shutdown(self) -> None:
        """Cancel the jobs not started yet and let the thread end after the running one."""
        with self._lock:
            self._closed = True
            while True:
                try:
                    item = self._jobs.get_nowait()
                except queue.Empty:
                    break
                if item is not None:
                    item[0].cancel()
            self._jobs.put(None)

    def _work(self) -> None:
        while (item := self._jobs.get()) is not None:
            future, job = item
            if not future.set_running_or_notify_cancel():
                continue  # cancelled while it waited ($/cancelRequest)
            try:
                future.set_result(job())
            except BaseException as err:  # the future carries it to the loop
                future.set_exception(err)
