"""Walks of a repository's history that a history audit plans with: which commits touched
the specs, which commits a range holds, what each commit is called."""

from __future__ import annotations

from collections.abc import Sequence

from kcompat.sources.git import GitRepo
from kcompat.sources.gittables import SHA, blob_id

#: One commit of a first-parent walk and what it changed: (path, new blob or None).
Changes = tuple[str, tuple[tuple[str, str | None], ...]]


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


def first_parent_changes(
    repo: GitRepo, rev_args: Sequence[str], pathspecs: Sequence[str] = ()
) -> list[Changes]:
    """Every commit on the first-parent line of ``rev_args`` (resolved SHAs, or ``A..B``
    of them), oldest first, with what it changed against its first parent under
    ``pathspecs`` (a path and its new blob, None where deleted): one git process for a
    whole line, applied in order to the state before it."""
    out = repo.run_git(
        "log", "--first-parent", "--reverse", "--raw", "-z", "--no-renames", "--no-abbrev",
        "--format=%H", "--end-of-options", *rev_args, "--", *(pathspecs or ["."]),
    )  # fmt: skip
    found: list[tuple[str, list[tuple[str, str | None]]]] = []
    tokens = out.split("\x00")
    index = 0
    while index < len(tokens):
        token = tokens[index].lstrip("\n")
        if token.startswith(":") and found and index + 1 < len(tokens):
            parts = token[1:].split()
            if len(parts) >= 5 and "160000" not in parts[:2]:  # a submodule is no file
                blob = None if parts[4].startswith("D") else blob_id(parts[3])
                found[-1][1].append((tokens[index + 1], blob))
            index += 2
            continue
        if SHA.match(token):
            found.append((token, []))
        index += 1
    return [(commit, tuple(changes)) for commit, changes in found]


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
