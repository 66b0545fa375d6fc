"""The README's sections on accepting breaks, CI and pre-commit: every example runs.

Examples are the fenced blocks after a ``<!-- readme: NAME -->`` marker; each is parsed
and run the way a user would use it.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

from kcompat.config import parse_config
from kcompat.rules.registry import rule_categories
from tests.diff_runner import GIT_ENV, commit_tree, git, init_repo, run_cli

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def example(name: str) -> str:
    """The fenced block right after ``<!-- readme: name -->``."""
    found = re.search(rf"<!-- readme: {name} -->\n```\w*\n(.*?)\n```", README, re.DOTALL)
    assert found is not None, f"README has no example {name!r}"
    return found.group(1) + "\n"


def yaml_of(name: str) -> Any:
    yaml = pytest.importorskip("yaml", reason="PyYAML comes with pre-commit (the dev extra)")
    return yaml.safe_load(example(name))


def count_spec(name: str, item_type: str) -> str:
    return json.dumps(
        {
            "apiKey": 160,
            "type": "response",
            "name": name,
            "validVersions": "0-1",
            "flexibleVersions": "1+",
            "fields": [{"name": "ItemCount", "type": item_type, "versions": "0+", "about": "n"}],
        },
        indent=2,
    )


def test_the_acceptance_configuration_accepts_what_it_says(tmp_path: Path) -> None:
    text = example("accept-config")
    config = parse_config(tomllib.loads(text), "kcompat.toml", rules=rule_categories)
    assert [a.reason for a in config.ignore] == [
        "KIP-9999: counts outgrew int32; every client upgrades together"
    ]
    assert [(p.pattern, p.reason) for p in config.preview] == [
        ("ConsumerGroup*Value", "early access (KIP-848)")
    ]
    for where, code, last in (
        # added by the change itself: accepted, in the open (config-weakened)
        ("change", 0, "Found 2 warnings in 1 spec file (1 accepted in this change)."),
        # the user's own, on neither side (two old revisions compared): accepted
        ("neither", 0, "No problems in 1 spec file (1 accepted by the configuration)."),
        # BASE's already: written for an earlier break, it accepts no new one (issue 32.3)
        ("base", 1, "Found 1 error in 1 spec file."),
    ):
        repo = init_repo(tmp_path / f"repo-{where}")
        base = {"ShelfCountResponse.json": count_spec("ShelfCountResponse", "int32")}
        if where == "base":
            base["kcompat.toml"] = text
        commit_tree(repo, base, "a")
        head = {"ShelfCountResponse.json": count_spec("ShelfCountResponse", "int64")}
        if where != "neither":
            head["kcompat.toml"] = text
        commit_tree(repo, head, "b")
        if where == "neither":
            (repo / "kcompat.toml").write_text(text, encoding="utf-8")
        run = run_cli(["diff", "HEAD~1", "HEAD", "--no-proof", "--color", "never"], repo)
        assert run.code == code, run.stdout
        assert run.stdout.splitlines()[-1] == last
        if where == "base":
            assert '[[ignore]] #1 ("KIP-9999: counts outgrew int32; every client upgrades' in (
                run.stdout
            )


def test_the_workflow_uses_the_actions_inputs() -> None:
    yaml = pytest.importorskip("yaml", reason="PyYAML comes with pre-commit (the dev extra)")
    workflow = yaml_of("workflow")
    action = yaml.safe_load((ROOT / "action.yml").read_text())
    steps = workflow["jobs"]["kcompat"]["steps"]
    checkout = next(s for s in steps if s["uses"].startswith("actions/checkout"))
    assert checkout["with"]["fetch-depth"] == 0
    ours = next(s for s in steps if s["uses"].startswith("kcompat/kcompat@"))
    assert set(ours["with"]) <= set(action["inputs"])
    assert workflow["permissions"]["pull-requests"] == "write"


def test_the_workflow_runs_when_the_skip_label_changes_and_specs_or_settings_do() -> None:
    """``on: pull_request`` with the default types never fires on ``labeled``: the skip
    label would never take effect (issue 27, points 2 and 3)."""
    workflow = yaml_of("workflow")
    trigger = workflow[True] if True in workflow else workflow["on"]  # YAML 1.1 reads on: as True
    assert set(trigger) == {"pull_request"}  # never pull_request_target (docs/SECURITY.md)
    pull = trigger["pull_request"]
    assert pull["types"] == ["opened", "synchronize", "reopened", "labeled", "unlabeled"]
    paths = pull["paths"]
    assert {"kcompat.toml", "pyproject.toml"} <= set(paths)  # where kcompat's settings live
    folders = [p for p in paths if p.endswith("/**")]
    assert folders and all((ROOT / p.removesuffix("/**")).is_dir() for p in folders)
    steps = workflow["jobs"]["kcompat"]["steps"]
    ours = next(s for s in steps if s["uses"].startswith("kcompat/kcompat@"))
    assert ours["with"]["skip-label"] == "kcompat: expected break"
    assert ours["with"]["lint"] is True


def test_the_gitlab_job_writes_a_code_quality_report(tmp_path: Path) -> None:
    job = yaml_of("gitlab")["kcompat"]
    assert job["artifacts"]["reports"]["codequality"] == "gl-code-quality-report.json"
    command = next(line for line in job["script"] if line.startswith("kcompat diff"))
    origin = init_repo(tmp_path / "origin")
    commit_tree(origin, {"ShelfCountResponse.json": count_spec("ShelfCountResponse", "int32")}, "a")
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(origin), str(clone)], check=True)
    git(clone, "checkout", "-q", "-b", "mr")
    commit_tree(clone, {"ShelfCountResponse.json": count_spec("ShelfCountResponse", "int64")}, "b")
    done = subprocess.run(
        ["bash", "-c", command],
        cwd=clone,
        env={
            **os.environ,
            **GIT_ENV,
            "PATH": f"{Path(sys.executable).parent}:{os.environ.get('PATH', '')}",
            "CI_MERGE_REQUEST_TARGET_BRANCH_NAME": "main",
        },
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1, done.stderr  # a break: the job fails, the report is written
    (issue,) = json.loads((clone / "gl-code-quality-report.json").read_text())
    assert (issue["check_name"], issue["severity"]) == ("field-type-changed", "major")


def test_the_pre_commit_example_names_the_manifests_hooks() -> None:
    yaml = pytest.importorskip("yaml", reason="PyYAML comes with pre-commit (the dev extra)")
    (entry,) = yaml_of("pre-commit")["repos"]
    manifest = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    assert [h["id"] for h in entry["hooks"]] == [h["id"] for h in manifest]
