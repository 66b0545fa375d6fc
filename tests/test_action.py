"""The GitHub Action's check, through its own step commands in a simulated run
(:mod:`tests.action_runner`): annotations within GitHub's budget, the job summary, the
outputs, the ``args`` input read by the diff command's own parser, and ``lint: true``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml  # type: ignore[import-untyped]

from tests.action_runner import (
    ACTION,
    ROOT,
    SPEC,
    ActionRun,
    Runner,
    event_of,
    pull_request,
    tally,
)
from tests.diff_runner import git, run_cli


def run(workspace: Path, tmp_path: Path, **inputs: str) -> ActionRun:
    runner = Runner(tmp_path / "runner", workspace, event_of(workspace))
    return runner.run(**inputs)


def test_a_breaking_pull_request_fails_with_annotations_summary_and_outputs(
    tmp_path: Path,
) -> None:
    workspace = pull_request(tmp_path, {SPEC: tally(3)}, {SPEC: tally(3, typed="int64")})
    done = run(workspace, tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr
    errors = done.annotations("error")
    assert len(errors) == 3 and all(a.startswith("::error file=protocol/") for a in errors)
    assert "title=kcompat field-type-changed" in errors[0]
    # a checkout without tags is told, once, how to fetch them
    (notice,) = done.annotations("notice")
    assert notice.endswith("fetch the tags: git fetch --tags origin")
    assert done.summary.startswith("### kcompat compatibility check\n")
    assert "❌ **Breaking changes found** in 1 spec file: 3 errors" in done.summary
    assert done.outputs == {
        "skipped": "false",
        "errors": "3",
        "warnings": "0",
        "infos": "0",
        "exit-code": "1",
    }


def budget_pull_request(tmp_path: Path, errors: int, warnings: int) -> Path:
    """``warnings`` fields renamed and ``errors`` more retyped."""
    fields = errors + warnings
    head = "\n".join(
        line.replace('"int32"', '"int64"')
        if any(f'Count{i}"' in line for i in range(warnings, fields))
        else line
        for line in tally(fields, renamed=warnings).splitlines()
    )
    return pull_request(tmp_path, {SPEC: tally(fields)}, {SPEC: head + "\n"})


def test_annotations_keep_the_counter_inside_githubs_budget_per_level(tmp_path: Path) -> None:
    """GitHub shows 10 annotations per level and step: 9 findings and the one that counts
    the rest, for each level over budget (issue 27, point 1)."""
    done = run(budget_pull_request(tmp_path, errors=15, warnings=12), tmp_path)
    errors, warnings = done.annotations("error"), done.annotations("warning")
    assert (len(errors), len(warnings)) == (10, 10)
    assert errors[-1] == (
        "::error title=kcompat::kcompat: 6 errors more than GitHub shows per step. "
        "The job summary lists them all."
    )
    assert warnings[-1] == (
        "::warning title=kcompat::kcompat: 3 warnings more than GitHub shows per step. "
        "The job summary lists them all."
    )
    assert all(a.startswith("::error file=") for a in errors[:9])
    assert done.outputs["errors"] == "15" and done.outputs["warnings"] == "12"
    assert done.summary.count("| 🔴 |") == 15 and done.summary.count("| 🟡 |") == 12


def test_ten_of_a_level_are_all_shown(tmp_path: Path) -> None:
    done = run(budget_pull_request(tmp_path, errors=10, warnings=2), tmp_path)
    assert len(done.annotations("error")) == 10
    assert all(a.startswith("::error file=") for a in done.annotations("error"))
    assert len(done.annotations("warning")) == 2


def test_a_hostile_workspace_name_stays_data(tmp_path: Path) -> None:
    """The notice names the checkout's directory: an escape sequence or bidi override in
    that name is shown escaped, never acted on by the log viewer."""
    name = "checkout\x1b]0;pwn\x07\u202e"
    workspace = pull_request(tmp_path, {SPEC: tally(1)}, {SPEC: tally(1)}, name=name)
    done = run(workspace, tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    for char in "\x1b\x07\u202e":
        assert char not in done.stdout, done.stdout
    (notice,) = done.annotations("notice")
    assert "checkout\\x1b]0;pwn\\x07\\u202e" in notice


# -- the args input: the diff command's own options (issue 22, point 16) -------------------


def test_args_baseline_accepts_the_findings_it_lists(tmp_path: Path) -> None:
    workspace = pull_request(tmp_path, {SPEC: tally(3)}, {SPEC: tally(3, typed="int64")})
    written = run_cli(
        ["diff", "origin/main", "HEAD", "--merge-base", "--write-baseline", "accepted.json"],
        workspace,
    )
    assert written.code == 0, written.stderr
    done = run(workspace, tmp_path, args="--baseline accepted.json")
    assert done.returncode == 0, done.stdout
    assert done.annotations("error") == []
    assert "3 accepted by the baseline" in done.summary
    assert done.outputs["errors"] == "0"


def test_args_fail_on_and_level(tmp_path: Path) -> None:
    renamed = pull_request(tmp_path, {SPEC: tally(2)}, {SPEC: tally(2, renamed=1)})
    assert run(renamed, tmp_path / "a").returncode == 0  # a rename is a warning
    strict = run(renamed, tmp_path / "b", args="--fail-on warning")
    assert strict.returncode == 1 and strict.outputs["exit-code"] == "1"
    quiet = run(renamed, tmp_path / "c", args="--level error --fail-on=warning")
    assert quiet.annotations("warning") == [] and quiet.returncode == 1
    assert "1 hidden by --level" in quiet.summary


def test_args_config_is_read_from_the_workspace(tmp_path: Path) -> None:
    strict = 'fail-on = "warning"\n'
    head = {SPEC: tally(2, renamed=1), "ci/kcompat-strict.toml": strict}
    workspace = pull_request(tmp_path, {SPEC: tally(2)}, head)
    assert run(workspace, tmp_path / "a").returncode == 0
    done = run(workspace, tmp_path / "b", args="--config ci/kcompat-strict.toml")
    assert done.returncode == 1, done.stdout
    missing = run(workspace, tmp_path / "c", args="--config nope.toml")
    assert missing.returncode == 2 and len(missing.lines) == 1, missing.stdout


def test_args_released_and_no_proof(tmp_path: Path) -> None:
    workspace = pull_request(tmp_path, {SPEC: tally(3)}, {SPEC: tally(3, typed="int64")})
    done = run(workspace, tmp_path, args="--released base --no-proof --samples 3")
    assert done.returncode == 1
    assert done.annotations("notice") == []  # --released base: no advice to fetch tags
    assert "Released: every version in BASE" in done.summary
    assert "misreads" not in done.stdout + done.summary  # no proof: no bytes
    proved = run(workspace, tmp_path / "proved", args="--released base")
    assert "BASE misreads Count0 as HEAD writes it" in proved.summary


@pytest.mark.parametrize(
    ("args", "line"),
    [
        ("--bogus", "args: No such option: --bogus (see: kcompat diff --help)"),
        ("--releasd base", "args: No such option: --releasd (Possible options: --released)"),
        ("--samples 0", "args: Invalid value for '--samples': 0 is not in the range x>=1."),
        (  # issue 32.6: before, the proof ran without end
            "--samples 99999999999",
            "args: Invalid value for '--samples': 99999999999 is over the ceiling of 1,000 "
            "samples per message version",
        ),
        ("--format json", "args: --format is not for the Action: the Action writes annotations"),
        ("origin/trunk", "args: BASE is not for the Action: BASE is the base input"),
        ("--released 'base", 'args: No closing quotation in "--released \'base"'),
        (
            "--released sometimes",
            "args: --released must be auto, base or tags, not 'sometimes' "
            "(see: kcompat diff --help)",
        ),
    ],
)
def test_args_that_the_diff_command_refuses_are_one_line_and_exit_2(
    tmp_path: Path, args: str, line: str
) -> None:
    workspace = pull_request(tmp_path, {SPEC: tally(3)}, {SPEC: tally(3, typed="int64")})
    done = run(workspace, tmp_path, args=args)
    assert done.returncode == 2, done.stdout
    (error,) = [x for x in done.lines if x.startswith("::")]
    assert error.startswith("::error title=kcompat::" + line), error
    assert done.lines == [error]
    assert done.outputs["exit-code"] == "2"
    assert done.summary.startswith("### kcompat compatibility check\n\n❌ ")


def test_the_fail_on_input_and_args_agree_or_say_so(tmp_path: Path) -> None:
    workspace = pull_request(tmp_path, {SPEC: tally(2)}, {SPEC: tally(2, renamed=1)})
    same = run(workspace, tmp_path / "a", **{"fail-on": "warning", "args": "--fail-on warning"})
    assert same.returncode == 1
    both = run(workspace, tmp_path / "b", **{"fail-on": "never", "args": "--fail-on warning"})
    assert both.returncode == 2
    assert both.lines == [
        "::error title=kcompat::the fail-on input says never and args say --fail-on warning: "
        "keep one"
    ]
    bad = run(workspace, tmp_path / "c", **{"fail-on": "sometimes"})
    assert bad.returncode == 2 and len(bad.lines) == 1


# -- lint: true (issue 27, point 4) ---------------------------------------------------------

OTHER = "protocol/CountRequest.json"


def with_lint_error(text: str, index: int) -> str:
    """A spec whose field ``index`` has versions outside the message's (a lint error that
    changes no released version)."""
    before = f'"versions": "0+", "about": "count {index}"'
    assert before in text
    return text.replace(before, f'"versions": "5+", "about": "count {index}"')


def test_lint_true_lints_the_changed_specs(tmp_path: Path) -> None:
    other = (
        tally(1).replace("TallyRequest", "CountRequest").replace('"apiKey": 180', '"apiKey": 181')
    )
    base = {SPEC: tally(2), OTHER: with_lint_error(other, 0)}
    head = {SPEC: with_lint_error(tally(3), 2), OTHER: with_lint_error(other, 0)}
    workspace = pull_request(tmp_path, base, head)
    plain = run(workspace, tmp_path / "a")
    assert plain.returncode == 0, plain.stdout  # the diff finds no break
    assert plain.annotations("error") == []
    linted = run(workspace, tmp_path / "b", lint="true")
    assert linted.returncode == 1, linted.stdout
    errors = linted.annotations("error")
    assert errors and all(f"file={SPEC}," in a for a in errors)  # the unchanged spec: not linted
    assert "kcompat lint: " in linted.stdout
    assert "### kcompat spec lint" in linted.summary
    assert linted.outputs["errors"] == str(len(errors))


def test_the_lint_input_is_true_or_false(tmp_path: Path) -> None:
    workspace = pull_request(tmp_path, {SPEC: tally(1)}, {SPEC: tally(2)})
    done = run(workspace, tmp_path, lint="yes")
    assert done.returncode == 2
    assert done.lines == ["::error title=kcompat::the lint input must be true or false, not 'yes'"]
    assert done.outputs["exit-code"] == "2"
    assert "❌ the lint input must be true or false" in done.summary


# -- the manifest ----------------------------------------------------------------------------


def test_the_manifest_runs_every_step_isolated_outside_the_workspace() -> None:
    """Each run step starts in RUNNER_TEMP and runs Python with -I from the action's venv;
    every input reaches the check step."""
    steps = [s for s in ACTION["runs"]["steps"] if "run" in s]
    for step in steps:
        assert step["working-directory"] == "${{ runner.temp }}"
        for command in re.findall(r"(\S*python\S*)\s+(\S+)", step["run"]):
            assert command[1] == "-I", step["run"]
    check = next(s for s in steps if s.get("id") == "check")
    assert check["run"].startswith('"$KCOMPAT_VENV/bin/python" -I -m kcompat.ci.github --repo')
    env = check["env"]
    for name in ("base", "fail-on", "comment", "skip-label", "args", "lint"):
        assert env["KCOMPAT_" + name.upper().replace("-", "_")] == "${{ inputs." + name + " }}"
    assert set(ACTION["outputs"]) >= {"errors", "warnings", "infos", "skipped", "exit-code"}
    assert yaml.safe_load((ROOT / "action.yml").read_text()) == ACTION


def test_the_step_leaves_the_workspace_as_it_was(tmp_path: Path) -> None:
    workspace = pull_request(tmp_path, {SPEC: tally(3)}, {SPEC: tally(3, typed="int64")})
    run(workspace, tmp_path, lint="true")
    assert git(workspace, "status", "--porcelain", "--ignored") == ""


def test_the_step_reads_the_pull_request_once_for_the_diff_and_the_changelog(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The diff and "What this change does to the protocol" are of one comparison: the
    sides are read and prepared once (they were read twice, and the changelog's second
    reading did not see ``args``' --config)."""
    from kcompat.ci.args import parse_args
    from kcompat.ci.environment import Event, Inputs
    from kcompat.ci.github import check

    workspace = pull_request(tmp_path, {SPEC: tally(3)}, {SPEC: tally(4)})
    from kcompat.diff.prepared import PreparedPair, prepare_pair

    prepared = []

    def counted(*args: Any, **kwargs: Any) -> PreparedPair:
        prepared.append(1)
        return prepare_pair(*args, **kwargs)

    monkeypatch.setattr("kcompat.diff.run.prepare_pair", counted)
    monkeypatch.chdir(workspace)
    inputs = Inputs("origin/main", "", False, "", "", False, Event(), None, None, "", "", "")
    checked = check(parse_args("--no-proof"), inputs)
    assert len(prepared) == 1
    assert "1 message changed, 1 break" in checked.changes[1]
    assert (
        "non-tagged field Count3 (int32) was added to released versions 0-1" in (checked.changes[1])
    )
    assert checked.code == 1  # the diff's own verdict, from the same comparison


def test_disable_in_args_turns_the_rule_off_for_the_diff(tmp_path: Path) -> None:
    """``--disable`` is a diff option like the others: the Action honours it (it was
    parsed, then dropped)."""
    workspace = pull_request(tmp_path, {SPEC: tally(3)}, {SPEC: tally(3, typed="int64")})
    done = run(workspace, tmp_path / "off", args="--disable field-type-changed --no-proof")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "field-type-changed" not in done.stdout
