"""One side of a corpus, read from git or a directory before Spark starts.

Specs are named by their side-relative paths: a corpus outlives the working directory
it was built from. The driver reads git (through
:class:`~kcompat.sources.source.SpecSource`); rows carry spec texts, and executors parse them
(:mod:`kcompat.pipeline.corpus_tasks`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from kcompat.config import Config
from kcompat.errors import UsageError
from kcompat.sources.git import GitRepo, NotARepository
from kcompat.sources.reading import read_side
from kcompat.sources.sides import side_for
from kcompat.sources.source import SpecSource
from kcompat.spec.specfile import SpecFile


@dataclass(frozen=True)
class Revision:
    """One side's specs: repo-relative paths (stable in a corpus), texts and messages."""

    label: str
    sha: str
    specs: list[tuple[str, bytes, SpecFile]]


def open_side(rev: str, repo_dir: Path) -> SpecSource:
    """``rev`` as a side: a directory (or REV:path), else a revision of ``repo_dir``."""
    repo: GitRepo | None
    try:
        repo = GitRepo.open(repo_dir)
    except NotARepository:
        if not Path(rev).is_dir():
            raise
        repo = None
    return side_for(rev, repo)


def read_revision(side: SpecSource, pathspecs: Sequence[str]) -> Revision:
    """Every spec on a side, as every command reads one
    (:func:`kcompat.sources.reading.read_side`), but named by their side-relative paths
    (a corpus outlives the working directory)."""
    specs = read_side(side, pathspecs, name=str).files
    if not specs:
        where = f" under {', '.join(pathspecs)}" if pathspecs else ""
        raise UsageError(f"no spec files at {side.label}{where}")
    return Revision(side.label, side.commit or "", specs)


def pathspecs_for(request_paths: Sequence[str], config: Config, side: SpecSource) -> list[str]:
    """The paths a command names, else those the configuration gives for the repository."""
    if request_paths:
        return list(request_paths)
    from kcompat.diff.run import pathspecs

    return pathspecs(config, side.repo) if side.repo is not None else []
