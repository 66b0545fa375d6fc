"""The unit tier keeps its promise: nothing under tests/unit starts a process or runs git.

At run time the tier's ``conftest.py`` closes every way to start a process; here that is
checked, and every module of the tier is read for imports of what starts processes
(subprocess, GitPython, pyspark, the suite's CLI and git helpers).
"""

from __future__ import annotations

import ast
import multiprocessing
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.unit.conftest import ProcessStarted

UNIT = Path(__file__).resolve().parent
#: Modules a unit test may not import: each starts processes (or runs git).
STARTERS = {
    "subprocess",
    "multiprocessing",
    "git",
    "pyspark",
    "pygls.lsp.client",
    "tests.diff_runner",
    "tests.lsp_client",
    "tests.git_calls",
    "tests.action_runner",
    "kcompat.sources.gitcmd",
    "kcompat.pipeline.session",
}
#: Helpers of the suite's conftest that run git.
GIT_HELPERS = {"git", "kafka_repo", "kafka_bundle", "spark"}


def test_starting_a_process_fails_the_test() -> None:
    with pytest.raises(ProcessStarted, match="starts no process"):
        subprocess.run([sys.executable, "-c", "pass"], check=False)
    with pytest.raises(ProcessStarted):
        os.system("true")
    if hasattr(os, "fork"):
        with pytest.raises(ProcessStarted):
            os.fork()
    with pytest.raises(ProcessStarted):
        process = multiprocessing.get_context("spawn").Process(target=print)
        process.start()


def test_running_git_fails_the_test(tmp_path: Path) -> None:
    """GitPython runs git when first imported, and for every repository it opens."""
    with pytest.raises((ProcessStarted, ImportError), match="starts no process"):
        import git

        git.Repo.init(tmp_path)


def _imports(tree: ast.AST) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def test_no_unit_module_imports_what_starts_processes() -> None:
    offenders = []
    for path in sorted(UNIT.rglob("*.py")):
        if path.name == "test_tier.py":
            continue  # it imports them to check the guard
        imported = _imports(ast.parse(path.read_text(encoding="utf-8")))
        bad = {name for name in imported if name in STARTERS or name.split(".")[0] == "git"}
        bad |= {f"tests.conftest.{h}" for h in GIT_HELPERS if f"tests.conftest.{h}" in imported}
        fixtures = {
            arg.arg
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test")
            for arg in node.args.args
        }
        bad |= {f"fixture {name}" for name in fixtures & GIT_HELPERS}
        if bad:
            offenders.append(f"{path.relative_to(UNIT)}: {', '.join(sorted(bad))}")
    assert offenders == []
