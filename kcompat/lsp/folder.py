"""Lint one folder of specs as the editor sees it: open buffers over the files on disk.

Kafka generates each spec folder on its own, and lint's cross-file rules (a request
without its response, two messages with one API key) look at the whole folder. So a
change in one open spec is checked against its siblings: open ones as the editor holds
them, the rest as they are on disk (parsed once, again only when they change). Every open
spec gets all its findings; a closed sibling gets the cross-file findings the change
gives it (its other findings are for when it is opened).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from kcompat.config import Config
from kcompat.errors import UsageError
from kcompat.findings import Finding
from kcompat.lint.check import run_lint
from kcompat.rules.registry import Subject, all_rules
from kcompat.rules.runner import Call, Finishing, finish, run_rules
from kcompat.sources.directory import DirectorySource
from kcompat.sources.reading import is_spec as reading_is_spec
from kcompat.sources.reading import read_side
from kcompat.sources.spec_paths import SpecPaths
from kcompat.spec.specfile import SpecFile, comments_of, read_spec


@dataclass(frozen=True)
class Remembered(DirectorySource):
    """A folder on disk whose files are read again only when their size or modification
    time changes (an editor lints a folder on every edit; its closed files rarely
    change). Narrowed to one file (:meth:`restricted`), it shares what it remembers."""

    memo: dict[str, tuple[tuple[int, int], bytes | None]] = field(
        default_factory=dict, compare=False, repr=False
    )
    names: dict[str, str] = field(default_factory=dict, compare=False, repr=False)

    def read(self, path: str) -> bytes | None:
        try:
            status = os.stat(os.path.join(self.directory, path))
        except OSError:
            return super().read(path)
        stamp = (status.st_mtime_ns, status.st_size)
        known = self.memo.get(path)
        if known is not None and known[0] == stamp:
            return known[1]
        data = super().read(path)
        self.memo[path] = (stamp, data)
        return data

    def shown(self, path: str) -> str:
        found = self.names.get(path)
        if found is None:
            found = self.names[path] = super().shown(path)
        return found


@dataclass
class DiskSpecs:
    """Spec files on disk, read as every command reads a folder (through
    :func:`~kcompat.sources.reading.read_side`, a :class:`Remembered` folder); a file is
    read again only when it changed on disk, and parsed again only when its bytes did."""

    _folders: dict[str, Remembered] = field(default_factory=dict)
    _parsed: dict[str, tuple[bytes, SpecFile]] = field(default_factory=dict)

    def folder(self, directory: str, config: Config | None = None) -> list[SpecFile]:
        """The spec files directly in ``directory`` (other JSON files are left out; one
        that cannot be read is no spec)."""
        side = self._folders.get(directory)
        if side is None:
            side = Remembered(directory, Path(directory), flat=True)
            self._folders[directory] = side
        spec_paths = SpecPaths.of(config) if config is not None else SpecPaths()
        try:
            return read_side(side, spec_paths=spec_paths, parse=self._parse).specs
        except UsageError:
            return self._readable(side, spec_paths)

    def _readable(self, side: Remembered, spec_paths: SpecPaths) -> list[SpecFile]:
        """The folder file by file, leaving out those that cannot be read (a FIFO, a
        device, a file without permission): none of them ends an editor's lint."""
        found = []
        for path in _listed(side):
            try:
                one = side.restricted(path)
                found += read_side(one, spec_paths=spec_paths, parse=self._parse).specs
            except UsageError:
                continue
        return found

    def _parse(self, path: str, data: bytes) -> SpecFile:
        known = self._parsed.get(path)
        if known is not None and (known[0] is data or known[0] == data):
            return known[1]
        spec = read_spec(path, data)
        self._parsed[path] = (data, spec)
        return spec


def _listed(side: DirectorySource) -> list[str]:
    try:
        return side.paths()
    except UsageError:
        return []


def is_spec(spec: SpecFile, config: Config) -> bool:
    """Whether an open file is one to lint: a spec (a broken file when its text names
    ``validVersions`` or it is under the configured paths), under the configured
    ``paths`` when there are some."""
    spec_paths = SpecPaths.of(config)
    inside = spec_paths.holds(Path(spec.path)) if spec_paths else True
    return inside and reading_is_spec(spec, configured=bool(spec_paths), named=True)


def lint_folder(
    open_specs: Sequence[SpecFile], on_disk: Iterable[SpecFile], config: Config
) -> dict[str, tuple[Finding, ...]]:
    """Findings by path: every finding of each open spec, and the cross-file findings of
    the closed specs in the folder (closed: on disk and not open)."""
    opened = {spec.path for spec in open_specs}
    closed = [spec for spec in on_disk if spec.path not in opened]
    found: dict[str, list[Finding]] = {path: [] for path in opened}
    if open_specs:
        for finding in run_lint(open_specs, closed, config).findings:
            found[finding.location.path].append(finding)
    for finding in cross_file(closed, [*open_specs, *closed], config):
        found.setdefault(finding.location.path, []).append(finding)
    return {path: tuple(findings) for path, findings in found.items()}


def cross_file(
    targets: Sequence[SpecFile], folder: Sequence[SpecFile], config: Config
) -> list[Finding]:
    """The findings of lint's folder-wide rules located in ``targets`` (finished as lint
    finishes them: configuration, ignore comments)."""
    if not targets:
        return []
    rules = [rule for rule in all_rules("lint") if rule.subject is Subject.SET]
    messages = [s.message for s in sorted(folder, key=lambda s: s.path) if _named(s)]
    wanted = {spec.path for spec in targets}
    raw = [f for f in run_rules(rules, lambda _rule: [Call(messages)]) if f.location.path in wanted]
    how = Finishing(
        config=config,
        kinds=frozenset({"lint"}),
        comments=comments_of(targets),
    )
    return list(finish(raw, how).findings)


def _named(spec: SpecFile) -> bool:
    return spec.message is not None and bool(spec.message.name)
