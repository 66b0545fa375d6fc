"""One way to declare a choice option, one phrasing for a wrong value (issue 34).

Every option whose value is one of a closed set (a format, a mode, a severity, a kind,
a colour, a shell) is declared through ``app.choice_option``: read once, at the edge, in
any case, into its enum. A wrong value is the same one line for every one of them, on the
command line, in the configuration and in the Action's inputs:
``--released must be auto, base or tags, not 'x'``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kcompat.app import ChoiceParser
from tests.diff_runner import run_cli, run_process


def _commands() -> Iterator[tuple[list[str], Any]]:
    """Every command (and subcommand) typer builds, with its path."""
    import typer.main

    from kcompat.app import app
    from kcompat.commands import register_all

    register_all()

    def walk(command: Any, path: list[str]) -> Iterator[tuple[list[str], Any]]:
        yield path, command
        for name, sub in sorted(getattr(command, "commands", {}).items()):
            yield from walk(sub, [*path, name])

    yield from walk(typer.main.get_command(app), [])


def _choice_options() -> list[tuple[list[str], str, ChoiceParser]]:
    found = []
    for path, command in _commands():
        for param in command.params:
            func = getattr(param.type, "func", None)
            if isinstance(func, ChoiceParser):
                long = next(o for o in param.opts if o.startswith("--"))
                found.append((path, long, func))
    return found


CHOICES = _choice_options()


def test_no_option_is_declared_as_a_click_choice() -> None:
    """A typer enum option (click's Choice) would refuse a wrong value in click's words."""
    for path, command in _commands():
        for param in command.params:
            assert type(param.type).__name__ not in ("Choice", "TyperChoice"), (path, param.opts)


def test_every_closed_set_is_declared_once() -> None:
    """The options that take one of a set of names all go through choice_option."""
    named = {(" ".join(path), option) for path, option, _ in CHOICES}
    assert {
        ("diff", "--released"),
        ("changelog", "--released"),
        ("history", "--released"),
        ("history", "--mode"),
        ("diff", "--fail-on"),
        ("lint", "--level"),
        ("explain", "--format"),
        ("explain", "--type"),
        ("rules", "--kind"),
        ("rules", "--category"),
        ("corpus verify", "--format"),
        ("", "--show-completion"),
    } <= named


@pytest.mark.parametrize(
    ("path", "option", "parser"), CHOICES, ids=[f"{' '.join(p)} {o}" for p, o, _ in CHOICES]
)
def test_a_wrong_value_is_one_line_in_the_one_phrasing(
    path: list[str], option: str, parser: ChoiceParser, tmp_path: Path
) -> None:
    done = run_cli([*path, option, "bogus"], tmp_path)
    values = [c.value for c in parser.choices]
    listed = values[0] if len(values) == 1 else ", ".join(values[:-1]) + " or " + values[-1]
    where = " ".join(["kcompat", *path])
    assert (done.code, done.stdout) == (2, "")
    assert done.stderr == (
        f"kcompat: error: {option} must be {listed}, not 'bogus' (see: {where} --help)\n"
    )


def test_a_value_is_read_in_any_case(tmp_path: Path) -> None:
    done = run_process(["rules", "--kind", "DRIFT", "--format", "JSON"], tmp_path)
    assert done.code == 0, done.stderr
    assert '"kind": "drift"' in done.stdout and '"kind": "lint"' not in done.stdout


def test_tab_completion_offers_the_choices_of_a_mode(tmp_path: Path) -> None:
    """``--released`` and ``--mode`` were plain strings: completion offered nothing."""
    env = {
        "_KCOMPAT_COMPLETE": "complete_bash",
        "COMP_WORDS": "kcompat diff --released ",
        "COMP_CWORD": "3",
    }
    done = run_process(["diff"], tmp_path, env=env)
    assert done.stdout.split() == ["auto", "base", "tags"]


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ('released = "sometimes"\n', "released must be auto, base or tags, not 'sometimes'"),
        ('released = "TAGS"\n', ""),
    ],
)
def test_the_configuration_says_a_wrong_mode_in_the_same_words(
    tmp_path: Path, text: str, line: str
) -> None:
    (tmp_path / "kcompat.toml").write_text(text, encoding="utf-8")
    (tmp_path / "specs").mkdir()
    done = run_cli(["lint", "specs"], tmp_path)
    if line:
        assert done.stderr == f"kcompat: error: {tmp_path / 'kcompat.toml'}:1: {line}\n"
    else:
        assert "released" not in done.stderr
