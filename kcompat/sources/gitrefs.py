"""A repository's refs: release tags, branches, and which of them contain a change.

The part of :class:`~kcompat.sources.git.GitRepo` that asks about refs rather than files:
a release is a tag (or a branch tip about to ship) and the commit it points at, and a
release cut after a change cannot be broken by it (:meth:`Refs.refs_with`, answered from
the prefetched commit graph of an audit when there is one).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import IO

from kcompat.sources.gittables import Ancestry, GitTables


@dataclass(frozen=True)
class Tag:
    """A release: a tag (or a branch tip about to ship), the commit it points at."""

    name: str
    sha: str  # the commit it points at
    ref: str = ""  # its full ref name (refs/tags/3.7.0, refs/remotes/origin/3.7)


class Refs:
    """Questions about refs, asked through the repository's :meth:`run_git`."""

    tables: GitTables

    def run_git(self, *args: str, stdin: IO[bytes] | None = None) -> str:
        raise NotImplementedError  # GitRepo's

    def tags(self) -> list[Tag]:
        """Every tag that points (directly or through an annotated tag) at a commit."""
        out = self.run_git(
            "for-each-ref",
            "--format=%(refname:strip=2)%00%(*objectname)%00%(objectname)",
            "refs/tags",
        )
        tags = []
        for line in out.splitlines():
            name, peeled, direct = [*line.split("\x00"), "", "", ""][:3]
            tags.append(Tag(name, peeled or direct, f"refs/tags/{name}"))
        return tags

    def branches(self) -> list[Tag]:
        """Local branches and remote-tracking ones, named without their remote
        (``origin/3.7`` is ``3.7``); local ones first."""
        out = self.run_git(
            "for-each-ref",
            "--format=%(refname)%00%(objectname)",
            "refs/heads",
            "refs/remotes",
        )
        found = []
        for line in out.splitlines():
            ref, _, sha = line.partition("\x00")
            if ref.startswith("refs/heads/"):
                found.append(Tag(ref.removeprefix("refs/heads/"), sha, ref))
            elif ref.startswith("refs/remotes/") and not ref.endswith("/HEAD"):
                short = ref.removeprefix("refs/remotes/").partition("/")[2]
                found.append(Tag(short, sha, ref))
        return found

    def refs_with(self, base: str, head: str) -> set[str]:
        """Full names of the refs that already contain some commit of ``base..head`` (a
        release cut after a change cannot be broken by it): from the prefetched graph
        when it holds both, else two git calls."""
        if self.tables.knows_graph(base, head):
            return self._ancestry.refs_with(self.tables.refs, base, head)
        return self.refs_containing(self.range_roots(base, head))

    @cached_property
    def _ancestry(self) -> Ancestry:
        return Ancestry(self.tables.parents)

    def range_roots(self, base: str, head: str) -> list[str]:
        """The first commits of ``base..head``: those whose parents are all outside it.

        Any commit that contains some commit of the range contains one of these, so they
        decide which refs already include a change (see :meth:`refs_containing`).
        """
        out = self.run_git("rev-list", "--parents", "--end-of-options", f"{base}..{head}", "--")
        rows = [line.split() for line in out.splitlines() if line.strip()]
        inside = {row[0] for row in rows}
        return [row[0] for row in rows if not any(p in inside for p in row[1:])]

    def refs_containing(self, commits: Sequence[str]) -> set[str]:
        """Full names of the tags and branches that contain any of ``commits`` (one call)."""
        if not commits:
            return set()
        args = [f"--contains={c}" for c in commits]
        out = self.run_git(
            "for-each-ref", *args, "--format=%(refname)", "refs/tags", "refs/heads", "refs/remotes"
        )
        return {line for line in out.splitlines() if line}
