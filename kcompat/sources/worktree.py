"""The working tree of a repository: the files as they are on disk, untracked included
(``kcompat diff`` with no HEAD)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kcompat.sources.files import from_here
from kcompat.sources.git import GitRepo
from kcompat.sources.in_repo import LiveFiles, require_tree


@dataclass(frozen=True)
class WorkTreeSource(LiveFiles):
    """The working-tree files of ``repo`` (only those under ``subpath`` if given)."""

    label: str = "the working tree"

    working_tree = True

    def read(self, path: str) -> bytes | None:
        return self.repo.read_worktree(path)

    def changed_since(self, commit: str, pathspecs: Sequence[str] = ()) -> list[str]:
        return self.repo.changed_in_worktree(commit, pathspecs)

    def reference(self, path: str) -> str:
        return from_here(self.repo.root / path)


def working_tree(repo: GitRepo) -> WorkTreeSource:
    """The working tree; a bare repository has none (one line saying what instead)."""
    require_tree(repo, "no working tree to compare")
    return WorkTreeSource(repo)
