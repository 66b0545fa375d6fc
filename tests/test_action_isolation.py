"""The Action never runs the pull request's own Python (issue 22, point 2).

A pull request checkout that ships ``kcompat/ci/github.py``, ``json.py`` and
``pip/__main__.py``: with ``python -m`` in the workspace each would shadow the real module
and run with ``GITHUB_TOKEN`` in its environment. The action's own steps, run as the
runner runs them (:mod:`tests.action_runner`), must never import them: each planted
module leaves a mark in ``RUNNER_TEMP`` when it runs, and none may be there.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.action_runner import SPEC as NAME
from tests.action_runner import Runner, _runner_python, copy_action, tally
from tests.diff_runner import commit_tree, git, init_repo

#: What a hostile module does when imported: note that it ran (and whether it saw the
#: token), then report success.
PAYLOAD = """\
import os as _os
with open(_os.path.join(_os.environ["RUNNER_TEMP"], "planted-{name}"), "w") as _mark:
    _mark.write(_os.environ.get("GITHUB_TOKEN", ""))
print("kcompat: no problems")
raise SystemExit(0)
"""
PLANTED = {
    "kcompat/__init__.py": "",
    "kcompat/ci/__init__.py": "",
    "kcompat/ci/github.py": PAYLOAD.format(name="kcompat"),
    "json.py": PAYLOAD.format(name="json"),
    "pip/__init__.py": "",
    "pip/__main__.py": PAYLOAD.format(name="pip"),
}


def hostile_pull_request(tmp_path: Path) -> Path:
    """A checkout of a pull request that breaks a spec and ships the planted modules."""
    origin = init_repo(tmp_path / "origin")
    commit_tree(origin, {NAME: tally(3)}, "base")
    clone = tmp_path / "workspace"
    subprocess.run(["git", "clone", "-q", str(origin), str(clone)], check=True)
    git(clone, "checkout", "-q", "-b", "feature")
    commit_tree(clone, {NAME: tally(3, typed="int64"), **PLANTED}, "the pull request")
    return clone


EVENT = {"pull_request": {"number": 7, "base": {"ref": "main"}, "labels": []}}


def assert_nothing_planted_ran(runner: Runner) -> None:
    marks = sorted(p.name for p in runner.temp.glob("planted-*"))
    assert marks == [], f"the pull request's own code ran: {marks}"


def test_the_check_step_never_imports_the_pull_requests_modules(tmp_path: Path) -> None:
    workspace = hostile_pull_request(tmp_path)
    runner = Runner(tmp_path / "runner", workspace, EVENT, token="ghs_secret")
    run = runner.run()
    assert_nothing_planted_ran(runner)
    assert run.returncode == 1, run.stdout + run.stderr  # the real check: a break
    assert len(run.annotations("error")) == 3
    assert "kcompat: no problems" not in run.stdout
    assert run.outputs["errors"] == "3" and run.outputs["exit-code"] == "1"
    assert "**Breaking changes found**" in run.summary


@pytest.mark.slow
def test_install_and_check_never_run_the_pull_requests_modules(tmp_path: Path) -> None:
    """The whole action as the runner runs it, pip's build and install included."""
    workspace = hostile_pull_request(tmp_path)
    action = copy_action(tmp_path / "action")
    runner = Runner(
        tmp_path / "runner", workspace, EVENT, token="ghs_secret", action_path=action, install=True
    )
    run = runner.run()
    assert_nothing_planted_ran(runner)
    assert run.returncode == 1, run.stdout + run.stderr
    assert len(run.annotations("error")) == 3
    assert run.outputs["errors"] == "3"
    # pip installed into a venv under RUNNER_TEMP: nothing was written into the workspace
    assert git(workspace, "status", "--porcelain", "--ignored") == ""


def test_no_process_the_step_starts_sees_the_token(tmp_path: Path) -> None:
    """The token is read once and taken out of the environment git inherits."""
    spy = tmp_path / "spy"
    spy.mkdir()
    real = shutil.which("git")
    (spy / "git").write_text(f'#!/bin/sh\nenv > "$RUNNER_TEMP/git-env-$$"\nexec {real} "$@"\n')
    (spy / "git").chmod(0o755)
    workspace = hostile_pull_request(tmp_path)
    runner = Runner(
        tmp_path / "runner",
        workspace,
        EVENT,
        token="ghs_secret",
        # the spy first, then what setup-python puts on PATH (the preflight step's python)
        extra_env={"PATH": f"{spy}:{_runner_python(tmp_path / 'runner')}:/usr/bin:/bin"},
    )
    run = runner.run()
    assert run.returncode == 1, run.stdout + run.stderr
    seen = [p.read_text() for p in runner.temp.glob("git-env-*")]
    assert seen, "git ran through the spy"
    assert not any("ghs_secret" in env for env in seen)
