"""Every diff rule has a page in rules/, and every page's examples do what it says.

The examples are run as a user would: BASE and HEAD are committed as two commits of a
fresh git repository and ``kcompat diff HEAD~1 HEAD --format json --no-proof`` is run on
it (with the round-trip proof for ``roundtrip-mismatch``, the proof's own rule). The
failing pair must print exactly the finding lines the page shows (``text finding``); the
passing pair must produce no warning or error at all, and nothing of that rule, with or
without the proof.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kcompat.findings import Severity
from kcompat.rules.registry import Rule, Subject, all_rules, get_rule
from tests.diff_runner import (
    diff_last_commit,
    released_then_two_commits,
    run_cli,
    run_process,
    two_commits,
)
from tests.rule_docs import (
    CONFIG_FILE,
    DIFF_ROLES,
    RELEASE_ROLES,
    RULES_DIR,
    RuleDoc,
    all_rule_docs,
    finding_lines,
    lint_example,
    parse_rule_doc,
)

DIFF_RULES = {rule.id: rule for rule in all_rules("diff")}
DIFF_PAGES = sorted(
    path for path in all_rule_docs() if (rule := get_rule(path.stem)) and rule.kind == "diff"
)

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Za-z`\"(])")

#: Lint findings an example may have: a page shows one file of a larger protocol.
LINT_ALLOWED = {"unpaired-request-response"}
#: Examples that must not parse: that is what their rule is about.
BROKEN_ON_PURPOSE = {("spec-unreadable", "fail-head"), ("spec-invalid", "fail-head")}


def _page_id(path: Path) -> str:
    return path.stem


@pytest.fixture(scope="module", params=DIFF_PAGES, ids=_page_id)
def page(request: pytest.FixtureRequest) -> tuple[RuleDoc, Rule]:
    doc = parse_rule_doc(request.param)
    return doc, DIFF_RULES[doc.id]


def _repo(doc: RuleDoc, kind: str, tmp_path: Path) -> Path:
    """A repository whose last two commits are the example's BASE and HEAD."""
    base = dict(doc.files(f"{kind}-base"))
    head = dict(doc.files(f"{kind}-head"))
    release = dict(doc.files(f"{kind}-release"))
    if release:
        return released_then_two_commits(tmp_path / kind, release, base, head)
    return two_commits(tmp_path / kind, base, head)


def _run(
    doc: RuleDoc, kind: str, tmp_path: Path, *, proof: bool = False
) -> list[dict[str, object]]:
    run = diff_last_commit(_repo(doc, kind, tmp_path), proof=proof)
    assert run.code in (0, 1), run.stderr
    assert run.stderr == ""
    return run.findings()


# -- coverage ---------------------------------------------------------------------------


def test_every_diff_rule_has_a_page() -> None:
    missing = sorted(r for r in DIFF_RULES if not (RULES_DIR / f"{r}.md").is_file())
    assert missing == []
    assert len(DIFF_PAGES) == len(DIFF_RULES) >= 30


def test_every_diff_page_documents_a_diff_rule() -> None:
    for path in all_rule_docs():
        doc = parse_rule_doc(path)
        if doc.kind == "diff":
            assert doc.id in DIFF_RULES, f"{path.name} documents no registered diff rule"


# -- each page --------------------------------------------------------------------------


def test_header_matches_the_registry(page: tuple[RuleDoc, Rule]) -> None:
    doc, rule = page
    assert doc.id == rule.id == doc.path.stem
    assert (doc.kind, doc.category, doc.severity) == ("diff", rule.category, rule.severity.label)
    assert doc.summary == rule.summary


def test_prose_and_roles(page: tuple[RuleDoc, Rule]) -> None:
    doc, _rule = page
    sentences = [s for s in _SENTENCE_END.split(" ".join(doc.why.split())) if s]
    assert 2 <= len(sentences) <= 6, f"'Why it matters' has {len(sentences)} sentences"
    assert len(doc.fix) >= 40
    assert set(DIFF_ROLES) <= set(doc.examples), "diff pages have all four example roles"
    assert set(doc.examples) <= {*DIFF_ROLES, *RELEASE_ROLES}
    assert doc.files("fail-base") != doc.files("fail-head")
    assert doc.files("pass-base") != doc.files("pass-head")


def test_failing_pair_prints_the_pages_finding_lines(
    page: tuple[RuleDoc, Rule], tmp_path: Path
) -> None:
    """``kcompat diff HEAD~1 HEAD`` on the failing pair prints exactly the page's lines:
    the rule, its severity, the HEAD place, the message and the BASE place."""
    doc, rule = page
    args = ["diff", "HEAD~1", "HEAD", "--color", "never"]
    if rule.subject is not Subject.ELSEWHERE:
        args.append("--no-proof")
    run = run_cli(args, _repo(doc, "fail", tmp_path))
    assert run.code in (0, 1) and run.stderr == ""
    printed = finding_lines(run.stdout, rule.id)
    assert printed, f"the failing pair of {rule.id} does not trigger it: {run.stdout}"
    assert printed == doc.finding
    assert all(f": {rule.severity.label} [{rule.id}] " in line for line in printed)
    assert not any("{versions}" in line for line in printed)


@pytest.mark.parametrize("proof", [False, True], ids=["static", "proof"])
def test_passing_pair_is_clean(page: tuple[RuleDoc, Rule], tmp_path: Path, proof: bool) -> None:
    doc, rule = page
    findings = _run(doc, "pass", tmp_path, proof=proof)
    loud = [f for f in findings if f["severity"] in ("warning", "error")]
    assert loud == []
    assert [f for f in findings if f["rule"] == rule.id] == []


def test_examples_are_valid_specs(page: tuple[RuleDoc, Rule], tmp_path: Path) -> None:
    """Every example file is a spec kcompat lint accepts (or, once, a non-spec JSON file)."""
    doc, _rule = page
    for role in DIFF_ROLES:
        if (doc.id, role) in BROKEN_ON_PURPOSE:
            continue
        files = [(n, t) for n, t in doc.files(role) if n not in ("package.json", CONFIG_FILE)]
        directory = tmp_path / role
        directory.mkdir()
        run = lint_example(files, directory)
        bad = [
            f"{f.location}: [{f.rule}] {f.message}"
            for f in run.findings
            if f.severity >= Severity.WARNING and f.rule not in LINT_ALLOWED
        ]
        assert bad == [], f"{role} of {doc.id}"


# -- through a real process -------------------------------------------------------------------


def test_a_page_through_the_installed_cli(tmp_path: Path) -> None:
    doc = parse_rule_doc(RULES_DIR / "field-removed.md")
    repo = two_commits(tmp_path / "r", dict(doc.files("fail-base")), dict(doc.files("fail-head")))
    done = run_process(["diff", "HEAD~1", "HEAD", "--no-proof", "--color", "never"], repo)
    assert done.code == 1, done.stderr
    assert done.stdout.splitlines()[0] == doc.finding[0]
    assert doc.finding[0].startswith("RenewLeaseRequest.json:7:3: error [field-removed] ")
