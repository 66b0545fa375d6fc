"""kcompat in CI: GitLab Code Quality, and the Markdown report within the comment budget.

The GitHub Action's own steps are tested in ``test_action*.py``, run as the runner runs
them (:mod:`tests.action_runner`).
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.action_runner import SPEC as NAME
from tests.action_runner import tally
from tests.diff_runner import commit_tree, init_repo, run_cli

# -- Markdown within GitHub's comment limit -------------------------------------------------------


def test_markdown_keeps_under_the_comment_limit_errors_first(tmp_path: Path) -> None:
    from kcompat.findings import Finding, Location, Severity
    from kcompat.report.document import Report
    from kcompat.report.markdown import render_markdown

    def finding(i: int, severity: Severity) -> Finding:
        return Finding(
            "field-removed" if severity is Severity.ERROR else "docs-changed",
            severity,
            f"field Field{i} was removed from released versions 0-7 " + "x" * 200,
            Location(f"protocol/Message{i}.json", i + 1, 3),
            hint="keep it in released versions",
            message_name=f"Message{i}",
            field_path=f"Field{i}",
        )

    findings = [finding(i, Severity.ERROR) for i in range(120)]
    findings += [finding(i, Severity.INFO) for i in range(120, 600)]
    text = render_markdown(Report("diff", tuple(findings), 600))
    assert len(text) <= 65_536
    assert text.count("| 🔴 |") == 120  # errors in full
    assert text.count("hint: keep it in released versions") >= 120  # hints included
    last = text.splitlines()[-1]
    assert last.startswith("_Showing ") and "of 600 findings (120 of 120 errors, " in last
    small = render_markdown(Report("diff", tuple(findings[:3]), 3))
    assert "_Showing" not in small


# -- GitLab Code Quality -------------------------------------------------------------------------


def test_gitlab_code_quality_field_by_field(tmp_path: Path) -> None:
    repo = init_repo(tmp_path / "repo")
    commit_tree(repo, {NAME: tally(2)}, "base")
    head = tally(2, renamed=1).replace('"Count1", "type": "int32"', '"Count1", "type": "int64"')
    commit_tree(repo, {NAME: head}, "head")
    (repo / "kcompat.toml").write_text(
        '[[ignore]]\nrule = "field-type-changed"\nmessage = "Tally*"\nreason = "KIP-1"\n'
    )
    run = run_cli(["diff", "HEAD~1", "HEAD", "--no-proof", "--format", "gitlab"], repo)
    issues = json.loads(run.stdout)
    assert isinstance(issues, list) and len(issues) == 2
    for issue in issues:
        assert set(issue) == {"description", "check_name", "fingerprint", "severity", "location"}
        assert set(issue["location"]) == {"path", "lines"}
        assert issue["location"]["path"] == NAME
        assert isinstance(issue["location"]["lines"]["begin"], int)
        assert issue["severity"] in ("info", "minor", "major", "critical", "blocker")
    assert len({i["fingerprint"] for i in issues}) == 2
    by_rule = {i["check_name"]: i for i in issues}
    assert by_rule["field-renamed"]["severity"] == "minor"
    accepted = [i for i in issues if i["check_name"] == "field-type-changed"]
    assert {i["severity"] for i in accepted} == {"info"}
    assert all(i["description"].endswith("(accepted: KIP-1)") for i in accepted)
    assert run.code == 0  # the accepted errors never fail


# -- the comment's sections within a budget ------------------------------------------------------


def test_sections_are_rendered_by_priority_and_shown_by_place() -> None:
    from kcompat.ci.comment import Section, assemble, fixed

    asked: list[int] = []

    def greedy(budget: int) -> str:
        asked.append(budget)
        return "r" * (budget - 10)

    sections = [fixed(90, "last words"), Section(10, greedy), fixed(50, "x" * 40)]
    text = assemble(sections, 200)
    assert len(text) <= 200
    # the fixed ending first (priority), then the report takes what is left but 10; the
    # 40-character section no longer fits and is left out
    assert asked == [200 - len("last words") - 2]
    assert text == "r" * (asked[0] - 10) + "\n\nlast words"
    assert assemble([fixed(2, "b"), fixed(1, "a")], 100) == "a\n\nb"
    assert assemble([fixed(1, "too long")], 5) == ""


def test_a_comment_with_hundreds_of_findings_keeps_under_githubs_limit_and_its_ending() -> None:
    from kcompat.ci.comment import COMMENT_BUDGET, HOW_TO_ACCEPT, REPORT, comment_body, fixed
    from kcompat.ci.github import _report_section
    from kcompat.findings import Finding, Location, Severity
    from kcompat.report.document import Report

    findings = tuple(
        Finding(
            "field-removed",
            Severity.ERROR,
            f"field Field{i} was removed from released versions 0-7 " + "x" * 300,
            Location(f"protocol/Message{i}.json", i + 1, 3),
            hint="keep it in released versions",
            message_name=f"Message{i}",
            field_path=f"Field{i}",
        )
        for i in range(900)
    )
    report = Report("diff", findings, 900, base="origin/main", head="HEAD")
    body = comment_body(
        [
            fixed(HOW_TO_ACCEPT, "**Breaking on purpose?** ..."),
            _report_section(REPORT, report, "", None),
        ]
    )
    assert len(body) <= COMMENT_BUDGET
    assert body.endswith("**Breaking on purpose?** ...")
    assert "_Showing " in body and "of 900 findings" in body
