"""What the index and the working tree share: files of a repository that are not at a
commit, listed, named and narrowed the same way (:class:`LiveFiles`)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Self

from kcompat.errors import UsageError
from kcompat.sources.git import GitRepo
from kcompat.sources.source import in_repository, relative_to


@dataclass(frozen=True)
class LiveFiles(ABC):
    """The files of ``repo`` that git has not committed yet (only those under
    ``subpath`` if given): HEAD's files and the ones changed since. A side says where it
    reads a file from and how git lists what changed (:meth:`changed_since`)."""

    repo: GitRepo
    subpath: str = ""
    commit: None = None

    @property
    def whole(self) -> bool:
        return not self.subpath

    @abstractmethod
    def changed_since(self, commit: str, pathspecs: Sequence[str] = ()) -> list[str]:
        """The paths whose text here differs from ``commit``'s, as git lists them."""

    def paths(self, pathspecs: Sequence[str] = ()) -> list[str]:
        """Every ``*.json`` at HEAD and every one changed since HEAD."""
        specs = [self.subpath] if self.subpath else pathspecs
        head = self.repo.head_sha()
        tracked = set(self.repo.list_files(head, specs))
        changed = set(self.changed_since(head, specs))
        return sorted(p for p in tracked | changed if p.endswith(".json"))

    def shown(self, path: str) -> str:
        return in_repository(self.repo.root, path)

    def path_of(self, shown: str) -> str | None:
        return relative_to(shown, self.repo.root)

    def restricted(self, path: str) -> Self:
        return replace(self, subpath=path)


def require_tree(repo: GitRepo, lacks: str) -> None:
    """A bare repository has neither an index nor a working tree: one line saying what to
    compare instead."""
    if not repo.bare:
        return
    where = repo.worktrees()
    instead = (
        f"run kcompat in one of its worktrees ({', '.join(where[:3])}), or give BASE "
        "and HEAD revisions"
        if where
        else "give BASE and HEAD revisions (kcompat diff BASE HEAD)"
    )
    raise UsageError(f"{repo.root} is a bare repository, with {lacks}: {instead}")
