"""The pre-commit hooks in ``.pre-commit-hooks.yaml``: their manifest, and what they do.

Each hook is run the way pre-commit runs it: the staged files are filtered with the
hook's ``files``/``exclude`` patterns, and its ``entry`` plus ``args`` (plus the file
names, unless ``pass_filenames: false``) run in the repository. One test runs the real
``pre-commit try-repo``, which installs the hooks into a virtualenv of their own; it is
skipped when that cannot be done here (no pre-commit, no package index).
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.diff_runner import GIT_ENV, KCOMPAT, commit_tree, git, init_repo, write_files

ROOT = Path(__file__).resolve().parent.parent
MANIFEST = ROOT / ".pre-commit-hooks.yaml"
SPECS = "metadata/src/main/resources/common/metadata"  # where Kafka keeps its records
RECORD = f"{SPECS}/ShelfPlacementRecord.json"

RECORD_TEXT = """\
{
  "apiKey": 41,
  "type": "metadata",
  "name": "ShelfPlacementRecord",
  "validVersions": "0-1",
  "flexibleVersions": "0+",
  "fields": [
    { "name": "ShelfId", "type": "uuid", "versions": "0+",
      "about": "The shelf." },
    { "name": "BrokerId", "type": "int32", "versions": "0+", "entityType": "brokerId",
      "about": "The broker that holds the shelf." }
  ]
}
"""
PLACED_AT = (
    '{ "name": "PlacedAtMs", "type": "int64", "versions": "%s",'
    ' "about": "When the shelf was placed." }'
)


def with_placed_at(versions: str, valid: str = "0-1") -> str:
    """A new field after BrokerId: breaking in released versions, fine in a new one."""
    text = RECORD_TEXT.replace(
        '"about": "The broker that holds the shelf." }',
        '"about": "The broker that holds the shelf." },\n    ' + PLACED_AT % versions,
    )
    return text.replace('"validVersions": "0-1"', f'"validVersions": "{valid}"')


def load_hooks() -> dict[str, dict[str, Any]]:
    yaml = pytest.importorskip("yaml", reason="PyYAML comes with pre-commit (the dev extra)")
    entries = yaml.safe_load(MANIFEST.read_text(encoding="utf-8"))
    assert isinstance(entries, list)
    return {entry["id"]: entry for entry in entries}


def staged_files(repo: Path) -> list[str]:
    """What pre-commit hands to hooks: staged files that were added, copied, modified or
    renamed."""
    out = git(repo, "diff", "--staged", "--name-only", "--diff-filter=ACMR", "-z")
    return [p for p in out.split("\x00") if p]


def selected(hook: dict[str, Any], files: list[str]) -> list[str]:
    include = re.compile(hook.get("files", ""))
    exclude = re.compile(hook["exclude"]) if hook.get("exclude") else None
    return [f for f in files if include.search(f) and not (exclude and exclude.search(f))]


def run_hook(hook: dict[str, Any], repo: Path) -> subprocess.CompletedProcess[str] | None:
    """Run one hook like pre-commit; None when no staged file matches (pre-commit skips)."""
    files = selected(hook, staged_files(repo))
    if not files:
        return None
    command = shlex.split(hook["entry"]) + list(hook.get("args", []))
    assert command[0] == "kcompat"
    command[0] = str(KCOMPAT)
    if hook.get("pass_filenames", True):
        command += files
    return subprocess.run(
        command,
        cwd=repo,
        capture_output=True,
        text=True,
        env={**os.environ, **GIT_ENV, "NO_COLOR": "1"},
        timeout=60,
        check=False,
    )


@pytest.fixture()
def repo(tmp_path: Path) -> Path:
    path = init_repo(tmp_path / "repo")
    commit_tree(path, {RECORD: RECORD_TEXT, "web/package.json": '{"name": "web"}\n'}, "init")
    return path


@pytest.fixture(scope="session")
def pre_commit_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One hook environment for every try-repo run (installing kcompat takes a while)."""
    return tmp_path_factory.mktemp("pre-commit-home")


# -- the manifest ----------------------------------------------------------------------------


def test_manifest_declares_both_hooks() -> None:
    hooks = load_hooks()
    assert set(hooks) == {"kcompat-lint", "kcompat-diff"}
    for hook in hooks.values():
        assert hook["language"] == "python"
        assert hook["name"] and hook["entry"].startswith("kcompat ")
    lint, diff = hooks["kcompat-lint"], hooks["kcompat-diff"]
    assert lint["entry"] == "kcompat lint" and lint.get("pass_filenames", True)
    assert diff["entry"] == "kcompat diff --staged" and diff["pass_filenames"] is False
    kafka = [
        "clients/src/main/resources/common/message/FetchRequest.json",
        "metadata/src/main/resources/common/metadata/PartitionRecord.json",
        "storage/src/main/resources/message/RemoteLogSegmentMetadataRecord.json",
        "clients/src/test/resources/common/message/SimpleExampleMessage.json",
    ]
    others = ["README.md", "package.json", ".vscode/settings.json", "web/tsconfig.json"]
    for hook in (lint, diff):
        assert selected(hook, [*kafka, *others]) == kafka


# -- the hooks, run as pre-commit runs them ---------------------------------------------------


def test_a_staged_breaking_change_fails_the_diff_hook(repo: Path) -> None:
    hooks = load_hooks()
    write_files(repo, {RECORD: with_placed_at("0+"), "web/package.json": '{"name": "w2"}\n'})
    git(repo, "add", "-A")
    lint = run_hook(hooks["kcompat-lint"], repo)
    assert lint is not None
    assert lint.returncode == 0, lint.stdout  # the spec itself is fine
    diff = run_hook(hooks["kcompat-diff"], repo)
    assert diff is not None and diff.returncode == 1
    assert f"{RECORD}:12:46: error [field-added] non-tagged field PlacedAtMs" in diff.stdout


def test_a_staged_compatible_change_passes(repo: Path) -> None:
    hooks = load_hooks()
    write_files(repo, {RECORD: with_placed_at("2+", valid="0-2")})
    git(repo, "add", RECORD)
    for hook in hooks.values():
        done = run_hook(hook, repo)
        assert done is not None
        assert done.returncode == 0, done.stdout + done.stderr


def test_the_diff_hook_sees_the_index_not_the_working_tree(repo: Path) -> None:
    hooks = load_hooks()
    write_files(repo, {RECORD: with_placed_at("2+", valid="0-2")})
    git(repo, "add", RECORD)
    write_files(repo, {RECORD: with_placed_at("0+")})  # breaking, but not staged
    done = run_hook(hooks["kcompat-diff"], repo)
    assert done is not None
    assert done.returncode == 0, done.stdout
    assert git(repo, "diff", "--name-only") == f"{RECORD}\n"  # still unstaged, untouched


def test_a_lint_error_fails_the_lint_hook(repo: Path) -> None:
    hooks = load_hooks()
    write_files(repo, {RECORD: RECORD_TEXT.replace('"type": "uuid"', '"type": "uuid4"')})
    git(repo, "add", RECORD)
    done = run_hook(hooks["kcompat-lint"], repo)
    assert done is not None and done.returncode == 1
    assert f"{RECORD}:8:" in done.stdout and "[invalid-type]" in done.stdout


def test_hooks_skip_commits_without_spec_files(repo: Path) -> None:
    hooks = load_hooks()
    write_files(repo, {"web/package.json": '{"name": "w3"}\n', "README.md": "hi\n"})
    git(repo, "add", "-A")
    assert [run_hook(hook, repo) for hook in hooks.values()] == [None, None]


# -- the real thing ------------------------------------------------------------------------------


def try_repo(
    repo: Path, tmp_path: Path, home: Path, *args: str
) -> subprocess.CompletedProcess[str]:
    """``pre-commit try-repo`` of this project's hooks in ``repo`` (skips where pre-commit
    cannot set them up here)."""
    pre_commit = shutil.which("pre-commit", path=str(Path(sys.executable).parent))
    if pre_commit is None:
        pytest.skip("pre-commit is not installed (it comes with the dev extra)")
    if subprocess.run(["git", "-C", str(ROOT), "rev-parse"], capture_output=True).returncode:
        pytest.skip("the project is not a git checkout")
    hooks_repo = tmp_path / "kcompat"
    subprocess.run(
        ["git", "clone", "-q", str(ROOT), str(hooks_repo)], check=True, capture_output=True
    )
    assert (hooks_repo / ".pre-commit-hooks.yaml").is_file(), "the hooks file is not committed"
    try:
        done = subprocess.run(
            [pre_commit, "try-repo", str(hooks_repo), *args],
            cwd=repo,
            capture_output=True,
            text=True,
            env={
                **os.environ,
                **GIT_ENV,
                "PRE_COMMIT_HOME": str(home),
                "PATH": f"{Path(sys.executable).parent}:{os.defpath}",
            },
            timeout=240,
            check=False,
        )
    except subprocess.TimeoutExpired:
        pytest.skip("pre-commit try-repo took more than 240 s (installing kcompat's deps)")
    if done.returncode not in (0, 1):  # pre-commit's own failure (e.g. pip offline): exit 3
        last = ((done.stdout + done.stderr).strip().splitlines() or ["no output"])[-1]
        pytest.skip(f"pre-commit could not set up the hooks (exit {done.returncode}): {last}")
    return done


@pytest.mark.slow
@pytest.mark.slow
def test_pre_commit_try_repo(repo: Path, tmp_path: Path, pre_commit_home: Path) -> None:
    """pre-commit installs kcompat from a clone of this repository and runs both hooks;
    other JSON files in the commit (package.json, editor settings) are no findings."""
    write_files(
        repo,
        {
            RECORD: with_placed_at("0+"),
            "web/package.json": '{"name": "w4", "version": "1.0.0"}\n',
            ".vscode/settings.json": '{ "json.schemas": [], }\n',  # jsonc: never a spec
        },
    )
    git(repo, "add", "-A")
    done = try_repo(repo, tmp_path, pre_commit_home)
    output = done.stdout + done.stderr
    assert done.returncode == 1, output
    assert re.search(r"kcompat lint\.+Passed", output), output
    assert re.search(r"kcompat diff\.+Failed", output), output
    assert "[field-added] non-tagged field PlacedAtMs" in output
    assert "package.json" not in output and "settings.json" not in output


@pytest.mark.slow
@pytest.mark.slow
def test_pre_commit_try_repo_on_a_first_commit(tmp_path: Path, pre_commit_home: Path) -> None:
    """A repository's first commit has no HEAD: the diff hook has nothing to compare."""
    fresh = init_repo(tmp_path / "fresh")
    write_files(fresh, {RECORD: RECORD_TEXT})
    git(fresh, "add", "-A")
    done = try_repo(fresh, tmp_path, pre_commit_home)
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert re.search(r"kcompat diff\.+Passed", output), output


# -- the hooks' commands, as a widened hook or a user runs them -------------------------------


def test_the_diff_hook_passes_a_first_commit(tmp_path: Path) -> None:
    fresh = init_repo(tmp_path / "fresh")
    write_files(fresh, {RECORD: RECORD_TEXT})
    git(fresh, "add", "-A")
    done = run_hook(load_hooks()["kcompat-diff"], fresh)
    assert done is not None
    assert (done.returncode, done.stdout.strip()) == (0, "No problems in 0 spec files.")
    assert "no commits yet" in done.stderr


def test_lint_skips_other_json_files_it_is_given(repo: Path) -> None:
    """A hook widened to every *.json names package.json and editor settings: no findings."""
    write_files(
        repo,
        {
            "web/package.json": '{"name": "w5", "version": "2.0.0"}\n',
            ".vscode/settings.json": '{ "json.schemas": [], // jsonc\n "x": 1 }\n',
        },
    )
    files = ["web/package.json", ".vscode/settings.json"]
    done = subprocess.run(
        [str(KCOMPAT), "lint", *files], cwd=repo, capture_output=True, text=True, check=False
    )
    assert (done.returncode, done.stdout) == (
        0,
        "No spec files among the 2 given file(s); nothing to lint.\n",
    )
    done = subprocess.run(
        [str(KCOMPAT), "lint", *files, RECORD], cwd=repo, capture_output=True, text=True
    )
    assert done.returncode == 0 and done.stdout.strip() == "No problems in 1 spec file."


def test_configured_paths_narrow_what_the_lint_hook_checks(repo: Path) -> None:
    other = "legacy/OldRecord.json"
    write_files(repo, {other: RECORD_TEXT.replace('"type": "uuid"', '"type": "uuid4"')})
    (repo / "kcompat.toml").write_text(f'paths = ["{SPECS}"]\n')
    done = subprocess.run(
        [str(KCOMPAT), "lint", other], cwd=repo, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0
    assert done.stdout.strip() == "None of the 1 given file(s) is under the configured paths."
    both = subprocess.run([str(KCOMPAT), "lint", other, RECORD], cwd=repo, capture_output=True)
    assert both.returncode == 0


def test_one_problem_is_one_finding(repo: Path) -> None:
    """A spec without a name is one missing-key error, not also a missing response."""
    nameless = RECORD_TEXT.replace('  "name": "ShelfPlacementRecord",\n', "").replace(
        '"type": "metadata"', '"type": "request"'
    )
    write_files(repo, {RECORD: nameless})
    done = subprocess.run(
        [str(KCOMPAT), "lint", "-f", "json", RECORD], cwd=repo, capture_output=True, text=True
    )
    import json

    rules = [f["rule"] for f in json.loads(done.stdout)["findings"]]
    assert rules.count("missing-key") == 1 and "unpaired-request-response" not in rules
