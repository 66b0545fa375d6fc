"""Tab completion of values, through the shells' completion protocol (issue 27.12).

typer completes kcompat's commands and options; these tests check that the values
complete too: rule IDs (``kcompat rules``, ``--disable``), message names (``explain``,
``encode``, ``decode``, from the specs the command would read) and revisions (branches,
remote-tracking branches and tags of the repository, as ``diff`` and ``explain --rev``
take them). Each runs the installed ``kcompat`` as bash's completion script does
(``_KCOMPAT_COMPLETE=complete_bash`` with ``COMP_WORDS`` and ``COMP_CWORD``), and zsh's
(``complete_zsh``, which shows each candidate's help), in a repository laid out as
Kafka's is: a trunk, a release branch with its tags, a clone's ``origin/`` branches.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from kcompat.rules.registry import all_rules
from tests.conftest import EXAMPLES
from tests.diff_runner import GIT_ENV, KCOMPAT, git


def complete(words: str, cwd: Path, shell: str = "bash") -> list[str]:
    """What the shell would offer for the last word of ``words`` (a trailing space: a
    new, empty word)."""
    argv = words.split(" ")
    env = {**os.environ, **GIT_ENV, "_KCOMPAT_COMPLETE": f"complete_{shell}"}
    if shell == "bash":
        env |= {"COMP_WORDS": words, "COMP_CWORD": str(len(argv) - 1)}
    else:
        env |= {"_TYPER_COMPLETE_ARGS": words}
    done = subprocess.run(
        [str(KCOMPAT)], cwd=cwd, env=env, capture_output=True, text=True, check=False, timeout=60
    )
    assert done.returncode == 0 and done.stderr == "", done.stderr
    return [line for line in done.stdout.splitlines() if line]


@pytest.fixture()
def kafka_like(tmp_path: Path) -> Path:
    """A clone (``origin/trunk``, ``origin/3.7``) of a repository whose trunk holds the
    example specs, with release branch 3.7 tagged 3.7.0 and 3.7.1, and trunk 3.8.0."""
    upstream = tmp_path / "upstream"
    upstream.mkdir()
    git(upstream, "init", "-q", "-b", "trunk")
    specs = upstream / "clients" / "src" / "main" / "resources" / "common" / "message"
    shutil.copytree(EXAMPLES, specs, ignore=shutil.ignore_patterns("*.md"))
    git(upstream, "add", ".")
    git(upstream, "commit", "-q", "-m", "the widget protocol")
    git(upstream, "checkout", "-q", "-b", "3.7")
    git(upstream, "tag", "3.7.0")
    git(upstream, "commit", "-q", "--allow-empty", "-m", "bump version to 3.7.1")
    git(upstream, "tag", "3.7.1")
    git(upstream, "checkout", "-q", "trunk")
    git(upstream, "commit", "-q", "--allow-empty", "-m", "bump version to 3.8.0")
    git(upstream, "tag", "3.8.0")
    clone = tmp_path / "kafka"
    git(tmp_path, "clone", "-q", str(upstream), str(clone))
    git(clone, "checkout", "-q", "-b", "my-change")
    return clone


def test_rule_ids_complete_for_rules() -> None:
    here = Path.cwd()
    offered = complete("kcompat rules tag-", here)
    assert offered == sorted(r.id for r in all_rules() if r.id.startswith("tag-"))
    assert "tag-duplicate" in offered
    zsh = "\n".join(complete("kcompat rules tag-dup", here, "zsh"))
    assert '"tag-duplicate":"Two fields in one struct share a tag."' in zsh


@pytest.mark.parametrize("command", ["lint", "diff", "drift"])
def test_disable_completes_rule_ids_and_categories(command: str, tmp_path: Path) -> None:
    assert complete(f"kcompat {command} --disable field-rem", tmp_path) == ["field-removed"]
    categories = complete(f"kcompat {command} --disable category:", tmp_path)
    assert "category:tags" in categories and "category:docs" in categories
    assert all(c.startswith("category:") for c in categories)


def test_disable_turns_the_rule_off(tmp_path: Path) -> None:
    """What completes is what works: ``--disable`` takes it (and says so when it does
    not: a did-you-mean, exit 2)."""
    broken = Path(__file__).resolve().parent.parent / "specs" / "broken"
    run = subprocess.run(
        [str(KCOMPAT), "lint", str(broken), "--disable", "tag-duplicate"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 1 and "tag-duplicate" not in run.stdout
    assert "invalid-json" in run.stdout
    wrong = subprocess.run(
        [str(KCOMPAT), "lint", str(broken), "--disable", "tag-dupe"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert wrong.returncode == 2
    assert wrong.stderr == (
        "kcompat: error: --disable: unknown rule 'tag-dupe' in disable; "
        "did you mean 'tag-duplicate'?\n"
    )


@pytest.mark.parametrize(
    "words",
    [
        "kcompat explain Widget",
        "kcompat encode Widget",
        "kcompat decode Widget",
        "kcompat explain --specs clients/src/main/resources/common/message Widget",
        "kcompat encode --version 1 --specs clients Widget",
    ],
)
def test_message_names_complete(kafka_like: Path, words: str) -> None:
    """From the specs the command would read: ``--specs``, else the working tree."""
    assert complete(words, kafka_like) == [
        "WidgetRequest",
        "WidgetRequestHeader",
        "WidgetResponse",
        "WidgetResponseHeader",
    ]
    assert complete(words + "ResponseH", kafka_like) == ["WidgetResponseHeader"]


def test_message_names_say_what_they_are(kafka_like: Path) -> None:
    zsh = "\n".join(complete("kcompat explain WidgetReq", kafka_like, "zsh"))
    assert '"WidgetRequest":"request, API key 200"' in zsh
    assert '"WidgetRequestHeader":"header"' in zsh


@pytest.mark.parametrize(
    ("words", "offered"),
    [
        ("kcompat diff 3.", ["3.7.0", "3.7.1", "3.8.0"]),
        ("kcompat diff origin/", ["origin/3.7", "origin/trunk"]),
        ("kcompat diff 3.7.0 my", ["my-change"]),
        ("kcompat changelog 3.7", ["3.7.0", "3.7.1"]),
        ("kcompat drift origin/t", ["origin/trunk"]),
        ("kcompat explain WidgetRequest --rev 3.7.", ["3.7.0", "3.7.1"]),
        ("kcompat explain WidgetRequest --since 3.8", ["3.8.0"]),
        ("kcompat explain WidgetRequest --against origin/3", ["origin/3.7"]),
    ],
)
def test_revisions_complete(kafka_like: Path, words: str, offered: list[str]) -> None:
    assert complete(words, kafka_like) == offered


def test_revisions_of_the_repo_option(kafka_like: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    assert complete(f"kcompat diff --repo {kafka_like} 3.7.", elsewhere) == ["3.7.0", "3.7.1"]
    zsh = "\n".join(complete(f"kcompat diff --repo {kafka_like} 3.8", elsewhere, "zsh"))
    assert '"3.8.0":"tag"' in zsh
    # outside any repository nothing is offered, and nothing goes wrong
    assert complete("kcompat diff 3.", elsewhere) == []


def test_sides_complete_folders_too(kafka_like: Path) -> None:
    assert complete("kcompat diff cl", kafka_like) == ["clients/"]
    assert complete("kcompat diff 3.7.0 clients/src/", kafka_like) == ["clients/src/main/"]


def test_disable_on_a_diff_is_no_change_to_the_configuration(kafka_like: Path) -> None:
    """The command line applies to BASE's configuration and HEAD's alike: the rule is
    off, and no ``config-weakened`` finding blames the change for it."""
    import json

    specs = kafka_like / "clients" / "src" / "main" / "resources" / "common" / "message"
    v2 = Path(__file__).resolve().parent.parent / "specs" / "examples-v2"
    for spec in v2.glob("*.json"):
        shutil.copy(spec, specs / spec.name)
    command = [str(KCOMPAT), "diff", "HEAD", "--no-proof", "--format", "json"]
    before = subprocess.run(command, cwd=kafka_like, capture_output=True, text=True, check=False)
    rules = {f["rule"] for f in json.loads(before.stdout)["findings"]}
    assert "default-changed" in rules
    after = subprocess.run(
        [*command, "--disable", "default-changed"],
        cwd=kafka_like,
        capture_output=True,
        text=True,
        check=False,
    )
    left = {f["rule"] for f in json.loads(after.stdout)["findings"]}
    assert left == rules - {"default-changed"}, after.stderr


@pytest.mark.parametrize("command", ["lint", "diff", "drift", "explain", "changelog"])
def test_format_values_come_in_the_order_help_lists_them(command: str, tmp_path: Path) -> None:
    """One registry per document (issue 26): ``--help``, tab completion and the usage
    error of a wrong ``--format`` all list the formats in one order (before it, the two
    last listed gitlab after markdown, as the enum had grown, while --help did not)."""
    shown = subprocess.run(
        [str(KCOMPAT), command, "--help"], capture_output=True, text=True, check=True
    ).stdout
    phrase = re.search(r"-f, --format FORMAT (.+?)\.(?: |$)", " ".join(shown.split()))
    assert phrase is not None, shown
    listed = re.sub(r" \([^)]*\)", "", phrase[1]).replace(" or ", ", ").split(", ")
    assert complete(f"kcompat {command} --format ", tmp_path) == listed
    refused = subprocess.run(
        [str(KCOMPAT), command, "--format", "bogus"], capture_output=True, text=True, check=False
    )
    assert refused.returncode == 2
    choices = ", ".join(listed[:-1]) + " or " + listed[-1]
    assert f"--format must be {choices}, not 'bogus'" in refused.stderr
