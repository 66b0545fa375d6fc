"""Every drift rule has a page whose examples run through `kcompat drift` (upstream = base)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kcompat.cli import main
from kcompat.rules.registry import all_rules
from tests.diff_runner import run_cli
from tests.rule_docs import all_rule_docs, finding_lines, parse_rule_doc

DRIFT_RULES = {rule.id: rule for rule in all_rules("drift")}
DRIFT_PAGES = sorted(p for p in all_rule_docs() if p.stem in DRIFT_RULES)


def test_every_drift_rule_has_a_page() -> None:
    assert {p.stem for p in DRIFT_PAGES} == set(DRIFT_RULES)


def write_sides(page: Path, outcome: str, tmp_path: Path) -> None:
    """The example's BASE files in ``upstream/``, its HEAD files in ``local/``."""
    doc = parse_rule_doc(page)
    sides = {"upstream": f"{outcome}-base", "local": f"{outcome}-head"}
    for side, role in sides.items():
        (tmp_path / side).mkdir()
        for example in doc.examples[role]:
            (tmp_path / side / example.filename).write_text(example.text)


def drift(
    page: Path, outcome: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> list[dict[str, Any]]:
    write_sides(page, outcome, tmp_path)
    main(["drift", str(tmp_path / "upstream"), str(tmp_path / "local"), "--format", "json"])
    findings: list[dict[str, Any]] = json.loads(capsys.readouterr().out)["findings"]
    return findings


@pytest.mark.parametrize("page", DRIFT_PAGES, ids=lambda p: p.stem)
def test_page_header_matches_the_registry(page: Path) -> None:
    doc = parse_rule_doc(page)
    rule = DRIFT_RULES[doc.id]
    assert (doc.kind, doc.category, doc.severity, doc.summary) == (
        "drift",
        rule.category,
        rule.severity.label,
        rule.summary,
    )


@pytest.mark.parametrize("page", DRIFT_PAGES, ids=lambda p: p.stem)
def test_passing_example_is_clean(
    page: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert drift(page, "pass", tmp_path, capsys) == []


@pytest.mark.parametrize("page", DRIFT_PAGES, ids=lambda p: p.stem)
def test_failing_example_prints_the_pages_finding_lines(page: Path, tmp_path: Path) -> None:
    """``kcompat drift upstream local`` prints exactly the page's finding lines."""
    write_sides(page, "fail", tmp_path)
    run = run_cli(["drift", "upstream", "local", "--color", "never"], tmp_path)
    assert run.stderr == ""
    printed = finding_lines(run.stdout, page.stem)
    assert printed, f"the failing example of {page.stem} does not trigger it"
    assert printed == parse_rule_doc(page).finding
