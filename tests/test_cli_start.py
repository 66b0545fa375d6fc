"""Getting started: ``--version``, tab completion, and the top-level help, through the CLI."""

from __future__ import annotations

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
        ["bash", "-c", f"{KCOMPAT} --show-completion"],
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
    assert "'tcsh' is not one of 'bash', 'zsh', 'fish'" in done.stderr


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
