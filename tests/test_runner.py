"""One rule runner: lint, diff (rules and proof) and drift finish their findings alike.

An inline ignore of a rule silences the bytes that prove its break too; turning a rule off
leaves a proven break to the proof; drift honours the configuration like lint and diff;
``--level`` hides what is below it; text and Markdown list errors first.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.diff_runner import commit_tree, init_repo, run_cli

NAME = "ShelfCountResponse.json"


def count_spec(item_type: str = "int32", note: str = "") -> str:
    return (
        "{\n"
        '  "apiKey": 160,\n'
        '  "type": "response",\n'
        '  "name": "ShelfCountResponse",\n'
        '  "validVersions": "0-1",\n'
        '  "flexibleVersions": "1+",\n'
        '  "fields": [\n'
        '    { "name": "ErrorCode", "type": "int16", "versions": "0+", "about": "The error." },\n'
        f'    {{ "name": "ItemCount", "type": "{item_type}", "versions": "0+",{note}\n'
        '      "about": "How many items." }\n'
        "  ]\n"
        "}\n"
    )


def broken_repo(tmp_path: Path, note: str = "", config: str | None = None) -> Path:
    """ItemCount retyped; ``config`` on both sides (what it does, not a change of it)."""
    repo = init_repo(tmp_path / "repo")
    files = {NAME: count_spec()}
    if config is not None:
        files["kcompat.toml"] = config
    commit_tree(repo, files, "base")
    head = {NAME: count_spec("int64", note)}
    if config is not None:
        head["kcompat.toml"] = config
    commit_tree(repo, head, "retype ItemCount")
    return repo


def findings(repo: Path, *args: str) -> tuple[int, dict[str, Any]]:
    run = run_cli(["diff", "HEAD~1", "HEAD", "--format", "json", *args], repo)
    assert run.stderr == ""
    return run.code, run.json()


def test_a_break_is_one_finding_with_its_bytes(tmp_path: Path) -> None:
    code, report = findings(broken_repo(tmp_path))
    assert code == 1
    (finding,) = report["findings"]
    assert finding["rule"] == "field-type-changed"
    assert finding["field_path"] == "ItemCount"
    assert finding["evidence"]["field_path"] == "ItemCount"
    assert finding["notes"] and finding["notes"][0].startswith("also head->base")


def test_an_inline_ignore_accepts_the_bytes_too(tmp_path: Path) -> None:
    """The change's own ignore comment accepts the break and the bytes that prove it: one
    finding, accepted in this change, no round-trip finding beside it."""
    note = " // kcompat: ignore[field-type-changed] counts outgrew int32 (KIP-9999)"
    code, report = findings(broken_repo(tmp_path, note))
    assert code == 0
    (finding,) = report["findings"]
    assert finding["rule"] == "field-type-changed" and finding["evidence"] is not None
    assert finding["accepted"] == "counts outgrew int32 (KIP-9999)"
    assert report["summary"]["accepted_in_change"] == 1


def test_turning_the_rule_off_leaves_the_break_to_the_proof(tmp_path: Path) -> None:
    repo = broken_repo(tmp_path, config='disable = ["field-type-changed"]\n')
    code, report = findings(repo)
    assert code == 1
    (finding,) = report["findings"]
    assert finding["rule"] == "roundtrip-mismatch"
    assert finding["field_path"] == "ItemCount"
    _, report = findings(repo, "--no-proof")
    assert report["findings"] == []


def test_a_category_turns_off_every_rule_of_it(tmp_path: Path) -> None:
    repo = broken_repo(tmp_path, config='disable = ["category:fields"]\n')
    code, report = findings(repo, "--no-proof")
    assert code == 0
    assert report["findings"] == []
    code, report = findings(broken_repo(tmp_path / "other", config='disable = ["category:tags"]\n'))
    assert code == 1
    assert [f["rule"] for f in report["findings"]] == ["field-type-changed"]


def test_an_unknown_category_is_one_line(tmp_path: Path) -> None:
    repo = broken_repo(tmp_path, config='disable = ["category:tag"]\n')
    run = run_cli(["diff", "HEAD~1", "HEAD"], repo)
    assert run.code == 2
    (line,) = run.stderr.strip().splitlines()
    assert "unknown category 'tag' in disable; did you mean 'category:tags'?" in line


def test_a_configured_severity_keeps_the_evidence(tmp_path: Path) -> None:
    repo = broken_repo(tmp_path, config='[severity]\nfield-type-changed = "warning"\n')
    code, report = findings(repo)
    assert code == 0
    (finding,) = report["findings"]
    assert (finding["rule"], finding["severity"]) == ("field-type-changed", "warning")
    assert finding["evidence"] is not None


def test_the_baseline_is_applied_once_and_counted(tmp_path: Path) -> None:
    repo = broken_repo(tmp_path)
    baseline = tmp_path / "baseline.json"
    run = run_cli(["diff", "HEAD~1", "HEAD", "--write-baseline", str(baseline)], repo)
    assert run.code == 0 and run.stdout.startswith("Wrote 1 finding to ")
    code, report = findings(repo, "--baseline", str(baseline))
    assert code == 0
    assert report["findings"] == [] and report["summary"]["baselined"] == 1


def test_level_hides_what_is_below_it(tmp_path: Path) -> None:
    repo = init_repo(tmp_path / "repo")
    commit_tree(repo, {NAME: count_spec()}, "base")
    renamed = count_spec("int64").replace('"ErrorCode"', '"Error"')
    text = renamed.replace('"0-1"', '"0-2"')
    commit_tree(repo, {NAME: text}, "several changes")
    run = run_cli(["diff", "HEAD~1", "HEAD", "--no-proof", "--color", "never"], repo)
    rules = [line.split("[")[1].split("]")[0] for line in run.stdout.splitlines() if "] " in line]
    assert rules == ["field-type-changed", "field-renamed", "version-added"]  # errors first
    quiet = run_cli(
        ["diff", "HEAD~1", "HEAD", "--no-proof", "--color", "never", "--level", "warning"], repo
    )
    assert "[version-added]" not in quiet.stdout
    assert quiet.stdout.splitlines()[-1] == (
        "Found 1 error, 1 warning in 1 spec file (1 hidden by --level)."
    )
    assert quiet.code == 1
    errors_only = run_cli(["diff", "HEAD~1", "HEAD", "--no-proof", "--level", "error", "-f",
                           "json"], repo)  # fmt: skip
    document = json.loads(errors_only.stdout)
    assert [f["rule"] for f in document["findings"]] == ["field-type-changed"]
    assert document["summary"]["hidden"] == 2


def test_markdown_lists_errors_first(tmp_path: Path) -> None:
    repo = init_repo(tmp_path / "repo")
    commit_tree(repo, {NAME: count_spec()}, "base")
    text = count_spec("int64").replace('"ErrorCode"', '"Error"').replace('"0-1"', '"0-2"')
    commit_tree(repo, {NAME: text}, "several changes")
    run = run_cli(["diff", "HEAD~1", "HEAD", "--no-proof", "-f", "markdown"], repo)
    rows = [line for line in run.stdout.splitlines() if line.startswith("| 🔴") or
            line.startswith("| 🟡") or line.startswith("| 🔵")]  # fmt: skip
    assert [row[2] for row in rows] == ["🔴", "🟡", "🔵"]


# -- drift honours the configuration ---------------------------------------------------------


def drifted(tmp_path: Path) -> tuple[Path, Path]:
    upstream, local = tmp_path / "upstream", tmp_path / "local"
    upstream.mkdir(exist_ok=True)
    local.mkdir(exist_ok=True)
    (upstream / NAME).write_text(count_spec())
    (local / NAME).write_text(count_spec("int64"))
    return upstream, local


def drift(tmp_path: Path, *args: str) -> tuple[int, list[tuple[str, str]]]:
    upstream, local = drifted(tmp_path)
    run = run_cli(["drift", str(upstream), str(local), "-f", "json", *args], tmp_path)
    assert run.stderr == ""
    return run.code, [(f["rule"], f["severity"]) for f in run.json()["findings"]]


def test_drift_reports_by_default(tmp_path: Path) -> None:
    assert drift(tmp_path) == (1, [("drift-wire-mismatch", "error")])


WARNING = [("drift-wire-mismatch", "warning")]


@pytest.mark.parametrize(
    ("config", "expected"),
    [
        ('disable = ["drift-wire-mismatch"]\n', (0, [])),
        ('[severity]\ndrift-wire-mismatch = "warning"\n', (0, WARNING)),
        ('fail-on = "warning"\n[severity]\ndrift-wire-mismatch = "warning"\n', (1, WARNING)),
    ],
)
def test_drift_honours_the_configuration(
    tmp_path: Path, config: str, expected: tuple[int, list[tuple[str, str]]]
) -> None:
    (tmp_path / "kcompat.toml").write_text(config)
    assert drift(tmp_path) == expected


def test_drift_takes_config_and_fail_on(tmp_path: Path) -> None:
    elsewhere = tmp_path / "conf" / "kcompat.toml"
    elsewhere.parent.mkdir()
    elsewhere.write_text('[severity]\ndrift-wire-mismatch = "info"\n')
    code, found = drift(tmp_path, "--config", str(elsewhere))
    assert (code, found) == (0, [("drift-wire-mismatch", "info")])
    assert drift(tmp_path, "--config", str(elsewhere), "--fail-on", "info")[0] == 1
    assert drift(tmp_path, "--fail-on", "never")[0] == 0


def test_drift_honours_inline_ignores_in_the_local_copy(tmp_path: Path) -> None:
    upstream, local = drifted(tmp_path)
    text = (local / NAME).read_text()
    (local / NAME).write_text("// kcompat: ignore-file[drift-wire-mismatch] vendored fork\n" + text)
    run = run_cli(["drift", str(upstream), str(local), "-f", "json"], tmp_path)
    assert (run.code, run.json()["findings"], run.json()["summary"]["suppressed"]) == (0, [], 1)
