"""Run kcompat as a real process with bounded memory and time, optionally without the
privilege to ignore permission bits, for tests of hostile inputs.

A regression on such input must fail its test, not eat the machine or hang the run: the
child gets a 1 GiB address-space limit and a timeout. Root reads and writes whatever it
likes whatever the permission bits say, so tests about unreadable folders and read-only
directories run the child without CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH (``setpriv``
drops them from the bounding set: root then obeys the owner bits like anyone else).
"""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import ROOT

MEMORY_LIMIT = 1 << 30
TIMEOUT = 60
_DROP = ["--bounding-set=-dac_override,-dac_read_search"]


@dataclass(frozen=True)
class Ran:
    code: int
    stdout: str
    stderr: str

    @property
    def error_line(self) -> str:
        """The one line on stderr (the test fails if there are more, or a traceback)."""
        lines = self.stderr.splitlines()
        assert len(lines) == 1, self.stderr[:2000]
        return lines[0]


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def unprivileged_prefix() -> list[str]:
    """The command prefix that makes permission bits apply (skips when impossible)."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root without setpriv: permission bits do not apply to root")
    probe = subprocess.run([setpriv, *_DROP, "true"], capture_output=True, check=False)
    if probe.returncode != 0:
        pytest.skip("cannot drop CAP_DAC_OVERRIDE here: permission bits do not apply to root")
    return [setpriv, *_DROP]


def run_kcompat(*args: str, cwd: Path, unprivileged: bool = False) -> Ran:
    """``python -m kcompat ARGS`` in ``cwd`` with this checkout first on the path."""
    prefix = unprivileged_prefix() if unprivileged else []
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1", "GIT_CONFIG_NOSYSTEM": "1"}
    env.pop("KCOMPAT_DEBUG", None)
    done = subprocess.run(
        [*prefix, sys.executable, "-m", "kcompat", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        preexec_fn=_limit_memory,
        check=False,
    )
    return Ran(done.returncode, done.stdout, done.stderr)
