"""What was accepted or silenced, and why, in every format (issues 22.4 and 27.6).

A finding the change's own configuration hides is listed "accepted in this change" with
the setting as its reason, and so is one an ignore comment the change adds accepts,
with the comment's reason (issue 32.3); where an ignore comment silences (``lint``), its
reason is shown beside the suppressed count, and ``--show-suppressed`` lists the
silenced findings with their reasons: text, JSON, SARIF (suppressions with a
justification), JUnit, Markdown, GitHub annotations and GitLab Code Quality. Everything
runs through the CLI on git repositories built in temp dirs, and through the GitHub
Action's own step for the PR comment and the job summary.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from tests.action_runner import SPEC as NAME
from tests.action_runner import Runner, event_of, pull_request, tally
from tests.diff_runner import CliRun, run_cli, two_commits
from tests.fake_github import serving
from tests.test_config_weakened import SHELF, shelf

DISABLE = 'disable = ["field-type-changed", "roundtrip-mismatch"]\n'
SAID = (
    'disable turns off "field-type-changed", "roundtrip-mismatch" '
    '(now ["field-type-changed", "roundtrip-mismatch"], was [])'
)


@pytest.fixture()
def weakened(tmp_path: Path) -> Path:
    """A change that retypes ItemCount and turns the rules that see it off."""
    return two_commits(
        tmp_path / "weakened", {SHELF: shelf()}, {SHELF: shelf("int64"), "kcompat.toml": DISABLE}
    )


def diff(repo: Path, fmt: str, *args: str) -> CliRun:
    run = run_cli(
        ["diff", "HEAD~1", "HEAD", "--no-proof", "-f", fmt, "--color", "never", *args], repo
    )
    assert run.stderr == "" and run.code == 0, run.stderr
    return run


# -- accepted in this change ------------------------------------------------------------------


def test_text_says_accepted_in_this_change(weakened: Path) -> None:
    lines = diff(weakened, "text").stdout.splitlines()
    assert lines[0].startswith(
        "ShelfCountResponse.json:8:28: error (accepted in this change) [field-type-changed]"
    )
    assert lines[1] == f"    accepted in this change: {SAID}"
    assert lines[-1] == "Found 1 warning in 1 spec file (1 accepted in this change)."


def test_json_and_markdown_say_it(weakened: Path) -> None:
    report = json.loads(diff(weakened, "json").stdout)
    assert report["summary"]["accepted_in_change"] == 1 and report["summary"]["accepted"] == 1
    markdown = diff(weakened, "markdown").stdout
    assert "(1 accepted in this change)." in markdown.splitlines()[2]
    section = markdown.split("#### ⚠️ This change edits kcompat's configuration\n", 1)[1]
    assert section.index("Hidden by this change's configuration:") < section.index("| rule |")
    assert "- error (accepted in this change) `ShelfCountResponse.json:8:28`" in section
    assert "| error (accepted in this change) | 1 |" in markdown


def test_sarif_junit_github_and_gitlab_say_it(weakened: Path) -> None:
    run = json.loads(diff(weakened, "sarif").stdout)["runs"][0]
    (hidden,) = [r for r in run["results"] if r["ruleId"] == "field-type-changed"]
    (suppression,) = hidden["suppressions"]
    assert suppression["justification"] == f"accepted in this change: {SAID}"
    assert run["properties"]["accepted_in_change"] == 1
    suites = ET.fromstring(diff(weakened, "junit").stdout)
    failures = [c.get("name") for c in suites.iter("testcase") if c.find("failure") is not None]
    assert failures == ["config-weakened kcompat.toml:1:1"]
    assert any(
        p.get("name") == "kcompat.accepted_in_change" and p.get("value") == "1"
        for p in suites.iter("property")
    )
    lines = diff(weakened, "github").stdout.splitlines()
    assert lines[0].startswith("::notice file=ShelfCountResponse.json,line=8,")  # an error's
    assert "%0Aaccepted in this change: disable turns off" in lines[0]
    assert lines[1].startswith("::warning file=kcompat.toml,line=1,")
    assert lines[-1].endswith("(1 accepted in this change)")
    issues = json.loads(diff(weakened, "gitlab").stdout)
    (gitlab,) = [i for i in issues if i["check_name"] == "field-type-changed"]
    assert gitlab["severity"] == "info"
    assert gitlab["description"].endswith(f"(accepted in this change: {SAID})")


def test_the_actions_summary_and_comment_have_the_configurations_section(tmp_path: Path) -> None:
    checkout = pull_request(
        tmp_path, {NAME: tally(2)}, {NAME: tally(2, typed="int64"), "kcompat.toml": DISABLE}
    )
    with serving() as github:
        runner = Runner(
            tmp_path / "home", checkout, event_of(checkout), api=github.url, token="ghs_test"
        )
        done = runner.run(comment="true")
        writes = github.writes()
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.outputs["warnings"] == "1" and done.outputs["errors"] == "0"
    body = writes[-1][2]["body"]
    for text in (done.summary, body):
        # its own section of the comment, once, after the findings' table
        assert text.count("#### ⚠️ This change edits kcompat's configuration") == 1
        section = text.split("#### ⚠️ This change edits kcompat's configuration", 1)[1]
        assert "| rule | severity | count |" not in section
        assert "Its own settings hide or lower 2 findings" in section
        assert f"`{NAME}:" in section and "(by `disable`)" in section
    assert done.annotations("warning")[0].startswith("::warning file=kcompat.toml,line=1,")


# -- accepted by an ignore comment the change adds (issue 32.3) --------------------------------


def silenced(tmp_path: Path, reason: str = " counts outgrew int32 (KIP-9999)") -> Path:
    """A change that retypes ItemCount and writes the ignore comment that accepts it."""
    head = shelf("int64").replace(
        '"versions": "0+",', f'"versions": "0+", // kcompat: ignore[field-type-changed]{reason}'
    )
    return two_commits(tmp_path / "silenced", {SHELF: shelf()}, {SHELF: head})


REASON = "counts outgrew int32 (KIP-9999)"
BY = "ignore comment ShelfCountResponse.json:8"


def test_an_ignore_comment_the_change_adds_is_listed_in_every_format(tmp_path: Path) -> None:
    """Not a count of suppressed findings: each finding, accepted in this change with the
    comment's reason (before: "1 suppressed by ignore comments" and nothing more)."""
    repo = silenced(tmp_path)
    lines = diff(repo, "text").stdout.splitlines()
    assert lines[0].startswith(
        "ShelfCountResponse.json:8:28: error (accepted in this change) [field-type-changed]"
    )
    assert lines[1] == f"    accepted in this change: {REASON}"
    assert lines[-1] == "No problems in 1 spec file (1 accepted in this change)."
    report = json.loads(diff(repo, "json").stdout)
    (finding,) = report["findings"]
    assert (finding["accepted"], finding["weakened_by"]) == (REASON, BY)
    assert report["summary"]["accepted_in_change"] == 1 and report["summary"]["suppressed"] == 0
    markdown = diff(repo, "markdown").stdout
    section = markdown.split("#### ⚠️ This change accepts breaks\n", 1)[1]
    assert section.index("accepted by this change: `field-type-changed`") < section.index("| rule")
    assert (
        "- accepted by this change: `field-type-changed`, `ShelfCountResponse.ItemCount`, "
        f"{REASON} (error at `ShelfCountResponse.json:8:28`, by `{BY}`)"
    ) in section
    (result,) = json.loads(diff(repo, "sarif").stdout)["runs"][0]["results"]
    assert result["suppressions"][0]["justification"] == f"accepted in this change: {REASON}"
    (case,) = ET.fromstring(diff(repo, "junit").stdout).iter("testcase")
    assert case.find("failure") is None
    (annotation, _summary) = diff(repo, "github").stdout.splitlines()
    assert annotation.startswith("::notice file=ShelfCountResponse.json,line=8,")
    assert f"%0Aaccepted in this change: {REASON}" in annotation
    (issue,) = json.loads(diff(repo, "gitlab").stdout)
    assert issue["severity"] == "info"
    assert issue["description"].endswith(f"(accepted in this change: {REASON})")


def test_the_actions_summary_and_comment_list_what_a_comment_accepts(tmp_path: Path) -> None:
    head = tally(2, typed="int64").replace(
        '"about": "count 0" },',
        '"about": "count 0" }, // kcompat: ignore[field-type-changed] KIP-7',
    )
    assert "KIP-7" in head
    checkout = pull_request(tmp_path, {NAME: tally(2)}, {NAME: head})
    with serving() as github:
        runner = Runner(
            tmp_path / "home", checkout, event_of(checkout), api=github.url, token="ghs_test"
        )
        done = runner.run(comment="true")
        writes = github.writes()
    assert done.returncode == 0, done.stdout + done.stderr  # its line and the next
    body = writes[-1][2]["body"]
    for text in (done.summary, body):
        assert text.count("#### ⚠️ This change accepts breaks") == 1
        section = text.split("#### ⚠️ This change accepts breaks", 1)[1]
        for field in ("Count0", "Count1"):
            assert (
                f"- accepted by this change: `field-type-changed`, `TallyRequest.{field}`, KIP-7 ("
                in section
            )


# -- suppressed (lint), with reasons -------------------------------------------------------------


def lint_silenced(tmp_path: Path, reason: str = " counts outgrew int32 (KIP-9999)") -> Path:
    """A response without its request (an error), silenced by an ignore comment."""
    folder = tmp_path / "silenced"
    folder.mkdir(parents=True)
    text = shelf().replace("{\n", f"{{ // kcompat: ignore[unpaired-request-response]{reason}\n", 1)
    assert text != shelf()
    (folder / SHELF).write_text(text, encoding="utf-8")
    return folder


def lint(folder: Path, fmt: str, *args: str) -> CliRun:
    run = run_cli(["lint", SHELF, "-f", fmt, "--color", "never", *args], folder)
    assert run.stderr == "" and run.code == 0, run.stderr
    return run


def test_the_reason_is_beside_the_suppressed_count(tmp_path: Path) -> None:
    folder = lint_silenced(tmp_path)
    assert lint(folder, "text").stdout.splitlines()[-1] == (
        f'No problems in 1 spec file (1 suppressed by ignore comments ("{REASON}")).'
    )
    summary = json.loads(lint(folder, "json").stdout)["summary"]
    assert summary["suppressions"] == [{"reason": REASON, "count": 1}]
    assert f"(1 suppressed by ignore comments (`{REASON}`))" in lint(folder, "markdown").stdout
    assert lint(folder, "github").stdout.endswith(
        f'(1 suppressed by ignore comments ("{REASON}"))\n'
    )
    sarif = json.loads(lint(folder, "sarif").stdout)["runs"][0]["properties"]
    assert sarif["suppressions"] == [{"reason": REASON, "count": 1}]
    junit = ET.fromstring(lint(folder, "junit").stdout)
    assert {p.get("name"): p.get("value") for p in junit.iter("property")}[
        "kcompat.suppressions"
    ] == f'"{REASON}"'
    bare = lint_silenced(tmp_path / "bare", reason="")
    assert lint(bare, "text").stdout.splitlines()[-1] == (
        "No problems in 1 spec file (1 suppressed by ignore comments (no reason given))."
    )


def shown(folder: Path, fmt: str) -> str:
    return lint(folder, fmt, "--show-suppressed").stdout


def test_show_suppressed_lists_them_with_their_reasons(tmp_path: Path) -> None:
    folder = lint_silenced(tmp_path)
    lines = shown(folder, "text").splitlines()
    assert lines[0].startswith(
        "ShelfCountResponse.json:1:1: error (suppressed) [unpaired-request-response] response"
    ), lines[0]
    assert lines[1] == f"    suppressed: {REASON}"
    assert lines[-1].startswith("No problems in 1 spec file (1 suppressed")
    (finding,) = json.loads(shown(folder, "json"))["findings"]
    assert (finding["rule"], finding["suppressed"]) == ("unpaired-request-response", REASON)
    (result,) = json.loads(shown(folder, "sarif"))["runs"][0]["results"]
    assert result["suppressions"] == [
        {"kind": "inSource", "justification": REASON, "status": "accepted"}
    ]
    (case,) = ET.fromstring(shown(folder, "junit")).iter("testcase")
    out = case.find("system-out")
    assert case.find("failure") is None and out is not None
    assert f"suppressed: {REASON}" in (out.text or "")
    markdown = shown(folder, "markdown")
    assert "| 🔇 | `ShelfCountResponse.json:1:1` |" in markdown
    assert "| error (suppressed) | 1 |" in markdown and f"suppressed: {REASON}" in markdown
    (annotation, _summary) = shown(folder, "github").splitlines()
    assert annotation.startswith("::notice file=ShelfCountResponse.json,line=1,")
    assert f"%0Asuppressed: {REASON}" in annotation
    (issue,) = json.loads(shown(folder, "gitlab"))
    assert issue["severity"] == "info" and issue["description"].endswith(f"(suppressed: {REASON})")


def test_show_suppressed_in_lint_never_fails(tmp_path: Path) -> None:
    """A response without its request is an error; the file's ignore comment says why."""
    text = "// kcompat: ignore-file[unpaired-request-response] legacy layout\n" + shelf()
    (tmp_path / SHELF).write_text(text, encoding="utf-8")
    plain = run_cli(["lint", SHELF, "-f", "json"], tmp_path)
    listed = run_cli(["lint", SHELF, "-f", "json", "--show-suppressed"], tmp_path)
    assert plain.code == listed.code == 0
    report: dict[str, Any] = json.loads(listed.stdout)
    (suppressed,) = [f for f in report["findings"] if f["suppressed"]]
    assert (suppressed["rule"], suppressed["severity"]) == ("unpaired-request-response", "error")
    assert suppressed["suppressed"] == "legacy layout"
    assert report["summary"]["error"] == 0 and report["summary"]["suppressed"] == 1
    assert json.loads(plain.stdout)["findings"] == [
        f for f in report["findings"] if not f["suppressed"]
    ]
