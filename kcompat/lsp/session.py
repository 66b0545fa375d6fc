"""The server's state between requests: open specs, what was published, pending work.

The event loop receives edits, schedules work and collects what a request needs (the
texts and the parses it knows); a request is answered on the one answering thread
(:mod:`kcompat.lsp.answering`, apart from the background's: a hover never queues behind
a lint or a diff on save) from a :class:`~kcompat.lsp.snapshot.Snapshot` taken there
(parsing what changed) by :mod:`kcompat.lsp.handlers`, and the parses come back to the
loop. Background work runs on :data:`BACKGROUND_THREADS`
threads: the lint after an edit, the diff on save, and the release lookups a hover
waits for (once per message: kept afterwards, so later hovers wait for nothing).
kcompat's core is safe for threads (its memos: :mod:`kcompat.memo`), so a diff on save
and a hover's lookup run side by side instead of one behind the other; what the server
keeps across threads (the repositories, the release index, the files on disk) takes
its own locks. Results come back to the loop, which alone touches the session's state.

An edit is linted after :data:`DEBOUNCE_SECONDS` without another edit to the same folder;
the lint covers every open spec of the folder and the cross-file findings of the others.
A diff on save is shown only if no later save of the document came first.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import TypeVar

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from kcompat.config import Config, ConfigError, load_config
from kcompat.escaping import shown
from kcompat.lsp.answering import Answering
from kcompat.lsp.diagnostics import diagnostics
from kcompat.lsp.documents import Parsed, parse
from kcompat.lsp.evolution import Evolution, Repos, against_base
from kcompat.lsp.folder import DiskSpecs, is_spec, lint_folder
from kcompat.lsp.shipped import ReleaseIndex, Shipping
from kcompat.lsp.snapshot import Opened, Snapshot, Wanted, remembered, take
from kcompat.lsp.text import UTF16
from kcompat.rules.registry import rule_categories

#: Quiet time after an edit before its folder is linted again.
DEBOUNCE_SECONDS = 0.06
#: Threads for background work: a lint, a diff on save and a release lookup at once.
BACKGROUND_THREADS = 3
#: Parses the answering thread keeps for the requests that follow (the loop keeps its own).
RECENT_PARSES = 4
#: How long a hover waits for release data before answering without it.
RELEASES_WAIT_SECONDS = 3.0

log = logging.getLogger(__name__)
Result = TypeVar("Result")


class Session:
    """One editor's session: its documents, published diagnostics and pending work."""

    def __init__(self, server: LanguageServer) -> None:
        self.server = server
        self.background = ThreadPoolExecutor(
            max_workers=BACKGROUND_THREADS, thread_name_prefix="kcompat-lsp"
        )
        self.answering = Answering()
        self._recent: dict[str, Parsed] = {}  # (answering thread only) its latest parses
        self.disk = DiskSpecs()
        self.repos = Repos()
        self.releases = ReleaseIndex()
        self.diff_base = ""  # the initialization option; else kcompat.toml's diff-base
        self.encoding = UTF16
        self._open: dict[str, int | None] = {}  # uri as the client wrote it -> version
        self._parsed: dict[str, Parsed] = {}  # uri -> parse of its latest text
        self._readable: dict[str, Parsed] = {}  # uri -> latest parse with a message
        self._lint: dict[str, list[types.Diagnostic]] = {}
        self._diff: dict[str, list[types.Diagnostic]] = {}
        self._sent: dict[str, tuple[int | None, list[types.Diagnostic]]] = {}
        self._cross: dict[str, set[str]] = {}  # folder -> closed uris given findings
        self._pending: dict[str, asyncio.Task[None]] = {}
        self._saves: dict[str, int] = {}  # uri -> saves so far (the latest diff wins)
        self._told: set[str] = set()  # problems already shown to the user
        self._problems: list[str] = []  # found in the background, to show from the loop

    # -- documents ----------------------------------------------------------------------
    @staticmethod
    def path_of(uri: str) -> str:
        """The file a URI names (the URI itself for an unsaved buffer)."""
        path = to_fs_path(uri) if uri.startswith("file:") else None
        return os.path.abspath(path) if path else uri

    @staticmethod
    def uri_of(path: str) -> str:
        return from_fs_path(path) or path

    def folder_of(self, uri: str) -> str:
        """The folder whose specs are linted together ("" for an unsaved buffer)."""
        path = self.path_of(uri)
        return os.path.dirname(path) if path != uri else ""

    def text(self, uri: str) -> str:
        return self.server.workspace.get_text_document(uri).source

    def parsed(self, uri: str) -> Parsed:
        """The parse of the document's current text (kept until the text changes); on
        the loop, for the diagnostics of a diff on save (requests parse on the answering
        thread: :meth:`answer`)."""
        text = self.text(uri)
        known = self._parsed.get(uri)
        if known is not None and known.text == text and known.encoding == self.encoding:
            return known
        fresh = parse(self.path_of(uri), text, self.encoding)
        self.keep({uri: fresh})
        return fresh

    def keep(self, parses: dict[str, Parsed]) -> None:
        """Remember parses (uri -> parse) made off the loop, each only while its text is
        still the document's current one (an edit since makes it useless); on the loop."""
        for uri, parsed in parses.items():
            if uri not in self._open or parsed.encoding != self.encoding:
                continue
            if self.text(uri) != parsed.text:
                continue
            self._parsed[uri] = parsed
            if parsed.message is not None:
                self._readable[uri] = parsed

    def wanted(self, uri: str, folder: bool = False) -> Wanted:
        """What a request on the document needs (``folder``: its folder's open documents
        too, for navigation): texts and the parses known of them; on the loop, and quick."""
        opened = {u: self._opened(u) for u in self._open if folder and self._sibling(uri, u)}
        document = opened.get(uri) or self._opened(uri)
        return Wanted(
            document,
            self.encoding,
            self._readable.get(uri),
            tuple(opened.values()) if folder else None,
        )

    def _opened(self, uri: str) -> Opened:
        return Opened(uri, self.path_of(uri), self.text(uri), self._parsed.get(uri))

    def _sibling(self, uri: str, other: str) -> bool:
        folder = self.folder_of(uri)
        return other == uri if not folder else self.folder_of(other) == folder

    async def answer(
        self, uri: str, handler: Callable[[Snapshot], Result], folder: bool = False
    ) -> Result:
        """Answer a request on the answering thread: the snapshot is taken there from what
        the loop collected (parsing what changed) and ``handler`` runs on it; the parses
        made come back to the loop, which keeps them."""
        wanted = self.wanted(uri, folder)
        directory = self.folder_of(uri) if folder else ""

        def job() -> tuple[Result, dict[str, Parsed]]:
            on_disk = self.disk.folder(directory) if directory else []
            snapshot, made = take(wanted, on_disk, self._recent)
            remembered(made, self._recent, RECENT_PARSES)
            return handler(snapshot), made

        result, made = await self.answering_run(job)
        self.keep(made)
        return result

    async def answering_run(self, job: Callable[..., Result], *args: object) -> Result:
        """Run ``job`` on the answering thread; its result back on the loop."""
        return await asyncio.wrap_future(self.answering.submit(functools.partial(job, *args)))

    def config_for(self, folder: str) -> Config:
        """The configuration for a folder (kcompat.toml or pyproject.toml, found upwards);
        a broken one is shown once and the defaults apply."""
        try:
            return load_config(Path(folder) if folder else Path.cwd(), rules=rule_categories)
        except ConfigError as err:
            self._problems.append(f"{err} (kcompat lsp uses the defaults until it is fixed)")
            return Config()

    def tell(self, problem: str) -> None:
        """Show a problem once per session (a warning in the editor); on the loop only."""
        if problem in self._told:
            return
        self._told.add(problem)
        message = types.ShowMessageParams(type=types.MessageType.Warning, message=shown(problem))
        self.server.window_show_message(message)

    # -- events -------------------------------------------------------------------------
    def opened(self, uri: str, version: int | None) -> None:
        self._open[uri] = version
        self.schedule(uri, 0.0)

    def changed(self, uri: str, version: int | None) -> None:
        self._open[uri] = version
        self.schedule(uri, DEBOUNCE_SECONDS)

    def closed(self, uri: str) -> None:
        self._open.pop(uri, None)
        for memo in (self._parsed, self._readable, self._lint, self._diff):
            memo.pop(uri, None)
        self._publish(uri)
        folder = self.folder_of(uri)
        if folder:
            self.schedule_folder(folder, 0.0)

    def schedule(self, uri: str, delay: float) -> None:
        folder = self.folder_of(uri)
        self.schedule_folder(folder or uri, delay)

    def schedule_folder(self, key: str, delay: float) -> None:
        """Lint a folder (or an unsaved buffer, keyed by its URI) after ``delay``."""
        pending = self._pending.pop(key, None)
        if pending is not None:
            pending.cancel()
        loop = asyncio.get_running_loop()
        self._pending[key] = loop.create_task(self._lint_later(key, delay))

    async def _lint_later(self, key: str, delay: float) -> None:
        await asyncio.sleep(delay)
        members = [u for u in self._open if u == key or self.folder_of(u) == key]
        snapshot = [(u, self.text(u)) for u in members]
        folder = key if os.path.isabs(key) else ""  # else an unsaved buffer's URI
        try:
            results = await self.run(self._lint_job, folder, snapshot)
        except asyncio.CancelledError:
            raise
        except Exception as err:  # a bug must not take the server down: log it
            log.exception("lint failed")
            self.tell(f"kcompat lsp: lint failed ({type(err).__name__}: {err})")
            return
        if self._pending.get(key) is asyncio.current_task():
            del self._pending[key]
        closed_before = self._cross.get(key, set())
        closed_now = {u for u in results if u not in self._open}
        for uri in closed_before - closed_now:
            self._lint.pop(uri, None)
            self._publish(uri)
        self._cross[key] = closed_now
        for uri, found in results.items():
            if uri in self._open or uri in closed_now:
                self._lint[uri] = found
                self._publish(uri)

    def _lint_job(
        self, folder: str, snapshot: list[tuple[str, str]]
    ) -> dict[str, list[types.Diagnostic]]:
        """(background) Lint a folder: its open specs as edited, the others from disk."""
        config = self.config_for(folder)
        opened: dict[str, Parsed] = {}
        out: dict[str, list[types.Diagnostic]] = {}
        for uri, text in snapshot:
            parsed = parse(self.path_of(uri), text, self.encoding)
            out[uri] = []
            if is_spec(parsed.spec, config):
                opened[uri] = parsed
        on_disk = self.disk.folder(folder, config) if folder else []
        found = lint_folder([p.spec for p in opened.values()], on_disk, config)
        for uri, parsed in opened.items():
            out[uri] = diagnostics(found.get(parsed.path, ()), parsed)
        paths = {p.path for p in opened.values()}
        for spec in on_disk:
            if spec.path in paths or not found.get(spec.path) or spec.document is None:
                continue
            parsed = Parsed(spec.path, spec.document.text, spec, self.encoding)
            out[self.uri_of(spec.path)] = diagnostics(found[spec.path], parsed)
        return out

    async def saved(self, uri: str) -> None:
        """Diff the saved spec against the base, when one is configured."""
        folder = self.folder_of(uri)
        if not folder:
            return
        config = await self.run(self.config_for, folder)
        base = self.diff_base or config.diff_base
        if not base:
            return
        path = self.path_of(uri)
        save = self._saves[uri] = self._saves.get(uri, 0) + 1
        result: Evolution = await self.run(self._diff_job, base, path, config)
        if result.problem:
            self.tell(result.problem)
        if uri not in self._open or self._saves.get(uri) != save:
            return  # closed, or saved again since: the later diff says what is true
        parsed = self.parsed(uri)
        mine = [replace(f, location=replace(f.location, path=parsed.path)) for f in result.findings]
        self._diff[uri] = diagnostics(mine, parsed)
        self._publish(uri)

    def _diff_job(self, base: str, path: str, config: Config) -> Evolution:
        """(background) The saved file against the base."""
        return against_base(self.repos.around(path), base, path, config)

    def known_shipping(self, uri: str, name: str) -> Shipping | None:
        """Which releases shipped the message, if that is known without a lookup (none for
        an unsaved buffer); from the loop or the answering thread (the index has its lock)."""
        if not self.folder_of(uri):
            return Shipping()
        return self.releases.known(self.path_of(uri), name)

    async def shipping(self, uri: str, name: str) -> Shipping:
        """Which releases shipped the document's message: known at once after the first
        time, else looked up in the background (unknown after a short wait)."""
        known = self.known_shipping(uri, name)
        if known is not None:
            return known
        path, folder = self.path_of(uri), self.folder_of(uri)

        def job() -> Shipping:
            return self.releases.shipping(
                self.repos.around(path), path, name, self.config_for(folder)
            )

        try:
            return await asyncio.wait_for(self.run(job), RELEASES_WAIT_SECONDS)
        except TimeoutError:
            return Shipping()

    async def run(self, job: Callable[..., Result], *args: object) -> Result:
        """Run ``job`` in the background; its result back on the loop."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self.background, job, *args)
        finally:
            while self._problems:
                self.tell(self._problems.pop(0))

    # -- publishing ---------------------------------------------------------------------
    def _publish(self, uri: str) -> None:
        """Send the document's diagnostics (lint and diff) when they changed."""
        merged = [*self._lint.get(uri, []), *self._diff.get(uri, [])]
        version = self._open.get(uri)
        if self._sent.get(uri) == (version, merged):
            return
        self._sent[uri] = (version, merged)
        params = types.PublishDiagnosticsParams(uri=uri, diagnostics=merged, version=version)
        self.server.text_document_publish_diagnostics(params)

    def stop(self) -> None:
        """Cancel pending work and release git's processes."""
        for task in self._pending.values():
            task.cancel()
        self._pending.clear()
        self.background.shutdown(wait=False, cancel_futures=True)
        self.answering.shutdown()

        def release() -> None:  # once the running jobs are done with git
            self.background.shutdown(wait=True)
            self.repos.close()

        threading.Thread(target=release, name="kcompat-lsp-stop", daemon=True).start()
