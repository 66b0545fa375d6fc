"""Which comparisons a history audit makes: consecutive commits, releases, all pairs."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from kcompat.errors import UsageError
from kcompat.sources.git import GitRepo
from kcompat.sources.gitrefs import Tag
from kcompat.sources.gitwalk import commits_in, first_parent_line
from kcompat.sources.release_source import repository_releases


@dataclass(frozen=True)
class Comparison:
    """One pair of revisions to diff, in audit order."""

    index: int
    base: str  # commit SHA
    head: str
    base_label: str
    head_label: str


def consecutive(
    repo: GitRepo, revision_range: str | None, pathspecs: Sequence[str] = ()
) -> list[Comparison]:
    """Every commit on the first-parent line of ``A..B`` (default: HEAD's history) that
    touched spec files, against its first parent."""
    spec = revision_range or "HEAD"
    if ".." in spec:
        start, _, end = spec.partition("..")
        end_sha = repo.resolve(end or "HEAD")
        start_sha = repo.resolve(start) if start else None
        rev_args = [f"{start_sha}..{end_sha}"] if start_sha else [end_sha]
    else:
        rev_args = [repo.resolve(spec)]
    return [
        Comparison(index, parent, commit, parent[:12], commit[:12])
        for index, (parent, commit) in enumerate(first_parent_line(repo, rev_args, pathspecs))
    ]


def releases(
    repo: GitRepo,
    pattern: str,
    transitive: bool = False,
    revision_range: str | None = None,
    pathspecs: Sequence[str] = (),
) -> list[Comparison]:
    """The repository's releases (release tags that hold specs) in version order: each
    against the previous one, or every pair; with ``revision_range`` only the releases
    inside it (see :func:`releases_in_range`)."""
    found = repository_releases(repo, pattern, pathspecs=pathspecs)
    tags = list(found.releases) if found is not None else []
    if revision_range is not None:
        tags = releases_in_range(repo, tags, revision_range)
    if len(tags) < 2:
        inside = f" in {revision_range}" if revision_range is not None else ""
        raise UsageError(
            f"found {len(tags)} release tag(s) matching {pattern!r} with specs{inside}; need at "
            "least two "
            "(use --tags PATTERN" + (", or a wider --range)" if inside else ")")
        )
    pairs = (
        [(a, b) for i, a in enumerate(tags) for b in tags[i + 1 :]]
        if transitive
        else list(itertools.pairwise(tags))
    )
    return [Comparison(i, a.sha, b.sha, a.name, b.name) for i, (a, b) in enumerate(pairs)]


def releases_in_range(repo: GitRepo, tags: Sequence[Tag], revision_range: str) -> list[Tag]:
    """The releases ``A..B`` spans. When both ends are release tags, those two and every
    release between them in version order (Kafka tags releases on branches that never
    merge back, so no release is reachable from another); otherwise the release tags
    that B reaches and A does not (``A..`` ends at HEAD, ``..B`` starts at the root)."""
    start, dots, end = revision_range.partition("..")
    if not dots:
        raise UsageError(f"--range {revision_range!r} is not A..B")
    names = [t.name for t in tags]
    if start in names and end in names:
        first, last = sorted((names.index(start), names.index(end)))
        return list(tags[first : last + 1])
    end_sha = repo.resolve(end or "HEAD")
    rev_args = [f"{repo.resolve(start)}..{end_sha}"] if start else [end_sha]
    inside = commits_in(repo, rev_args)
    return [t for t in tags if t.sha in inside]


def not_ancestors(repo: GitRepo, comparisons: Sequence[Comparison]) -> list[str]:
    """One note for the release pairs whose older release is not an ancestor of the newer
    one (2.8.2 -> 3.0.0 in version order: 2.8.2 sits on the 2.8 branch, cut before 3.0's),
    saying what was compared: the two releases' specs as they are, so what the older
    release's branch changed after the newer one branched off shows as undone. Said once
    per run: a product of 650 releases on branches has hundreds of such pairs."""
    apart = [c for c in comparisons if repo.merge_base(c.base, c.head) != c.base]
    if not apart:
        return []
    first = apart[0]
    if len(apart) == 1:
        return [
            f"{first.base_label} is not an ancestor of {first.head_label} (a release of "
            f"another branch): compared the specs of {first.base_label} with those of "
            f"{first.head_label} as they are, so what {first.base_label}'s branch changed "
            f"after {first.head_label}'s branched off shows as undone"
        ]
    shown = ", ".join(f"{c.base_label} -> {c.head_label}" for c in apart[:3])
    more = f" and {len(apart) - 3} more" if len(apart) > 3 else ""
    return [
        f"in {len(apart)} release pairs the older release is not an ancestor of the newer "
        f"(releases of other branches: {shown}{more}): each compared the two releases' "
        "specs as they are, so what the older one's branch changed after the newer one's "
        "branched off shows as undone"
    ]
