"""Which releases a matrix spans: the repository's release tags, and ``--range A..B``.

Issue 31 makes "the releases of a repository" one function of the sources (tags whose
tree holds specs, ``v`` tags too, pre-releases left out); until then :func:`release_tags`
is that function here, and every use of it in the matrix goes through it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kcompat.errors import UsageError
from kcompat.naming import release_order
from kcompat.sources.git import GitRepo
from kcompat.sources.gitrefs import Tag
from kcompat.sources.release_source import release_tags as _tags

#: The name of the compared HEAD when it is the HEAD commit.
HEAD = "HEAD"


def release_tags(repo: GitRepo, pattern: str) -> list[Tag]:
    """The repository's release tags (``pattern``: the configured ``release-tags``),
    oldest release first. Tags whose tree holds no request spec are dropped by the
    caller once it has read them (see :mod:`kcompat.matrix.run`)."""
    return _tags(repo, pattern)


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
