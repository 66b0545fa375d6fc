"""A child process's environment that runs a kcompat tree as an installed kcompat runs.

pip compiles a package's bytecode when it installs it, so a user's ``kcompat`` never
compiles its own source. A benchmark that starts kcompat under
``PYTHONDONTWRITEBYTECODE`` (set on some machines, this one included) would time the
compiler on every module without a ``.pyc``: a changed or newly checked-out tree pays
tens of milliseconds per cold start that no user pays, and paired trees are compared
unfairly. So the child writes and reads its bytecode in a directory of the benchmark's
own (``PYTHONPYCACHEPREFIX``), never in the tree, and the benchmark's warm-up run fills it.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path


def as_installed(env: Mapping[str, str], pycache: Path) -> dict[str, str]:
    """``env`` with bytecode written and read under ``pycache`` (a temp directory)."""
    ready = {key: value for key, value in env.items() if key != "PYTHONDONTWRITEBYTECODE"}
    ready["PYTHONPYCACHEPREFIX"] = str(pycache)
    return ready
