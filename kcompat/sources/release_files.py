"""The ``.json`` files of every release, listed at once.

Which message a release shipped is looked up in its tree, often in a file it no longer
shares with BASE (a renamed file, a message added since). Listing each release's tree
costs one ``git ls-tree`` per release: with 650 release tags over 450,000 objects, most
of a diff. Releases in version order share almost every file, so the first is listed
and each next one is only its difference from the one before: one ``git diff-tree
--stdin`` for all of them, about the cost of one listing.

Kept as every 64th listing whole and the differences between (:class:`_Chain`), so
memory grows with the files and the changes, not with releases times files (10,000
release tags of 1,000 files each hold 160 listings, not 10,000). A release whose tree
git cannot read (a damaged or partial clone) is left out with one line saying so;
the others are listed as usual.
"""

from __future__ import annotations

import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from kcompat.errors import UsageError
from kcompat.sources.git import CHANGES, GitRepo
from kcompat.sources.gitrefs import Tag
from kcompat.sources.gittables import SHA, split_by_pair

#: A whole listing is kept every this many releases (the others are differences).
EVERY = 64


def _spec_like(path: str) -> bool:
    return path.endswith(".json")


@dataclass
class _Chain:
    """Listings of releases in order: every :data:`EVERY`-th whole, the rest as changes
    (path -> blob, None where the file went) from the one before."""

    whole: dict[int, dict[str, str]] = field(default_factory=dict)
    changes: list[dict[str, str | None]] = field(default_factory=list)
    _at: int = -1  # the listing last built (asked in order, each costs its changes)
    _files: dict[str, str] = field(default_factory=dict)

    def append(self, changes: dict[str, str | None]) -> None:
        index = len(self.changes)
        self.changes.append(changes)
        if index % EVERY == 0:
            self.whole[index] = dict(self._built(index))

    def files(self, index: int) -> dict[str, str]:
        """The listing of release ``index`` (a new dict: the caller may keep it)."""
        return dict(self._built(index))

    def blob(self, index: int, path: str) -> str | None:
        return self._built(index).get(path)

    def _built(self, index: int) -> dict[str, str]:
        if not (self._at != -1 and self._at <= index < self._at + EVERY):
            base = index - index % EVERY
            if base not in self.whole:  # the checkpoint being made: from the one before
                base -= EVERY
            self._files = dict(self.whole[base]) if base >= 0 else {}
            self._at = base if base >= 0 else -1
        for step in range(self._at + 1, index + 1):
            _apply(self._files, self.changes[step])
        self._at = index
        return self._files


def _apply(files: dict[str, str], changes: Mapping[str, str | None]) -> None:
    for path, blob in changes.items():
        if blob is None:
            files.pop(path, None)
        else:
            files[path] = blob


@dataclass
class ReleaseFiles:
    """The ``.json`` files (path -> blob) of a repository's releases under ``pathspecs``."""

    repo: GitRepo
    pathspecs: tuple[str, ...] = ()
    problems: list[str] = field(default_factory=list)  # one line per release left out
    _index: dict[str, int] = field(default_factory=dict)  # tag sha -> its listing
    _chain: _Chain = field(default_factory=_Chain)
    _last: str | None = None  # the release listed last (the next one is its difference)
    _unreadable: set[str] = field(default_factory=set)

    def walk(self, releases: Sequence[Tag]) -> None:
        """List every release not listed yet (one ``ls-tree``, one ``diff-tree``)."""
        firsts: dict[str, Tag] = {}
        for tag in self._readable([t for t in releases if t.sha not in self._index]):
            firsts.setdefault(tag.sha, tag)
        tags = [t for sha, t in firsts.items() if sha not in self._index]
        if not tags:
            return
        if self._last is None:
            try:
                listed = self.repo.list_files(tags[0].sha, self.pathspecs)
            except UsageError as err:
                self._left_out(tags[0], str(err))
                self.walk(tags[1:])
                return
            self._add(tags[0].sha, {p: b for p, b in listed.items() if _spec_like(p)})
            tags = tags[1:]
        assert self._last is not None
        pairs = list(zip([self._last, *(t.sha for t in tags)], tags, strict=False))
        found = self._differences([(before, tag.sha) for before, tag in pairs])
        if found is None:  # git would not compare them all: one release at a time
            for tag in tags:
                self._one(tag)
            return
        for tag, changes in zip(tags, found, strict=True):
            self._add(tag.sha, changes)

    def files(self, release: Tag) -> dict[str, str] | None:
        """``release``'s files (None when it was not listed: unreadable, or unknown)."""
        index = self._index.get(release.sha)
        return self._chain.files(index) if index is not None else None

    def blob(self, release: Tag, path: str) -> str | bool | None:
        """The blob of ``path`` in ``release`` (None: no such file; False: the release
        was not listed)."""
        index = self._index.get(release.sha)
        return self._chain.blob(index, path) if index is not None else False

    def unreadable(self, release: Tag) -> bool:
        return release.sha in self._unreadable

    def _add(self, sha: str, changes: dict[str, str | None]) -> None:
        self._index[sha] = len(self._chain.changes)
        self._chain.append(changes)
        self._last = sha

    def _one(self, tag: Tag) -> None:
        """List one release whole; one that git cannot list is left out, said once."""
        try:
            listed = self.repo.list_files(tag.sha, self.pathspecs)
        except UsageError as err:
            self._left_out(tag, str(err))
            return
        files = {p: b for p, b in listed.items() if _spec_like(p)}
        before = self._chain.files(len(self._chain.changes) - 1) if self._chain.changes else {}
        changes: dict[str, str | None] = {p: None for p in before if p not in files}
        changes.update({p: b for p, b in files.items() if before.get(p) != b})
        self._add(tag.sha, changes)

    def _differences(self, pairs: list[tuple[str, str]]) -> list[dict[str, str | None]] | None:
        """The ``.json`` changes of each (before, after) pair of commits, in one call."""
        if not pairs:
            return []
        if not all(SHA.match(a) and SHA.match(b) for a, b in pairs):
            return None
        lines = "".join(f"{after} {before}\n" for before, after in pairs).encode("ascii")
        with tempfile.TemporaryFile() as stdin:
            stdin.write(lines)
            stdin.seek(0)
            try:
                out = self.repo.run_git(
                    "diff-tree", "--stdin", "--always", "-r", *CHANGES, "--",
                    *(self.pathspecs or ["*.json"]), stdin=stdin,
                )  # fmt: skip
            except UsageError:
                return None
        split = split_by_pair(out, [after for _before, after in pairs])
        if split is None:
            return None
        return [{c.path: c.new for c in found if _spec_like(c.path)} for found in split]

    def _readable(self, releases: list[Tag]) -> list[Tag]:
        """``releases`` whose commit and tree git has; each other one left out, said once."""
        if not releases:
            return []
        asked = "".join(f"{t.sha}^{{tree}}\n" for t in releases).encode("utf-8", "replace")
        with tempfile.TemporaryFile() as stdin:
            stdin.write(asked)
            stdin.seek(0)
            try:
                out = self.repo.run_git("cat-file", "--batch-check", stdin=stdin)
            except UsageError:
                return releases  # asked one by one as they are listed
        answers = out.splitlines()
        if len(answers) != len(releases):
            return releases
        readable = []
        for release, answer in zip(releases, answers, strict=True):
            if answer.endswith(" missing") or answer.split()[1:2] != ["tree"]:
                self._left_out(release, "its tree is not in the repository")
            else:
                readable.append(release)
        return readable

    def _left_out(self, release: Tag, why: str) -> None:
        if release.sha not in self._unreadable:
            self._unreadable.add(release.sha)
            self.problems.append(f"release {release.name} left out: {why}")
