"""A repository's branch and tag names as a user types them (for tab completion)."""

from __future__ import annotations

from kcompat.sources.git import GitRepo

_KINDS = {"refs/heads/": "branch", "refs/remotes/": "remote branch", "refs/tags/": "tag"}


def ref_names(repo: GitRepo) -> list[tuple[str, str]]:
    """(name, kind) of every local branch, remote-tracking branch (``origin/3.7``) and
    tag, in git's order; a remote's symbolic ``HEAD`` is left out."""
    rows = repo.ref_rows(("refname:short", "refname"), "refs/heads", "refs/remotes", "refs/tags")
    found = []
    for short, full in rows:
        if full.startswith("refs/remotes/") and full.endswith("/HEAD"):
            continue
        kind = next((k for prefix, k in _KINDS.items() if full.startswith(prefix)), "ref")
        found.append((short, kind))
    return found
