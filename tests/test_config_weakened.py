"""A change cannot switch off the rules it breaks unseen (issue 22.4): ``config-weakened``.

Every test builds a git repository whose last two commits are BASE and HEAD, runs
``kcompat diff HEAD~1 HEAD`` through the CLI, and shows both sides of the promise: with
the setting already on BASE's side, the break is judged as that setting says and nothing
more is said ("before"); with the same setting introduced by the change itself, it is a
``config-weakened`` warning naming the setting, its old and new value and what it hides,
and each finding it hides is listed as accepted (or lowered) in this change ("after").
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.diff_runner import commit_tree, git, init_repo, run_cli, two_commits

SHELF = "ShelfCountResponse.json"


def shelf(
    item_type: str = "int32",
    *,
    name: str = "ItemCount",
    valid: str = "0-1",
    extra: str = "",
) -> str:
    """A response with one field; ``extra`` adds a field line (versions of its own)."""
    more = f",\n    {extra}" if extra else ""
    return (
        "{\n"
        '  "apiKey": 160,\n'
        '  "type": "response",\n'
        '  "name": "ShelfCountResponse",\n'
        f'  "validVersions": "{valid}",\n'
        '  "flexibleVersions": "none",\n'
        '  "fields": [\n'
        f'    {{ "name": "{name}", "type": "{item_type}", "versions": "0+",\n'
        f'      "about": "How many items." }}{more}\n'
        "  ]\n"
        "}\n"
    )


def change(
    tmp_path: Path,
    config: str,
    *,
    before: str | None = None,
    base: str = "",
    head: str = "",
    config_name: str = "kcompat.toml",
) -> Path:
    """BASE holds ``before`` (None: no configuration) and HEAD holds ``config``; the spec
    goes from ``base`` to ``head`` (default: ItemCount retyped int32 -> int64)."""
    base_files = {SHELF: base or shelf()}
    if before is not None:
        base_files[config_name] = before
    head_files = {SHELF: head or shelf("int64"), config_name: config}
    return two_commits(tmp_path, base_files, head_files)


def diff(repo: Path, *args: str) -> tuple[int, dict[str, Any]]:
    run = run_cli(["diff", "HEAD~1", "HEAD", "--no-proof", "-f", "json", *args], repo)
    assert run.stderr == "", run.stderr
    return run.code, run.json()


def weakenings(report: dict[str, Any]) -> list[str]:
    return [f["message"] for f in report["findings"] if f["rule"] == "config-weakened"]


def judged(report: dict[str, Any]) -> list[tuple[str, str, str | None, str | None]]:
    """(rule, severity, accepted, weakened_by) of every finding but the weakenings."""
    return [
        (f["rule"], f["severity"], f["accepted"], f["weakened_by"])
        for f in report["findings"]
        if f["rule"] != "config-weakened"
    ]


# -- each setting that can hide findings ----------------------------------------------------


def test_disable_in_the_change_hides_nothing_unseen(tmp_path: Path) -> None:
    config = 'disable = ["field-type-changed", "roundtrip-mismatch"]\n'
    code, report = diff(change(tmp_path / "before", config, before=config))
    assert (code, judged(report), weakenings(report)) == (0, [], [])
    code, report = diff(change(tmp_path / "after", config))
    assert code == 0  # accepting in the same change stays possible: a warning, not an error
    said = (
        'disable turns off "field-type-changed", "roundtrip-mismatch" '
        '(now ["field-type-changed", "roundtrip-mismatch"], was [])'
    )
    assert weakenings(report) == [f"{said}: it hides or lowers 1 finding of this comparison"]
    assert judged(report) == [("field-type-changed", "error", said, "disable")]
    assert report["summary"]["accepted_in_change"] == 1
    (warning,) = [f for f in report["findings"] if f["rule"] == "config-weakened"]
    assert (warning["file"], warning["line"], warning["severity"]) == ("kcompat.toml", 1, "warning")


def test_the_proof_still_shows_bytes_only_the_rule_was_turned_off_for(tmp_path: Path) -> None:
    repo = change(tmp_path, 'disable = ["field-type-changed"]\n')
    run = run_cli(["diff", "HEAD~1", "HEAD", "-f", "json"], repo)
    assert run.code == 1  # the proof's own finding still fails
    rules = sorted((f["rule"], f["weakened_by"]) for f in run.findings())
    assert rules == [
        ("config-weakened", None),
        ("field-type-changed", "disable"),
        ("roundtrip-mismatch", None),
    ]


def test_a_category_counts_as_the_rules_it_turns_off(tmp_path: Path) -> None:
    code, report = diff(change(tmp_path, 'disable = ["category:fields"]\n'))
    assert code == 0
    (message,) = weakenings(report)
    assert message.startswith('disable turns off "default-changed", "encoding-changed", ')
    assert " more (now [" in message
    assert message.endswith(", was []): it hides or lowers 1 finding of this comparison")


@pytest.mark.parametrize("level", ["warning", "info", "off"])
def test_a_lowered_severity(tmp_path: Path, level: str) -> None:
    config = f'[severity]\nfield-type-changed = "{level}"\n'
    code, report = diff(change(tmp_path / "before", config, before=config))
    assert weakenings(report) == [] and code == 0
    code, report = diff(change(tmp_path / "after", f"# the change\n{config}"))
    assert code == 0
    if level == "off":
        assert weakenings(report) == [
            'disable turns off "field-type-changed" (now ["field-type-changed"], was []): it '
            "hides or lowers 1 finding of this comparison"
        ]
        assert judged(report)[0][3] == "disable"
        return
    assert weakenings(report) == [
        f'[severity] field-type-changed = "{level}" (new in this change): it hides or lowers '
        "1 finding of this comparison"
    ]
    (lowered,) = [f for f in report["findings"] if f["rule"] == "field-type-changed"]
    assert (lowered["severity"], lowered["accepted"]) == (level, None)
    assert lowered["weakened_by"] == "[severity] field-type-changed"
    assert lowered["notes"][-1].startswith("error under BASE's configuration; [severity]")
    (warning,) = [f for f in report["findings"] if f["rule"] == "config-weakened"]
    assert warning["line"] == 3  # the rule's own line, under [severity]
    run = run_cli(["diff", "HEAD~1", "HEAD", "--no-proof"], tmp_path / "after")
    assert (
        f"ShelfCountResponse.json:8:28: {level} (lowered in this change) [field-type-changed] "
        "field ItemCount changed type from int32 to int64 in released versions 0-1"
    ) in run.stdout
    assert run.stdout.splitlines()[-1].endswith(" in 1 spec file (1 lowered in this change).")


def test_a_raised_fail_on(tmp_path: Path) -> None:
    """A renamed field is a warning: it fails under BASE's fail-on = "warning"."""
    strict, lax, renamed = 'fail-on = "warning"\n', 'fail-on = "error"\n', shelf(name="ItemTotal")
    code, _ = diff(change(tmp_path / "before", strict, before=strict, head=renamed))
    assert code == 1
    code, report = diff(change(tmp_path / "after", lax, before=strict, head=renamed))
    assert code == 0
    assert weakenings(report) == [
        'fail-on = "error" (was "warning"): 1 finding of this comparison stops failing'
    ]
    (renaming,) = [f for f in report["findings"] if f["rule"] == "field-renamed"]
    assert renaming["weakened_by"] == "fail-on"
    assert renaming["notes"][-1] == (
        'fails under BASE\'s configuration; fail-on = "error" (was "warning")'
    )


def other(item_type: str = "int32") -> str:
    return shelf(item_type).replace("ShelfCountResponse", "ShelfSizeResponse").replace("160", "161")


def test_narrower_paths(tmp_path: Path) -> None:
    base = {f"legacy/{SHELF}": shelf(), "protocol/ShelfSizeResponse.json": other()}
    head = {**base, f"legacy/{SHELF}": shelf("int64")}
    wide, narrow = 'paths = ["protocol", "legacy"]\n', 'paths = ["protocol"]\n'
    code, report = diff(two_commits(tmp_path / "before", {**base, "kcompat.toml": narrow},
                                    {**head, "kcompat.toml": narrow}))  # fmt: skip
    assert (code, report["findings"]) == (0, [])
    code, report = diff(two_commits(tmp_path / "after", {**base, "kcompat.toml": wide},
                                    {**head, "kcompat.toml": narrow}))  # fmt: skip
    assert code == 0
    assert weakenings(report) == [
        'paths = ["protocol"] (was ["protocol", "legacy"]): it hides or lowers 1 finding of '
        "this comparison"
    ]
    assert judged(report) == [
        (
            "field-type-changed",
            "error",
            'paths = ["protocol"] (was ["protocol", "legacy"])',
            "paths",
        )
    ]


def test_a_new_preview_entry(tmp_path: Path) -> None:
    config = 'preview = [{ message = "ShelfCount*", reason = "early access" }]\n'
    code, report = diff(change(tmp_path, config))
    assert code == 0
    assert weakenings(report) == [
        'preview = {message = "ShelfCount*", reason = "early access"} (new in this change): '
        "it hides or lowers 1 finding of this comparison"
    ]
    assert judged(report) == [("field-type-changed", "warning", None, "preview")]


def test_a_new_ignore_entry_and_an_edited_reason(tmp_path: Path) -> None:
    entry = '[[ignore]]\nrule = "field-type-changed"\nreason = "{}"\n'
    code, report = diff(change(tmp_path / "new", entry.format("KIP-1")))
    assert code == 0
    assert judged(report) == [("field-type-changed", "error", "KIP-1", "[[ignore]] #1")]
    assert weakenings(report)[0].startswith("[[ignore]] #1 = {")
    # BASE's entry accepts no new break (issue 32.3); the same entry with the change's
    # own reason is this change's acceptance: reported, what it accepts listed
    repo = change(tmp_path / "old", entry.format("KIP-1"), before=entry.format("KIP-1"))
    code, report = diff(repo)
    assert (code, weakenings(report)) == (1, [])
    assert judged(report) == [("field-type-changed", "error", None, None)]
    repo = change(
        tmp_path / "reason", entry.format("KIP-2, approved"), before=entry.format("KIP-1")
    )
    code, report = diff(repo)
    assert code == 0
    assert weakenings(report) == [
        '[[ignore]] #1 = {reason = "KIP-2, approved", rules = ["field-type-changed"]} (was '
        '{reason = "KIP-1", rules = ["field-type-changed"]}): it hides or lowers 1 finding of '
        "this comparison"
    ]
    assert judged(report) == [("field-type-changed", "error", "KIP-2, approved", "[[ignore]] #1")]
    # a reason edited where nothing breaks hides nothing: nothing to say
    repo = change(
        tmp_path / "quiet",
        entry.format("KIP-1, approved"),
        before=entry.format("KIP-1"),
        head=shelf(),
    )
    code, report = diff(repo)
    assert (code, weakenings(report), judged(report)) == (0, [], [])


def test_report_unused_ignores_turned_off(tmp_path: Path) -> None:
    left = shelf().replace(
        '"versions": "0+",', '"versions": "0+", // kcompat: ignore[field-type-changed] old'
    )
    repo = change(
        tmp_path,
        "report-unused-ignores = false\n",
        before="report-unused-ignores = true\n",
        base=shelf(),
        head=left,
    )
    code, report = diff(repo)
    assert code == 0  # the warning it hides is the only finding
    assert weakenings(report) == [
        "report-unused-ignores = false (was true): it hides or lowers 1 finding of this comparison"
    ]
    assert judged(report) == [
        (
            "unused-ignore",
            "warning",
            "report-unused-ignores = false (was true)",
            "report-unused-ignores",
        )
    ]


def test_a_deleted_configuration_is_compared_with_the_defaults(tmp_path: Path) -> None:
    """BASE raised field-renamed to an error; the change deletes the file."""
    repo = two_commits(
        tmp_path,
        {SHELF: shelf(), "kcompat.toml": '[severity]\nfield-renamed = "error"\n'},
        {SHELF: shelf(name="ItemTotal")},
    )
    code, report = diff(repo)
    assert code == 0
    (warning,) = [f for f in report["findings"] if f["rule"] == "config-weakened"]
    assert warning["file"] == "kcompat.toml" and warning["line"] == 2  # BASE's line
    assert warning["message"].startswith('[severity] field-renamed (was "error") removed')
    assert judged(report)[0][:2] == ("field-renamed", "warning")


def test_moving_the_configuration_and_tightening_it_say_nothing(tmp_path: Path) -> None:
    config = 'disable = ["field-type-changed", "roundtrip-mismatch"]\n'
    repo = two_commits(
        tmp_path / "moved",
        {SHELF: shelf(), "kcompat.toml": config},
        {SHELF: shelf("int64"), "pyproject.toml": f"[tool.kcompat]\n{config}"},
    )
    code, report = diff(repo)
    assert (code, report["findings"]) == (0, [])
    repo = change(tmp_path / "tighter", 'fail-on = "warning"\n', before=config)
    code, report = diff(repo)
    assert code == 1 and weakenings(report) == []


# -- the release settings ----------------------------------------------------------------------


def released_repo(tmp_path: Path, base_config: str, head_config: str, *, branch: bool) -> Path:
    """Release 1.0.0 shipped version 0; versions 0-1 are on main (and, with ``branch``, on
    the tip of a 2.0 release branch about to ship); HEAD retypes a field of version 1."""
    repo = init_repo(tmp_path)
    commit_tree(repo, {SHELF: shelf(valid="0")}, "1.0 branch point")
    git(repo, "checkout", "-q", "-b", "1.0")
    git(repo, "commit", "-q", "--allow-empty", "-m", "Bump version to 1.0.0")
    git(repo, "tag", "1.0.0")
    git(repo, "checkout", "-q", "main")
    extra = '{ "name": "Shelves", "type": "int32", "versions": "1+", "about": "Shelves." }'
    commit_tree(repo, {SHELF: shelf(valid="0-1", extra=extra)}, "version 1")
    if branch:
        git(repo, "branch", "2.0")
    commit_tree(repo, {SHELF: shelf(valid="0-1", extra=extra), "kcompat.toml": base_config}, "base")
    retyped = extra.replace('"int32"', '"int64"')
    commit_tree(
        repo, {SHELF: shelf(valid="0-1", extra=retyped), "kcompat.toml": head_config}, "head"
    )
    return repo


def test_released_from_base_to_tags(tmp_path: Path) -> None:
    repo = released_repo(tmp_path / "r", 'released = "base"\n', 'released = "tags"\n', branch=False)
    code, report = diff(repo)
    assert code == 0
    assert weakenings(report) == [
        'released = "tags" (was "base"): it hides or lowers 1 finding of this comparison'
    ]
    # the break is no longer an error: it comes back accepted in this change
    assert judged(report) == [
        ("unreleased-change", "info", None, None),
        ("field-type-changed", "error", 'released = "tags" (was "base")', "released"),
    ]
    # --released on the command line decides instead: the setting changes nothing then
    code, report = diff(repo, "--released", "base")
    assert (code, weakenings(report)) == (1, [])


def test_release_branches_turned_off(tmp_path: Path) -> None:
    pattern = "release-branches = '^\\d+\\.\\d+$'\n"
    repo = released_repo(tmp_path / "r", pattern, "", branch=True)
    code, report = diff(repo)
    assert code == 0
    assert weakenings(report) == [
        'release-branches = "" (was "^\\\\d+\\\\.\\\\d+$"): it hides or lowers 1 finding of '
        "this comparison"
    ]
    assert [(r, s, by) for r, s, _a, by in judged(report)] == [
        ("unreleased-change", "info", None),
        ("field-type-changed", "error", "release-branches"),
    ]

    code, report = diff(released_repo(tmp_path / "same", pattern, pattern, branch=True))
    assert (code, weakenings(report)) == (1, [])


def test_release_tags_that_match_fewer_tags(tmp_path: Path) -> None:
    narrower = "release-tags = '^1\\.0\\.0$'\n"
    wider = "release-tags = '^v?\\d+(\\.\\d+)*$'\n"
    # both match the one tag there is: no tag is lost, nothing to say
    repo = released_repo(tmp_path / "same-tags", "", narrower, branch=False)
    assert weakenings(diff(repo)[1]) == []
    repo = released_repo(tmp_path / "wider", "", wider, branch=False)
    assert weakenings(diff(repo)[1]) == []
    lost = "release-tags = '^v\\d'\n"  # matches no tag: 1.0.0 is no longer a release
    (message,) = weakenings(diff(released_repo(tmp_path / "lost", "", lost, branch=False))[1])
    assert message.startswith('release-tags = "^v\\\\d" (was "^v?')


# -- where the configuration comes from ------------------------------------------------------


def test_pre_commit_compares_the_staged_configuration(tmp_path: Path) -> None:
    repo = two_commits(tmp_path, {SHELF: shelf()}, {SHELF: shelf()})
    write = {SHELF: shelf("int64"), "kcompat.toml": 'disable = ["field-type-changed"]\n'}
    for name, text in write.items():
        (repo / name).write_text(text, encoding="utf-8")
    git(repo, "add", *write)
    run = run_cli(["diff", "--staged", "--no-proof", "-f", "json"], repo)
    assert run.code == 0, run.stderr
    rules = [(f["rule"], f["weakened_by"]) for f in run.findings()]
    assert rules == [("field-type-changed", "disable"), ("config-weakened", None)]
    # the working tree against HEAD (no --staged) says the same
    run = run_cli(["diff", "--no-proof", "-f", "json"], repo)
    assert [(f["rule"], f["weakened_by"]) for f in run.findings()] == rules


def test_a_configuration_in_use_that_no_side_holds_is_no_change(tmp_path: Path) -> None:
    """Diffing two old revisions with today's local configuration: the range BASE..HEAD
    did not change it, so there is nothing to report (the local file is the user's)."""
    repo = two_commits(tmp_path, {SHELF: shelf()}, {SHELF: shelf("int64")})
    (repo / "kcompat.toml").write_text('disable = ["field-type-changed"]\n', encoding="utf-8")
    code, report = diff(repo)
    assert weakenings(report) == [] and code == 0


def test_directories_have_no_configuration_of_their_own(tmp_path: Path) -> None:
    """Both sides are judged by the one configuration found where kcompat runs."""
    for side, kind, config in (
        ("a", "int32", ""),
        ("b", "int64", 'disable = ["field-type-changed"]\n'),
    ):
        (tmp_path / side).mkdir()
        (tmp_path / side / SHELF).write_text(shelf(kind), encoding="utf-8")
        if config:
            (tmp_path / side / "kcompat.toml").write_text(config, encoding="utf-8")
    run = run_cli(["diff", "a", "b", "--no-proof", "-f", "json"], tmp_path)
    assert run.code == 1
    assert [f["rule"] for f in run.findings()] == ["field-type-changed"]


def test_an_explicit_config_is_compared_at_its_path_inside_the_repository(tmp_path: Path) -> None:
    repo = two_commits(
        tmp_path / "repo",
        {SHELF: shelf(), "ci/kcompat.toml": 'fail-on = "error"\n'},
        {
            SHELF: shelf("int64"),
            "ci/kcompat.toml": '[[ignore]]\nrule = "field-type-changed"\nreason = "r"\n',
        },
    )
    code, report = diff(repo, "--config", "ci/kcompat.toml")
    assert code == 0
    assert [f["file"] for f in report["findings"] if f["rule"] == "config-weakened"] == [
        "ci/kcompat.toml"
    ]
    outside = tmp_path / "mine.toml"
    outside.write_text('disable = ["field-type-changed"]\n', encoding="utf-8")
    code, report = diff(repo, "--config", str(outside))
    assert (code, weakenings(report), judged(report)) == (0, [], [])


def test_a_base_configuration_that_does_not_load_is_said_once(tmp_path: Path) -> None:
    repo = change(tmp_path, 'disable = ["field-type-changed"]\n', before="disable = [\n")
    run = run_cli(["diff", "HEAD~1", "HEAD", "--no-proof", "-f", "json"], repo)
    assert run.code == 0
    (note,) = run.stderr.splitlines()
    assert note.startswith("kcompat: note: kcompat.toml at HEAD~1: invalid TOML")
    assert note.endswith("the defaults stand in for it")
    assert len([f for f in run.findings() if f["rule"] == "config-weakened"]) == 1


def test_config_weakened_is_judged_by_base(tmp_path: Path) -> None:
    """The change cannot turn the rule off or down: BASE's configuration says how loud it
    is, and BASE can make it an error."""
    quiet = (
        'disable = ["config-weakened", "field-type-changed"]\n'
        '[severity]\nconfig-weakened = "info"\n'
    )
    code, report = diff(change(tmp_path / "quiet", quiet))
    assert code == 0
    levels = {
        f["field_path"]: f["severity"] for f in report["findings"] if f["rule"] == "config-weakened"
    }
    assert levels == {"disable": "warning", "severity.config-weakened": "warning"}
    strict = '[severity]\nconfig-weakened = "error"\n'
    repo = change(tmp_path / "strict", 'disable = ["field-type-changed"]\n' + strict, before=strict)
    code, report = diff(repo)
    assert code == 1
    assert [f["severity"] for f in report["findings"] if f["rule"] == "config-weakened"] == [
        "error"
    ]


def test_a_pyproject_setting_is_pointed_at_on_its_line(tmp_path: Path) -> None:
    text = (
        '[project]\nname = "x"\n\n[tool.kcompat]\npaths = ["."]\n\n'
        '[tool.kcompat.severity]\nfield-type-changed = "info"\n'
    )
    repo = two_commits(
        tmp_path,
        {SHELF: shelf(), "pyproject.toml": '[project]\nname = "x"\n'},
        {SHELF: shelf("int64"), "pyproject.toml": text},
    )
    code, report = diff(repo)
    assert code == 0
    (warning,) = [f for f in report["findings"] if f["rule"] == "config-weakened"]
    assert (warning["file"], warning["line"]) == ("pyproject.toml", 8)


def test_every_setting_of_the_configuration_is_compared() -> None:
    """A setting added to the configuration later is compared too, whole, any change
    counting (until SETTINGS says how it weakens)."""
    from dataclasses import fields

    from kcompat.config import Config
    from kcompat.rules.config_change import METADATA, SETTINGS, settings

    names = {setting.attribute for setting in settings()}
    assert names | METADATA == {f.name for f in fields(Config)}
    assert {setting.attribute for setting in SETTINGS} <= names


def test_the_security_page_tables_every_setting() -> None:
    """docs/SECURITY.md's section shows each setting with the words the code judges it by."""
    from kcompat.rules.config_change import SETTINGS

    root = Path(__file__).resolve().parent.parent / "docs"
    heading = "## Configuration in the change under review"
    text = (root / "SECURITY.md").read_text(encoding="utf-8")
    assert heading in text
    section = text.split(heading, 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    assert rows == [f"| `{s.key}` | {s.how} |" for s in SETTINGS]


def test_released_auto_is_named_as_written(tmp_path: Path) -> None:
    repo = released_repo(tmp_path / "r", 'released = "base"\n', "", branch=False)
    assert weakenings(diff(repo)[1]) == [
        'released = "auto" (was "base"): it hides or lowers 1 finding of this comparison'
    ]


def test_a_base_pattern_that_cannot_be_matched_in_time_is_said(tmp_path: Path) -> None:
    """BASE's release-tags backtracks forever on a long tag name: the diff still ends, with
    one note, and the change of the setting is reported (what it hides cannot be told)."""
    hostile = "release-tags = '^(1|11)+$'\n"
    repo = released_repo(tmp_path / "r", hostile, "", branch=False)
    git(repo, "tag", "1" * 60 + "x", "HEAD~1")
    run = run_cli(["diff", "HEAD~1", "HEAD", "--no-proof", "-f", "json"], repo)
    assert run.code == 0, run.stderr
    (note,) = run.stderr.splitlines()
    assert note.startswith("kcompat: note: BASE's configuration: release-tags '^(1|11)+$' takes")
    messages = [f["message"] for f in run.findings() if f["rule"] == "config-weakened"]
    assert messages == [
        'release-tags = "^v?\\\\d+\\\\.\\\\d+(\\\\.\\\\d+)?$" (was "^(1|11)+$"): what it hides '
        "here could not be worked out"
    ]


def test_settings_added_later_fixtures_and_preview_until(tmp_path: Path) -> None:
    """Two settings the table learnt after it was written: a fixtures glob that takes in
    a real spec, and a preview entry that drops its ``until`` (early access for ever)."""
    code, report = diff(change(tmp_path / "fixtures", 'fixtures = ["Shelf*"]\n'))
    assert code == 0
    assert weakenings(report) == [
        'fixtures = ["Shelf*"] (was ["src/test/*", "src/testFixtures/*"]): it hides or '
        "lowers 1 finding of this comparison"
    ]
    assert judged(report)[0][1:] == ("info", None, "fixtures")
    until = 'preview = [{{ message = "ShelfCount*", reason = "early"{} }}]\n'
    repo = change(tmp_path / "until", until.format(""), before=until.format(', until = "0.9"'))
    code, report = diff(repo)
    assert code == 0
    assert weakenings(report) == [
        'preview = {message = "ShelfCount*", reason = "early"} (new in this change): it hides '
        "or lowers 1 finding of this comparison"
    ]
    assert judged(report) == [("field-type-changed", "warning", None, "preview")]
