"""An acceptance covers what it accepted, not whatever comes next on its line (issue 32.3).

An ignore comment or an ``[[ignore]]`` entry accepts the break of the change that writes
it. Once merged, BASE holds it; every finding of a later comparison is a difference
between BASE and HEAD, so a break the acceptance never saw. Such a finding is reported
(an error, for a break) with a note naming the old acceptance; an acceptance the change
writes itself (a new comment, or an old one given the change's own reason) lists what it
accepts as accepted in this change, never only a count. Each case runs through the CLI
(and the Action's own step) on repositories built in temp dirs.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.action_runner import SPEC as TALLY
from tests.action_runner import Runner, event_of, pull_request, tally
from tests.conftest import EXAMPLES
from tests.diff_runner import commit_tree, git, init_repo, run_cli
from tests.fake_github import serving

REQUEST = "WidgetRequest.json"
OLD = "KIP-1: widened from int16 in 2019"
TIMEOUT = '    { "name": "TimeoutMs", "type": '
NOTE = (
    f'the ignore comment at {REQUEST}:27 ("{OLD}") was already in BASE: it accepted an '
    "earlier change, not this one; to accept this break, give the comment a reason of this "
    "change (a comment BASE does not have)"
)


def _examples() -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in EXAMPLES.glob("*.json")}


def _accepted_in_base(files: dict[str, str], reason: str = OLD) -> dict[str, str]:
    """The request with an ignore comment above TimeoutMs (the issue's BASE)."""
    text = files[REQUEST]
    assert TIMEOUT in text
    comment = f"    // kcompat: ignore[field-type-changed] {reason}\n"
    return {**files, REQUEST: text.replace(TIMEOUT, comment + TIMEOUT)}


def _retyped(
    files: dict[str, str], field: str = "TimeoutMs", was: str = "int32", now: str = "int64"
) -> dict[str, str]:
    old = f'"name": "{field}", "type": "{was}"'
    assert old in files[REQUEST]
    return {**files, REQUEST: files[REQUEST].replace(old, f'"name": "{field}", "type": "{now}"')}


def _repo(tmp_path: Path, base: dict[str, str], head: dict[str, str]) -> Path:
    """BASE released as 1.0.0, then HEAD."""
    repo = init_repo(tmp_path / "repo")
    commit_tree(repo, base, "base")
    git(repo, "tag", "1.0.0")
    commit_tree(repo, head, "head")
    return repo


def _diff(repo: Path, *args: str) -> tuple[int, dict[str, Any]]:
    run = run_cli(["diff", "HEAD~1", "HEAD", "--no-proof", "-f", "json", *args], repo)
    assert run.stderr == "", run.stderr
    return run.code, run.json()


def _breaks(report: dict[str, Any]) -> list[dict[str, Any]]:
    return [f for f in report["findings"] if f["rule"] == "field-type-changed"]


def test_an_old_ignore_comment_does_not_reach_a_new_break(tmp_path: Path) -> None:
    """The issue's case: BASE accepted TimeoutMs's widening from int16 in 2019; the change
    widens it again, to int64. Before: exit 0, "1 suppressed by ignore comments"."""
    base = _accepted_in_base(_examples())
    repo = _repo(tmp_path, base, _retyped(base))
    code, report = _diff(repo)
    assert code == 1
    (found,) = _breaks(report)
    assert (found["severity"], found["accepted"], found["suppressed"]) == ("error", None, None)
    assert "from int32 to int64" in found["message"]
    assert NOTE in found["notes"]
    assert report["summary"]["suppressed"] == 0
    text = run_cli(["diff", "HEAD~1", "HEAD", "--no-proof", "--color", "never"], repo)
    assert f"    note: {NOTE}" in text.stdout.splitlines()
    assert text.stdout.splitlines()[-1].startswith("Found 1 error")


def test_the_change_accepting_its_own_break_is_listed(tmp_path: Path) -> None:
    """The change gives the old comment its own reason: a new acceptance, shown with the
    finding, rule, field and reason, accepted in this change (never failing)."""
    base = _accepted_in_base(_examples())
    head = _accepted_in_base(_retyped(_examples()), "KIP-2: timeouts past 24 days")
    repo = _repo(tmp_path, base, head)
    code, report = _diff(repo)
    assert code == 0
    (found,) = _breaks(report)
    assert (found["accepted"], found["weakened_by"]) == (
        "KIP-2: timeouts past 24 days",
        f"ignore comment {REQUEST}:27",
    )
    assert report["summary"]["accepted_in_change"] == 1
    markdown = run_cli(["diff", "HEAD~1", "HEAD", "--no-proof", "-f", "markdown"], repo).stdout
    assert (
        "- accepted by this change: `field-type-changed`, `WidgetRequest.TimeoutMs`, KIP-2: "
        f"timeouts past 24 days (error at `{REQUEST}:28:"
    ) in markdown


def test_an_old_comment_copied_onto_another_field_is_still_old(tmp_path: Path) -> None:
    """The same text BASE has, written above another field the change breaks: BASE
    wrote it for another break, so it accepts none of this change's."""
    base = _accepted_in_base(_examples())
    files = _retyped(base, "Priority", "int8", "int16")
    priority = '    { "name": "Priority", "type": "int16"'
    assert priority in files[REQUEST]
    copied = f"    // kcompat: ignore[field-type-changed] {OLD}\n{priority}"
    head = {**files, REQUEST: files[REQUEST].replace(priority, copied)}
    code, report = _diff(_repo(tmp_path, base, head))
    assert code == 1
    (found,) = _breaks(report)
    assert found["field_path"] == "Priority" and not found["accepted"]
    assert any("was already in BASE" in note for note in found["notes"])


def test_an_old_ignore_file_comment_does_not_reach_a_new_break(tmp_path: Path) -> None:
    files = _examples()
    header = f"// kcompat: ignore-file[field-type-changed] {OLD}\n"
    base = {**files, REQUEST: header + files[REQUEST]}
    code, report = _diff(_repo(tmp_path, base, _retyped(base)))
    assert code == 1
    (found,) = _breaks(report)
    assert f'the ignore comment at {REQUEST}:1 ("{OLD}") was already in BASE' in found["notes"][-1]


def test_an_old_wildcard_entry_does_not_reach_a_new_break(tmp_path: Path) -> None:
    """``[[ignore]] rule = ...`` with no message in BASE's configuration accepted every
    future break of its rule. Before: exit 0."""
    entry = f'[[ignore]]\nrule = "field-type-changed"\nmessage = "*"\nreason = "{OLD}"\n'
    base = {**_examples(), "kcompat.toml": entry}
    code, report = _diff(_repo(tmp_path, base, _retyped(base)))
    assert code == 1
    (found,) = _breaks(report)
    assert found["accepted"] is None
    assert found["notes"][-1].startswith(
        f'[[ignore]] #1 ("{OLD}") was already in BASE\'s configuration: it accepted earlier'
    )


def test_an_old_acceptance_of_an_old_break_stays_quiet(tmp_path: Path) -> None:
    """BASE's own unreleased break, accepted in BASE, is no finding of a later change that
    edits the same message elsewhere: the old comment has nothing to cover, and says
    nothing (the comparison's findings are differences between BASE and HEAD)."""
    files = _examples()
    released = init_repo(tmp_path / "repo")
    commit_tree(released, files, "released")
    git(released, "tag", "1.0.0")
    base = _accepted_in_base(_retyped(files), "KIP-1: widened to int64")
    commit_tree(released, base, "an accepted break, not released yet")
    about = '"about": "How long to wait'
    assert about in base[REQUEST]
    head = {**base, REQUEST: base[REQUEST].replace(about, '"about": "How long, at most, to wait')}
    commit_tree(released, head, "a change of the docs")
    code, report = _diff(released, "--report-unused-ignores")
    assert code == 0
    assert _breaks(report) == []


def test_the_action_reports_the_new_break_under_an_old_comment(tmp_path: Path) -> None:
    """The PR comment and job summary: an error naming the old comment (before: "✅ No
    errors (1 suppressed by ignore comments ("KIP-1: ..."))")."""
    comment = f'"about": "count 0" }}, // kcompat: ignore[field-type-changed] {OLD}'
    old = tally(2).replace('"about": "count 0" },', comment)
    new = tally(2, typed="int64").replace('"about": "count 0" },', comment)
    assert OLD in old and OLD in new
    checkout = pull_request(tmp_path, {TALLY: old}, {TALLY: new})
    with serving() as github:
        runner = Runner(
            tmp_path / "home", checkout, event_of(checkout), api=github.url, token="ghs_test"
        )
        done = runner.run(comment="true")
        body = github.writes()[-1][2]["body"]
    assert done.returncode == 1, done.stdout
    for text in (done.summary, body):
        assert "❌ **Breaking changes found**" in text
        assert "suppressed by ignore comments" not in text
        assert f"({OLD})" not in text
        assert f"the ignore comment at {TALLY}:8" in text and "was already in BASE" in text
    assert json.dumps(done.outputs["errors"]) == '"2"'


def test_an_old_entry_for_config_weakened_does_not_reach_a_new_weakening(tmp_path: Path) -> None:
    """BASE makes a weakening an error, and holds an entry accepting the rule: written for
    an earlier weakening, it accepts none of this change's."""
    config = (
        '[severity]\nconfig-weakened = "error"\n'
        f'[[ignore]]\nrule = "config-weakened"\nreason = "{OLD}"\n'
    )
    base = {**_examples(), "kcompat.toml": config}
    head = {**_retyped(base), "kcompat.toml": 'disable = ["field-type-changed"]\n' + config}
    code, report = _diff(_repo(tmp_path, base, head))
    assert code == 1
    (weakened,) = [f for f in report["findings"] if f["rule"] == "config-weakened"]
    assert (weakened["severity"], weakened["accepted"]) == ("error", None)
    assert weakened["notes"][-1].startswith(f'[[ignore]] #1 ("{OLD}") was already in BASE')


BASELINE = "kcompat-baseline.json"


def test_a_baseline_the_change_writes_its_break_into_is_listed(tmp_path: Path) -> None:
    """A change that breaks TimeoutMs and adds the break to the baseline it is checked
    with (``--write-baseline``): before, "No problems (1 accepted by the baseline)", a
    count only. The entry is this change's, so the break is listed, accepted in this
    change, with the file as its reason; an entry BASE's baseline already held stays a
    count."""
    repo = init_repo(tmp_path / "repo")
    commit_tree(repo, _examples(), "base")
    git(repo, "tag", "1.0.0")
    for name, text in _retyped(_examples()).items():
        (repo / name).write_text(text, encoding="utf-8")
    wrote = run_cli(["diff", "HEAD", "--no-proof", "--write-baseline", BASELINE], repo)
    assert wrote.code == 0 and (repo / BASELINE).is_file(), wrote.stderr
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "widen TimeoutMs, and accept it in the baseline")
    code, report = _diff(repo, "--baseline", BASELINE)
    assert code == 0
    (found,) = _breaks(report)
    assert (found["accepted"], found["weakened_by"]) == (
        f"added to the baseline {BASELINE}",
        f"baseline {BASELINE}",
    )
    assert (report["summary"]["accepted_in_change"], report["summary"]["baselined"]) == (2, 0)
    markdown = run_cli(
        ["diff", "HEAD~1", "HEAD", "--no-proof", "-f", "markdown", "--baseline", BASELINE], repo
    ).stdout
    assert (
        "- error (accepted in this change) `WidgetRequest.json:27:28` `field-type-changed`: "
        "field TimeoutMs changed type from int32 to int64 in released versions 0-3 (by "
        f"`baseline {BASELINE}`)"
    ) in markdown
    # the baseline committed first, the break after it: BASE's own entry, a count
    git(repo, "reset", "-q", "--soft", "HEAD~1")
    git(repo, "reset", "-q")
    git(repo, "add", BASELINE)
    git(repo, "commit", "-q", "-m", "the baseline first")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "then the break")
    code, report = _diff(repo, "--baseline", BASELINE)
    assert code == 0 and _breaks(report) == []
    assert (report["summary"]["accepted_in_change"], report["summary"]["baselined"]) == (0, 2)


def test_a_baseline_neither_side_holds_accepts_as_before(tmp_path: Path) -> None:
    """A baseline the change does not commit (one a workflow step fetched, your own) is
    neither side's: what it lists is accepted and counted, as a configuration neither
    side holds accepts what it matches."""
    repo = _repo(tmp_path, _examples(), _retyped(_examples()))
    wrote = run_cli(["diff", "HEAD~1", "HEAD", "--no-proof", "--write-baseline", BASELINE], repo)
    assert wrote.code == 0, wrote.stderr
    code, report = _diff(repo, "--baseline", BASELINE)
    assert code == 0 and _breaks(report) == []
    assert (report["summary"]["accepted_in_change"], report["summary"]["baselined"]) == (0, 2)
