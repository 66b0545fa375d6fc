"""What ``kcompat report`` says in words and numbers adds up (issue 35, points 3 and 18).

A corpus-verify report's table of messages counted every mismatch as an error: a
column that added up to 23 under a header that said "20 errors, 3 warnings". A history
report said "compared 8 releases (releases)". The audits are written with pyarrow, as
``corpus verify`` and ``history`` write them; the page is read as a browser parses it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.diff_runner import run_cli

pq = pytest.importorskip("pyarrow.parquet", reason="pyarrow is not installed (the report extra)")
pytest.importorskip("matplotlib", reason="matplotlib is not installed (the report extra)")

from tests.test_report import EVIDENCE, finding, write_audit  # noqa: E402


def _corpus_row(message: str, sample: int, severity: str) -> dict[str, Any]:
    evidence = json.dumps({**EVIDENCE, "hex": f"0{sample}"})
    row = finding(0, "x", "y", rule="corpus-mismatch", severity=severity, version=1,
                  sample_id=sample, message_name=message, spec_digest="d", writer="3.7.0",
                  reader="3.8.0", evidence=evidence)  # fmt: skip
    for key in ("pair_index", "base_rev", "head_rev", "base_label", "head_label"):
        row.pop(key)
    return row


def _message_table(page: Path) -> dict[str, tuple[int, int]]:
    """The "messages" table as a reader sees it: name -> (errors, warnings)."""
    text = page.read_text(encoding="utf-8")
    body = re.search(r'<tbody id="message-rows">(.*?)</tbody></table></section>', text, re.S)
    assert body, text[-2000:]
    out = {}
    for row in re.findall(r'<tr data-message="[^"]*">(.*?)</tr>', body.group(1)):
        name, errors, warnings = re.findall(r"<td[^>]*>([^<]*)", row)[:3]
        out[name] = (int(errors), int(warnings))
    return out


def _fact(page: Path, label: str) -> str:
    found = re.search(rf"<dt>{label}</dt><dd>([^<]*)</dd>", page.read_text(encoding="utf-8"))
    assert found, label
    return found.group(1)


def test_a_corpus_report_counts_warnings_as_warnings(tmp_path: Path) -> None:
    from kcompat.pipeline.corpus_tasks import FINDING_SCHEMA
    from kcompat.pipeline.history_tasks import arrow_table

    rows = [
        _corpus_row("ShelfRequest", 1, "error"),
        _corpus_row("ShelfRequest", 2, "error"),
        _corpus_row("ShelfResponse", 3, "warning"),  # a version no release shipped
        _corpus_row("ShelfResponse", 4, "warning"),
        _corpus_row("ShelfResponse", 5, "error"),
    ]
    summary = {
        "corpus": {"revision": "abc", "revision_label": "3.7.0", "samples": 5, "seed": 0},
        "reader": "3.8.0", "rows": 20, "messages": 2, "findings": 5, "mismatches": 5,
        "per_rule": [{"rule": "corpus-mismatch", "severity": "error", "count": 3},
                     {"rule": "corpus-mismatch", "severity": "warning", "count": 2}],
        "per_message": [{"message": "ShelfResponse", "samples": 10, "mismatches": 3,
                         "versions": "1"},
                        {"message": "ShelfRequest", "samples": 10, "mismatches": 2,
                         "versions": "1"}],
    }  # fmt: skip
    table = arrow_table(rows, FINDING_SCHEMA)
    audit = write_audit(tmp_path / "verify", summary, [], table.schema)
    pq.write_table(table, audit / "findings" / "part-00000.parquet")
    out = tmp_path / "verify.html"
    run = run_cli(["report", str(audit), "-o", str(out)], tmp_path)
    assert run.code == 0, run.stderr
    assert _fact(out, "findings") == "3 errors, 2 warnings, 0 infos"
    messages = _message_table(out)
    assert messages == {"ShelfResponse": (1, 2), "ShelfRequest": (2, 0)}
    assert list(messages) == ["ShelfResponse", "ShelfRequest"]  # the summary's order
    assert sum(e for e, _ in messages.values()) == 3  # the column adds up to the header
    assert sum(w for _, w in messages.values()) == 2


@pytest.mark.parametrize(
    ("mode", "pairs", "expected"),
    [
        ("releases", [["1.0", "1.1"], ["1.1", "2.0"]],
         "2 releases, each against the release before"),
        ("consecutive", [["a", "b"]], "1 commit, each against its first parent"),
        ("transitive", [["1.0", "1.1"], ["1.0", "2.0"], ["1.1", "2.0"]],
         "3 pairs of releases (every release against each earlier one)"),
    ],
)  # fmt: skip
def test_a_history_report_says_what_it_compared(
    tmp_path: Path, mode: str, pairs: list[list[str]], expected: str
) -> None:
    summary = {"mode": mode, "released": "tags", "comparisons": len(pairs), "pairs": pairs}
    rows = [finding(0, pairs[0][0], pairs[0][1])]
    audit = write_audit(tmp_path / "audit", summary, rows)
    out = tmp_path / "audit.html"
    assert run_cli(["report", str(audit), "-o", str(out)], tmp_path).code == 0
    assert _fact(out, "compared") == expected
