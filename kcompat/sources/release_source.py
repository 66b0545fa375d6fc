"""Where release texts come from: the :class:`ReleaseSource` interface, and a
repository's releases (:func:`repository_releases`, what every command means by them).

What a release shipped is judged from its spec texts (:mod:`kcompat.sources.releases`);
this module only says which releases there are, reads their texts and lists their files,
and says which releases already contain a change. A release is a tag that matches
``release-tags`` (``1.2.3`` or ``v1.2.3`` by default; no ``-rc1``) and whose tree holds a
spec file: apache/kafka's tags 0.8.0 to 2.1.1 predate its JSON specs and are no releases
of them. Kafka tags releases on release branches (``3.7`` -> ``3.7.0``) that never merge
back into trunk, so every release tag in the repository counts, wherever it sits;
optionally the tips of release branches count as about to ship.
"""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from kcompat.naming import release_order
from kcompat.patterns import matching
from kcompat.sources.git import GitRepo
from kcompat.sources.gitrefs import Tag
from kcompat.sources.release_files import ReleaseFiles

#: From how many releases a path is asked of all of them in one git call (one process
#: start costs about what 50 questions to the running ``cat-file`` do).
ASK_AT_ONCE = 64
#: What makes a ``.json`` file a spec (the one key every message spec has).
SPEC_KEY = b'"validVersions"'
#: How a release branch's tip is named (``3.9 (branch)``): a release about to ship.
BRANCH = " (branch)"


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
    """Release tags and branch tips of a repository, read from its object store.

    A release's file is first looked up by its path (through the one ``cat-file``
    process); every release's files are listed (:class:`ReleaseFiles`, two git calls for
    all) only when a question needs them: a message looked for elsewhere, or a release
    whose ``probes`` (the paths a comparison reads) hold no spec."""

    repo: GitRepo
    releases: list[Tag]
    pathspecs: tuple[str, ...] = ()
    probes: tuple[str, ...] = ()  # paths where a release most likely has a spec file
    listing: ReleaseFiles = field(init=False, repr=False)
    _specs: dict[str, bool] = field(default_factory=dict, repr=False)  # blob -> a spec?

    def __post_init__(self) -> None:
        self.listing = ReleaseFiles(self.repo, self.pathspecs)
        self._walked = 0  # how many of ``releases`` were listed
        self._asked: set[str] = set()  # paths asked of every release at once
        self._blobs: dict[tuple[str, str], str | None] = {}  # their answers

    @property
    def problems(self) -> list[str]:
        """One line per release left out (its tree unreadable, or no commit at all)."""
        return self.listing.problems

    def _listed(self) -> ReleaseFiles:
        """The releases' files, listed on first use (all of them at once)."""
        if self._walked != len(self.releases):
            self.listing.walk(self.releases)
            self._walked = len(self.releases)
        return self.listing

    def blob(self, release: Tag, path: str) -> str | None:
        """The blob of ``path`` in ``release`` (None when it has no such file): from the
        listing when there is one, else asked for every release at once (a comparison
        asks of one path in each release in turn)."""
        if self._walked:
            found = self.listing.blob(release, path)
            if found is not False:
                return found if isinstance(found, str) else None
        if path not in self._asked and len(self.releases) > ASK_AT_ONCE:
            self._asked.add(path)
            self._ask_all(path)
        if (release.sha, path) in self._blobs:
            return self._blobs[(release.sha, path)]
        return self.repo.blob_at(release.sha, path)

    def _ask_all(self, path: str) -> None:
        """The blob of ``path`` in every release, in one ``cat-file --batch-check``."""
        if "\n" in path:
            return
        asked = "".join(f"{t.sha}:{path}\n" for t in self.releases)
        with tempfile.TemporaryFile() as stdin:
            stdin.write(asked.encode("utf-8", "surrogateescape"))
            stdin.seek(0)
            out = self.repo.run_git(
                "cat-file", "--batch-check=%(objectname) %(objecttype)", stdin=stdin
            )
        answers = out.split("\n")
        if len(answers) == len(self.releases):  # else: asked one by one as they come
            for release, answer in zip(self.releases, answers, strict=True):
                oid, _, kind = answer.partition(" ")
                self._blobs[(release.sha, path)] = oid if kind == "blob" else None

    def read(self, release: Tag, path: str) -> bytes | None:
        blob = self.blob(release, path)
        return self.repo.read_blob(blob, path) if blob is not None else None

    def files(self, release: Tag) -> Sequence[str]:
        return list(self._listed().files(release) or ())

    def holds_specs(self, release: Tag) -> bool:
        """Whether ``release``'s tree has a spec file (a ``.json`` naming validVersions):
        at one of the ``probes``, else anywhere in its listing."""
        for path in self.probes:
            blob = self.blob(release, path)
            if blob is not None and self._spec(blob, path):
                return True
        files = self._listed().files(release)
        if not files:
            return False
        blobs = {blob: path for path, blob in sorted(files.items())}
        return any(self._specs.get(blob) for blob in blobs) or any(
            self._spec(blob, path) for blob, path in blobs.items() if blob not in self._specs
        )

    def _spec(self, blob: str, path: str) -> bool:
        if blob not in self._specs:
            data = self.repo.read_blob(blob, path)
            self._specs[blob] = data is not None and SPEC_KEY in data
        return self._specs[blob]

    def containing(self, base: str, head: str) -> set[str]:
        return self.repo.refs_with(base, head, {t.ref: t.sha for t in self.releases})

    def root(self, release: Tag) -> str | None:
        """The first commit of ``release``'s history (where the repository starts)."""
        found = self.repo.run_git("rev-list", "--max-parents=0", "--end-of-options", release.sha)
        return found.split()[0] if found.split() else None


def release_tags(repo: GitRepo, pattern: str) -> list[Tag]:
    """Tags that look like releases (``1.2.3``, ``v1.2.3`` by default; no ``-rc``), oldest
    release first; one that points at no commit the repository has comes with an empty
    ``sha`` (:func:`repository_releases` says so and goes on without it)."""
    chosen = matching(pattern, repo.tags(), _name, "release-tags")
    return sorted(chosen, key=_order)


def release_branches(repo: GitRepo, pattern: str) -> list[Tag]:
    """Tips of branches (local or remote-tracking) whose short name matches ``pattern``,
    as releases about to ship (named ``3.9 (branch)``), oldest first."""
    tips: dict[str, Tag] = {}
    for branch in matching(pattern, repo.branches(), _name, "release-branches"):
        tips.setdefault(branch.name, Tag(f"{branch.name}{BRANCH}", branch.sha, branch.ref))
    return sorted(tips.values(), key=_order)


def repository_releases(
    repo: GitRepo,
    pattern: str,
    branch_pattern: str | None = None,
    pathspecs: Sequence[str] = (),
    probes: Sequence[str] = (),
) -> GitReleases | None:
    """The releases of a repository, oldest first: the tags matching ``pattern`` (and the
    tips of branches matching ``branch_pattern``) whose tree holds a spec file under
    ``pathspecs``; None when there is none. Every command that speaks of releases asks
    this (``diff``, ``history``, the language server); ``probes``: paths where specs are
    expected (a comparison's files), looked at before any release is listed whole."""
    tags = release_tags(repo, pattern)
    if branch_pattern:
        tags = sorted([*tags, *release_branches(repo, branch_pattern)], key=_order)
    lost = [t for t in tags if not t.sha]
    tags = [t for t in tags if t.sha]
    if not tags:
        return None
    found = GitReleases(repo, tags, tuple(pathspecs), tuple(probes))
    found.problems[:0] = [
        f"release {t.name} left out: it points at no commit the repository has" for t in lost
    ]
    found.releases = [t for t in tags if found.holds_specs(t)]
    return found if found.releases else None


def _name(tag: Tag) -> str:
    return tag.name


#: A branch tip's last number: after every release tagged on its line (``3.7.1``).
_TIP = 2**63


def _order(tag: Tag) -> tuple[tuple[int, ...], str]:
    """Release order; the tip of release branch ``3.7`` is what 3.7.x ships next, so it
    comes after 3.7.0 and 3.7.1 (and before 3.8.0)."""
    numbers, name = release_order(tag.name)
    return ((*numbers, _TIP), name) if name.endswith(BRANCH) else (numbers, name)
