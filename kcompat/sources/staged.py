"""The index of a repository: what ``git commit`` would commit (``diff --staged``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kcompat.sources.git import GitRepo
from kcompat.sources.in_repo import LiveFiles, require_tree


@dataclass(frozen=True)
class IndexSource(LiveFiles):
    """The staged texts of ``repo`` (only those under ``subpath`` if given)."""

    label: str = "the index"

    working_tree = False

    def read(self, path: str) -> bytes | None:
        return self.repo.read_index(path)

    def changed_since(self, commit: str, pathspecs: Sequence[str] = ()) -> list[str]:
        return self.repo.changed_in_index(commit, pathspecs)

    def reference(self, path: str) -> str:
        return f":{path}"


def staged(repo: GitRepo) -> IndexSource:
    """The index; a bare repository has none (one line saying what to compare instead)."""
    require_tree(repo, "no index for --staged")
    return IndexSource(repo)
