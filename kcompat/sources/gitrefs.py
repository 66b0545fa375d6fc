"""A repository's refs: release tags, branches, and which of them contain a change.

The part of :class:`~kcompat.sources.git.GitRepo` that asks about refs rather than files:
a release is a tag (or a branch tip about to ship) and the commit it points at, and a
release cut after a change cannot be broken by it (:meth:`Refs.refs_with`, answered from
the prefetched commit graph of an audit when there is one).
"""

from __future__ import annotations

import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import IO

from kcompat.errors import UsageError
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

    def ref_rows(self, atoms: Sequence[str], *namespaces: str) -> list[list[str]]:
        """One row per ref under ``namespaces`` (``refs/tags``), in git's order: the
        values of ``for-each-ref``'s ``atoms`` (``refname``, ``objectname``), "" where a
        ref has none."""
        listed = "%00".join(f"%({atom})" for atom in atoms)
        out = self.run_git("for-each-ref", f"--format={listed}", *namespaces)
        width = len(atoms)
        return [[*line.split("\x00"), *[""] * width][:width] for line in out.splitlines()]

    def tags(self) -> list[Tag]:
        """Every tag, with the commit it points at (through annotated tags); one that
        names a tree, a blob or an object the repository lacks has no commit (``sha``
        empty). One git call; two when some tag names an object the repository lacks
        (``for-each-ref`` cannot tell a missing object's type)."""
        atoms = ("refname:strip=2", "*objectname", "objectname", "*objecttype", "objecttype")
        try:
            rows = self.ref_rows(atoms, "refs/tags")
        except UsageError:
            return self._tags_one_by_one()
        tags = []
        for name, peeled, direct, peeled_type, direct_type in rows:
            commit = (peeled or direct) if (peeled_type or direct_type) == "commit" else ""
            tags.append(Tag(name, commit, f"refs/tags/{name}"))
        return tags

    def _tags_one_by_one(self) -> list[Tag]:
        """:meth:`tags` when some tag names a missing object: each one peeled by
        ``cat-file --batch-check`` (missing, or no commit: no ``sha``)."""
        named = self.ref_rows(("refname:strip=2", "objectname"), "refs/tags")
        if not named:
            return []
        asked = "".join(f"{sha}^{{commit}}\n" for _name, sha in named).encode("ascii", "replace")
        with tempfile.TemporaryFile() as stdin:
            stdin.write(asked)
            stdin.seek(0)
            answers = self.run_git("cat-file", "--batch-check=%(objectname)", stdin=stdin)
        commits = answers.splitlines()
        if len(commits) != len(named):  # not one answer per tag: ask nothing of them
            commits = [""] * len(named)
        return [
            Tag(name, commit if " " not in commit else "", f"refs/tags/{name}")
            for (name, _sha), commit in zip(named, commits, strict=True)
        ]

    def branches(self) -> list[Tag]:
        """Local branches and remote-tracking ones, named without their remote
        (``origin/3.7`` is ``3.7``); local ones first."""
        found = []
        for ref, sha in self.ref_rows(("refname", "objectname"), "refs/heads", "refs/remotes"):
            if ref.startswith("refs/heads/"):
                found.append(Tag(ref.removeprefix("refs/heads/"), sha, ref))
            elif ref.startswith("refs/remotes/") and not ref.endswith("/HEAD"):
                short = ref.removeprefix("refs/remotes/").partition("/")[2]
                found.append(Tag(short, sha, ref))
        return found

    def refs_with(self, base: str, head: str, tips: Mapping[str, str]) -> set[str]:
        """Which of ``tips`` (full ref name -> commit) already contain some commit of
        ``base..head`` (a release cut after a change cannot be broken by it): from the
        prefetched graph when it holds both, else from one walk of the history above the
        change, two git calls whatever the number of tips (``for-each-ref --contains``
        walks again from each of 650 tags: 20 s on a product's repository)."""
        if self.tables.knows_graph(base, head):
            return self._ancestry.refs_with(self.tables.refs, base, head) & set(tips)
        change = self._graph([head], [base])
        roots = [c for c, parents in change.items() if not any(p in change for p in parents)]
        if not roots or not tips:
            return set()
        outside = sorted({p for root in roots for p in change[root]})
        above = self._graph(sorted(set(tips.values())), outside)
        children: dict[str, list[str]] = {}
        for commit, parents in above.items():
            for parent in parents:
                children.setdefault(parent, []).append(commit)
        reached = set(roots)
        stack = list(roots)
        while stack:
            for child in children.get(stack.pop(), ()):
                if child not in reached:
                    reached.add(child)
                    stack.append(child)
        return {ref for ref, sha in tips.items() if sha in reached}

    @cached_property
    def _ancestry(self) -> Ancestry:
        return Ancestry(self.tables.parents)

    def _graph(self, tips: Sequence[str], bottoms: Sequence[str]) -> dict[str, tuple[str, ...]]:
        """Commit -> parents of every commit ``tips`` reach and ``bottoms`` do not."""
        lines = "".join([*(f"{t}\n" for t in tips), *(f"^{b}\n" for b in bottoms)])
        with tempfile.TemporaryFile() as stdin:
            stdin.write(lines.encode("ascii", "replace"))
            stdin.seek(0)
            out = self.run_git("rev-list", "--parents", "--stdin", stdin=stdin)
        graph: dict[str, tuple[str, ...]] = {}
        for line in out.splitlines():
            commit, *parents = line.split()
            graph[commit] = tuple(parents)
        return graph
