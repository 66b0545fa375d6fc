"""The GitHub Action's "What this change does to the protocol" section: in the job
summary in full, and in the pull request's comment within its size budget, beside the
diff's report (the step run for real, as tests/test_ci.py runs it)."""

from __future__ import annotations

from pathlib import Path

from tests.test_ci import EVENT, FakeGitHub, github, pull_request, step, tally

__all__ = ["github"]  # the fixture, used by name below


def _grown(fields: int, extra: int) -> str:
    """The tally request with a version 2 that adds ``extra`` fields."""
    text = tally(fields).replace('"validVersions": "0-1"', '"validVersions": "0-2"')
    added = ",\n".join(
        f'    {{ "name": "Extra{i}", "type": "int64", "versions": "2+", "about": "x" }}'
        for i in range(extra)
    )
    return text.replace("\n  ]\n}", f",\n{added}\n  ]\n}}")


def test_the_summary_and_the_comment_say_what_the_change_does(tmp_path: Path, github: str) -> None:
    checkout = pull_request(tmp_path, tally(3), _grown(3, 2).replace('"Count0"', '"Count0x"'))
    done, summary, _ = step(checkout, tmp_path, EVENT, comment="true", api=github)
    assert done.returncode == 0, done.stdout + done.stderr  # a rename warns, nothing breaks
    title = "<details><summary><strong>What this change does to the protocol</strong>: "
    assert f"{title}1 message re-versioned, 0 breaks</summary>" in summary
    assert "- ➕ version 2 adds `Extra1` (`int64`)" in summary
    assert "renamed to `Count0x` in released versions 0-1 (same bytes)" in summary
    body = FakeGitHub.requests[-1][2]["body"]
    assert body.startswith("<!-- kcompat -->\n### kcompat compatibility check")
    assert f"{title}1 message re-versioned, 0 breaks</summary>" in body


def test_a_large_change_keeps_the_comment_under_githubs_limit(tmp_path: Path, github: str) -> None:
    checkout = pull_request(tmp_path, tally(400), _grown(400, 1500).replace("int32", "int64"))
    done, summary, _ = step(checkout, tmp_path, EVENT, comment="true", api=github)
    assert done.returncode == 1  # 400 retyped fields
    body = FakeGitHub.requests[-1][2]["body"]
    assert len(body) <= 65_536
    assert "What this change does to the protocol" in body
    assert "more changes_" in body  # the section shows what fits of the 1,500 new fields
    assert summary.count("- ➕ version 2 adds `Extra") == 1500  # the summary has them all
