"""The pre-commit path (``kcompat diff --staged``) does each piece of work once: the git
commands it runs (no repeated ``rev-parse``), and the parse of each side's spec files
(read from git, then checked: parsed once), with the same findings either way.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from kcompat.spec import load, specfile
from tests.conftest import EXAMPLES
from tests.diff_runner import commit_tree, git, init_repo, run_cli
from tests.git_calls import commands, record

BREAK = ('"name": "TimeoutMs", "type": "int32"', '"name": "TimeoutMs", "type": "int64"')


@pytest.fixture()
def staged_break(tmp_path: Path) -> Path:
    repo = init_repo(tmp_path / "repo")
    files = {p.name: p.read_text(encoding="utf-8") for p in EXAMPLES.glob("*.json")}
    commit_tree(repo, files, "base")
    git(repo, "tag", "1.0.0")
    spec = repo / "WidgetRequest.json"
    spec.write_text(spec.read_text(encoding="utf-8").replace(*BREAK), encoding="utf-8")
    git(repo, "add", "WidgetRequest.json")
    return repo


def test_the_git_commands_of_a_staged_diff(
    staged_break: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = record(monkeypatch)
    run = run_cli(["diff", "--staged", "--no-history"], staged_break)
    assert run.code == 1, run.stderr
    # where the repository is and HEAD's commit, what is staged, the release tags, and
    # one git cat-file --batch for every blob: before, rev-parse three times more
    assert sorted(commands(calls)) == [
        "cat-file --batch",
        "diff-index --cached",
        "for-each-ref --format=%(refname:strip=2)%00%(*objectname)%00%(objectname)"
        "%00%(*objecttype)%00%(objecttype)",
        # whether a short file read outside a listing is a symbolic link (issue 32.4):
        # the index's modes asked once, HEAD's for the file read by name
        "ls-files -s",
        "ls-tree -r",
        # the oldest release shipped it: does the repository's history start with it?
        "rev-list --max-parents=0",
        "rev-parse --is-bare-repository",
    ]
    assert all(call.hardened for call in calls), calls


def test_each_side_is_parsed_once(staged_break: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    parsed: Counter[tuple[str, bytes]] = Counter()
    real = load.load_bytes

    def counting(data: bytes, path: str, size: int | None = None) -> Any:
        parsed[(path, bytes(data))] += 1
        return real(data, path, size)

    monkeypatch.setattr("kcompat.spec.specfile.load_bytes", counting)
    run = run_cli(["diff", "--staged", "--format", "json"], staged_break)
    assert run.code == 1, run.stderr
    assert '"field-type-changed"' in run.stdout
    widget = [n for (path, _), n in parsed.items() if path == "WidgetRequest.json"]
    assert widget == [1, 1]  # BASE's and HEAD's text, each parsed once (before: twice)
    # the memo lasts one command: a later read parses again
    again = dict(parsed)
    specfile.read_spec("WidgetRequest.json", (staged_break / "WidgetRequest.json").read_bytes())
    assert sum(parsed.values()) == sum(again.values()) + 1
