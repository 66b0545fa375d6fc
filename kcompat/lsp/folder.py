"""Lint one folder of specs as the editor sees it: open buffers over the files on disk.

Kafka generates each spec folder on its own, and lint's cross-file rules (a request
without its response, two messages with one API key) look at the whole folder. So a
change in one open spec is checked against its siblings: open ones as the editor holds
them, the rest as they are on disk (read once, again only when they change). Every open
spec gets all its findings; a closed sibling gets the cross-file findings the change
gives it (its other findings are for when it is opened).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from kcompat.config import Config
from kcompat.errors import UsageError
from kcompat.findings import Finding
from kcompat.lint.check import run_lint
from kcompat.rules.registry import Subject, all_rules
from kcompat.rules.runner import Call, Finishing, finish, run_rules
from kcompat.sources.files import read_file
from kcompat.spec.load import Comment
from kcompat.spec.specfile import SpecFile, looks_like_spec, named_spec


@dataclass
class DiskSpecs:
    """Spec files on disk, each read again only when its size or mtime changes."""

    _cache: dict[str, tuple[tuple[int, int], SpecFile]] = field(default_factory=dict)

    def folder(self, directory: str) -> list[SpecFile]:
        """The spec files directly in ``directory`` (other JSON files are left out)."""
        found = []
        try:
            entries = sorted(os.scandir(directory), key=lambda entry: entry.name)
        except OSError:
            return []
        for entry in entries:
            if not entry.name.endswith(".json"):
                continue
            spec = self.read(entry.path)
            if spec is not None and looks_like_spec(spec):
                found.append(spec)
        return found

    def read(self, path: str) -> SpecFile | None:
        """One file, or None when it is not a regular file that can be read."""
        try:
            status = os.stat(path)
        except OSError:
            return None
        stamp = (status.st_mtime_ns, status.st_size)
        known = self._cache.get(path)
        if known is not None and known[0] == stamp:
            return known[1]
        try:
            spec = read_file(Path(path), path)
        except UsageError:
            return None  # a FIFO, a device, a folder named *.json: no spec
        self._cache[path] = (stamp, spec)
        return spec


def is_spec(spec: SpecFile, config: Config) -> bool:
    """Whether an open file is one to lint: a spec (or a broken file, which may be one),
    under the configured ``paths`` when there are some."""
    if not named_spec(spec):
        return False
    if not config.paths:
        return True
    base = Path(config.root) if config.root else Path(".")
    roots = [(base / p).resolve() for p in config.paths]
    where = Path(spec.path).resolve()
    return any(where == root or root in where.parents for root in roots)


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
        comments=_comments(targets),
    )
    return list(finish(raw, how).findings)


def _named(spec: SpecFile) -> bool:
    return spec.message is not None and bool(spec.message.name)


def _comments(specs: Sequence[SpecFile]) -> Mapping[str, Sequence[Comment]]:
    return {s.path: s.document.comments for s in specs if s.document is not None}
