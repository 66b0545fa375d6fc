"""What the Action checks before it installs anything: the event that started the run,
and what the ``install`` input asks pip to install.

``action.yml`` runs this file with the runner's Python (``python -I``, from the action's
own checkout), before kcompat exists in the venv: so it uses the standard library only.
Either refusal is one ``::error`` line in the log and the job summary, and exit 2.

- ``pull_request_target`` runs with the base repository's write token and secrets, yet a
  workflow on it is easily made to check out a fork's pull request: kcompat reads that
  checkout, so it refuses to run there (run it on ``pull_request``; docs/SECURITY.md).
- ``install``: pip builds what it installs, running its build code; a path (or a
  ``file:`` URL) inside ``GITHUB_WORKSPACE`` is the pull request's checkout, and a pip
  option (``--requirement=FILE``) could read from it too.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

#: Where the reasons are written down.
SECURITY = "docs/SECURITY.md#the-github-action"
PULL_REQUEST_TARGET = (
    "kcompat does not run on pull_request_target: that event gives a fork's pull request "
    "the base repository's write token and secrets; run it on pull_request (" + SECURITY + ")"
)
#: ``file:`` URLs anywhere in a requirement (``name @ file:///x``, ``git+file:///x``).
_FILE_URL = re.compile(r"file:(?://[^/\s]*)?(/[^\s#?]*)")
#: A requirement's extras at the end of a path (``/checkout[spark]``).
_EXTRAS = re.compile(r"\s*\[[^\]]*\]\s*\Z")


def refusal(env: Mapping[str, str], install: str) -> str | None:
    """Why the run must stop before installing, or None."""
    if env.get("GITHUB_EVENT_NAME", "") == "pull_request_target":
        return PULL_REQUEST_TARGET
    return install_refusal(install, env.get("GITHUB_WORKSPACE", ""), os.getcwd())


def install_refusal(install: str, workspace: str, cwd: str) -> str | None:
    """Why the ``install`` input may not be installed, or None."""
    value = install.strip()
    if not value:
        return None  # the action's own checkout
    if value.startswith("-"):
        return (
            f"the install input is a requirement or a path, not a pip option: {value!r} "
            "(an option could read the pull request's files)"
        )
    if not workspace:
        return None
    inside = _inside(workspace, _paths_named(value, cwd))
    if inside is None:
        return None
    return (
        f"the install input names {inside}, inside GITHUB_WORKSPACE (the pull request's "
        "checkout): pip would run its build code; install a requirement or a path outside it"
    )


def _paths_named(value: str, cwd: str) -> list[str]:
    """The paths a requirement names: itself as a path, and every ``file:`` URL in it."""
    from urllib.parse import unquote

    paths = [unquote(match.group(1)) for match in _FILE_URL.finditer(value)]
    if not re.match(r"[A-Za-z][A-Za-z0-9+.-]*://", value):  # a URL is not a path
        # pip reads ``PATH[extras]`` and ``PATH;marker`` as PATH: each reading is checked
        path = value.split(" @ ")[0]
        named = {path, path.split(";", 1)[0].strip()}
        named |= {_EXTRAS.sub("", name) for name in named}
        paths += [os.path.join(cwd, os.path.expanduser(name)) for name in sorted(named)]
    return paths


def _inside(workspace: str, paths: Sequence[str]) -> str | None:
    """The first of ``paths`` that is the workspace or under it (symbolic links resolved,
    and another spelling of the same folder counted: see :func:`_same_folder`)."""
    root = Path(os.path.realpath(workspace))
    for path in paths:
        real = Path(os.path.realpath(path))
        if real == root or root in real.parents or _same_folder(real, root):
            return path
    return None


def _same_folder(path: Path, root: Path) -> bool:
    """Whether ``path`` or a folder above it is ``root`` on disk, by device and inode.

    Names are not enough where one folder has several spellings that ``realpath`` keeps
    apart: macOS's and Windows's case-insensitive disks (``/Users/me/Work`` and
    ``/users/me/work``), bind mounts."""
    try:
        folder = os.stat(root)
    except OSError:
        return False
    for candidate in (path, *path.parents):
        try:
            if os.path.samestat(os.stat(candidate), folder):
                return True
        except OSError:
            continue  # not there (yet): a folder above it may be
    return False


def _escape(text: str) -> str:
    """A workflow command's text: nothing in it can end the line or the command."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def main(argv: Sequence[str]) -> int:
    why = refusal(os.environ, argv[1] if len(argv) > 1 else "")
    if why is None:
        return 0
    print(f"::error title=kcompat::{_escape(why)}")
    summary = os.environ.get("GITHUB_STEP_SUMMARY")
    if summary:
        with open(summary, "a", encoding="utf-8") as handle:
            handle.write(f"### kcompat compatibility check\n\n❌ {why.replace('<', '&lt;')}\n")
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
