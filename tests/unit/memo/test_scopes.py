"""The memo facility (:mod:`kcompat.memo`): a bounded LRU for the process, a cache for one
run, each safe for threads."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest

from kcompat.memo import Lru, RunCache


@pytest.fixture(autouse=True)
def switch_often() -> Iterator[None]:
    """Threads handed the interpreter every microsecond: interleavings a test would
    otherwise rarely meet."""
    import sys

    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    yield
    sys.setswitchinterval(before)


def test_an_lru_keeps_the_last_used_and_no_more() -> None:
    memo: Lru[int, str] = Lru("test", 3)
    for key in (1, 2, 3):
        assert memo.get(key, lambda key=key: f"v{key}") == f"v{key}"  # type: ignore[misc]
    assert memo.get(1, lambda: "recomputed") == "v1"  # a hit: 1 is now the newest
    memo.get(4, lambda: "v4")
    assert 2 not in memo and {1, 3, 4} == {k for k in (1, 2, 3, 4) if k in memo}
    memo.resize(1)
    assert len(memo) == 1 and 4 in memo


def test_an_lru_stays_bounded_and_right_under_threads() -> None:
    memo: Lru[int, int] = Lru("test", 64)
    errors: list[BaseException] = []

    def hammer(seed: int) -> None:
        try:
            for step in range(4000):
                key = (seed * 7919 + step * 104729) % 200
                assert memo.get(key, lambda key=key: key * key) == key * key  # type: ignore[misc]
                assert len(memo) <= 64
        except BaseException as err:
            errors.append(err)

    threads = [threading.Thread(target=hammer, args=(seed,)) for seed in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == [] and len(memo) <= 64


def test_two_threads_asking_at_once_get_one_value() -> None:
    """A value computed twice (both threads missed) is kept once: both get the first."""
    memo: Lru[str, object] = Lru("test", 8)
    barrier = threading.Barrier(4)

    def ask(_: int) -> object:
        barrier.wait()
        return memo.get("key", object)

    with ThreadPoolExecutor(4) as pool:
        got = list(pool.map(ask, range(4)))
    assert len({id(value) for value in got}) == 1 and memo.get("key", object) is got[0]


def test_a_run_cache_keeps_values_for_its_run_only() -> None:
    cache: RunCache[str, list[int]] = RunCache("test")
    outside = cache.get("k", list)
    assert cache.get("k", list) is not outside  # no run: computed every time
    with cache.run():
        kept = cache.get("k", list)
        assert cache.get("k", list) is kept
        with cache.run():  # nested: the outer run's
            assert cache.get("k", list) is kept
        assert cache.get("k", list) is kept
    assert not cache.active and cache.get("k", list) is not kept


def test_a_run_is_its_own_threads() -> None:
    """A run opened on one thread is not another thread's: each sees only its own."""
    cache: RunCache[str, str] = RunCache("test")
    seen: dict[str, str] = {}
    inside = threading.Event()
    done = threading.Event()

    def in_a_run() -> None:
        with cache.run():
            cache.get("k", lambda: "mine")
            inside.set()
            done.wait(5)
            seen["run"] = cache.get("k", lambda: "computed again")

    thread = threading.Thread(target=in_a_run)
    thread.start()
    inside.wait(5)
    seen["other"] = str(cache.active) + cache.get("k", lambda: "other")
    done.set()
    thread.join()
    assert seen == {"run": "mine", "other": "Falseother"}
