"""What several commands share, declared once: option groups (``FindingsOptions``,
``CorpusOptions``), the table commands' ``--format``, the configuration a request carries,
and the keys both encoders judge."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kcompat.codec.values import UNKNOWN_TAGS, struct_keys
from kcompat.config import ConfigChoice
from kcompat.rules.registry import rule_categories
from kcompat.spec.resolve import resolve
from tests.codec_helpers import field, message
from tests.diff_runner import commit_tree, init_repo, run_cli

FINDINGS_TAIL = [
    "--format",
    "--fail-on",
    "--level",
    "--report-unused-ignores",
    "--color",
    "--config",
    "--show-suppressed",
    "--disable",
]
CORPUS_TAIL = ["--master", "--remote", "--specs-path", "--partitions", "--color", "--config"]


@pytest.mark.parametrize(
    ("command", "own", "tail"),
    [
        (["lint"], [], FINDINGS_TAIL),
        (["drift"], ["--repo"], FINDINGS_TAIL),
        (["corpus", "build"], ["--rev", "--out", "--samples", "--seed", "--repo"], CORPUS_TAIL),
        (["corpus", "verify"], ["--rev", "--repo", "--out", "--format"], CORPUS_TAIL),
    ],
)
def test_a_groups_options_follow_the_commands_own_in_its_help(
    command: list[str], own: list[str], tail: list[str], tmp_path: Path
) -> None:
    done = run_cli([*command, "--help"], tmp_path)
    assert done.code == 0, done.stderr
    flags = re.findall(r"^  (?:-\w, )?(--[\w-]+)", done.stdout, re.MULTILINE)
    assert flags == [*own, *tail, "--help"]


def test_a_corpus_commands_group_reaches_it(tmp_path: Path) -> None:
    """``--config`` arrives through ``CorpusOptions`` and is read before Spark starts."""
    repo = init_repo(tmp_path / "repo")
    commit_tree(repo, {"README": "no specs"}, "one")
    missing = tmp_path / "missing.toml"
    done = run_cli(
        ["corpus", "build", "--rev", "HEAD", "--out", str(tmp_path / "out"), "--repo", str(repo),
         "--config", str(missing)],
        tmp_path,
    )  # fmt: skip
    assert done.code == 2
    assert (
        done.stderr
        == f"kcompat: error: {missing}: cannot read the configuration (No such file or directory)\n"
    )


@pytest.mark.parametrize(
    ("command", "name"),
    [
        (["rules"], "rules"),
        (["history"], "history"),
        (["corpus", "verify", "somewhere", "--rev", "HEAD"], "corpus verify"),
    ],
)
def test_table_commands_refuse_another_format_in_one_line(
    command: list[str], name: str, tmp_path: Path
) -> None:
    done = run_cli([*command, "--format", "yaml"], tmp_path)
    assert (done.code, done.stdout) == (2, "")
    assert done.stderr == (
        "kcompat: error: --format must be text, json or markdown, not 'yaml' "
        f"(see: kcompat {name} --help)\n"
    )


def test_config_choice_turns_report_unused_ignores_on(tmp_path: Path) -> None:
    (tmp_path / "kcompat.toml").write_text("report-unused-ignores = false\n", encoding="utf-8")
    assert not ConfigChoice().load(tmp_path, rules=rule_categories).report_unused_ignores
    assert (
        ConfigChoice(report_unused_ignores=True)
        .load(tmp_path, rules=rule_categories)
        .report_unused_ignores
    )
    explicit = tmp_path / "other.toml"
    explicit.write_text('fail-on = "warning"\n', encoding="utf-8")
    assert ConfigChoice(explicit).load(tmp_path, rules=rule_categories).source == str(explicit)


def test_struct_keys_extra_names_what_is_beyond_this_version() -> None:
    """The unknown tags apart, and every other key with the field it names elsewhere."""
    spec = message([field("A", "int32"), field("B", "int32", "1+")], valid="0-1", flexible="0+")
    layout = resolve(spec, 0)
    keys = struct_keys(spec, layout.root, None)
    tags = [[90, b"\x01"]]
    unknown, others = keys.extra({"A": 1, "Zed": 2, UNKNOWN_TAGS: tags, "B": 0})
    assert unknown is tags
    assert [(key, item, other.name if other else None) for key, item, other in others] == [
        ("Zed", 2, None),
        ("B", 0, "B"),
    ]
