"""Which releases a matrix spans: the repository's releases, and ``--range A..B``.

The releases are what every command means by them
(:func:`~kcompat.sources.release_source.repository_releases`): tags matching
``release-tags`` (``v`` tags too, no pre-releases) whose tree holds a spec file, and the
tips of ``release-branches`` when configured. A matrix reads each release's specs from
that one listing (every release's files listed at once, each text read by its blob).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kcompat.errors import UsageError
from kcompat.naming import release_order
from kcompat.sources.git import GitRepo
from kcompat.sources.gitrefs import Tag
from kcompat.sources.release_source import GitReleases, release_tags, repository_releases

#: The name of the compared HEAD when it is the HEAD commit.
HEAD = "HEAD"


@dataclass(frozen=True)
class SpecReleases:
    """The releases of a repository, with what was left out of them and why."""

    source: GitReleases | None  # None: no tag holds a spec
    tagged: tuple[str, ...]  # every tag matching ``release-tags``, oldest first
    specless: tuple[str, ...]  # those whose tree git read and found no spec in
    problems: tuple[str, ...]  # releases git could not read (one line each)

    @property
    def releases(self) -> list[Tag]:
        return list(self.source.releases) if self.source is not None else []


def spec_releases(
    repo: GitRepo, pattern: str, pathspecs: Sequence[str] = (), branch_pattern: str | None = None
) -> SpecReleases:
    """The repository's releases (:func:`repository_releases`), oldest first, and the
    tags matching ``pattern`` (none: the caller says how to tag releases)."""
    tagged = release_tags(repo, pattern)
    found = repository_releases(repo, pattern, branch_pattern, pathspecs) if tagged else None
    kept = {t.name for t in found.releases} if found is not None else set()
    unread = {
        t.name for t in tagged if not t.sha or (found is not None and found.listing.unreadable(t))
    }
    return SpecReleases(
        found,
        tuple(t.name for t in tagged),
        tuple(t.name for t in tagged if t.name not in kept | unread),
        tuple(found.problems) if found is not None else (),
    )


@dataclass(frozen=True)
class ReleaseSide:
    """One release's spec files, read through the releases' one listing (what
    :class:`~kcompat.matrix.read.ApiReader` asks of a side)."""

    releases: GitReleases
    release: Tag

    def paths(self, pathspecs: Sequence[str] = ()) -> list[str]:
        return sorted(self.releases.files(self.release))

    def read(self, path: str) -> bytes | None:
        return self.releases.read(self.release, path)


@dataclass(frozen=True)
class Span:
    """``--range A..B``: the releases from A to B, both included (by release order: ``2.5``
    includes 2.5.0 and 2.5.1); an empty end is open, and HEAD is in unless B names a
    release."""

    text: str
    low: str
    high: str

    @staticmethod
    def parse(text: str | None) -> Span | None:
        if text is None:
            return None
        low, dots, high = text.partition("..")
        if not dots or (not low and not high) or ".." in high:
            raise UsageError(
                f"--range {text!r}: write A..B (releases from A to B), A.. or ..B, "
                "e.g. --range 2.2.0..3.8.0"
            )
        return Span(text, low.strip(), high.strip())

    @property
    def keeps_head(self) -> bool:
        return not self.high or self.high == HEAD

    def holds(self, release: str) -> bool:
        """Whether a release (by name) is within the range."""
        own = release_order(release)[0]
        if self.low and self.low != HEAD and not _at_least(own, self.low):
            return False
        return not self.high or self.high == HEAD or _at_most(own, self.high)

    def chosen(self, names: Sequence[str]) -> list[str]:
        """The names within the range, or one line saying none is."""
        found = [name for name in names if self.holds(name)]
        if not found:
            known = f"{names[0]} to {names[-1]}" if len(names) > 1 else (names or ["none"])[0]
            raise UsageError(
                f"--range {self.text}: no release in it (the releases are {known}); "
                "choose bounds among them"
            )
        return found


def _numbers(bound: str) -> tuple[int, ...]:
    numbers = release_order(bound)[0]
    if not numbers:
        raise UsageError(
            f"--range bound {bound!r} is not a release name (2.5, 3.8.0, v1.2): "
            "name a release or leave the bound empty"
        )
    return numbers


def _at_least(own: tuple[int, ...], bound: str) -> bool:
    return own >= _numbers(bound)


def _at_most(own: tuple[int, ...], bound: str) -> bool:
    wanted = _numbers(bound)
    return own[: len(wanted)] <= wanted
