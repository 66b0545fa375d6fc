"""Accepting a break on purpose, narrowly and on the record.

``[[ignore]]`` entries accept findings by rule and message or path, with a reason, and
show them as accepted; ``preview`` messages break with warnings that say why; ignore
comments that name no rule, or (when asked) silence nothing, are findings too.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kcompat.config import ConfigError, parse_config
from kcompat.rules.registry import rule_categories
from tests.diff_runner import commit_tree, init_repo, run_cli

SHELF = "ShelfCountResponse.json"


def spec(name: str = "ShelfCountResponse", item_type: str = "int32", api_key: int = 160) -> str:
    return (
        "{\n"
        f'  "apiKey": {api_key},\n'
        '  "type": "response",\n'
        f'  "name": "{name}",\n'
        '  "validVersions": "0-1",\n'
        '  "flexibleVersions": "1+",\n'
        '  "fields": [\n'
        f'    {{ "name": "ItemCount", "type": "{item_type}", "versions": "0+",\n'
        '      "about": "How many items." }\n'
        "  ]\n"
        "}\n"
    )


def two_breaks(tmp_path: Path, config: str = "", *, in_base: bool = False) -> Path:
    """Two retyped fields: one in ShelfCountResponse, one in an early-access message;
    ``config`` comes with the change (``in_base``: BASE has it already)."""
    repo = init_repo(tmp_path / "repo")
    preview = spec("ConsumerShelfValue", api_key=161)
    base = {SHELF: spec(), "ConsumerShelfValue.json": preview}
    if config and in_base:
        base["kcompat.toml"] = config
    commit_tree(repo, base, "base")
    head = {
        SHELF: spec(item_type="int64"),
        "ConsumerShelfValue.json": spec("ConsumerShelfValue", "int64", 161),
    }
    if config:
        head["kcompat.toml"] = config
    commit_tree(repo, head, "retype both")
    return repo


def diff(repo: Path, *args: str) -> tuple[int, dict[str, Any]]:
    run = run_cli(["diff", "HEAD~1", "HEAD", "--no-proof", "-f", "json", *args], repo)
    assert run.stderr == ""
    return run.code, run.json()


def verdicts(report: dict[str, Any]) -> list[tuple[str, str, str, str | None]]:
    return sorted(
        (f["message_name"], f["rule"], f["severity"], f["accepted"]) for f in report["findings"]
    )


def test_both_breaks_fail_without_configuration(tmp_path: Path) -> None:
    code, report = diff(two_breaks(tmp_path))
    assert code == 1
    assert verdicts(report) == [
        ("ConsumerShelfValue", "field-type-changed", "error", None),
        ("ShelfCountResponse", "field-type-changed", "error", None),
    ]


ACCEPT_SHELF = (
    "[[ignore]]\n"
    'rule = "field-type-changed"\n'
    'message = "ShelfCount*"\n'
    'reason = "KIP-9999: counts outgrew int32; every client upgrades together"\n'
)
KIP = "KIP-9999: counts outgrew int32; every client upgrades together"


def test_an_ignore_entry_of_base_accepts_no_new_break(tmp_path: Path) -> None:
    """An entry BASE's configuration already holds was written for a break BASE had; the
    change's break is new, so the entry does not reach it: an error naming the entry
    (issue 32.3; before: accepted, and the run passed)."""
    code, report = diff(two_breaks(tmp_path, ACCEPT_SHELF, in_base=True))
    assert code == 1
    assert verdicts(report) == [
        ("ConsumerShelfValue", "field-type-changed", "error", None),
        ("ShelfCountResponse", "field-type-changed", "error", None),
    ]
    (shelf_break,) = [f for f in report["findings"] if f["message_name"] == "ShelfCountResponse"]
    assert shelf_break["notes"][-1] == (
        f'[[ignore]] #1 ("{KIP}") was already in BASE\'s configuration: it accepted earlier '
        "breaks, not this one; to accept this break, write an entry (or a reason) of this change"
    )
    run = run_cli(["diff", "HEAD~1", "HEAD", "--no-proof", "--color", "never"],
                  tmp_path / "repo")  # fmt: skip
    lines = run.stdout.splitlines()
    assert f'    note: [[ignore]] #1 ("{KIP}") was already in BASE\'s configuration: it ' in (
        "\n".join(lines)
    )
    assert lines[-1] == "Found 2 errors in 2 spec files."


def test_an_ignore_entry_the_change_adds_is_accepted_in_this_change(tmp_path: Path) -> None:
    """The documented workflow (accept a break in the pull request that makes it) still
    passes, in the open: the entry is a config-weakened warning and what it accepts is
    accepted in this change."""
    code, report = diff(two_breaks(tmp_path, ACCEPT_SHELF))
    assert code == 1  # the other break still fails
    assert verdicts(report) == [
        ("", "config-weakened", "warning", None),
        ("ConsumerShelfValue", "field-type-changed", "error", None),
        ("ShelfCountResponse", "field-type-changed", "error", KIP),
    ]
    accepted = [f for f in report["findings"] if f["accepted"]]
    assert [f["weakened_by"] for f in accepted] == ["[[ignore]] #1"]
    assert report["summary"]["accepted_in_change"] == 1
    run = run_cli(["diff", "HEAD~1", "HEAD", "--no-proof", "--color", "never"],
                  tmp_path / "repo")  # fmt: skip
    lines = run.stdout.splitlines()
    assert any("error (accepted in this change) [field-type-changed]" in line for line in lines)
    assert f"    accepted in this change: {KIP}" in lines
    assert lines[-1] == "Found 1 error, 1 warning in 2 spec files (1 accepted in this change)."


def test_accepted_alone_passes_and_a_path_glob_matches(tmp_path: Path) -> None:
    config = '[[ignore]]\npath = "*.json"\nreason = "a planned major release"\n'
    code, report = diff(two_breaks(tmp_path, config))
    assert code == 0
    accepted = [f["accepted"] for f in report["findings"] if f["rule"] != "config-weakened"]
    assert accepted == ["a planned major release"] * 2


def test_preview_messages_break_with_a_warning_that_says_why(tmp_path: Path) -> None:
    config = 'preview = [{ message = "Consumer*Value", reason = "early access (KIP-848)" }]\n'
    code, report = diff(two_breaks(tmp_path, config, in_base=True))
    assert code == 1
    (preview,) = [f for f in report["findings"] if f["message_name"] == "ConsumerShelfValue"]
    assert preview["severity"] == "warning"
    assert preview["notes"][-1].startswith("Consumer*Value: early access (KIP-848) (preview)")
    plain = 'preview = ["*Value", "ShelfCount*"]\n'
    code, report = diff(two_breaks(tmp_path / "plain", plain, in_base=True))
    assert code == 0 and {f["severity"] for f in report["findings"]} == {"warning"}


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ({"ignore": [{"rule": "field-type-changed"}]}, "needs a reason"),
        ({"ignore": [{"reason": "why"}]}, "needs a rule, a message or a path"),
        ({"ignore": [{"rule": "field-typo", "reason": "why"}]}, "did you mean"),
        ({"ignore": [{"rule": "x", "reason": "y", "when": 1}]}, "unknown key 'when'"),
        ({"preview": [5]}, "preview entries"),
        ({"report-unused-ignores": "yes"}, "must be true or false"),
    ],
)
def test_bad_acceptance_entries_are_one_line(table: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        parse_config(table, "kcompat.toml", rules=rule_categories)


def test_an_ignore_comment_with_an_unknown_rule_is_a_warning(tmp_path: Path) -> None:
    repo = init_repo(tmp_path / "repo")
    commit_tree(repo, {SHELF: spec()}, "base")
    text = spec(item_type="int64").replace(
        '"versions": "0+",', '"versions": "0+", // kcompat: ignore[field-type-change] on purpose'
    )
    commit_tree(repo, {SHELF: text}, "typo")
    code, report = diff(repo)
    assert code == 1
    rules = {f["rule"]: f for f in report["findings"]}
    assert set(rules) == {"field-type-changed", "ignore-unknown-rule"}
    assert rules["ignore-unknown-rule"]["hint"] == "did you mean 'field-type-changed'?"
    line = text.splitlines()[rules["ignore-unknown-rule"]["line"] - 1]
    assert rules["ignore-unknown-rule"]["column"] == line.index("// kcompat") + 1


def test_unused_ignores_are_listed_when_asked(tmp_path: Path) -> None:
    repo = init_repo(tmp_path / "repo")
    commit_tree(repo, {SHELF: spec()}, "base")
    text = spec().replace(
        '"versions": "0+",', '"versions": "0+", // kcompat: ignore[field-type-changed] old'
    )
    commit_tree(repo, {SHELF: text}, "an ignore left behind")
    _, report = diff(repo)
    assert report["findings"] == []
    _, report = diff(repo, "--report-unused-ignores")
    (unused,) = report["findings"]
    assert unused["rule"] == "unused-ignore" and unused["line"] == 8
    assert unused["column"] == text.splitlines()[7].index("// kcompat") + 1  # the comment
    (repo / "kcompat.toml").write_text("report-unused-ignores = true\n")
    _, report = diff(repo)
    assert [f["rule"] for f in report["findings"]] == ["unused-ignore"]


# -- deprecate, then remove ---------------------------------------------------------------------


def dust(valid: str, deprecated: str | None = None) -> str:
    extra = f'  "deprecatedVersions": "{deprecated}",\n' if deprecated else ""
    return (
        '{\n  "apiKey": 170,\n  "type": "data",\n  "name": "DustRecord",\n'
        f'  "validVersions": "{valid}",\n{extra}  "flexibleVersions": "2+",\n'
        '  "fields": [\n    { "name": "ShelfId", "type": "int32", "versions": "0+",'
        ' "about": "x" }\n  ]\n}\n'
    )


def test_removing_versions_a_release_deprecated_is_a_warning_naming_it(tmp_path: Path) -> None:
    from tests.diff_runner import git

    repo = init_repo(tmp_path / "repo")
    commit_tree(repo, {"DustRecord.json": dust("0-3")}, "v0-3")
    commit_tree(repo, {"DustRecord.json": dust("0-3", "0-1")}, "deprecate 0-1 (KIP)")
    git(repo, "checkout", "-q", "-b", "2.0")
    git(repo, "commit", "-q", "--allow-empty", "-m", "Bump version to 2.0.0")
    git(repo, "tag", "2.0.0")
    git(repo, "checkout", "-q", "main")
    commit_tree(repo, {"DustRecord.json": dust("3")}, "remove 0-2")
    code, report = diff(repo)
    assert code == 1
    found = sorted((f["rule"], f["severity"], f["versions"]) for f in report["findings"])
    assert found == [
        ("deprecated-version-removed", "warning", "0-1"),
        ("lowest-version-raised", "error", "2"),
    ]
    (warning,) = [f for f in report["findings"] if f["rule"] == "deprecated-version-removed"]
    assert "deprecated since 2.0.0" in warning["message"]


@pytest.mark.corpus
def test_kafka_3_8_breaks_are_early_access_records(kafka_repo: Path, tmp_path: Path) -> None:
    """diff 3.7.0 3.8.0: every error is a KIP-848 early-access record; as previews they are
    warnings that say why, and the diff passes."""
    run = run_cli(["diff", "3.7.0", "3.8.0", "--no-proof", "-f", "json"], kafka_repo)
    errors = [f for f in run.json()["findings"] if f["severity"] == "error"]
    assert errors and run.code == 1
    assert {f["message_name"] for f in errors} <= {
        "ConsumerGroupCurrentMemberAssignmentValue",
        "ConsumerGroupMemberMetadataValue",
        "ConsumerGroupPartitionMetadataValue",
        "ConsumerGroupTargetAssignmentMemberValue",
    }
    config = tmp_path / "kcompat.toml"
    config.write_text(
        'preview = [{ message = "ConsumerGroup*Value", reason = "early access (KIP-848)" }]\n'
    )
    run = run_cli(
        ["diff", "3.7.0", "3.8.0", "--no-proof", "-f", "json", "--config", str(config)],
        kafka_repo,
    )
    assert run.code == 0
    previews = [f for f in run.json()["findings"] if f["message_name"].startswith("ConsumerGroup")
                and f["rule"] in {e["rule"] for e in errors}]  # fmt: skip
    assert len(previews) == len(errors)
    assert all(f["severity"] == "warning" for f in previews)
    assert all("early access (KIP-848) (preview)" in f["notes"][-1] for f in previews)
