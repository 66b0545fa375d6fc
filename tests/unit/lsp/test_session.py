"""The session's background work never holds up what the event loop answers."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest

pytest.importorskip("pygls", reason="pygls is not installed (the lsp extra)")

from pygls.lsp.server import LanguageServer

from kcompat.lsp.documents import Parsed
from kcompat.lsp.session import BACKGROUND_THREADS, Session
from kcompat.lsp.shipped import Shipping
from kcompat.lsp.snapshot import Snapshot
from tests.lsp_specs import FOO_REQUEST


def test_known_releases_are_answered_while_every_background_thread_is_busy(
    tmp_path: Path,
) -> None:
    """A hover's releases, once looked up, come back at once even while the background
    is taken (by a diff on save, a lint): nothing queues behind them."""
    session = Session(LanguageServer("kcompat-test", "0"))
    path = str(tmp_path / "FooRequest.json")
    uri = session.uri_of(path)
    shipped = Shipping((), known=True)
    session.releases._shipping[(path, "FooRequest")] = shipped
    release = threading.Event()

    async def scenario() -> Shipping:
        busy = [
            asyncio.ensure_future(session.run(release.wait, 10))
            for _ in range(BACKGROUND_THREADS + 1)
        ]
        await asyncio.sleep(0)
        try:
            return await asyncio.wait_for(session.shipping(uri, "FooRequest"), 5)
        finally:
            release.set()
            await asyncio.gather(*busy)

    try:
        assert asyncio.run(scenario()) is shipped
    finally:
        session.stop()


class Editor(Session):
    """A session whose texts are set by the test (no initialized workspace needed)."""

    def __init__(self) -> None:
        super().__init__(LanguageServer("kcompat-test", "0"))
        self.texts: dict[str, str] = {}

    def text(self, uri: str) -> str:
        return self.texts[uri]

    def edit(self, uri: str, text: str) -> None:
        self.texts[uri] = text
        self._open[uri] = None


def test_a_request_is_answered_while_every_background_thread_is_busy(tmp_path: Path) -> None:
    """Requests have their own thread: a hover never queues behind a lint or a diff."""
    session = Editor()
    uri = session.uri_of(str(tmp_path / "FooRequest.json"))
    session.edit(uri, FOO_REQUEST)
    release = threading.Event()

    async def scenario() -> str | None:
        busy = [
            asyncio.ensure_future(session.run(release.wait, 10))
            for _ in range(BACKGROUND_THREADS + 1)
        ]
        await asyncio.sleep(0)
        try:
            return await asyncio.wait_for(session.answer(uri, name_of), 5)
        finally:
            release.set()
            await asyncio.gather(*busy)

    try:
        assert asyncio.run(scenario()) == "FooRequest"
    finally:
        session.stop()


def name_of(snapshot: Snapshot) -> str | None:
    return snapshot.parsed.message.name if snapshot.parsed.message is not None else None


def test_the_loop_runs_while_a_request_is_answered_and_keeps_the_parse_after(
    tmp_path: Path,
) -> None:
    """The snapshot is taken and the handler runs off the loop; the parse made for it
    comes back to the loop and serves the next request."""
    session = Editor()
    uri = session.uri_of(str(tmp_path / "FooRequest.json"))
    session.edit(uri, FOO_REQUEST)
    entered, release = threading.Event(), threading.Event()
    threads: list[str] = []

    def slow(snapshot: Snapshot) -> Parsed:
        threads.append(threading.current_thread().name)
        entered.set()
        release.wait(10)
        return snapshot.parsed

    async def scenario() -> tuple[Parsed, Parsed]:
        answer = asyncio.ensure_future(session.answer(uri, slow))
        while not entered.is_set():  # the loop turns while the handler runs
            await asyncio.sleep(0.01)
        assert not answer.done()
        release.set()
        first = await answer
        second = await session.answer(uri, lambda s: s.parsed)
        return first, second

    try:
        first, second = asyncio.run(scenario())
    finally:
        session.stop()
    assert threads == [threads[0]] and threads[0].startswith("kcompat-lsp-answer")
    assert first.text == FOO_REQUEST
    assert second is first  # kept by the loop: parsed once


def test_a_parse_of_a_text_edited_since_is_not_kept(tmp_path: Path) -> None:
    session = Editor()
    uri = session.uri_of(str(tmp_path / "FooRequest.json"))
    session.edit(uri, FOO_REQUEST)
    edited = FOO_REQUEST.replace('"0-3"', '"0-4"', 1)

    def editing_meanwhile(snapshot: Snapshot) -> Parsed:
        session.texts[uri] = edited  # the editor's didChange, as the loop would see it
        return snapshot.parsed

    async def scenario() -> tuple[Parsed, Parsed]:
        first = await session.answer(uri, editing_meanwhile)
        return first, await session.answer(uri, lambda s: s.parsed)

    try:
        first, second = asyncio.run(scenario())
    finally:
        session.stop()
    assert first.text == FOO_REQUEST
    assert second.text == edited
    assert session._parsed[uri] is second
