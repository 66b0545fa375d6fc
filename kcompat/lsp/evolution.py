"""On save: the evolution findings of one spec against a base revision (``diffBase``).

This is ``kcompat diff BASE:path path`` for the saved file, through the same code: BASE's
side is the file at that revision (read from git), HEAD's the file as saved, and
``prepare_pair`` / ``check`` decide what counts as released and run every evolution
rule and the round-trip proof. Only the repository handle is kept between saves (git's
object reader is a process; opening it on every save would be wasteful).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path

from kcompat.config import Config
from kcompat.diff.check import CheckOptions, check
from kcompat.diff.prepared import prepare_pair
from kcompat.errors import UsageError
from kcompat.findings import Finding
from kcompat.sources.git import GitRepo
from kcompat.sources.revision import at_path
from kcompat.sources.sides import side_for
from kcompat.spec.specfile import parsed_once


@dataclass
class Repos:
    """The git repositories of the files the server was asked about, opened once each
    (from any of the server's threads: a repository reads its objects one at a time)."""

    _open: dict[str, GitRepo | None] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def around(self, path: str) -> GitRepo | None:
        """The repository holding ``path``, or None outside git (a plain folder)."""
        folder = str(Path(path).parent)
        with self._lock:
            if folder not in self._open:
                try:
                    repo = GitRepo.around(Path(folder))
                except UsageError:
                    repo = None
                self._open[folder] = self._shared(repo)
            return self._open[folder]

    def _shared(self, repo: GitRepo | None) -> GitRepo | None:
        """One handle per repository, whichever of its folders asked first."""
        if repo is None:
            return None
        for known in self._open.values():
            if known is not None and known.root == repo.root:
                repo.close()
                return known
        return repo

    def close(self) -> None:
        with self._lock:
            for repo in {id(r): r for r in self._open.values() if r is not None}.values():
                repo.close()
            self._open.clear()


@dataclass(frozen=True)
class Evolution:
    """What a diff on save found: findings of the saved file, or why there are none."""

    findings: tuple[Finding, ...] = ()
    problem: str = ""  # a base that cannot be read: one line for the user


def against_base(repo: GitRepo | None, base: str, path: str, config: Config) -> Evolution:
    """The evolution findings of the spec at ``path`` (as saved) against ``base``."""
    if repo is None:
        return Evolution(problem=f"diffBase {base!r}: {path} is not in a git repository")
    try:
        sha = repo.resolve(base)
        relative = repo.relative(path)
        if not repo.list_files(sha, [relative]):
            return Evolution()  # a new file: nothing of it was released
        base_side = at_path(f"{sha}:{relative}", repo)
        head_side = side_for(path, repo)
        with parsed_once():
            prepared = prepare_pair(
                base_side,
                head_side,
                released_mode=config.released,
                config=config,
            )
            outcome = check(prepared, CheckOptions(config, proof=True))
    except UsageError as err:
        return Evolution(problem=f"diffBase {base!r}: {err}")
    here = Path(path).resolve()
    mine = tuple(f for f in outcome.findings if Path(f.location.path).resolve() == here)
    return Evolution(mine)
