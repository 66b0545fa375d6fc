"""The unit tier: the pure core, no process and no git, in seconds.

Every test under ``tests/unit/`` runs with process creation closed: ``subprocess``,
``os.fork``, ``os.posix_spawn``, ``os.system``, multiprocessing's fork-exec (the one
call every one of them ends in), so GitPython, a CLI run in a subprocess or a Spark
session cannot start either. A test that tries fails with :class:`ProcessStarted`,
naming what it tried; ``tests/unit/test_tier.py`` checks the guard, and that no module
here imports what starts processes. Threads are fine (the core is safe for them).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest


class ProcessStarted(AssertionError):
    """A unit test tried to start a process (or run git): it belongs in another tier."""


def _refuse(what: str) -> Callable[..., Any]:
    def refused(*args: Any, **kwargs: Any) -> Any:
        raise ProcessStarted(
            f"tests/unit starts no process: {what}({str(args[:1])[1:-2]}) was called; "
            "move the test out of tests/unit or make it call the core directly"
        )

    return refused


#: Every way Python starts a process: subprocess (and asyncio's, GitPython's and
#: multiprocessing's, which use it or fork_exec directly), and the os calls.
CLOSED = (
    ("_posixsubprocess", "fork_exec"),
    ("subprocess", "_fork_exec"),  # subprocess's own reference to it
    ("os", "fork"),
    ("os", "forkpty"),
    ("os", "posix_spawn"),
    ("os", "posix_spawnp"),
    ("os", "system"),
    ("os", "execv"),
    ("os", "execve"),
)


@pytest.fixture(autouse=True)
def no_processes(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    import importlib

    for module_name, name in CLOSED:
        module = importlib.import_module(module_name)
        if hasattr(module, name):
            monkeypatch.setattr(module, name, _refuse(f"{module_name}.{name}"))
    yield
