"""The session's background work never holds up what the event loop answers."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest

pytest.importorskip("pygls", reason="pygls is not installed (the lsp extra)")

from pygls.lsp.server import LanguageServer

from kcompat.lsp.session import BACKGROUND_THREADS, Session
from kcompat.lsp.shipped import Shipping


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
