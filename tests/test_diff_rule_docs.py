"""Every diff rule has a page in rules/, and every page's examples do what it says.

The examples are run as a user would: BASE and HEAD are committed as two commits of a
fresh git repository and ``kcompat diff HEAD~1 HEAD --format json --no-proof`` is run on
it (with the round-trip proof for ``roundtrip-mismatch``, the proof's own rule). The
failing pair must produce the page's rule at the place the table below names; the
passing pair must produce no warning or error at all, and nothing of that rule, with or
without the proof.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from kcompat.rules.engine import Severity
from kcompat.rules.registry import Rule, Subject, all_rules, get_rule
from tests.diff_runner import (
    diff_last_commit,
    released_then_two_commits,
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
    lint_example,
    parse_rule_doc,
)

DIFF_RULES = {rule.id: rule for rule in all_rules("diff")}
DIFF_PAGES = sorted(
    path for path in all_rule_docs() if (rule := get_rule(path.stem)) and rule.kind == "diff"
)

#: Where each failing example's finding must point: a text found on the reported HEAD line,
#: and one found on the BASE line (None: the finding has no BASE location).
ANCHORS: dict[str, tuple[str, str | None]] = {
    "api-key-changed": ('"apiKey": 104', '"apiKey": 103'),
    "default-changed": ('"default": "45000"', '"default": "30000"'),
    "docs-changed": ('"about"', '"about"'),
    "encoding-changed": ('"encoding": "packed32"', '"name": "RecordCount"'),
    "entity-type-changed": ('"name": "GroupId"', '"entityType": "groupId"'),
    "field-added": ('"name": "PlacedAtMs"', '"fields"'),
    "field-removed": ('"fields"', '"name": "HolderEpoch"'),
    "field-renamed": ('"name": "Position"', '"name": "Slot"'),
    "field-tagging-changed": ('"taggedVersions": "0+"', '"name": "Comment"'),
    "field-type-changed": ('"type": "int64"', '"type": "int32"'),
    "fields-restructured": ('"fields"', '"fields"'),
    "tagged-versions-changed": ('"taggedVersions": "2+"', '"taggedVersions": "1+"'),
    "fields-reordered": ('"name": "WindowEndMs"', '"name": "WindowEndMs"'),
    "flexible-versions-changed": ('"flexibleVersions": "1+"', '"flexibleVersions": "none"'),
    "ignorable-changed": ('"name": "IncludeHistory"', '"ignorable": true'),
    "listener-removed": ('"listeners"', '"listeners"'),
    "lowest-version-raised": ('"validVersions": "2-3"', '"validVersions": "0-3"'),
    "map-key-changed": ('"name": "ShelfName"', '"mapKey": true'),
    "message-added": ('"name": "MarkShelfResponse"', None),
    "message-removed": ('"name": "TrimShelfRequest"', None),
    "message-renamed": ('"name": "LocateShelfRequest"', '"name": "FindShelfRequest"'),
    "message-type-changed": ('"type": "data"', '"type": "metadata"'),
    "nullable-narrowed": ('"name": "Target"', '"nullableVersions": "0+"'),
    "nullable-widened": ('"nullableVersions": "0+"', '"name": "Tags"'),
    "released-version-removed": ('"validVersions": "0-1"', '"validVersions": "0-2"'),
    "released-version-unstable": ('"latestVersionUnstable": true', '"validVersions": "0-1"'),
    "release-restored": ('"validVersions"', '"validVersions"'),
    "deprecated-version-removed": ('"validVersions"', '"deprecatedVersions"'),
    "unreleased-change": ('"validVersions"', '"validVersions"'),
    "roundtrip-mismatch": ('"name"', '"name"'),
    "struct-nullability-changed": ('"nullableVersions": "0+"', '"name": "Holder"'),
    "spec-unreadable": ('"name": "BookCount"', None),
    "spec-invalid": ('"type": "float32"', None),
    "struct-renamed": ('"type": "[]Item"', '"type": "[]ShelfItem"'),
    "tag-changed": ('"tag"', '"tag"'),
    "tag-reused": ('"tag": 0', '"tag": 0'),
    "tagged-field-added": ('"tag": 0', None),
    "version-added": ('"validVersions": "0-1"', '"validVersions": "0"'),
    "wire-format-changed": ('"name": "ClientId"', '"flexibleVersions": "none"'),
}

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


def _run(
    doc: RuleDoc, kind: str, tmp_path: Path, *, proof: bool = False
) -> list[dict[str, object]]:
    base = dict(doc.files(f"{kind}-base"))
    head = dict(doc.files(f"{kind}-head"))
    release = dict(doc.files(f"{kind}-release"))
    repo = (
        released_then_two_commits(tmp_path / kind, release, base, head)
        if release
        else two_commits(tmp_path / kind, base, head)
    )
    run = diff_last_commit(repo, proof=proof)
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


def test_anchor_table_covers_exactly_the_diff_rules() -> None:
    assert set(ANCHORS) == set(DIFF_RULES)


def test_the_package_ships_the_pages() -> None:
    from kcompat.rules.catalog import rule_doc

    for rule_id in DIFF_RULES:
        assert rule_doc(rule_id) == (RULES_DIR / f"{rule_id}.md").read_text(encoding="utf-8")


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


def test_failing_pair_fires_the_rule(page: tuple[RuleDoc, Rule], tmp_path: Path) -> None:
    doc, rule = page
    findings = _run(doc, "fail", tmp_path, proof=rule.subject is Subject.ELSEWHERE)
    hits = [f for f in findings if f["rule"] == rule.id]
    assert hits, f"the failing pair of {rule.id} does not trigger it: {findings}"
    base = dict(doc.files("fail-base"))
    head = dict(doc.files("fail-head"))
    head_anchor, base_anchor = ANCHORS[rule.id]
    for finding in hits:
        assert finding["severity"] == rule.severity.label
        message = str(finding["message"])
        assert message and "\n" not in message and "{versions}" not in message
        # The file it points at: HEAD's, or BASE's for a message that HEAD lacks.
        name = str(finding["file"])
        text = head.get(name) if rule.id != "message-removed" else base.get(name)
        assert text is not None, f"{name} is not a file of the example"
        line = int(str(finding["line"]))
        assert 1 <= line <= len(text.splitlines())
        assert head_anchor in text.splitlines()[line - 1], (
            f"{rule.id} points at line {line}: {text.splitlines()[line - 1]!r}"
        )
        if base_anchor is None:
            assert finding["base_line"] is None
            continue
        assert finding["base_file"] in base
        base_line = int(str(finding["base_line"]))
        base_text = base[str(finding["base_file"])].splitlines()
        assert base_anchor in base_text[base_line - 1], (
            f"{rule.id} points at BASE line {base_line}: {base_text[base_line - 1]!r}"
        )


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
    first = done.stdout.splitlines()[0]
    assert first.startswith("RenewLeaseRequest.json:7:3: error [field-removed] field HolderEpoch")
    assert first.endswith("(was line 10 in HEAD~1)")


def test_rules_command_prints_a_diff_page() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "kcompat", "rules", "tag-reused"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("# tag-reused\n\n| kind | category | severity |")
    assert "| diff | tags | error |" in done.stdout
