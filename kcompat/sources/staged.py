"""The index of a repository: what ``git commit`` would commit (``diff --staged``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from kcompat.sources import in_repo
from kcompat.sources.git import GitRepo
from kcompat.sources.source import SpecSource


@dataclass(frozen=True)
class IndexSource:
    """The staged texts of ``repo`` (only those under ``subpath`` if given)."""

    repo: GitRepo
    subpath: str = ""
    label: str = "the index"
    commit: None = None

    working_tree = False

    @property
    def whole(self) -> bool:
        return not self.subpath

    def read(self, path: str) -> bytes | None:
        return self.repo.read_index(path)

    def paths(self, pathspecs: Sequence[str] = ()) -> list[str]:
        specs = [self.subpath] if self.subpath else pathspecs
        return in_repo.live_paths(self.repo, self.repo.changed_in_index, specs)

    def changed_since(self, commit: str, pathspecs: Sequence[str] = ()) -> list[str] | None:
        return self.repo.changed_in_index(commit, pathspecs)

    def shown(self, path: str) -> str:
        return in_repo.shown(self.repo, path)

    def path_of(self, shown: str) -> str | None:
        return in_repo.path_of(self.repo, shown)

    def reference(self, path: str) -> str:
        return f":{path}"

    def restricted(self, path: str) -> SpecSource:
        return replace(self, subpath=path)


def staged(repo: GitRepo) -> IndexSource:
    """The index; a bare repository has none (one line saying what to compare instead)."""
    in_repo.require_tree(repo, "no index for --staged")
    return IndexSource(repo)
