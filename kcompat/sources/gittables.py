"""Git answers asked once for many comparisons, and kept by the repository that asked.

Preparing one comparison asks git which files differ. For a trunk of hundreds of commits
that is hundreds of process starts, a large share of a history audit's driver time; so
the audit asks once, with one ``git diff-tree --stdin`` over all its pairs, and once for
the commit graph under its revisions and release refs (``git rev-list --parents``). The
answers are plain data (:class:`GitTables`: they travel to the preparation workers), and
a repository given them answers from them first (:class:`kcompat.sources.git.GitRepo`);
a question they do not hold goes to git exactly as before.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from kcompat.sources.links import LINK_MODE


class Change(NamedTuple):
    """One changed file: its path, its blob on each side (None where it is absent), and
    whether git holds it there as a symbolic link (its blob then names a path, and is
    never a spec: the link is not followed)."""

    path: str
    old: str | None
    new: str | None
    old_link: bool = False
    new_link: bool = False


_ABSENT = {"0" * 40, "0" * 64}
SHA = re.compile(r"[0-9a-f]{40,64}\Z")


@dataclass
class GitTables:
    """The prefetched answers (plain data: they travel to preparation workers)."""

    changed: dict[tuple[str, str, tuple[str, ...]], tuple[Change, ...]] = field(
        default_factory=dict
    )
    # The commit graph under the audit's revisions and refs, and the refs by name: which
    # releases already contain a change, answered without git (see ``refs_with``).
    parents: dict[str, tuple[str, ...]] = field(default_factory=dict)
    refs: dict[str, str] = field(default_factory=dict)

    def knows_graph(self, *commits: str) -> bool:
        return bool(self.refs) and all(c in self.parents for c in commits)


def blob_id(text: str) -> str | None:
    """A raw diff's object id, None for git's all-zero "no blob here"."""
    return None if text in _ABSENT else text


def hash_of(data: bytes, like: str) -> str:
    """The object id git gives ``data`` as a blob, in the hash of id ``like`` (SHA-1 or
    SHA-256): a working-tree file compared to a blob without git refreshing its index."""
    digest = hashlib.sha1 if len(like) == 40 else hashlib.sha256
    return digest(b"blob %d\x00" % len(data) + data).hexdigest()


def raw_changes(tokens: Sequence[str]) -> list[Change]:
    """``git diff-* --raw -z --no-renames`` entries (``:mode mode old new status``, then
    the path) as (path, old blob, new blob); a mode of 160000 (a submodule) is no file of
    this one, and an unmerged entry (``U``) has no one new blob."""
    found: list[Change] = []
    for meta, path in zip(tokens[0::2], tokens[1::2], strict=False):
        parts = meta.lstrip(":").split()
        if len(parts) < 5 or "160000" in parts[:2]:
            continue
        new = None if parts[4] == "U" else blob_id(parts[3])
        old_link, new_link = (mode == LINK_MODE for mode in parts[:2])
        found.append(Change(path, blob_id(parts[2]), new, old_link, new_link))
    return found


def split_by_pair(out: str, heads: Sequence[str]) -> list[list[Change]] | None:
    """``git diff-tree --stdin --always --raw -z`` output, one list per input line (each
    starts with a header naming its HEAD commit); None when its shape is unexpected."""
    found: list[list[Change]] = []
    tokens = out.split("\x00")
    index = 0
    while index < len(tokens):
        token = tokens[index]
        if token.startswith(":"):
            if not found or index + 1 >= len(tokens):
                return None
            found[-1].extend(raw_changes(tokens[index : index + 2]))
            index += 2
            continue
        sha = token.strip()
        if sha:
            if len(found) >= len(heads) or sha != heads[len(found)]:
                return None
            found.append([])
        index += 1
    return found if len(found) == len(heads) else None


def log_history(out: str) -> list[tuple[str, str, str | None]]:
    """``git log --format=%H --raw -z`` as (commit, the file's path there, its blob): a
    commit's line, then its entries (``:meta``, then one path, or two for a rename or a
    copy: the second is the commit's)."""
    history = []
    tokens = out.split("\x00")
    commit, index = "", 0
    while index < len(tokens):
        token = tokens[index].removeprefix("\n")
        if token.startswith(":"):
            parts = token[1:].split()
            paths = 2 if len(parts) >= 5 and parts[4][:1] in "RC" else 1
            index += paths
            if commit and len(parts) >= 5 and index < len(tokens):
                history.append((commit, tokens[index], blob_id(parts[3])))
                commit = ""  # one entry per commit
        elif SHA.match(token):
            commit = token
        index += 1
    return history


class Ancestry:
    """Ancestors of commits in a prefetched graph, as bit sets (one bit per commit)."""

    def __init__(self, parents: Mapping[str, tuple[str, ...]]) -> None:
        self.parents = parents
        self._bits: dict[str, int] = {}
        self._index: dict[str, int] = {}

    def of(self, sha: str) -> int:
        """A commit and its ancestors as a bit set."""
        known = self._bits
        stack = [sha]
        while stack:  # iterative: histories are deeper than Python's recursion
            commit = stack[-1]
            if commit in known:
                stack.pop()
                continue
            missing = [p for p in self.parents.get(commit, ()) if p not in known]
            if missing:
                stack.extend(missing)
                continue
            stack.pop()
            bits = 1 << self._index.setdefault(commit, len(self._index))
            for parent in self.parents.get(commit, ()):
                bits |= known[parent]
            known[commit] = bits
        return known[sha]

    def refs_with(self, refs: Mapping[str, str], base: str, head: str) -> set[str]:
        """The refs whose ancestors meet those of ``head`` beyond those of ``base``: those
        that contain some commit of ``base..head``."""
        change = self.of(head) & ~self.of(base)
        return {ref for ref, sha in refs.items() if self.of(sha) & change}
