"""docs/kafka-parity.md, the table of Kafka's generator checks, agrees with the rules.

Every row names a registered rule and an example that proves it: for a lint rule, a file
of the failing example on the rule's page that makes the rule report, with the row's
severity (the page's passing example fixes that file, and test_rule_docs runs it);
for a diff rule, the page's example pair (run by test_diff_rule_docs). Every lint rule
either mirrors a Kafka check (it has a row) or is listed as kcompat-only, never both.
A Kafka rejection reported below error names the deliberate difference that explains it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

import kcompat.commands
from kcompat.rules.registry import Rule, all_rules, get_rule
from tests.diff_runner import run_cli
from tests.rule_docs import DIFF_ROLES, RULES_DIR, LintRun, RuleDoc, lint_example, parse_rule_doc

kcompat.commands.register_all()

DOC = Path(__file__).resolve().parent.parent / "docs" / "kafka-parity.md"
ROW_HEADER = ("#", "since", "Kafka source", "", "rule", "severity", "proof", "note")
_TICKED = re.compile(r"`([^`]+)`")
_DIFFERENCE = re.compile(r"\*\*(D\d+)\*\*")


@dataclass(frozen=True)
class Row:
    """One Kafka check: where it is, the rule that catches it, and its proof."""

    id: str
    table: str
    source: str
    rule: str
    severity: str
    proof_file: str
    mark: str
    note: str

    @property
    def from_readme(self) -> bool:
        return self.table == "README constraints"


def _sections(text: str) -> dict[str, list[str]]:
    sections: dict[str, list[str]] = {}
    current: list[str] = []
    for line in text.splitlines():
        if line.startswith("## "):
            current = sections.setdefault(line[3:].strip(), [])
        else:
            current.append(line)
    return sections


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def _table(lines: list[str]) -> list[list[str]]:
    """The rows of the first table in a section, header first, separator dropped."""
    rows = [_cells(line) for line in lines if line.startswith("|")]
    return [rows[0], *rows[2:]] if len(rows) > 1 else rows


def _ticked(cell: str) -> list[str]:
    return _TICKED.findall(cell)


def parse_rows(text: str) -> list[Row]:
    sections = _sections(text)
    rows: list[Row] = []
    for table in ("Generator rejections", "README constraints"):
        header, *body = _table(sections[table])
        assert len(header) == len(ROW_HEADER), header
        assert all(a == b for a, b in zip(header, ROW_HEADER, strict=True) if b), header
        for cells in body:
            assert len(cells) == len(ROW_HEADER), cells
            number, _since, source, _what, rule, severity, proof, note = cells
            (rule_id,) = _ticked(rule)
            proof_parts = _ticked(proof)
            assert 1 <= len(proof_parts) <= 2, f"{number}: proof {proof!r}"
            mark = proof_parts[1] if len(proof_parts) == 2 else ""
            rows.append(Row(number, table, source, rule_id, severity, proof_parts[0], mark, note))
    return rows


def kcompat_only(text: str) -> list[str]:
    _header, *body = _table(_sections(text)["kcompat-only lint rules"])
    return [_ticked(cells[0])[0] for cells in body]


def differences(text: str) -> set[str]:
    return set(_DIFFERENCE.findall("\n".join(_sections(text)["Deliberate differences"])))


TEXT = DOC.read_text(encoding="utf-8")
ROWS = parse_rows(TEXT)
LINT_RULES = {rule.id: rule for rule in all_rules("lint")}


@cache
def page(rule_id: str) -> RuleDoc:
    return parse_rule_doc(RULES_DIR / f"{rule_id}.md")


@cache
def failing_run(rule_id: str) -> LintRun:
    return lint_example(page(rule_id).files("fail"))


def _rule(row: Row) -> Rule:
    found = get_rule(row.rule)
    assert found is not None, f"{row.id} names {row.rule}, which is not a rule"
    return found


# -- the table as a whole -------------------------------------------------------------------


def test_the_table_is_complete() -> None:
    ids = [row.id for row in ROWS]
    assert len(ids) == len(set(ids)), "row numbers repeat"
    assert len([r for r in ROWS if not r.from_readme]) >= 90
    assert len([r for r in ROWS if r.from_readme]) >= 20


def test_every_lint_rule_mirrors_kafka_or_is_listed_as_kcompat_only() -> None:
    mirrored = {row.rule for row in ROWS if _rule(row).kind == "lint"}
    only = kcompat_only(TEXT)
    assert len(only) == len(set(only))
    assert set(only) <= set(LINT_RULES), sorted(set(only) - set(LINT_RULES))
    assert not mirrored & set(only), sorted(mirrored & set(only))
    assert mirrored | set(only) == set(LINT_RULES), sorted(set(LINT_RULES) - mirrored - set(only))


def test_every_difference_a_row_names_is_explained() -> None:
    explained = differences(TEXT)
    named = {note for row in ROWS for note in re.findall(r"D\d+", row.note)}
    assert named <= explained, sorted(named - explained)
    assert {"D1", "D2", "D3"} <= named


def test_the_issue_examples_are_rows() -> None:
    """The two gaps issue 13 reported: a coerced type, and a struct outside its parent."""
    by_rule = {(row.rule, row.severity) for row in ROWS}
    assert ("invalid-type", "error") in by_rule
    assert ("struct-versions-outside-parent", "error") in by_rule
    assert any(row.rule == "invalid-type" and row.mark == "'5'" for row in ROWS)


# -- each row ---------------------------------------------------------------------------------


@pytest.mark.parametrize("row", ROWS, ids=lambda row: f"{row.id}-{row.rule}")
def test_row(row: Row) -> None:
    rule = _rule(row)
    assert row.severity in ("error", "warning", "info")
    if not row.from_readme and row.severity != "error":
        assert re.search(r"D\d+", row.note), (
            f"{row.id}: Kafka rejects it; say why it is not an error"
        )
    if rule.kind == "diff":
        assert row.proof_file == "page", f"{row.id}: a diff rule is proven by its page"
        doc = page(row.rule)
        assert set(DIFF_ROLES) <= set(doc.examples), f"{row.rule}.md lacks an example pair"
        assert rule.severity.label == row.severity
        return
    assert rule.kind == "lint", f"{row.id}: {rule.kind} rules are not lint parity"
    doc = page(row.rule)
    failing = [name for name, _text in doc.files("fail")]
    passing = [name for name, _text in doc.files("pass")]
    assert row.proof_file in failing, f"{row.id}: {row.proof_file} is not failing in {failing}"
    # The passing example fixes the same file, or (when the fix is a rename, as for a file
    # named after the wrong message) has a fixed file for every failing one.
    fixed = row.proof_file in passing or len(passing) == len(failing)
    assert fixed, f"{row.id}: the page does not fix {row.proof_file}"
    run = failing_run(row.rule)
    hits = [
        finding
        for finding in run.of_rule(row.rule)
        if run.file_of(finding) == row.proof_file
        and (row.mark in finding.field_path or row.mark in finding.message)
    ]
    assert hits, f"{row.id}: {row.rule} does not report {row.mark!r} in {row.proof_file}"
    assert {finding.severity.label for finding in hits} == {row.severity}
    if rule.id != "tag-as-string":  # its unreadable tags are errors, coerced ones warnings
        assert rule.severity.label == row.severity


# -- the issue's two examples, through the CLI ------------------------------------------------

_SPEC = """\
{{
  "apiKey": 110,
  "type": "metadata",
  "name": "ProbeRecord",
  "validVersions": "0-2",
  "flexibleVersions": "0+",
  "fields": [
    {field}
  ]
}}
"""


@pytest.mark.parametrize(
    ("field", "rule"),
    [
        ('{ "name": "Count", "type": 5, "versions": "0+" }', "invalid-type"),
        (
            '{ "name": "Items", "type": "[]Item", "versions": "5+", "fields": [\n'
            '      { "name": "Id", "type": "int32", "versions": "0+" } ] }',
            "struct-versions-outside-parent",
        ),
    ],
    ids=["coerced-type", "struct-outside-parent"],
)
def test_lint_fails_where_kafka_fails(tmp_path: Path, field: str, rule: str) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "ProbeRecord.json").write_text(_SPEC.format(field=field), encoding="utf-8")
    done = run_cli(["lint", "ProbeRecord.json", "--color", "never"], tmp_path)
    assert done.code == 1, done.stdout + done.stderr
    assert f"error [{rule}]" in done.stdout
