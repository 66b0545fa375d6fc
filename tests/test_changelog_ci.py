"""The GitHub Action's "What this change does to the protocol" section: in the job
summary in full, and in the pull request's comment within its size budget, beside the
diff's report (the action's own steps in a simulated run, as tests/test_action.py runs
them, with a fake GitHub API for the comment)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.action_runner import SPEC, ActionRun, Runner, event_of, pull_request, tally
from tests.fake_github import FakeGitHub, serving


@pytest.fixture()
def github() -> Iterator[FakeGitHub]:
    with serving() as state:
        yield state


def _grown(fields: int, extra: int) -> str:
    """The tally request with a version 2 that adds ``extra`` fields."""
    text = tally(fields).replace('"validVersions": "0-1"', '"validVersions": "0-2"')
    added = ",\n".join(
        f'    {{ "name": "Extra{i}", "type": "int64", "versions": "2+", "about": "x" }}'
        for i in range(extra)
    )
    return text.replace("\n  ]\n}", f",\n{added}\n  ]\n}}")


def _run(checkout: Path, tmp_path: Path, github: FakeGitHub) -> ActionRun:
    runner = Runner(
        tmp_path / "runner", checkout, event_of(checkout), api=github.url, token="ghs_test"
    )
    return runner.run(comment="true")


def test_the_summary_and_the_comment_say_what_the_change_does(
    tmp_path: Path, github: FakeGitHub
) -> None:
    head = _grown(3, 2).replace('"Count0"', '"Count0x"')
    checkout = pull_request(tmp_path, {SPEC: tally(3)}, {SPEC: head})
    done = _run(checkout, tmp_path, github)
    assert done.returncode == 0, done.stdout + done.stderr  # a rename warns, nothing breaks
    title = "<details><summary><strong>What this change does to the protocol</strong>: "
    assert f"{title}1 message re-versioned, 0 breaks</summary>" in done.summary
    assert "- ➕ version 2 adds `Extra1` (`int64`)" in done.summary
    assert "renamed to `Count0x` in released versions 0-1 (same bytes)" in done.summary
    body = github.comments[-1]["body"]
    assert body.startswith("<!-- kcompat -->\n### kcompat compatibility check")
    assert f"{title}1 message re-versioned, 0 breaks</summary>" in body


def test_a_large_change_keeps_the_comment_under_githubs_limit(
    tmp_path: Path, github: FakeGitHub
) -> None:
    head = _grown(400, 1500).replace("int32", "int64")
    checkout = pull_request(tmp_path, {SPEC: tally(400)}, {SPEC: head})
    done = _run(checkout, tmp_path, github)
    assert done.returncode == 1  # 400 retyped fields
    body = github.comments[-1]["body"]
    assert len(body) <= 65_536
    assert "What this change does to the protocol" in body
    assert "more changes_" in body  # the section shows what fits of the 1,500 new fields
    assert body.rstrip().endswith("```")  # and the comment still ends with how to accept
    assert done.summary.count("- ➕ version 2 adds `Extra") == 1500  # the summary has them all
