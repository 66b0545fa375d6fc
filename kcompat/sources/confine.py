"""A spec read from disk stays inside the repository that holds it.

A pull request can commit a symbolic link named ``specs/Evil.json`` that points at
``/proc/self/environ``, a runner's credentials or the checkout's own ``.git/config``
(where ``actions/checkout`` keeps its token). git stores the link, not the file, so
reading a revision reads the link's text; only reading the working tree follows it, and
then names and values of the target would reach annotations, the job summary and the
comment. So every spec file read from disk is resolved first (links followed, as the
read would follow them) and refused, in one line, when it ends outside the git working
tree it is in, or inside that tree's ``.git``. Outside any repository there is nothing
to leave: a folder the user names is theirs.
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

from kcompat.errors import UsageError


@lru_cache(maxsize=1024)
def _tree_holding(directory: str) -> Path | None:
    """The root of the working tree that ``directory`` is in (by name, as git finds it:
    the nearest folder upwards with a ``.git``), or None."""
    here = Path(directory)
    for folder in (here, *here.parents):
        if os.path.lexists(folder / ".git"):
            return folder
    return None


def tree_holding(path: Path) -> Path | None:
    """The working tree holding ``path`` (looked up from its folder as written)."""
    return _tree_holding(os.path.dirname(os.path.abspath(path)))


def _within(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def confine(path: Path, shown: str, root: Path | None = None) -> None:
    """A :class:`UsageError` when ``path``, its links followed, leaves the working tree
    ``root`` (default: the one that holds it) or reaches into its ``.git``."""
    tree = root if root is not None else tree_holding(path)
    if tree is None:
        return
    top = tree.resolve()
    real = Path(os.path.realpath(path))
    if _within(real, top) and not _within(real, top / ".git"):
        return
    where = (
        f"into the repository's .git folder ({tree / '.git'})"
        if _within(real, top / ".git")
        else f"to a file outside the repository {tree}"
    )
    raise UsageError(
        f"{shown}: a link {where}; kcompat reads no spec through it: commit the spec "
        "itself, not a link"
    )
