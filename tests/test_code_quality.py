"""The code is ruff- and mypy-clean (strict, tests and benchmarks included; ruff's C901
caps McCabe complexity at 20, the top of radon's rank C; radon also counts `and`/`or`,
so run `radon cc -n D kcompat` before a release) and no module is over 500 lines: the full
suite fails where a change would otherwise only fail a reviewer's local run."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

pytestmark = pytest.mark.slow


def _tool(name: str) -> str:
    found = Path(sys.executable).with_name(name)
    if found.is_file():
        return str(found)
    on_path = shutil.which(name)
    if on_path is None:
        pytest.skip(f"{name} is not installed (the dev extra installs it)")
    return on_path


def _run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)


def test_ruff_check_is_clean() -> None:
    done = _run(_tool("ruff"), "check", "--no-cache", "kcompat", "tests", "benchmarks")
    assert done.returncode == 0, done.stdout + done.stderr


def test_ruff_format_is_clean() -> None:
    done = _run(_tool("ruff"), "format", "--check", "--no-cache", "kcompat", "tests", "benchmarks")
    assert done.returncode == 0, done.stdout + done.stderr


def test_no_module_is_over_500_lines() -> None:
    """Small modules with one job: a module that outgrows this is split by what it does."""
    long = {
        str(path.relative_to(ROOT)): lines
        for path in sorted((ROOT / "kcompat").rglob("*.py"))
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > 500
    }
    assert long == {}


def test_mypy_strict_is_clean(tmp_path: Path) -> None:
    done = _run(_tool("mypy"), "--cache-dir", str(tmp_path / "mypy-cache"))
    assert done.returncode == 0, done.stdout + done.stderr
