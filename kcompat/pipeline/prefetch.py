"""Git answers for a whole audit in two git calls instead of two per comparison.

Preparing one comparison asks git which files differ (``git diff --name-only``). For a
trunk of hundreds of commits that is hundreds of process starts, a large share of the
driver's time. A :class:`PrefetchedRepo` answers from a table built up front with one
``git diff-tree --stdin`` over the audit's revisions;
anything it was not asked to prefetch goes to git exactly as before, so
:func:`kcompat.diff.prepared.prepare_pair` gives the same result with either repository.
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import BinaryIO

from kcompat.sources.git import GitRepo

_SHA = re.compile(r"[0-9a-f]{40,64}\Z")


@dataclass
class GitTables:
    """The prefetched answers (plain data: they travel to preparation workers)."""

    changed: dict[tuple[str, str, tuple[str, ...]], tuple[str, ...]] = field(default_factory=dict)
    # The commit graph under the audit's revisions and refs, and the refs by name: which
    # releases already contain a change, answered without git (see ``refs_with``).
    parents: dict[str, tuple[str, ...]] = field(default_factory=dict)
    refs: dict[str, str] = field(default_factory=dict)


@dataclass
class PrefetchedRepo(GitRepo):
    """A :class:`GitRepo` that answers prefetched questions from :class:`GitTables`."""

    tables: GitTables = field(default_factory=GitTables, repr=False)
    _histories: dict[tuple[str, str, int], list[tuple[str, str]]] = field(
        default_factory=dict, repr=False
    )

    @staticmethod
    def wrap(repo: GitRepo, tables: GitTables | None = None) -> PrefetchedRepo:
        return PrefetchedRepo(repo.root, repo.where, repo.objects, tables=tables or GitTables())

    def changed_paths(
        self, base: str, head_kind: str, head: str | None = None, pathspecs: Sequence[str] = ()
    ) -> list[str]:
        if head_kind == "rev" and head is not None:
            found = self.tables.changed.get((base, head, tuple(pathspecs)))
            if found is not None:
                return list(found)
        return super().changed_paths(base, head_kind, head, pathspecs)

    def refs_with(self, base: str, head: str) -> set[str]:
        """As :meth:`GitRepo.refs_with`, from the prefetched graph: a ref contains some
        commit of ``base..head`` exactly when its ancestors meet those of ``head`` beyond
        those of ``base``."""
        parents = self.tables.parents
        if base not in parents or head not in parents or not self.tables.refs:
            return super().refs_with(base, head)
        change = self._ancestors(head) & ~self._ancestors(base)
        return {ref for ref, sha in self.tables.refs.items() if self._ancestors(sha) & change}

    def _ancestors(self, sha: str) -> int:
        """A commit and its ancestors as a bit set (one bit per commit of the graph)."""
        cache = self.__dict__.setdefault("_ancestry", {})
        index = self.__dict__.setdefault("_bit", {})
        if sha in cache:
            return int(cache[sha])
        stack = [sha]
        while stack:  # iterative: histories are deeper than Python's recursion
            commit = stack[-1]
            if commit in cache:
                stack.pop()
                continue
            missing = [p for p in self.tables.parents.get(commit, ()) if p not in cache]
            if missing:
                stack.extend(missing)
                continue
            stack.pop()
            bits = 1 << index.setdefault(commit, len(index))
            for parent in self.tables.parents.get(commit, ()):
                bits |= cache[parent]
            cache[commit] = bits
        return int(cache[sha])

    def file_history(self, sha: str, path: str, limit: int = 2000) -> list[tuple[str, str]]:
        """As :meth:`GitRepo.file_history`, asked once per (commit, path): the release
        pairs of a transitive audit share their BASEs, and so their tag ledgers."""
        key = (sha, path, limit)
        found = self._histories.get(key)
        if found is None:
            found = super().file_history(sha, path, limit)
            self._histories[key] = found
        return list(found)

    # -- building the tables -------------------------------------------------------------
    def prefetch_changes(self, pairs: Iterable[tuple[str, str]], pathspecs: Sequence[str]) -> None:
        """``changed_paths(base, "rev", head, pathspecs)`` for every (base, head) pair."""
        wanted = [(b, h) for b, h in dict.fromkeys(pairs) if _SHA.match(b) and _SHA.match(h)]
        if not wanted:
            return
        # One line per pair: "HEAD BASE" diffs BASE's tree against HEAD's (--always: a
        # header even when nothing differs, so the output splits by pair unambiguously).
        lines = "".join(f"{h} {b}\n" for b, h in wanted)
        with tempfile.TemporaryFile() as stdin:
            stdin.write(lines.encode("ascii"))
            stdin.seek(0)
            out = self._diff_tree(stdin, pathspecs)
        tokens = [t for t in out.split("\x00") if t]
        found: list[list[str]] = []
        index = -1
        for token in tokens:
            # A header is the next pair's HEAD; paths are anything else.
            if index + 1 < len(wanted) and token.strip() == wanted[index + 1][1]:
                index += 1
                found.append([])
            elif index >= 0:
                found[index].append(token)
        if len(found) != len(wanted):
            return  # an unexpected output shape: let git answer each pair on its own
        specs = tuple(pathspecs)
        for (base, head), paths in zip(wanted, found, strict=True):
            self.tables.changed[(base, head, specs)] = tuple(sorted(set(paths)))

    def _diff_tree(self, stdin: BinaryIO, pathspecs: Sequence[str]) -> str:
        command = ["diff-tree", "--stdin", "--always", "-r", "--name-only"]
        command += ["--no-renames", "-z", "--", *(pathspecs or ["."])]
        return self.run_git(*command, stdin=stdin)

    def prefetch_graph(self, shas: Iterable[str], refs: Mapping[str, str]) -> None:
        """The commit graph under ``shas`` and the ``refs`` (full name -> commit), for
        :meth:`refs_with`: one ``git rev-list --parents``."""
        tips = sorted({*(s for s in shas if _SHA.match(s)), *refs.values()})
        if not tips:
            return
        out = self.run_git("rev-list", "--parents", *tips, "--")
        for line in out.splitlines():
            commit, *parents = line.split()
            self.tables.parents[commit] = tuple(parents)
        self.tables.refs.update(refs)
