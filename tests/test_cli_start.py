"""Getting started: ``--version``, tab completion, and the top-level help, through the CLI."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

import kcompat
from tests.diff_runner import KCOMPAT, run_cli, run_process


@pytest.mark.parametrize("flag", ["--version", "-V"])
def test_version_prints_the_version(flag: str, tmp_path: Path) -> None:
    done = run_process([flag], tmp_path)
    assert (done.code, done.stdout, done.stderr) == (0, f"kcompat {kcompat.__version__}\n", "")


@pytest.mark.parametrize(
    ("shell", "marker"),
    [
        ("bash", "complete -o default -F _kcompat_completion kcompat"),
        ("zsh", "compdef _kcompat_completion kcompat"),
        ("fish", "complete --command kcompat"),
    ],
)
def test_show_completion_prints_each_shells_script(shell: str, marker: str, tmp_path: Path) -> None:
    done = run_cli(["--show-completion", shell], tmp_path)
    assert done.code == 0, done.stderr
    assert marker in done.stdout
    assert "_KCOMPAT_COMPLETE" in done.stdout


def test_show_completion_without_a_shell_names_the_running_one(tmp_path: Path) -> None:
    """Run from bash, the script shown is bash's (typer detects the parent shell)."""
    done = subprocess.run(
        ["bash", "-c", f"{KCOMPAT} --show-completion; exit $?"],  # bash stays the parent,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "complete -o default -F _kcompat_completion kcompat" in done.stdout


def test_an_unknown_shell_is_one_line_and_exit_2(tmp_path: Path) -> None:
    done = run_process(["--show-completion", "tcsh"], tmp_path)
    assert done.code == 2
    assert done.stderr.count("\n") == 1
    assert "--show-completion must be bash, zsh or fish, not 'tcsh'" in done.stderr


@pytest.mark.parametrize(
    ("shell", "written", "line"),
    [
        ("bash", ".bash_completions/kcompat.sh", "source '"),
        ("zsh", ".zfunc/_kcompat", "fpath+=~/.zfunc"),
        ("fish", ".config/fish/completions/kcompat.fish", ""),
    ],
)
def test_install_completion_writes_under_home(
    shell: str, written: str, line: str, tmp_path: Path
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    done = run_process(["--install-completion", shell], tmp_path, env={"HOME": str(home)})
    assert done.code == 0, done.stderr
    assert f"{shell} completion installed in" in done.stdout
    assert (home / written).is_file()
    if line:
        rc = home / {"bash": ".bashrc", "zsh": ".zshrc"}[shell]
        assert line in rc.read_text()


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        (
            {"COMP_WORDS": "kcompat di", "COMP_CWORD": "1", "_KCOMPAT_COMPLETE": "complete_bash"},
            "diff",
        ),
        (
            {
                "COMP_WORDS": "kcompat diff --sta",
                "COMP_CWORD": "2",
                "_KCOMPAT_COMPLETE": "complete_bash",
            },
            "--staged",
        ),
        (
            {"_TYPER_COMPLETE_ARGS": "kcompat explain --asc", "_KCOMPAT_COMPLETE": "complete_zsh"},
            "--ascii",
        ),
        (
            {
                "_TYPER_COMPLETE_ARGS": "kcompat lin",
                "_KCOMPAT_COMPLETE": "complete_fish",
                "_TYPER_COMPLETE_FISH_ACTION": "get-args",
            },
            "lint",
        ),
    ],
)
def test_the_scripts_requests_are_answered(
    env: dict[str, str], expected: str, tmp_path: Path
) -> None:
    """What a shell asks through the installed script gets the commands and options."""
    done = run_process([], tmp_path, env=env)
    assert done.code == 0, done.stderr
    assert expected in done.stdout.split() or expected in done.stdout


def test_completion_options_are_in_the_top_level_help(tmp_path: Path) -> None:
    done = run_process(["--help"], tmp_path, env={"COLUMNS": "100"})
    for option in ("--version", "--install-completion", "--show-completion"):
        assert option in done.stdout


def _section(text: str, title: str) -> list[str]:
    """The lines of one help section (``Options:``, ``Commands:``) up to the next blank."""
    lines = text.splitlines()
    start = lines.index(title) + 1
    end = next((i for i in range(start, len(lines)) if not lines[i].strip()), len(lines))
    return lines[start:end]


def test_top_level_help_lists_the_everyday_commands_first(tmp_path: Path) -> None:
    done = run_process(["--help"], tmp_path, env={"COLUMNS": "80"})
    assert done.code == 0
    commands = _section(done.stdout, "Commands:")
    names = [line.split()[0] for line in commands]
    assert names[:3] == ["lint", "diff", "explain"]
    assert set(names) == {
        "lint",
        "diff",
        "explain",
        "changelog",
        "matrix",
        "strands",
        "drift",
        "rules",
        "encode",
        "decode",
        "history",
        "corpus",
        "report",
        "lsp",
        "help",
    }
    # one line each, a whole sentence: never cut with "..." nor broken mid-sentence
    assert len(commands) == len(names)
    for line in commands:
        assert line.endswith(".") and not line.endswith("..."), line


def test_no_command_prints_the_help_and_exits_2(tmp_path: Path) -> None:
    done = run_process([], tmp_path, env={"COLUMNS": "80"})
    assert done.code == 2
    assert "Commands:" in done.stderr and "kcompat: error" not in done.stderr


@pytest.mark.parametrize("command", ["diff", "lint", "explain", "drift", "history", "rules"])
def test_command_help_is_readable_at_80_columns(command: str, tmp_path: Path) -> None:
    """Flag names are never cut, and descriptions get most of the width, not 20 columns."""
    done = run_process([command, "--help"], tmp_path, env={"COLUMNS": "80"})
    assert done.code == 0, done.stderr
    assert all(len(line) <= 80 for line in done.stdout.splitlines())
    options = _section(done.stdout, "Options:")
    starts = [line for line in options if line.startswith("  -")]
    for line in starts:
        flags = re.match(r"  ((?:-\w, )?--[\w-]+(?: / --[\w-]+)?)", line)
        assert flags is not None, line
    # the description column starts early enough to leave at least 45 columns
    widths = [len(line) - len(line.lstrip()) for line in options if not line.startswith("  -")]
    assert widths and max(widths) <= 35
    if command == "diff":
        text = done.stdout
        for flag in (
            "--staged",
            "--merge-base",
            "--write-baseline",
            "--history / --no-history",
            "--fail-on SEVERITY",
            "-f, --format FORMAT",
        ):
            assert f"  {flag}" in text
        assert "text, json, sarif, github, gitlab, junit or markdown." in " ".join(text.split())
