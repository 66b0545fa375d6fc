"""The git variables a process inherits, and ``--repo``.

git obeys environment variables that name another repository (``GIT_DIR``) or another
part of one: a working tree, an index, an object store, configuration. A hook sets some
of them on purpose (a partial commit runs pre-commit with ``GIT_INDEX_FILE`` naming a
temporary index), and without ``--repo`` kcompat reads what git would. Inherited by a
command given ``--repo DIR``, they would silently replace parts of DIR: one repository's
HEAD compared with another's index. So with ``--repo`` they leave this process's
environment (GitPython hands git ``os.environ``; the preparation workers of ``history``
inherit it too), and one line on stderr says which. An index file inside DIR's own git
directory is DIR's (the partial commit again): it stays.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Mapping
from pathlib import Path

#: What git reads from the environment to find a repository's parts: the variables
#: ``git rev-parse --local-env-vars`` lists (the user's own configuration files,
#: ``GIT_CONFIG_GLOBAL`` and ``GIT_CONFIG_SYSTEM``, are not a repository's part).
REROUTING = (
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_COMMON_DIR",
    "GIT_INDEX_FILE",
    "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES",
    "GIT_IMPLICIT_WORK_TREE",
    "GIT_GRAFT_FILE",
    "GIT_SHALLOW_FILE",
    "GIT_NO_REPLACE_OBJECTS",
    "GIT_REPLACE_REF_BASE",
    "GIT_PREFIX",
    "GIT_CONFIG",
    "GIT_CONFIG_PARAMETERS",
    "GIT_CONFIG_COUNT",
)
_NUMBERED = re.compile(r"GIT_CONFIG_(KEY|VALUE)_[0-9]+\Z")


def inherited(environ: Mapping[str, str]) -> dict[str, str]:
    """The rerouting variables set in ``environ``."""
    return {
        name: value for name, value in environ.items() if name in REROUTING or _NUMBERED.match(name)
    }


def cleared_for_repo() -> dict[str, str]:
    """Take every rerouting variable out of this process's environment (``--repo`` was
    given); what was there, to :func:`settle` once the repository is found."""
    found = inherited(os.environ)
    for name in found:
        del os.environ[name]
    return found


def settle(found: Mapping[str, str], git_dir: Path, repo_arg: str) -> str:
    """Put back an index file that lies inside the repository's own git directory (a
    partial commit's), and say on stderr which variables ``--repo`` set aside; the line
    said (empty when none was)."""
    dropped = dict(found)
    index = dropped.pop("GIT_INDEX_FILE", None)
    if index is not None and _inside(Path(os.path.abspath(index)), git_dir):
        os.environ["GIT_INDEX_FILE"] = os.path.abspath(index)
    elif index is not None:
        dropped["GIT_INDEX_FILE"] = index
    if not dropped:
        return ""
    names = ", ".join(sorted(dropped))
    line = (
        f"kcompat: --repo {repo_arg}: ignoring {names} from the environment "
        "(they name parts of another repository)"
    )
    print(line, file=sys.stderr)
    return line


def _inside(path: Path, directory: Path) -> bool:
    try:
        path.resolve().relative_to(directory.resolve())
    except ValueError:
        return False
    return True
