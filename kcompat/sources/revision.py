"""A git revision (or ``REV:path``, a folder or file at a revision), read from the
object store: nothing is checked out."""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import PurePosixPath

from kcompat.errors import UsageError
from kcompat.sources.git import GitRepo
from kcompat.sources.source import SpecSource, in_repository, relative_to


@dataclass(frozen=True)
class RevisionSource:
    """The spec files of commit ``sha`` (only those under ``subpath`` if given)."""

    label: str
    repo: GitRepo
    sha: str
    subpath: str = ""  # REV:path restricts a revision to a folder or a file

    @property
    def commit(self) -> str:
        return self.sha

    working_tree = False

    @property
    def whole(self) -> bool:
        return not self.subpath

    def read(self, path: str) -> bytes | None:
        return self.repo.read_at(self.sha, path)

    def paths(self, pathspecs: Sequence[str] = ()) -> list[str]:
        specs = [self.subpath] if self.subpath else list(pathspecs)
        return sorted(p for p in self.repo.list_files(self.sha, specs) if p.endswith(".json"))

    def changed_since(self, commit: str, pathspecs: Sequence[str] = ()) -> list[str] | None:
        return self.repo.changed_between(commit, self.sha, pathspecs)

    def shown(self, path: str) -> str:
        return in_repository(self.repo.root, path)

    def path_of(self, shown: str) -> str | None:
        return relative_to(shown, self.repo.root)

    def reference(self, path: str) -> str:
        return f"{self.label.partition(':')[0]}:{path}"

    def restricted(self, path: str) -> SpecSource:
        return replace(self, subpath=path)


def revision(rev: str, repo: GitRepo) -> RevisionSource:
    """A revision, whatever the working directory holds (the implicit ``HEAD``: a file or
    folder of that name does not change it)."""
    return RevisionSource(rev, repo, repo.resolve(rev))


def at_path(text: str, repo: GitRepo) -> RevisionSource:
    """``REV:path``: a folder (or file) at a revision. A path that is not there is an
    error naming the ``git ls-tree`` that shows what is: else a typo compares nothing."""
    rev, _, sub = text.partition(":")
    rev = rev or "HEAD"
    sha = repo.resolve(rev)
    sub = sub.strip("/")
    if sub and not repo.list_files(sha, [sub]):
        parent = PurePosixPath(sub).parent
        inside = "" if parent == PurePosixPath(".") else f" -- {shlex.quote(f'{parent}/')}"
        raise UsageError(
            f"{text}: no {sub!r} at {rev}; see what is there with: "
            f"git ls-tree --name-only {shlex.quote(rev)}{inside}"
        )
    return RevisionSource(text, repo, sha, subpath=sub)


def parse(text: str, repo: GitRepo | None) -> RevisionSource | None:
    """``REV:path`` or a revision of ``repo`` (after the file system had its say)."""
    if repo is None:
        return None
    if ":" in text:
        return at_path(text, repo)
    return revision(text, repo)
