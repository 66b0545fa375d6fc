"""The Action's ``args`` input: ``kcompat diff`` options, read by the diff command's own
parser, so every option means in the Action what it means on the command line and a typo
is an error (exit 2, one line), never silently dropped.

The Action decides what to compare (``base`` input, the checked-out HEAD, the merge base),
where (``--repo``) and how the report is written (annotations, the job summary, the
comment); the options that would say otherwise are refused with a line saying so.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kcompat.config import ConfigChoice
from kcompat.errors import UsageError
from kcompat.modes import ReleasedMode
from kcompat.verdict import FailOn, Level

#: Diff parameters the Action sets itself, and what the user sets instead.
_SET_BY_THE_ACTION = {
    "base": "BASE is the base input",
    "head": "HEAD is the checked-out pull request",
    "staged": "the Action compares commits",
    "merge_base": "the Action always diffs from the merge base",
    "repo_dir": "the repository is the workspace",
    "write_baseline": "the Action only reads a baseline",
    "fmt": "the Action writes annotations, the job summary and the comment",
    "color": "the Action writes annotations, the job summary and the comment",
}


@dataclass(frozen=True)
class DiffSettings:
    """What ``args`` chose; every field as the diff command's default when not given."""

    released: ReleasedMode | None = None
    baseline: Path | None = None
    fail_on: FailOn | None = None
    level: Level = Level.info
    unused_ignores: bool = False
    config_file: Path | None = None
    history: bool = True
    proof: bool = True
    samples: int = 20

    def config_choice(self) -> ConfigChoice:
        return ConfigChoice(self.config_file, self.unused_ignores)


def parse_args(text: str) -> DiffSettings:
    """``args`` (shell words) as the diff command parses them; :class:`UsageError` for an
    unknown option, a bad value, or an option the Action sets itself."""
    try:
        words = shlex.split(text)
    except ValueError as err:
        raise UsageError(f"args: {err} in {text!r}") from None
    if not words:
        return DiffSettings()
    if "-h" in words or "--help" in words:
        raise UsageError("args: --help lists options on the command line (kcompat diff --help)")
    params, given = _parsed(words)
    for name in given:
        if name in _SET_BY_THE_ACTION:
            shown = _option_name(name)
            raise UsageError(f"args: {shown} is not for the Action: {_SET_BY_THE_ACTION[name]}")
    return DiffSettings(
        released=params["released"],
        baseline=Path(params["baseline"]) if params["baseline"] is not None else None,
        fail_on=FailOn(params["fail_on"]) if params["fail_on"] is not None else None,
        level=Level(params["level"]),
        unused_ignores=bool(params["unused_ignores"]),
        config_file=Path(params["config_file"]) if params["config_file"] is not None else None,
        history=bool(params["history"]),
        proof=bool(params["proof"]),
        samples=int(params["samples"]) if params["samples"] is not None else 20,
    )


def _parsed(words: list[str]) -> tuple[dict[str, Any], list[str]]:
    """The diff command's parameters from ``words``, and the names given explicitly."""
    command = _diff_command()
    try:
        context = command.make_context("kcompat diff", words)
    except Exception as err:  # click's usage errors (typer vendors click: matched by shape)
        if not hasattr(err, "format_message"):
            raise
        raise UsageError(f"args: {err.format_message()} (see: kcompat diff --help)") from None
    given = [
        name
        for name in context.params
        if getattr(context.get_parameter_source(name), "name", "") == "COMMANDLINE"
    ]
    return dict(context.params), given


def _diff_command() -> Any:
    """The click command typer builds for ``kcompat diff``."""
    from typer.main import get_command

    from kcompat.app import app
    from kcompat.commands import register

    register("diff")
    return get_command(app).commands["diff"]  # type: ignore[attr-defined]


def _option_name(name: str) -> str:
    """How the user wrote a parameter: ``--format``, or ``BASE`` for an argument."""
    for param in _diff_command().params:
        if param.name == name:
            options = [o for o in param.opts if o.startswith("--")]
            return options[0] if options else name.upper()
    return name
