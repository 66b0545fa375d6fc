"""A simulated GitHub runner for ``action.yml``: the action's own step commands, run as
GitHub runs a composite action's steps.

Each ``run:`` step of ``action.yml`` is written to a script and run with ``bash
--noprofile --norc -eo pipefail`` (GitHub's ``shell: bash``) in its ``working-directory``
(else ``GITHUB_WORKSPACE``), with the step's ``env:`` evaluated and the variables a runner
sets: ``GITHUB_EVENT_PATH``, ``GITHUB_WORKSPACE``, ``RUNNER_TEMP``, ``GITHUB_ACTION_PATH``,
a fresh ``GITHUB_OUTPUT`` and ``GITHUB_STEP_SUMMARY`` per step. The steps stop at the first
failure, as a composite action's do. ``uses:`` steps (``actions/setup-python``) are the
runner's part: the ``python`` on ``PATH`` is the interpreter running the tests.

The install step (a venv outside the workspace, then ``pip install`` of the action's own
checkout) builds and installs kcompat with pip, so only a runner made with
``install=True`` runs it. Otherwise the venv the step would create is made here without
pip (``venv --without-pip``): the same interpreter, kcompat and its dependencies from the
tree under test (a ``.pth`` file), at the path the action's steps name (``KCOMPAT_VENV``).
Every other step runs exactly as written.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import sysconfig
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml  # type: ignore[import-untyped]  # PyYAML: with pre-commit (the dev extra)

from tests.diff_runner import GIT_ENV, commit_tree, git, init_repo

ROOT = Path(__file__).resolve().parent.parent
ACTION = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
_EXPRESSION = re.compile(r"\$\{\{\s*(.+?)\s*\}\}")


@dataclass(frozen=True)
class StepRun:
    name: str
    returncode: int
    stdout: str
    stderr: str
    outputs: dict[str, str]
    summary: str


@dataclass(frozen=True)
class ActionRun:
    """What the job log, the job summary and the action's outputs show after the run."""

    steps: tuple[StepRun, ...]
    outputs: dict[str, str]

    @property
    def returncode(self) -> int:
        """The status of the last step run (the first that failed, or 0)."""
        return self.steps[-1].returncode if self.steps else 0

    @property
    def stdout(self) -> str:
        return "".join(step.stdout for step in self.steps)

    @property
    def stderr(self) -> str:
        return "".join(step.stderr for step in self.steps)

    @property
    def summary(self) -> str:
        return "".join(step.summary for step in self.steps)

    @property
    def lines(self) -> list[str]:
        return self.stdout.splitlines()

    def annotations(self, level: str) -> list[str]:
        return [line for line in self.lines if line.startswith(f"::{level} ")]


@dataclass
class Runner:
    """One job on a simulated runner: its directories, event and environment."""

    home: Path  # a temp dir of the test's own
    workspace: Path  # GITHUB_WORKSPACE: the checkout of the pull request
    event: Mapping[str, Any]
    event_name: str = "pull_request"
    repository: str = "kafka/protocol"
    api: str = ""  # GITHUB_API_URL: a fake server's address ("" for none)
    token: str = ""  # github.token
    action_path: Path = ROOT
    install: bool = False  # run the install step (pip builds kcompat), else provide its venv
    action_ref: str = ""  # github.action_ref: empty, as GitHub leaves it in composite steps
    extra_env: dict[str, str] = field(default_factory=dict)

    @property
    def temp(self) -> Path:
        return self.home / "runner-temp"

    def run(self, **inputs: str) -> ActionRun:
        """Run the action's steps with ``inputs`` (names as in action.yml: ``fail-on``)."""
        unknown = set(inputs) - set(ACTION["inputs"])
        assert not unknown, f"action.yml has no input {sorted(unknown)}"
        self.temp.mkdir(parents=True, exist_ok=True)
        event_path = self.home / "event.json"
        event_path.write_text(json.dumps(self.event), encoding="utf-8")
        contexts = {
            "runner.temp": str(self.temp),
            "github.action_path": str(self.action_path),
            "github.token": self.token,
            "github.workspace": str(self.workspace),
            "github.action_ref": self.action_ref,
        }
        done: list[StepRun] = []
        step_outputs: dict[str, dict[str, str]] = {}
        for index, step in enumerate(ACTION["runs"]["steps"]):
            if "uses" in step:
                continue  # actions/setup-python: the runner's python is on PATH
            env = {
                name: self._evaluate(str(value), inputs, contexts, step_outputs)
                for name, value in (step.get("env") or {}).items()
            }
            if not self.install and "pip install" in step["run"]:
                if "KCOMPAT_VENV" in env:
                    _provide_venv(Path(env["KCOMPAT_VENV"]), self.home)
                continue
            result = self._step(index, step, env, inputs, contexts, step_outputs, event_path)
            done.append(result)
            if "id" in step:
                step_outputs[step["id"]] = result.outputs
            if result.returncode != 0:
                break
        outputs = {
            name: self._evaluate(str(spec["value"]), inputs, contexts, step_outputs)
            for name, spec in ACTION["outputs"].items()
        }
        return ActionRun(tuple(done), outputs)

    def _step(
        self,
        index: int,
        step: Mapping[str, Any],
        env: dict[str, str],
        inputs: Mapping[str, str],
        contexts: Mapping[str, str],
        step_outputs: Mapping[str, Mapping[str, str]],
        event_path: Path,
    ) -> StepRun:
        files = self.home / f"step-{index}"
        files.mkdir(exist_ok=True)
        script = files / "script.sh"
        script.write_text(self._evaluate(step["run"], inputs, contexts, step_outputs))
        output, summary = files / "output", files / "summary"
        output.touch()
        summary.touch()
        directory = step.get("working-directory")
        cwd = (
            Path(self._evaluate(directory, inputs, contexts, step_outputs))
            if directory
            else self.workspace
        )
        done = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
            cwd=cwd,
            env={**self._runner_env(event_path, output, summary), **env},
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        return StepRun(
            step.get("name", f"step {index}"),
            done.returncode,
            done.stdout,
            done.stderr,
            parse_output_file(output.read_text(encoding="utf-8")),
            summary.read_text(encoding="utf-8"),
        )

    def _runner_env(self, event_path: Path, output: Path, summary: Path) -> dict[str, str]:
        pull = self.event.get("pull_request") or {}
        return {
            **GIT_ENV,
            "PATH": f"{_runner_python(self.home)}:/usr/local/bin:/usr/bin:/bin",
            "HOME": str(self.home),
            "CI": "true",
            "GITHUB_ACTIONS": "true",
            "GITHUB_WORKSPACE": str(self.workspace),
            "GITHUB_EVENT_PATH": str(event_path),
            "GITHUB_EVENT_NAME": self.event_name,
            "GITHUB_OUTPUT": str(output),
            "GITHUB_STEP_SUMMARY": str(summary),
            "GITHUB_ACTION_PATH": str(self.action_path),
            "GITHUB_REPOSITORY": self.repository,
            "GITHUB_SERVER_URL": "https://github.com",
            "GITHUB_API_URL": self.api or "http://127.0.0.1:9",  # never the real API
            "GITHUB_BASE_REF": str((pull.get("base") or {}).get("ref", "")),
            "GITHUB_HEAD_REF": str((pull.get("head") or {}).get("ref", "")),
            "RUNNER_TEMP": str(self.temp),
            **self.extra_env,
        }

    def _evaluate(
        self,
        text: str,
        inputs: Mapping[str, str],
        contexts: Mapping[str, str],
        step_outputs: Mapping[str, Mapping[str, str]],
    ) -> str:
        """``${{ ... }}`` in action.yml: the few forms it may use, nothing else."""

        def value(match: re.Match[str]) -> str:
            expression = match.group(1)
            if expression.startswith("inputs."):
                name = expression.removeprefix("inputs.")
                if name in inputs:
                    return inputs[name]
                default = str(ACTION["inputs"][name].get("default", ""))
                return self._evaluate(default, inputs, contexts, step_outputs)
            if expression.startswith("steps."):
                step_id, _, name = expression.removeprefix("steps.").partition(".outputs.")
                return step_outputs.get(step_id, {}).get(name, "")
            if expression in contexts:
                return contexts[expression]
            raise ValueError(f"the simulated runner cannot evaluate ${{{{ {expression} }}}}")

        return _EXPRESSION.sub(value, text)


def parse_output_file(text: str) -> dict[str, str]:
    """``GITHUB_OUTPUT``: ``name=value`` lines and ``name<<DELIMITER`` blocks."""
    outputs: dict[str, str] = {}
    lines = text.split("\n")
    index = 0
    while index < len(lines):
        line = lines[index]
        index += 1
        if "<<" in line and ("=" not in line or line.index("<<") < line.index("=")):
            name, _, delimiter = line.partition("<<")
            block: list[str] = []
            while lines[index] != delimiter:
                block.append(lines[index])
                index += 1
            index += 1
            outputs[name] = "\n".join(block)
        elif "=" in line:
            name, _, value = line.partition("=")
            outputs[name] = value
    return outputs


def _runner_python(home: Path) -> str:
    """A directory whose ``python`` is the interpreter under the tests' venv (what
    setup-python puts on PATH: a Python without kcompat)."""
    tools = home / "toolcache" / "bin"
    if not tools.is_dir():
        tools.mkdir(parents=True)
        base = Path(getattr(sys, "_base_executable", sys.executable))
        (tools / "python").symlink_to(base)
    return str(tools)


def _provide_venv(venv: Path, home: Path) -> None:
    """The venv the install step makes, without pip's build: the runner's interpreter,
    with kcompat and its dependencies from the tree under test."""
    if venv.exists():
        return
    python = str(Path(_runner_python(home)) / "python")
    subprocess.run(
        [python, "-I", "-m", "venv", "--without-pip", str(venv)], check=True, cwd=venv.parent
    )
    purelib = Path(sysconfig.get_paths()["purelib"])  # the tests' site-packages
    site = next((venv / "lib").glob("python3*/site-packages"))
    (site / "kcompat-tests.pth").write_text(f"{ROOT}\n{purelib}\n", encoding="utf-8")


def copy_action(target: Path) -> Path:
    """The action's own checkout (what ``uses: kcompat/kcompat@...`` fetches): the files
    pip needs to build kcompat, copied so a build never writes into the tree under test."""
    target.mkdir(parents=True)
    for name in ("pyproject.toml", "README.md", "action.yml"):
        shutil.copy2(ROOT / name, target / name)
    shutil.copytree(
        ROOT / "kcompat", target / "kcompat", ignore=shutil.ignore_patterns("__pycache__")
    )
    return target


# -- pull requests to run the action on --------------------------------------------------

SPEC = "protocol/TallyRequest.json"


def tally(fields: int, *, renamed: int = 0, typed: str = "int32") -> str:
    """A request with ``fields`` int32 fields; the first ``renamed`` carry new names."""
    entries = [
        f'    {{ "name": "{"Renamed" if i < renamed else "Count"}{i}", "type": "{typed}",'
        f' "versions": "0+", "about": "count {i}" }}'
        for i in range(fields)
    ]
    return (
        '{\n  "apiKey": 180,\n  "type": "request",\n  "name": "TallyRequest",\n'
        '  "validVersions": "0-1",\n  "flexibleVersions": "1+",\n  "fields": [\n'
        + ",\n".join(entries)
        + "\n  ]\n}\n"
    )


def pull_request(
    tmp_path: Path, base: Mapping[str, str], head: Mapping[str, str], name: str = "workspace"
) -> Path:
    """The workspace of a pull request: a clone whose ``origin/main`` holds ``base`` and
    whose HEAD (branch ``feature``) holds ``head``."""
    origin = init_repo(tmp_path / "origin")
    commit_tree(origin, base, "base")
    clone = tmp_path / name
    subprocess.run(["git", "clone", "-q", str(origin), str(clone)], check=True)
    git(clone, "checkout", "-q", "-b", "feature")
    commit_tree(clone, head, "the pull request")
    return clone


def event_of(
    workspace: Path,
    *,
    number: int = 7,
    labels: tuple[str, ...] = (),
    action: str = "synchronize",
    sender: str = "alice",
    label: str = "",
) -> dict[str, Any]:
    """A ``pull_request`` event for the workspace's HEAD, as GitHub writes it."""
    head = git(workspace, "rev-parse", "HEAD").strip()
    event: dict[str, Any] = {
        "action": action,
        "number": number,
        "pull_request": {
            "number": number,
            "base": {"ref": "main"},
            "head": {"ref": "feature", "sha": head},
            "labels": [{"name": name} for name in labels],
        },
        "sender": {"login": sender},
    }
    if label:
        event["label"] = {"name": label}
    return event
