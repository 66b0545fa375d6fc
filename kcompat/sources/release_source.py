"""Where release texts come from: the :class:`ReleaseSource` interface, and a
repository's release tags (and optionally release branches) as one.

What a release shipped is judged from its spec texts (:mod:`kcompat.sources.releases`);
this module only says which releases there are, reads their texts and lists their files,
and says which releases already contain a change. Kafka tags releases on release
branches (``3.7`` -> ``3.7.0``) that never merge back into trunk, so every release tag
in the repository counts, wherever it sits; optionally the tips of release branches
count as about to ship.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from kcompat.naming import release_order
from kcompat.patterns import matching
from kcompat.sources.git import GitRepo
from kcompat.sources.gitrefs import Tag


class ReleaseSource(Protocol):
    """Releases, oldest first, and their spec texts."""

    @property
    def releases(self) -> Sequence[Tag]: ...

    def read(self, release: Tag, path: str) -> bytes | None:
        """The text of ``path`` as ``release`` shipped it (None if it had none)."""
        ...

    def files(self, release: Tag) -> Sequence[str]:
        """Every ``*.json`` path of ``release``."""
        ...

    def containing(self, base: str, head: str) -> set[str]:
        """The refs (:attr:`Tag.ref`) of releases that already contain some commit of
        ``base..head``: made after the change, it cannot break them."""
        ...


@dataclass
class GitReleases:
    """Release tags and branch tips of a repository, read from its object store."""

    repo: GitRepo
    releases: list[Tag]
    pathspecs: tuple[str, ...] = ()
    _files: dict[str, list[str]] = field(default_factory=dict, repr=False)

    def read(self, release: Tag, path: str) -> bytes | None:
        return self.repo.read_at(release.sha, path)

    def files(self, release: Tag) -> Sequence[str]:
        found = self._files.get(release.sha)
        if found is None:
            listed = self.repo.list_files(release.sha, self.pathspecs)
            found = self._files[release.sha] = [p for p in listed if p.endswith(".json")]
        return found

    def containing(self, base: str, head: str) -> set[str]:
        return self.repo.refs_with(base, head)

    def root(self, release: Tag) -> str | None:
        """The first commit of ``release``'s history (where the repository starts)."""
        found = self.repo.run_git("rev-list", "--max-parents=0", "--end-of-options", release.sha)
        return found.split()[0] if found.split() else None


def release_tags(repo: GitRepo, pattern: str) -> list[Tag]:
    """Tags that look like releases (``1.2.3``, ``v1.2.3`` by default; no ``-rc``), oldest
    release first."""
    chosen = matching(pattern, repo.tags(), _name, "release-tags")
    return sorted(chosen, key=_order)


def release_branches(repo: GitRepo, pattern: str) -> list[Tag]:
    """Tips of branches (local or remote-tracking) whose short name matches ``pattern``,
    as releases about to ship (named ``3.9 (branch)``), oldest first."""
    tips: dict[str, Tag] = {}
    for branch in matching(pattern, repo.branches(), _name, "release-branches"):
        tips.setdefault(branch.name, Tag(f"{branch.name} (branch)", branch.sha, branch.ref))
    return sorted(tips.values(), key=_order)


def git_releases(
    repo: GitRepo, pattern: str, branch_pattern: str | None = None, pathspecs: Sequence[str] = ()
) -> GitReleases | None:
    """The releases of a repository, or None when none matches the patterns."""
    tags = release_tags(repo, pattern)
    if branch_pattern:
        tags = sorted([*tags, *release_branches(repo, branch_pattern)], key=_order)
    return GitReleases(repo, tags, tuple(pathspecs)) if tags else None


def _name(tag: Tag) -> str:
    return tag.name


def _order(tag: Tag) -> tuple[tuple[int, ...], str]:
    return release_order(tag.name)
