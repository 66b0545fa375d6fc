"""Preparing an audit's comparisons on the driver: prefetched git, parallel workers.

Executors have no checkout, so every comparison is prepared where the repository is, by
:func:`kcompat.diff.prepared.prepare_pair` (the function ``kcompat diff`` uses, so both
give the same findings). On a long trunk that preparation (git reads and spec parsing)
is as much work as the checks themselves; done serially it would cap Spark's speed-up.
So it runs in as many worker processes as the audit has cores, on contiguous chunks of
comparisons (neighbouring commits share blobs and tag trees, which each worker caches),
with git's per-pair answers prefetched in two calls (:mod:`kcompat.sources.prefetch`).
It starts before Spark does: the JVM boots while the workers read git.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import threading
import uuid
from collections.abc import Callable, Sequence
from concurrent.futures import (
    CancelledError,
    Executor,
    Future,
    ProcessPoolExecutor,
    ThreadPoolExecutor,
)
from dataclasses import dataclass, field
from typing import Any

from kcompat.config import Config
from kcompat.modes import ReleasedMode
from kcompat.pipeline.history_tasks import Texts, pair_row, split_texts
from kcompat.pipeline.revisions import Comparison
from kcompat.sources.git import GitRepo
from kcompat.sources.gitrefs import Tag
from kcompat.sources.gittables import GitTables

#: Below this many comparisons, worker processes cost more than they save.
MIN_PARALLEL = 12
#: Chunks per worker: small enough to balance uneven commits, large enough for caching.
CHUNKS_PER_WORKER = 4


@dataclass(frozen=True)
class PrepareJob:
    """What every chunk needs besides its comparisons (pickled to worker processes)."""

    root: str
    released_mode: ReleasedMode
    pattern: str  # release tags
    config: Config
    history: bool
    pathspecs: tuple[str, ...]
    tables: GitTables
    token: str = field(default_factory=lambda: uuid.uuid4().hex)  # one audit, any process


def worker_count(master: str | None) -> int:
    """Cores the audit may use on the driver: N for ``local[N]``, else all of them."""
    from kcompat.pipeline.sparkapi import local_threads

    return local_threads(master) or os.cpu_count() or 1


def prefetched(
    repo: GitRepo,
    comparisons: Sequence[Comparison],
    pathspecs: Sequence[str],
    releases: Sequence[Tag] = (),
) -> GitTables:
    """Changed files of every pair, and the commit graph that says which releases
    already contain each pair's change (kept by ``repo`` too)."""
    from kcompat.sources.prefetch import prefetched as asked

    refs = {t.ref: t.sha for t in releases if t.ref}
    return asked(repo, [(c.base, c.head) for c in comparisons], pathspecs, refs)


# -- one process's state ------------------------------------------------------------------

_STATE: dict[str, tuple[GitRepo, Any]] = {}


def _state(job: PrepareJob, repo: GitRepo | None = None) -> tuple[GitRepo, Any]:
    """This process's repository and shared tag releases (caches live across chunks)."""
    from kcompat.sources.releases import releases_for

    found = _STATE.get(job.token)
    if found is None:
        _STATE.clear()  # a new audit: the previous one's caches go
        fetched = repo if repo is not None else GitRepo.open(job.root, tables=job.tables)
        shared = (
            releases_for(fetched, job.pattern, job.config.release_branches or None, job.pathspecs)
            if job.released_mode != ReleasedMode.BASE
            else None
        )
        found = (fetched, shared)
        _STATE[job.token] = found
    return found


def prepare_chunk(
    job: PrepareJob,
    comparisons: Sequence[Comparison],
    repo: GitRepo | None = None,
    progress: Callable[[], None] | None = None,
) -> list[dict[str, Any]]:
    """Prepared rows of some comparisons, exactly as :func:`prepare_pair` makes them."""
    from kcompat.diff.prepared import prepare_pair
    from kcompat.sources.revision import RevisionSource

    fetched, shared = _state(job, repo)
    rows = []
    for comparison in comparisons:
        base = RevisionSource(comparison.base_label, fetched, comparison.base)
        head = RevisionSource(comparison.head_label, fetched, comparison.head)
        prepared = prepare_pair(
            base,
            head,
            pathspecs=job.pathspecs,
            released_mode=job.released_mode,
            config=job.config,
            history=job.history,
            releases=shared,
        )
        rows.append(pair_row(comparison, prepared))
        if progress is not None:
            progress()
    return rows


# -- running it ----------------------------------------------------------------------------


def prepare_split(job: PrepareJob, comparisons: Sequence[Comparison]) -> tuple[list[Any], Texts]:
    """A worker's chunk: rows naming texts by digest, and those texts (once each)."""
    texts: Texts = {}
    rows = [split_texts(row, texts) for row in prepare_chunk(job, comparisons)]
    return rows, texts


def _init_worker() -> None:
    """A preparation worker parses each blob once, whatever the comparison. Ctrl-C is
    the driver's to handle (it stops the workers): a worker ignores SIGINT, and prints
    nothing (its stderr is /dev/null; its errors reach the driver pickled)."""
    import signal

    from kcompat.spec.specfile import enable_parse_cache

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    enable_parse_cache()


def _spawning() -> contextlib.AbstractContextManager[None]:
    """Worker processes start with stderr at /dev/null: one that a Ctrl-C catches half
    started (before it ignores SIGINT) ends without a traceback, and the pool it breaks
    counts as that interruption (see :mod:`kcompat.interrupt`)."""
    from kcompat.interrupt import stderr_to

    return stderr_to(os.devnull)


class Preparation:
    """Comparisons being prepared in the background: worker processes, or for a few
    comparisons one thread (worker processes would cost more than they save)."""

    def __init__(
        self,
        repo: GitRepo,
        comparisons: Sequence[Comparison],
        job: PrepareJob,
        workers: int,
        progress: Callable[[int], None] | None = None,
        *,
        min_parallel: int = MIN_PARALLEL,
    ) -> None:
        self.progress = progress or (lambda n: None)
        self.futures: list[Future[tuple[list[Any], Texts]]] = []
        self.cancelled = threading.Event()
        self.executor: Executor
        if len(comparisons) < min_parallel:
            # The caller's thread starts Spark meanwhile (the JVM is another process).
            self.executor = ThreadPoolExecutor(max_workers=1)
            self.futures.append(self.executor.submit(self._serial, job, comparisons, repo))
            return
        workers = max(1, workers)
        context = multiprocessing.get_context("spawn")  # no fork of a JVM-holding process
        with _spawning():  # workers start as the chunks are submitted
            self.executor = ProcessPoolExecutor(
                max_workers=workers, mp_context=context, initializer=_init_worker
            )
            size = max(1, -(-len(comparisons) // (workers * CHUNKS_PER_WORKER)))
            for start in range(0, len(comparisons), size):
                chunk = list(comparisons[start : start + size])
                future = self.executor.submit(prepare_split, job, chunk)
                future.add_done_callback(self._advance(len(chunk)))
                self.futures.append(future)

    def _serial(
        self, job: PrepareJob, comparisons: Sequence[Comparison], repo: GitRepo
    ) -> tuple[list[Any], Texts]:
        """Every comparison in this thread; it stops at the next one once cancelled."""

        def tick() -> None:
            if self.cancelled.is_set():
                raise CancelledError
            self.progress(1)

        texts: Texts = {}
        rows = prepare_chunk(job, comparisons, repo, tick)
        return [split_texts(row, texts) for row in rows], texts

    def _advance(self, count: int) -> Callable[[Future[tuple[list[Any], Texts]]], None]:
        return lambda _future: self.progress(count)

    def done(self) -> bool:
        return all(future.done() for future in self.futures)

    def result(self) -> tuple[list[dict[str, Any]], Texts]:
        """Every prepared row (texts by digest), in comparison order, and the texts."""
        rows: list[dict[str, Any]] = []
        texts: Texts = {}
        try:
            for future in self.futures:
                chunk_rows, chunk_texts = future.result()
                rows.extend(chunk_rows)
                texts.update(chunk_texts)
        except BaseException:  # Ctrl-C or a failed chunk: wait for none of the others
            self.cancel()
            raise
        self.executor.shutdown(wait=True)
        return sorted(rows, key=lambda r: int(r["pair_index"])), texts

    def cancel(self) -> None:
        self.cancelled.set()
        self.executor.shutdown(wait=False, cancel_futures=True)
