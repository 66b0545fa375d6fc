"""Every lint rule has a page in rules/, and every page's examples do what it says."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

import kcompat.commands
from kcompat.app import app
from kcompat.commands.catalog import implemented_in
from kcompat.config import parse_config
from kcompat.findings import Severity
from kcompat.rules.registry import Rule, all_rules, get_rule, implementation, rule_categories
from tests.conftest import ROOT
from tests.diff_runner import run_cli
from tests.rule_docs import (
    CONFIG_FILE,
    RULES_DIR,
    RuleDoc,
    RuleDocError,
    all_rule_docs,
    default_filename,
    finding_lines,
    lint_example,
    parse_rule_doc,
)

kcompat.commands.register_all()

LINT_RULES = {rule.id: rule for rule in all_rules("lint")}
#: Pages of lint rules; diff pages (kind diff) are tested by the diff suite.
LINT_PAGES = sorted(
    path for path in all_rule_docs() if (rule := get_rule(path.stem)) is None or rule.kind == "lint"
)


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Za-z`\"(])")


def _page_id(path: Path) -> str:
    return path.stem


@pytest.fixture(scope="module", params=LINT_PAGES, ids=_page_id)
def page(request: pytest.FixtureRequest) -> tuple[RuleDoc, Rule]:
    doc = parse_rule_doc(request.param)
    rule = LINT_RULES.get(doc.id)
    assert rule is not None, f"{request.param.name} documents no registered lint rule"
    return doc, rule


# -- coverage ---------------------------------------------------------------------------


def test_every_lint_rule_has_a_page() -> None:
    missing = sorted(
        rule_id for rule_id in LINT_RULES if not (RULES_DIR / f"{rule_id}.md").is_file()
    )
    assert missing == []


def test_every_page_names_a_registered_rule() -> None:
    unknown = sorted(path.name for path in all_rule_docs() if get_rule(path.stem) is None)
    assert unknown == []
    assert len(LINT_PAGES) == len(LINT_RULES) >= 60


def test_the_package_ships_the_pages() -> None:
    """Every rule's page, of every kind, is package data (kcompat/data/rules)."""
    from kcompat.commands.catalog import rule_doc

    for rule in all_rules():
        assert rule_doc(rule.id) == (RULES_DIR / f"{rule.id}.md").read_text(encoding="utf-8")


# -- each page --------------------------------------------------------------------------


def test_header_matches_the_registry(page: tuple[RuleDoc, Rule]) -> None:
    doc, rule = page
    assert doc.id == rule.id == doc.path.stem
    assert (doc.kind, doc.category, doc.severity) == (
        rule.kind,
        rule.category,
        rule.severity.label,
    )
    assert doc.summary == rule.summary


def test_prose_sections(page: tuple[RuleDoc, Rule]) -> None:
    doc, _rule = page
    sentences = [s for s in _SENTENCE_END.split(" ".join(doc.why.split())) if s]
    assert 2 <= len(sentences) <= 6, f"'Why it matters' has {len(sentences)} sentences"
    assert len(doc.fix) >= 40
    assert set(doc.examples) == {"fail", "pass"}, "lint pages have fail and pass examples"


def test_failing_example_fires_the_rule(page: tuple[RuleDoc, Rule]) -> None:
    doc, rule = page
    run = lint_example(doc.files("fail"))
    hits = run.of_rule(rule.id)
    assert hits, f"the failing example of {rule.id} does not trigger it: {run.findings}"
    for finding in hits:
        text = run.files[run.file_of(finding)]
        assert 1 <= finding.location.line <= len(text.splitlines())
        assert finding.location.column >= 1
        assert finding.message and "\n" not in finding.message
        assert finding.severity is rule.severity or rule.id == "tag-as-string"


def test_failing_example_prints_the_pages_finding_lines(
    page: tuple[RuleDoc, Rule], tmp_path: Path
) -> None:
    """``kcompat lint`` on the failing example's files prints exactly the page's lines."""
    doc, rule = page
    for name, text in doc.files("fail"):
        (tmp_path / name).write_text(text, encoding="utf-8")
    names = [name for name, _text in doc.files("fail") if name != CONFIG_FILE]
    run = run_cli(["lint", *names, "--color", "never"], tmp_path)
    assert run.stderr == ""
    assert doc.finding, f"{doc.path.name} has no `text finding` block"
    assert finding_lines(run.stdout, rule.id) == doc.finding


def test_passing_example_is_clean(page: tuple[RuleDoc, Rule]) -> None:
    doc, rule = page
    run = lint_example(doc.files("pass"))
    assert [f for f in run.findings if f.severity >= Severity.WARNING] == []
    assert run.of_rule(rule.id) == []
    # Info findings are allowed only where unavoidable; no page needs one today.
    assert run.findings == []


def test_examples_differ(page: tuple[RuleDoc, Rule]) -> None:
    doc, _rule = page
    assert doc.files("fail") != doc.files("pass")


# -- the optional sections, on every page -------------------------------------------------

ALL_PAGES = [parse_rule_doc(path) for path in all_rule_docs()]
_TOML_BLOCK = re.compile(r"^```toml\n(.*?)^```$", re.MULTILINE | re.DOTALL)


@pytest.mark.parametrize("doc", ALL_PAGES, ids=lambda doc: doc.id)
def test_related_rules_are_registered_neighbours(doc: RuleDoc) -> None:
    """Each item names one registered rule, not the page's own, once."""
    text = doc.extra.get("Related rules")
    if text is None:
        return
    named = [re.match(r"- `([a-z0-9-]+)`: \S", line) for line in text.splitlines()]
    assert all(named), f"an item of {doc.id}'s Related rules is not `- `rule-id`: why`"
    ids = [match.group(1) for match in named if match]
    assert [rule_id for rule_id in ids if get_rule(rule_id) is None] == []
    assert doc.id not in ids and len(set(ids)) == len(ids)


@pytest.mark.parametrize(
    "doc", [doc for doc in ALL_PAGES if "Configuration" in doc.extra], ids=lambda doc: doc.id
)
def test_configuration_is_a_valid_kcompat_toml_for_the_rule(doc: RuleDoc) -> None:
    """The page's kcompat.toml lines are read as kcompat reads them, and name its rule."""
    blocks = _TOML_BLOCK.findall(doc.extra["Configuration"])
    assert blocks, f"{doc.id}'s Configuration shows no ```toml lines"
    for block in blocks:
        config = parse_config(tomllib.loads(block), f"{doc.id}.md", rules=rule_categories)
        assert config is not None
        assert doc.id in block or f"category:{doc.category}" in block


# -- the CLI prints the pages -------------------------------------------------------------

runner = CliRunner()


def test_rules_command_prints_the_page(page: tuple[RuleDoc, Rule]) -> None:
    """Every line of the page, in order, less the test markers of its example fences."""
    doc, rule = page
    result = runner.invoke(app, ["rules", doc.id, "-f", "markdown"])
    assert result.exit_code == 0, result.output
    shown = iter(result.output.splitlines())
    for line in doc.path.read_text(encoding="utf-8").splitlines():
        wanted = re.sub(r"^(```\w+) .*$", r"\1", line)
        assert any(out == wanted for out in shown), f"missing or out of order: {line!r}"
    assert not re.search(r"^```\w+[ \t]+\S", result.output, re.MULTILINE)
    assert (
        f"Implemented in `{implemented_in(rule)}` ({implementation(rule).__module__})"
        in result.output
    )


def test_rules_command_says_where_the_rule_is_implemented(page: tuple[RuleDoc, Rule]) -> None:
    """The file and line shown hold the rule's check (``@field_rule("ID", ...)``), or the
    stage that reports a rule declared as coming from elsewhere."""
    _doc, rule = page
    path, line = implemented_in(rule).rsplit(":", 1)
    source = (ROOT / path).read_text(encoding="utf-8").splitlines()
    registration = "\n".join(source[int(line) - 1 : int(line) + 2])
    if rule.origin:
        assert registration.startswith(("def ", "class ")), registration
        assert rule.origin.rpartition(":")[2] in registration
    else:
        assert re.match(r"@\w+_rule\(", registration) and f'"{rule.id}"' in registration


@pytest.mark.parametrize("rule_id", ["tag-duplicate", "tag-reused"])  # a lint and a diff page
def test_rules_command_through_a_real_process(rule_id: str) -> None:
    """Piped, the page is Markdown text; the examples say which file they stand for."""
    rule = get_rule(rule_id)
    assert rule is not None
    done = subprocess.run(
        [sys.executable, "-m", "kcompat", "rules", rule_id],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"# {rule_id}\n\n| kind | category | severity |")
    assert f"| {rule.kind} | {rule.category} | {rule.severity.label} |" in done.stdout
    assert "```json\n" in done.stdout and "## How to fix" in done.stdout
    assert "```json fail" not in done.stdout and "```json pass" not in done.stdout
    assert "```text finding" not in done.stdout and "```text\n" in done.stdout


def test_rules_command_renders_markdown_on_a_terminal() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "kcompat", "rules", "tag-reused", "--color", "always"],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "COLUMNS": "100"},
    )
    assert done.returncode == 0, done.stderr
    assert "\x1b[" in done.stdout  # styled by rich
    plain = re.sub(r"\x1b\[[0-9;]*m", "", done.stdout)
    assert "```" not in plain and "fail-base" not in plain and "## " not in plain
    assert "BASE:" in plain and "HEAD:" in plain
    assert "Implemented in kcompat/rules/evolution/tags.py:" in plain


def test_rules_list_is_an_aligned_table_with_a_header() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "kcompat", "rules"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].split() == ["rule", "kind", "category", "severity", "summary"]
    columns = [lines[0].index(name) for name in ("kind", "category", "severity", "summary")]
    assert len(lines) == len(all_rules()) + 1
    for line in lines[1:]:
        rule = get_rule(line.split()[0])
        assert rule is not None
        cells = [
            line[start:end].strip()
            for start, end in zip([0, *columns], [*columns, None], strict=True)
        ]
        assert cells == [rule.id, rule.kind, rule.category, rule.severity.label, rule.summary]


def test_rules_kind_help_lists_every_kind() -> None:
    result = runner.invoke(app, ["rules", "--help"])
    kinds = sorted({rule.kind for rule in all_rules()})
    assert kinds == ["corpus", "diff", "drift", "lint"]
    assert "Only rules of this kind: lint, diff, drift or corpus." in " ".join(
        result.output.split()
    )


def test_rules_command_unknown_rule_suggests_one() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "kcompat", "rules", "tag-duplicates"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "kcompat: error: unknown rule 'tag-duplicates'; did you mean 'tag-duplicate'?"
    ]


def test_rules_list_json_has_every_lint_rule() -> None:
    result = runner.invoke(app, ["rules", "--kind", "lint", "--format", "json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)
    assert {row["id"] for row in rows} == set(LINT_RULES)
    for row in rows:
        rule = LINT_RULES[row["id"]]
        assert {k: row[k] for k in ("id", "kind", "category", "severity", "summary")} == {
            "id": rule.id,
            "kind": "lint",
            "category": rule.category,
            "severity": rule.severity.label,
            "summary": rule.summary,
        }
        assert (RULES_DIR / f"{row['id']}.md").is_file()


# -- the parser itself ----------------------------------------------------------------------

_PAGE = """\
# some-rule

| kind | category | severity |
|---|---|---|
| diff | fields | error |

A one-line summary.

## Why it matters
Because. It does.

## How to fix
Do the thing described here, carefully.

## Known problems
Sometimes.

## Related rules
- `other-rule`: near

## Examples

### Failing

```json fail-base
{ "name": "FooRequest", "type": "request", "validVersions": "0" }
```

```json fail-head
// a comment
{ "type": "request", "name": "FooRequest", "validVersions": "0-1" }
```

`kcompat diff HEAD~1 HEAD` reports:

```text finding
FooRequest.json:2:1: error [some-rule] it broke (was line 1 in HEAD~1)
```

### Passing

```json pass-base Other.json
{ "name": "FooRequest" }
```

```json pass-head Other.json
{
```

```text
not an example
```
"""


def test_parser_reads_diff_roles_and_file_names(tmp_path: Path) -> None:
    path = tmp_path / "some-rule.md"
    path.write_text(_PAGE, encoding="utf-8")
    doc = parse_rule_doc(path)
    assert (doc.id, doc.kind, doc.category, doc.severity) == (
        "some-rule",
        "diff",
        "fields",
        "error",
    )
    assert doc.summary == "A one-line summary."
    assert doc.why == "Because. It does."
    assert doc.extra == {"Known problems": "Sometimes.", "Related rules": "- `other-rule`: near"}
    assert sorted(doc.examples) == ["fail-base", "fail-head", "pass-base", "pass-head"]
    assert [name for name, _ in doc.files("fail-base")] == ["FooRequest.json"]
    assert doc.files("fail-head")[0][1].startswith("// a comment\n")
    assert doc.files("pass-head") == [("Other.json", "{\n")]
    assert doc.examples["fail-base"][0].line == 25
    assert doc.finding == (
        "FooRequest.json:2:1: error [some-rule] it broke (was line 1 in HEAD~1)",
    )


@pytest.mark.parametrize(
    ("change", "error"),
    [
        (("| kind | category | severity |", "| kind | severity |"), "table header"),
        (("```json fail-base", "```json broken"), "needs a role"),
        (("## How to fix", "## How not to fix"), "missing section '## How to fix'"),
        (("```json pass-base Other.json", "```json pass-base ../x.json"), "bad example file"),
        (("```json pass-head Other.json", "```json pass-base Other.json"), "both named"),
        (("```text\nnot an example", "```text finding\nnot an example"), "one `text finding`"),
        (("```json fail-head", "```text finding\nx\n```\n\n```json fail-head"), "after the fail"),
        (("FooRequest.json:2:1:", "\nFooRequest.json:2:1:"), "one a line"),
        (("## How to fix", "## See also\nx\n\n## How to fix"), "unknown section '## See also'"),
        (("## Examples", "## Examples\n\n## Configuration\nx\n"), "out of order"),
        (("## Known problems\nSometimes.", "## Known problems\n"), "'Known problems' is empty"),
    ],
)
def test_parser_rejects_malformed_pages(
    tmp_path: Path, change: tuple[str, str], error: str
) -> None:
    path = tmp_path / "some-rule.md"
    path.write_text(_PAGE.replace(*change), encoding="utf-8")
    with pytest.raises(RuleDocError, match=error):
        parse_rule_doc(path)


def test_default_file_names() -> None:
    assert default_filename('{"name": "ShareAckRecord", "type": "metadata"}') == (
        "ShareAckRecord.json"
    )
    assert default_filename('{"type": "data", "name": "Broken",, }') == "Broken.json"
    assert default_filename("[1, 2]") == "Example.json"
    assert default_filename("{}") == "Example.json"
