"""Parses kept for a run (:func:`parsed_once`) or for the process
(:func:`enable_parse_cache`): a run is its own thread's, and the process's is bounded."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest

from kcompat.memo import Lru
from kcompat.spec import specfile
from kcompat.spec.specfile import SpecFile, enable_parse_cache, parsed_once, read_spec
from tests.conftest import EXAMPLES

DATA = (EXAMPLES / "WidgetRequest.json").read_bytes()


def _elsewhere() -> SpecFile:
    """The same text read on another thread."""
    found: list[SpecFile] = []
    thread = threading.Thread(target=lambda: found.append(read_spec("w.json", DATA)))
    thread.start()
    thread.join()
    return found[0]


def test_a_parse_run_is_its_own_threads() -> None:
    outside = read_spec("w.json", DATA)
    assert read_spec("w.json", DATA) is not outside  # no run: parsed each time
    with parsed_once():
        first = read_spec("w.json", DATA)
        assert read_spec("w.json", bytes(bytearray(DATA))) is first
        assert read_spec("other.json", DATA) is not first  # the path is part of the key
        assert _elsewhere() is not first  # another thread has no run open
    assert read_spec("w.json", DATA) is not first  # the run is over


@pytest.fixture()
def lasting(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """This process keeps parses, for one test."""
    monkeypatch.setattr(specfile, "_KEPT", Lru("parsed specs", 4096))
    monkeypatch.setattr(specfile, "_LASTING", [False])
    yield


def test_a_process_that_keeps_parses_keeps_a_bounded_number(lasting: None) -> None:
    enable_parse_cache(limit=2)
    first = read_spec("w.json", DATA)
    assert read_spec("w.json", DATA) is first and _elsewhere() is first  # every thread's
    read_spec("a.json", DATA)
    read_spec("b.json", DATA)  # the oldest goes
    assert len(specfile._KEPT) == 2 and read_spec("w.json", DATA) is not first
