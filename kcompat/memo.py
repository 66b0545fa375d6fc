"""Memos with an explicit scope, safe for threads: the one way kcompat keeps a result.

Three scopes, one class each, and nothing else keeps computed values between calls:

* :class:`kcompat.spec.model.Memo`: a value derived from one frozen message, kept on it
  (its layouts, signatures, codecs); it lives and dies with the message.
* :class:`Lru`: a bounded, least-recently-used memo for the whole process, of values
  that are pure functions of their key (compiled code by its source, a parsed spec by
  its bytes' digest, a proof's verdict by everything it depends on).
* :class:`RunCache`: a memo for one run, a block opened with :meth:`RunCache.run` (one
  diff's two sides, parsed once); outside a run every call computes. A run belongs to the
  context that opened it (a thread, an asyncio task): two threads never share one.

All three are safe for threads: a value may be computed twice when two threads ask at
once (every memoised value is a pure function of its key, so either is right), but no
memo is ever left inconsistent, and an :class:`Lru` never holds more than its limit.
That is what lets the language server answer a hover on one thread while a diff runs on
another. (A pure function of small hashable arguments may still use
:func:`functools.lru_cache`, which is the same bounded LRU, written in C.)
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Generic, TypeVar, cast

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")
_ABSENT = object()


class Lru(Generic[K, V]):
    """A bounded least-recently-used memo, for the whole process.

    Reads take no lock (an ``OrderedDict`` lookup and move are each atomic); a store and
    the evictions it causes take one, so the size never exceeds the limit.
    """

    __slots__ = ("_data", "_lock", "limit", "name")

    def __init__(self, name: str, limit: int) -> None:
        self.name = name
        self.limit = limit
        self._data: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K, compute: Callable[[], V]) -> V:
        """The value kept under ``key``; ``compute()`` gives it (and it is kept) the first
        time, outside any lock: a slow computation holds up no other thread."""
        found = self._data.get(key, _ABSENT)
        if found is not _ABSENT:
            try:  # noqa: SIM105 (a hit is the hot path: no context manager on it)
                self._data.move_to_end(key)
            except KeyError:  # evicted by another thread meanwhile: it was still right
                pass
            return cast(V, found)
        value = compute()
        with self._lock:
            found = self._data.get(key, _ABSENT)
            if found is not _ABSENT:  # another thread's equal value came first: it stays
                return cast(V, found)
            while self._data and len(self._data) >= self.limit:  # room first: never over it
                self._data.popitem(last=False)
            self._data[key] = value
        return value

    def resize(self, limit: int) -> None:
        """Keep at most ``limit`` values from now on (the oldest go first)."""
        with self._lock:
            self.limit = limit
            while len(self._data) > limit:
                self._data.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._data.clear()

    def __len__(self) -> int:
        return len(self._data)

    def __contains__(self, key: object) -> bool:
        return key in self._data


class RunCache(Generic[K, V]):
    """A memo for one run: values kept from :meth:`run`'s start to its end, unbounded
    (a run is one command's worth of work, which bounds it).

    Outside a run :meth:`get` computes every time. A run opened inside another of the
    same cache is the outer one (its values stay until the outer run ends). Runs are
    context-local: a thread or an asyncio task sees only the runs it opened.
    """

    __slots__ = ("_current", "name")

    def __init__(self, name: str) -> None:
        self.name = name
        self._current: ContextVar[dict[K, V] | None] = ContextVar(
            f"kcompat_run_{name}", default=None
        )

    @property
    def active(self) -> bool:
        """Whether a run is open in this context."""
        return self._current.get() is not None

    @contextmanager
    def run(self) -> Iterator[None]:
        """Keep this cache's values while the block runs (the outer run's, if nested)."""
        if self._current.get() is not None:
            yield
            return
        token = self._current.set({})
        try:
            yield
        finally:
            self._current.reset(token)

    def get(self, key: K, compute: Callable[[], V]) -> V:
        """The run's value under ``key``, computed the first time; outside a run, computed."""
        values = self._current.get()
        if values is None:
            return compute()
        found = values.get(key, _ABSENT)
        if found is _ABSENT:
            found = values.setdefault(key, compute())
        return cast(V, found)
