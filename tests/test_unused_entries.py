"""``[[ignore]]`` entries that accept nothing are reported, like unused ignore comments
(issue 27.5): with ``--report-unused-ignores`` (or ``report-unused-ignores = true``), on
the entry's line of the configuration, with a did-you-mean against the messages and
paths the run compared. A misspelt ``rule`` stays a configuration error with its own
did-you-mean."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.diff_runner import run_cli, two_commits
from tests.test_config_weakened import SHELF, shelf

HEADER = "# accepted breaks\n\n"


def entry(**keys: str) -> str:
    lines = "".join(f'{key} = "{value}"\n' for key, value in keys.items())
    return f"[[ignore]]\n{lines}"


def repo_with(tmp_path: Path, config: str) -> Path:
    """ItemCount retyped; the same configuration on both sides."""
    return two_commits(
        tmp_path,
        {SHELF: shelf(), "kcompat.toml": config},
        {SHELF: shelf("int64"), "kcompat.toml": config},
    )


def diff(repo: Path, *args: str) -> tuple[int, list[dict[str, Any]]]:
    run = run_cli(["diff", "HEAD~1", "HEAD", "--no-proof", "-f", "json", *args], repo)
    assert run.stderr == "", run.stderr
    return run.code, run.findings()


def unused(findings: list[dict[str, Any]]) -> list[tuple[str, int, str, str]]:
    return [
        (f["file"], f["line"], f["message"], f["hint"])
        for f in findings
        if f["rule"] == "unused-ignore"
    ]


def test_a_misspelt_message_is_reported_with_a_did_you_mean(tmp_path: Path) -> None:
    config = HEADER + entry(rule="field-type-changed", message="ShelfCuontResponse", reason="r")
    repo = repo_with(tmp_path, config)
    code, findings = diff(repo)
    assert code == 1 and unused(findings) == []  # only when asked
    code, findings = diff(repo, "--report-unused-ignores")
    assert code == 1  # the break it meant to accept still fails
    assert unused(findings) == [
        (
            "kcompat.toml",
            3,
            "[[ignore]] #1 (rule 'field-type-changed', message 'ShelfCuontResponse') accepts "
            "nothing here: message 'ShelfCuontResponse' matches no message compared",
            "did you mean message = 'ShelfCountResponse'?",
        )
    ]


def test_a_misspelt_path_and_a_shadowed_entry(tmp_path: Path) -> None:
    config = (
        "report-unused-ignores = true\n"
        + entry(path="ShelfCountRespones.json", reason="typo")
        + entry(rule="field-type-changed", reason="accepts it")
        + entry(message="ShelfCount*", reason="too late: #2 accepted it already")
    )
    code, findings = diff(repo_with(tmp_path, config))
    # BASE's entries accept no new break (issue 32.3): the first that matches it is the
    # one in use, and the break fails
    assert code == 1
    assert unused(findings) == [
        (
            "kcompat.toml",
            2,
            "[[ignore]] #1 (path 'ShelfCountRespones.json') accepts nothing here: path "
            "'ShelfCountRespones.json' matches no path compared",
            "did you mean path = 'ShelfCountResponse.json'?",
        ),
        (
            "kcompat.toml",
            8,
            "[[ignore]] #3 (message 'ShelfCount*') accepts nothing here",
            "remove it once the break it accepted has landed",
        ),
    ]


def test_an_entry_for_another_command_is_not_unused_here(tmp_path: Path) -> None:
    config = "report-unused-ignores = true\n" + entry(rule="tag-duplicate", reason="lint's")
    code, findings = diff(repo_with(tmp_path / "diff", config))
    assert code == 1 and unused(findings) == []
    (tmp_path / "lint").mkdir()
    (tmp_path / "lint" / SHELF).write_text(shelf(), encoding="utf-8")
    (tmp_path / "lint" / "kcompat.toml").write_text(config, encoding="utf-8")
    run = run_cli(["lint", SHELF, "-f", "json"], tmp_path / "lint")
    assert [f["message"] for f in run.findings() if f["rule"] == "unused-ignore"] == [
        "[[ignore]] #1 (rule 'tag-duplicate') accepts nothing here"
    ]


def test_a_misspelt_rule_stays_a_configuration_error(tmp_path: Path) -> None:
    config = entry(rule="field-type-chnged", reason="r")
    run = run_cli(["diff", "HEAD~1", "HEAD"], repo_with(tmp_path, config))
    assert run.code == 2
    assert run.stderr.strip().endswith(
        "unknown rule 'field-type-chnged' in [[ignore]] #1; did you mean 'field-type-changed'?"
    )


def test_an_entry_used_by_the_specs_is_not_unused_beside_a_weakening(tmp_path: Path) -> None:
    """The review of the configuration is judged by BASE's entries too: they judge spec
    findings, so an entry is not called unused for accepting no config-weakened one."""
    config = "report-unused-ignores = true\n" + entry(message="ShelfCount*", reason="KIP-1")
    repo = two_commits(
        tmp_path,
        {SHELF: shelf(), "kcompat.toml": config},
        {SHELF: shelf("int64"), "kcompat.toml": 'fail-on = "info"\n' + config},
    )
    code, findings = diff(repo)
    assert code == 1  # BASE's entry accepts no new break (issue 32.3), and is not unused
    assert sorted(f["rule"] for f in findings) == ["field-type-changed"]
    weaker = 'fail-on = "error"\n'
    repo = two_commits(
        tmp_path / "weaker",
        {SHELF: shelf(), "kcompat.toml": 'fail-on = "warning"\n' + config},
        {SHELF: shelf("int64"), "kcompat.toml": weaker + config},
    )
    code, findings = diff(repo)
    assert sorted(f["rule"] for f in findings) == ["config-weakened", "field-type-changed"]
