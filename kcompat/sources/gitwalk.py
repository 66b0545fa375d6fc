"""Walks of a repository's history that a history audit plans with: which commits touched
the specs, which commits a range holds, what each commit is called."""

from __future__ import annotations

from collections.abc import Sequence

from kcompat.sources.git import GitRepo


def first_parent_line(
    repo: GitRepo, rev_args: Sequence[str], pathspecs: Sequence[str] = ()
) -> list[tuple[str, str]]:
    """(first parent, commit) for every commit on the first-parent line of ``rev_args``
    (resolved SHAs, or ``A..B`` of them) that touched ``pathspecs``, oldest first; the
    root commit has no parent to compare with and is left out."""
    out = repo.run_git(
        "rev-list",
        "--first-parent",
        "--reverse",
        "--parents",
        "--end-of-options",
        *rev_args,
        "--",
        *(pathspecs or ["."]),
    )
    pairs = []
    for line in out.splitlines():
        shas = line.split()
        if len(shas) >= 2:
            pairs.append((shas[1], shas[0]))
    return pairs


def commits_in(repo: GitRepo, rev_args: Sequence[str]) -> set[str]:
    """Every commit ``rev_args`` (resolved SHAs, or ``A..B`` of them) reaches."""
    return set(repo.run_git("rev-list", "--end-of-options", *rev_args, "--").split())


def subjects(repo: GitRepo, commits: Sequence[str]) -> dict[str, str]:
    """Each commit's subject line, by its full SHA (one git call for all of them)."""
    if not commits:
        return {}
    out = repo.run_git("log", "--no-walk", "--format=%H%x00%s", "--end-of-options", *commits, "--")
    found = {}
    for line in out.splitlines():
        full, _, subject = line.partition("\x00")
        found[full] = subject
    return found
