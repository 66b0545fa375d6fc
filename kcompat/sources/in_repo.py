"""What the index and the working tree share: files of a repository that are not at a
commit, named and listed the same way."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from kcompat.errors import UsageError
from kcompat.sources.git import GitRepo
from kcompat.sources.source import in_repository, relative_to


def live_paths(
    repo: GitRepo,
    changed: Callable[[str, Sequence[str]], list[str]],
    pathspecs: Sequence[str],
) -> list[str]:
    """Every ``*.json`` at HEAD and every one ``changed`` lists since HEAD."""
    head = repo.head_sha()
    tracked = set(repo.list_files(head, pathspecs))
    return sorted(p for p in tracked | set(changed(head, pathspecs)) if p.endswith(".json"))


def shown(repo: GitRepo, path: str) -> str:
    return in_repository(repo.root, path)


def path_of(repo: GitRepo, label: str) -> str | None:
    return relative_to(label, repo.root)


def require_tree(repo: GitRepo, lacks: str) -> None:
    """A bare repository has neither an index nor a working tree: one line saying what to
    compare instead."""
    if not repo.bare:
        return
    where = repo.worktrees()
    instead = (
        f"run kcompat in one of its worktrees ({', '.join(where[:3])}), or give BASE "
        "and HEAD revisions"
        if where
        else "give BASE and HEAD revisions (kcompat diff BASE HEAD)"
    )
    raise UsageError(f"{repo.root} is a bare repository, with {lacks}: {instead}")
