"""One ``--help`` style for every command (issue 35.16), read as a user reads it: each
command's ``--help`` from the installed console script; and
``kcompat help [COMMAND]`` as ``git help`` works.

The style: a value's metavar is one upper-case word (``FILE``, ``DIR``, ``N``), never
``{MESSAGE}``, ``{audit_dir}``, ``<str>`` or ``<path>``; a required argument is
``NAME`` in the usage line, an optional one ``[NAME]``; an argument's help does not
repeat its name; a default is said ``(default: X)`` or ``[default: X]``; and an option
shared by several commands reads the same in each."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

from tests.diff_runner import run_process

#: Every command path (the app itself first).
COMMANDS = (
    (),
    ("lint",),
    ("diff",),
    ("explain",),
    ("changelog",),
    ("matrix",),
    ("strands",),
    ("drift",),
    ("rules",),
    ("encode",),
    ("decode",),
    ("history",),
    ("report",),
    ("lsp",),
    ("corpus",),
    ("corpus", "build"),
    ("corpus", "verify"),
    ("help",),
)
IDS = [" ".join(c) or "kcompat" for c in COMMANDS]
#: A metavar as the style writes it: an upper-case word, maybe bracketed or repeated.
METAVAR = re.compile(r"^\[?[A-Z][A-Z0-9_]*(?:\.\.[A-Z])?\]?(?:,?\.\.\.)?$")


@cache
def shown(command: tuple[str, ...]) -> str:
    done = run_process([*command, "--help"], Path("."), env={"COLUMNS": "100"})
    assert (done.code, done.stderr) == (0, ""), done.stderr
    return done.stdout


def _records(text: str, section: str) -> dict[str, str]:
    """``Options:`` or ``Arguments:`` as {what is written on the left: its help}."""
    found: dict[str, str] = {}
    inside, last = False, ""
    for line in text.splitlines():
        if line.endswith(":") and not line.startswith(" "):
            inside = line == f"{section}:"
            continue
        if not inside or not line.strip():
            continue
        head = re.match(r"^  (\S.*?)(?:  +(\S.*))?$", line)
        if head and not line.startswith("    "):
            last = head[1]
            found[last] = head[2] or ""
        else:
            found[last] = (found[last] + " " + line.strip()).strip()
    return found


@pytest.mark.parametrize("command", COMMANDS, ids=IDS)
def test_metavars_are_one_style(command: tuple[str, ...]) -> None:
    text = shown(command)
    usage = text.splitlines()[0]
    assert "{" not in usage and "<" not in usage, usage
    for left in _records(text, "Options"):
        for spelling in left.split(" / "):  # --proof / --no-proof
            names, _, metavar = spelling.partition(" ")
            if metavar and not names.endswith(","):
                assert METAVAR.match(metavar), (command, left)
    for left, help_text in _records(text, "Arguments").items():
        assert METAVAR.match(left), (command, left)
        name = left.strip("[]").removesuffix("...").strip("[]")
        assert not help_text.startswith(f"{name}:"), (command, left, help_text)


@pytest.mark.parametrize("command", COMMANDS, ids=IDS)
def test_defaults_are_said_one_way(command: tuple[str, ...]) -> None:
    text = " ".join(shown(command).split())
    assert not re.search(r"\(default [^:]", text), text
    assert "REV2" not in text


@pytest.mark.parametrize(
    "option",
    ["--released", "--repo", "--config", "--color", "--master", "--remote", "--partitions"],
)
def test_an_option_reads_the_same_in_every_command(option: str) -> None:
    said = {}
    for command in COMMANDS:
        for left, help_text in _records(shown(command), "Options").items():
            if left.split(" ")[0] == option:
                said[" ".join(command)] = f"{left}  {help_text}"
    assert len(said) >= 2, said
    assert len(set(said.values())) == 1, said


def test_corpus_verify_names_its_own_option() -> None:
    text = " ".join(shown(("corpus", "verify")).split())
    assert "Decode every stored sample with the model at REV;" in text
    assert "--rev REV The revision (or directory) to read with." in text


@pytest.mark.parametrize("command", COMMANDS, ids=IDS)
def test_help_command_shows_what_help_option_shows(command: tuple[str, ...]) -> None:
    """``kcompat help diff`` is ``kcompat diff --help``, as ``git help diff`` is git's."""
    done = run_process(["help", *command], Path("."), env={"COLUMNS": "100"})
    assert (done.code, done.stderr) == (0, "")
    assert done.stdout == shown(command)


def test_help_of_an_unknown_command_is_one_line(tmp_path: Path) -> None:
    done = run_process(["help", "difff"], tmp_path)
    assert (done.code, done.stdout) == (2, "")
    assert done.stderr.startswith("kcompat: error: No such command 'difff'.")
    assert done.stderr.endswith("(see: kcompat --help)\n") and done.stderr.count("\n") == 1
    done = run_process(["help", "corpus", "nope"], tmp_path)
    assert done.code == 2
    assert done.stderr.endswith("(see: kcompat corpus --help)\n")


def test_help_is_listed_and_completed(tmp_path: Path) -> None:
    assert re.search(r"^  help +Show the help of kcompat, or of a command\.$", shown(()), re.M)
    env = {"_KCOMPAT_COMPLETE": "complete_bash", "COMP_WORDS": "kcompat help co", "COMP_CWORD": "2"}
    assert run_process(["help"], tmp_path, env=env).stdout.split() == ["corpus"]
