"""What ``kcompat history`` plans and says, without Spark: the releases a --range spans,
which commit or release introduced each error, where the Parquet went, and tables that
never split a word in a CI log. (tests/test_pipeline_history.py runs the audits.)"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from kcompat.errors import UsageError
from kcompat.modes import HistoryMode, ReleasedMode
from kcompat.pipeline.history_driver import HistoryResult, summarise
from kcompat.pipeline.revisions import Comparison, releases
from kcompat.report.history_summary import history_document
from kcompat.report.tables import TableDocument
from kcompat.sources.git import GitRepo
from kcompat.terminal import draw_document
from tests.conftest import git

PATTERN = r"^v?\d+\.\d+\.\d+$"


@pytest.fixture()
def tagged(repo: Path) -> Path:
    """main: 1.0.0, 1.1.0, an untagged commit, 2.0.0; branch 1.1 has 1.1.1 (off main)."""
    for step, tag in enumerate(["1.0.0", "1.1.0", None, "2.0.0"]):
        (repo / "f.txt").write_text(str(step))
        git(repo, "add", "f.txt")
        git(repo, "commit", "-q", "-m", f"step {step}")
        if tag:
            git(repo, "tag", tag)
    git(repo, "checkout", "-q", "-b", "1.1", "1.1.0")
    git(repo, "commit", "-q", "--allow-empty", "-m", "bump to 1.1.1")
    git(repo, "tag", "1.1.1")
    git(repo, "checkout", "-q", "main")
    return repo


def pairs(comparisons: list[Comparison]) -> list[str]:
    return [f"{c.base_label}..{c.head_label}" for c in comparisons]


def test_releases_mode_honours_the_range(tagged: Path) -> None:
    repo = GitRepo.open(tagged)
    every = releases(repo, PATTERN)
    assert pairs(every) == ["1.0.0..1.1.0", "1.1.0..1.1.1", "1.1.1..2.0.0"]
    # tag to tag: every release between them in version order, branches included
    assert pairs(releases(repo, PATTERN, revision_range="1.1.0..2.0.0")) == [
        "1.1.0..1.1.1",
        "1.1.1..2.0.0",
    ]
    assert pairs(releases(repo, PATTERN, True, "1.0.0..1.1.1")) == [
        "1.0.0..1.1.0",
        "1.0.0..1.1.1",
        "1.1.0..1.1.1",
    ]
    # commits: the release tags B reaches and A does not
    first = git(tagged, "rev-list", "--max-parents=0", "HEAD").strip()
    assert pairs(releases(repo, PATTERN, revision_range=f"{first}..main")) == ["1.1.0..2.0.0"]
    with pytest.raises(UsageError, match=r"found 1 release tag\(s\) .* in 1\.1\.0\.\.main"):
        releases(repo, PATTERN, revision_range="1.1.0..main")


def finding(
    pair: int, head: str, base: str, rule: str, field: str, severity: str = "error"
) -> dict[str, Any]:
    return {
        "pair_index": pair,
        "head_label": head,
        "base_label": base,
        "rule": rule,
        "severity": severity,
        "message_name": "ShelfRequest",
        "file": "specs/ShelfRequest.json",
        "field_path": field,
    }


FINDINGS = [
    finding(0, "1.1.0", "1.0.0", "version-added", "", "info"),
    finding(1, "1.2.0", "1.1.0", "field-removed", "Label"),
    finding(2, "2.0.0", "1.2.0", "field-removed", "Label"),  # still there: not new
    finding(2, "2.0.0", "1.2.0", "field-type-changed", "ShelfId"),
]


def test_the_summary_names_where_each_error_came_in() -> None:
    comparisons = [
        Comparison(0, "a", "b", "1.0.0", "1.1.0"),
        Comparison(1, "b", "c", "1.1.0", "1.2.0"),
        Comparison(2, "c", "d", "1.2.0", "2.0.0"),
    ]
    summary = summarise(FINDINGS, comparisons, HistoryMode.RELEASES, ReleasedMode.TAGS)
    assert [(e.introduced_in, e.rule, e.field_path) for e in summary.introduced or ()] == [
        ("1.2.0", "field-removed", "Label"),
        ("2.0.0", "field-type-changed", "ShelfId"),
    ]
    result = HistoryResult(3, FINDINGS, summary, Path("/audit"), ReleasedMode.TAGS, 1.0)
    text = _render(result, width=60, chosen=True)
    table = text.split("Errors and the release that introduced each\n", 1)[1].splitlines()
    assert table[0].split() == ["introduced", "in", "against", "rule", "message", "field"]
    assert table[1].split() == ["1.2.0", "1.1.0", "field-removed", "ShelfRequest", "Label"]
    assert table[2].split() == ["2.0.0", "1.2.0", "field-type-changed", "ShelfRequest", "ShelfId"]


def _render(result: HistoryResult, *, width: int, chosen: bool) -> str:
    buffer = io.StringIO()
    console = Console(file=buffer, width=width, force_terminal=False, soft_wrap=True)
    draw_document(
        history_document(result.summary, result.out, result.seconds, chosen=chosen), console
    )
    return buffer.getvalue()


def test_without_out_the_summary_says_where_the_parquet_is_kept() -> None:
    summary = summarise([], [], HistoryMode.CONSECUTIVE, ReleasedMode.TAGS)
    result = HistoryResult(0, [], summary, Path("/tmp/kcompat-history-x1"), ReleasedMode.TAGS, 0.5)
    first = _render(result, width=200, chosen=False).splitlines()[0]
    assert first.endswith(
        "Parquet and summary.json in /tmp/kcompat-history-x1 (kept there; --out DIR chooses "
        "the place)"
    )
    chosen = _render(result, width=200, chosen=True).splitlines()[0]
    assert chosen.endswith("Parquet and summary.json in /tmp/kcompat-history-x1")


def test_tables_in_a_log_never_split_a_word() -> None:
    long_rows = [
        ["group-coordinator/ConsumerGroupCurrentMemberAssignmentValue", "error", "12"],
        ["clients/FetchRequestWithAVeryLongNameIndeed", "warning", "3"],
    ]
    buffer = io.StringIO()
    console = Console(file=buffer, width=40, force_terminal=False, soft_wrap=True)
    tables = (("Per message", ["message", "severity", "count"], long_rows),)
    draw_document(TableDocument({}, "head", tables), console)
    lines = buffer.getvalue().splitlines()
    words = {word for row in long_rows for word in row}
    printed = {word for line in lines for word in line.split()}
    assert words <= printed  # every cell whole, on one line
    header = next(line for line in lines if line.startswith("message"))
    assert header.index("severity") == lines[-1].index("warning")


def test_history_range_help_covers_releases(tmp_path: Path) -> None:
    from tests.diff_runner import run_process

    done = run_process(["history", "--help"], tmp_path, env={"COLUMNS": "80"})
    assert "or the releases inside it (releases, transitive" in " ".join(done.stdout.split())


def test_a_summary_reads_back_as_it_was_written() -> None:
    """summary.json is the summary's own shape, and kcompat report reads it back whole."""
    import json

    from kcompat.report.audit_summary import HistorySummary

    comparisons = [
        Comparison(0, "a", "b", "1.0.0", "1.1.0"),
        Comparison(1, "b", "c", "1.1.0", "1.2.0"),
        Comparison(2, "c", "d", "1.2.0", "2.0.0"),
    ]
    for mode in HistoryMode:
        summary = summarise(FINDINGS, comparisons, mode, ReleasedMode.TAGS)
        written = json.loads(json.dumps(summary.to_json()))
        assert HistorySummary.from_json(written) == summary
        assert ("breaks" in written) == (mode == HistoryMode.TRANSITIVE)
        assert ("introduced" in written) == (mode != HistoryMode.TRANSITIVE)
    older = {"mode": "transitive", "released": "tags", "comparisons": 2, "findings": 0}
    assert HistorySummary.from_json(older).pairs is None  # written before pairs were listed
