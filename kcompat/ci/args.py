"""The Action's ``args`` input: ``kcompat diff`` options, read by the diff command's own
parser, so every option means in the Action what it means on the command line and a typo
is an error (exit 2, one line), never silently dropped.

The Action decides what to compare (``base`` input, the checked-out HEAD, the merge base),
where (``--repo``) and how the report is written (annotations, the job summary, the
comment); the options that would say otherwise are refused with a line saying so.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any

from kcompat.config import ConfigChoice
from kcompat.errors import UsageError
from kcompat.verdict import FailOn, Level

if TYPE_CHECKING:
    from kcompat.app import FindingsOptions
    from kcompat.commands.diff import DiffOptions
    from kcompat.diff.options import RunOptions

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
    """What ``args`` chose: the diff command's own option groups, as its parser read them
    (None: nothing given, every option at the diff command's default), and the
    ``fail-on`` input when it is given."""

    groups: tuple[DiffOptions, FindingsOptions] | None = None
    fail_on_input: FailOn | None = None

    @property
    def fail_on(self) -> FailOn | None:
        if self.fail_on_input is not None:
            return self.fail_on_input
        return self.groups[1].fail_on if self.groups is not None else None

    @property
    def level(self) -> Level:
        return self.groups[1].level if self.groups is not None else Level.info

    def config_choice(self) -> ConfigChoice:
        return self.groups[1].config_choice() if self.groups is not None else ConfigChoice()

    def run_options(self) -> RunOptions:
        """How the Action's diff runs (the baseline read now: a bad one is one line)."""
        from kcompat.diff.options import RunOptions

        if self.groups is None:
            return RunOptions()
        run, findings = self.groups
        return run.run_options(findings, staged=False, cache=None)


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
    from kcompat.app import FindingsOptions
    from kcompat.commands.diff import DiffOptions

    run = DiffOptions(**{field.name: params[field.name] for field in fields(DiffOptions)})
    found = FindingsOptions(**{field.name: params[field.name] for field in fields(FindingsOptions)})
    return DiffSettings((run, found))


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
    return _as_typer_gives(context.params), given


def _as_typer_gives(params: dict[str, Any]) -> dict[str, Any]:
    """The values as typer hands them to the diff command (a path as a Path, a repeated
    option as a list): what click parsed, through typer's own converters."""
    from typer.main import get_params_convertors_ctx_param_name_from_function

    from kcompat.commands.diff import diff

    _, convertors, _ = get_params_convertors_ctx_param_name_from_function(diff)
    return {
        name: convertors[name](value) if name in convertors else value
        for name, value in params.items()
    }


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
