"""What ``kcompat history`` plans and says, without Spark: the releases a --range spans,
which commit or release introduced each error, where the Parquet went, and tables that
never split a word in a CI log. (tests/test_pipeline_history.py runs the audits.)"""

from __future__ import annotations

import io
import re
from dataclasses import replace
from pathlib import Path

import pytest
from rich.console import Console

from kcompat.errors import UsageError
from kcompat.modes import HistoryMode, ReleasedMode
from kcompat.pipeline.history_driver import HistoryResult, summarise
from kcompat.pipeline.revisions import Comparison, releases
from kcompat.report.columns import AuditRow, FindingRow, Pair
from kcompat.report.history_summary import history_document
from kcompat.report.tables import TableDocument
from kcompat.sources.git import GitRepo
from kcompat.terminal import draw_document
from tests.conftest import git

PATTERN = r"^v?\d+\.\d+\.\d+$"


@pytest.fixture()
def tagged(repo: Path) -> Path:
    """main: 1.0.0, 1.1.0, an untagged commit, 2.0.0; branch 1.1 has 1.1.1 (off main);
    each holds a spec (a tag without one is no release)."""
    for step, tag in enumerate(["1.0.0", "1.1.0", None, "2.0.0"]):
        (repo / "f.json").write_text(f'{{"name": "F", "validVersions": "0-{step}"}}\n')
        git(repo, "add", "f.json")
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
    pair: int,
    head: str,
    base: str,
    rule: str,
    field: str,
    severity: str = "error",
    message_name: str = "ShelfRequest",
) -> AuditRow[Pair]:
    return AuditRow(
        FindingRow(
            rule,
            severity,
            f"{rule} {field}",
            message_name=message_name,
            file="specs/ShelfRequest.json",
            field_path=field,
        ),
        Pair(pair, base * 3, head * 3, base, head),
    )


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
    assert table[0].split() == ["release", "against", "rule", "message", "field"]
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


LONG_MESSAGE = "ConsumerGroupCurrentMemberAssignmentValue"
LONG_FIELD = "PartitionsPendingRevocation.TopicPartitions"
SUBJECT = "KAFKA-16000: drop the pending revocation epochs from the assignment value"


def _terminal(result: HistoryResult, width: int) -> list[str]:
    """The summary as a terminal of ``width`` columns shows it (colours left out)."""
    buffer = io.StringIO()
    console = Console(file=buffer, width=width, force_terminal=True, no_color=True)
    draw_document(history_document(result.summary, result.out, result.seconds), console)
    text = re.sub(r"\x1b\[[0-9;]*m", "", buffer.getvalue())
    return [line.rstrip() for line in text.splitlines()]


def _long_names() -> HistoryResult:
    found = [
        finding(1, "4f1c2e9a7b3d", "1a2b3c4d5e6f", "field-removed", name, "error", LONG_MESSAGE)
        for name in (LONG_FIELD, "MemberEpoch")
    ]
    comparisons = [Comparison(1, "1a2b3c4d5e6f", "4f1c2e9a7b3d", "1a2b", "4f1c")]
    summary = summarise(found, comparisons, HistoryMode.CONSECUTIVE, ReleasedMode.TAGS)
    introduced = tuple(replace(e, subject=SUBJECT) for e in summary.introduced or ())
    summary = replace(summary, introduced=introduced)  # the subjects name_commits reads
    return HistoryResult(1, found, summary, Path("/audit"), ReleasedMode.TAGS, 1.0)


def test_a_terminal_of_80_columns_never_splits_a_name() -> None:
    """At 80 columns the errors table does not fit without cutting the message name in
    pieces ("ConsumerGroup / CurrentMember / AssignmentVal / ue"): each error is a record,
    every name whole on its line; "commit" holds the SHA, "subject" the subject."""
    lines = _terminal(_long_names(), 80)
    assert max(len(line) for line in lines) <= 80
    for name in (LONG_MESSAGE, LONG_FIELD, "4f1c2e9a7b3d", "field-removed"):
        assert any(name in line.split() for line in lines), (name, lines)
    start = lines.index("Errors and the commit that introduced each")
    record = lines[start + 2 : start + 8]
    assert record[0].split() == ["commit", "4f1c2e9a7b3d"]
    assert record[1].startswith("subject  KAFKA-16000: drop the pending"), record
    assert record[-3:] == [
        "rule     field-removed",
        f"message  {LONG_MESSAGE}",
        f"field    {LONG_FIELD}",
    ]


def test_a_wide_terminal_draws_the_table() -> None:
    lines = _terminal(_long_names(), 200)
    header = next(line for line in lines if "commit" in line and "subject" in line)
    assert [w for w in re.split(r"[┃│ ]+", header) if w] == [
        "commit",
        "subject",
        "rule",
        "message",
        "field",
    ]
    row = next(line for line in lines if LONG_FIELD in line)
    cells = [c.strip() for c in re.split(r"[│┃]", row) if c.strip()]
    assert cells == ["4f1c2e9a7b3d", SUBJECT, "field-removed", LONG_MESSAGE, LONG_FIELD]


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
