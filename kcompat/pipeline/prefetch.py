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
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import BinaryIO

from kcompat.sources.git import GitRepo

_SHA = re.compile(r"[0-9a-f]{40,64}\Z")


@dataclass
class GitTables:
    """The prefetched answers (plain data: they travel to preparation workers)."""

    changed: dict[tuple[str, str, tuple[str, ...]], tuple[str, ...]] = field(default_factory=dict)


@dataclass
class PrefetchedRepo(GitRepo):
    """A :class:`GitRepo` that answers prefetched questions from :class:`GitTables`."""

    tables: GitTables = field(default_factory=GitTables, repr=False)
    _histories: dict[tuple[str, str, int], list[tuple[str, str]]] = field(
        default_factory=dict, repr=False
    )

    @staticmethod
    def wrap(repo: GitRepo, tables: GitTables | None = None) -> PrefetchedRepo:
        return PrefetchedRepo(repo.root, repo._repo, tables=tables or GitTables())

    def changed_paths(
        self, base: str, head_kind: str, head: str | None = None, pathspecs: Sequence[str] = ()
    ) -> list[str]:
        if head_kind == "rev" and head is not None:
            found = self.tables.changed.get((base, head, tuple(pathspecs)))
            if found is not None:
                return list(found)
        return super().changed_paths(base, head_kind, head, pathspecs)

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
        command = ["git", "diff-tree", "--stdin", "--always", "-r", "--name-only"]
        command += ["--no-renames", "-z", "--", *(pathspecs or ["."])]
        return str(self.git.execute(command, istream=stdin, stdout_as_string=True))
