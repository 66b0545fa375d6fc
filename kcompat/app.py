"""The typer app and what every command shares: options, output, exit status.

Exit codes: 0 clean, 1 findings at or above ``--fail-on``, 2 bad usage or unreadable input.
Commands live in :mod:`kcompat.commands`, one module each.
"""

from __future__ import annotations

import functools
import inspect
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, fields, is_dataclass
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer
from typer.core import TyperCommand
from typer.models import CommandFunctionType

from kcompat.completion import rules_or_categories, sides
from kcompat.errors import UsageError
from kcompat.formats import FormatRegistry
from kcompat.modes import Choice, ReleasedMode, must_be
from kcompat.report.formats import FindingsFormat
from kcompat.terminal import write_output
from kcompat.verdict import FailOn, Level, exit_status, severity_of

if TYPE_CHECKING:
    from kcompat.config import ConfigChoice
    from kcompat.diff.options import RunOptions
    from kcompat.diff.run import DiffRequest
    from kcompat.report.document import Overview, Report
    from kcompat.rules.runner import Outcome


class _Refused(typer.BadParameter):
    """A wrong value of a choice option, said in kcompat's one phrasing (no prefix)."""

    def format_message(self) -> str:
        return self.message


class ChoiceParser:
    """Reads an option's value as one of ``choices``, in any case (typer's ``parser``)."""

    __name__ = "choice"  # what click calls the type

    def __init__(self, choices: type[StrEnum], name: str) -> None:
        self.choices, self.name = choices, name

    def __call__(self, text: Any) -> StrEnum:
        if isinstance(text, self.choices):
            return text
        found = next((c for c in self.choices if c.value == str(text).lower()), None)
        if found is None:
            raise _Refused(must_be(self.name, (c.value for c in self.choices), str(text)))
        return found

    def complete(self, incomplete: str) -> list[str]:
        """What tab completion offers."""
        return [c.value for c in self.choices if c.value.startswith(incomplete.lower())]


def choice_option(choices: type[StrEnum], *names: str, metavar: str, help: str, **more: Any) -> Any:
    """The one way to declare an option whose value is one of ``choices`` (a string enum:
    a mode, a format, a severity): read once, here, in any case; a wrong value is one line
    (``--released must be auto, base or tags, not 'x'``), and tab completion offers the
    choices."""
    parser = ChoiceParser(choices, next((n for n in names if n.startswith("--")), names[0]))
    return typer.Option(
        *names,
        metavar=metavar,
        help=help,
        parser=parser,
        autocompletion=parser.complete,
        **more,
    )


def format_option(formats: type[FormatRegistry]) -> Any:
    """A command's ``--format``/``-f``: one of ``formats``, its help from the registry."""
    return choice_option(formats, "--format", "-f", metavar="FORMAT", help=formats.help())


class HelpStyle(TyperCommand):
    """kcompat's ``--help`` style, the same for every command: a required argument is
    ``NAME`` in the usage line (brackets mark what may be left out), never ``{NAME}``."""

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        pieces: list[str] = super().collect_usage_pieces(ctx)
        return [p[1:-1] if p.startswith("{") and p.endswith("}") else p for p in pieces]


class Commands(typer.Typer):
    """A group of kcompat's commands (the app, ``corpus``): each in the one help style."""

    def command(
        self, *args: Any, **kwargs: Any
    ) -> Callable[[CommandFunctionType], CommandFunctionType]:
        kwargs.setdefault("cls", HelpStyle)
        return super().command(*args, **kwargs)


app = Commands(
    name="kcompat",
    help="Keep Kafka-style message protocols compatible, and show the bytes.",
    no_args_is_help=True,
    add_completion=False,  # kcompat's own --install-completion/--show-completion take a shell
    rich_markup_mode=None,  # click's plain help: flag names never cut, readable at 80 columns
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


class Shell(Choice):
    bash = "bash"
    zsh = "zsh"
    fish = "fish"


#: the environment variable a completion script sets when it asks for completions
COMPLETE_VAR = "_KCOMPAT_COMPLETE"


def completion_args(args: list[str]) -> list[str]:
    """``--show-completion`` or ``--install-completion`` without a shell names the running
    one (as typer detects it); a completion request loads typer's completion classes."""
    if os.environ.get(COMPLETE_VAR):
        from typer._completion_classes import completion_init

        completion_init()
    if not args or args[0] not in ("--show-completion", "--install-completion"):
        return args
    if len(args) > 1 and not args[1].startswith("-"):
        return args
    from typer._completion_shared import _get_shell_name

    shell = _get_shell_name()
    if shell is None or shell not in Shell.__members__:
        raise UsageError(
            f"cannot tell which shell this is ({shell or 'none found'}): name it, e.g. "
            f"kcompat {args[0]} bash (bash, zsh or fish)"
        )
    return [args[0], shell, *args[1:]]


def _show_version(value: bool) -> None:
    if value:
        from kcompat import __version__

        print(f"kcompat {__version__}")
        raise typer.Exit(0)


def _show_completion(value: Shell | None) -> None:
    if value is not None:
        from typer._completion_shared import get_completion_script

        print(get_completion_script(prog_name="kcompat", complete_var=COMPLETE_VAR, shell=value))
        raise typer.Exit(0)


def _install_completion(value: Shell | None) -> None:
    if value is not None:
        from typer._completion_shared import install

        shell, path = install(shell=value.value, prog_name="kcompat", complete_var=COMPLETE_VAR)
        print(f"{shell} completion installed in {path}; it takes effect in a new shell.")
        raise typer.Exit(0)


def _shell_option(name: str, callback: Callable[[Shell | None], None], help: str) -> Any:
    """An option that names a shell (bash, zsh or fish; none: the running one) and acts at
    once, before any command: the two completion options."""
    return choice_option(
        Shell,
        name,
        metavar="[SHELL]",
        help=help,
        is_eager=True,
        callback=callback,
        show_default=False,
    )


@app.callback()
def _kcompat(
    version: Annotated[
        bool,
        typer.Option(
            "--version", "-V", is_eager=True, callback=_show_version, help="Print the version."
        ),
    ] = False,
    install_completion: Annotated[
        Shell | None,
        _shell_option(
            "--install-completion",
            _install_completion,
            "Install tab completion for SHELL: bash, zsh or fish (default: the one running "
            "kcompat).",
        ),
    ] = None,
    show_completion: Annotated[
        Shell | None,
        _shell_option(
            "--show-completion",
            _show_completion,
            "Print the tab completion script for SHELL (bash, zsh or fish; default: the one "
            "running kcompat), to install it by hand.",
        ),
    ] = None,
) -> None:
    """Keep Kafka-style message protocols compatible, and show the bytes."""
    # A callback keeps typer in command-group mode even when only the invoked command
    # is registered (see kcompat.commands.register).


class Color(Choice):
    auto = "auto"
    always = "always"
    never = "never"


ColorOption = Annotated[
    Color,
    choice_option(
        Color,
        "--color",
        metavar="WHEN",
        help="Colour the text output: auto (on a terminal), always or never.",
    ),
]
FormatOption = Annotated[FindingsFormat, format_option(FindingsFormat)]
FailOnOption = Annotated[
    FailOn | None,
    choice_option(
        FailOn,
        "--fail-on",
        metavar="SEVERITY",
        help="Exit 1 on findings at or above this severity: error (the default unless "
        "configured), warning, info, or never.",
    ),
]
RepoOption = Annotated[
    Path | None,
    typer.Option("--repo", metavar="DIR", help="The git repository (default: current)."),
]


def _side_argument(name: str, default: str) -> Any:
    """One side of a comparison, completed from branches and tags."""
    return typer.Argument(
        metavar=name,
        help=f"A git revision, a directory, or REV:path (default: {default}).",
        autocompletion=sides,
    )


#: The two sides of a comparison (diff, changelog).
BaseArgument = Annotated[str | None, _side_argument("BASE", "HEAD")]
HeadArgument = Annotated[str | None, _side_argument("HEAD", "the working tree")]
#: ``--released``, the same in every command that compares (diff, changelog, history)
ReleasedOption = Annotated[
    ReleasedMode | None,
    choice_option(
        ReleasedMode,
        "--released",
        metavar="MODE",
        help="Which versions are released: tags (shipped by a release tag), base (every "
        "version in BASE), or auto (tags where the repository has release tags; default).",
    ),
]
StagedOption = Annotated[
    bool, typer.Option("--staged", help="Compare BASE (default: HEAD) with the index.")
]
MergeBaseOption = Annotated[
    bool, typer.Option("--merge-base", help="Compare from the merge base of BASE and HEAD.")
]
ConfigOption = Annotated[
    Path | None,
    typer.Option(
        "--config", metavar="FILE", help="kcompat.toml or pyproject.toml to use (default: nearest)."
    ),
]


def fail(message: str) -> NoReturn:
    """Print one line to stderr and exit 2."""
    from kcompat.escaping import shown

    print(f"kcompat: error: {shown(message)}", file=sys.stderr)
    raise typer.Exit(2)


LevelOption = Annotated[
    Level,
    choice_option(
        Level,
        "--level",
        metavar="SEVERITY",
        help="Show findings at or above this severity: error, warning or info (the exit "
        "status still counts all).",
    ),
]


UnusedIgnoresOption = Annotated[
    bool,
    typer.Option(
        "--report-unused-ignores",
        help="Report ignore comments that silence nothing (config: report-unused-ignores).",
    ),
]


ShowSuppressedOption = Annotated[
    bool,
    typer.Option(
        "--show-suppressed",
        help="List the findings ignore comments silence, with each comment's reason "
        "(they never fail).",
    ),
]


DisableOption = Annotated[
    list[str] | None,
    typer.Option(
        "--disable",
        metavar="RULE",
        help="Turn a rule off for this run, or every rule of a category (category:NAME); "
        "repeatable, added to the configuration's disable.",
        autocompletion=rules_or_categories,
    ),
]


@dataclass(frozen=True)
class FindingsOptions:
    """The options of every command that reports findings (lint, diff, drift)."""

    fmt: FormatOption = FindingsFormat.text
    fail_on: FailOnOption = None
    level: LevelOption = Level.info
    unused_ignores: UnusedIgnoresOption = False
    color: ColorOption = Color.auto
    config_file: ConfigOption = None
    show_suppressed: ShowSuppressedOption = False
    disable: DisableOption = None

    def config_choice(self) -> ConfigChoice:
        """The configuration ``--config``, ``--report-unused-ignores`` and ``--disable``
        choose."""
        from kcompat.config import ConfigChoice

        return ConfigChoice(self.config_file, self.unused_ignores, tuple(self.disable or ()))


@dataclass(frozen=True)
class Sides:
    """The two sides of a comparison as a command names them (diff, changelog; the Action
    and ``explain --since`` name theirs the same way)."""

    base: BaseArgument = None
    head: HeadArgument = None
    staged: StagedOption = False
    merge_base: MergeBaseOption = False
    repo_dir: RepoOption = None

    def request(self, options: RunOptions) -> DiffRequest:
        """The comparison of these sides, run as ``options`` say: every command's diff
        request is made here."""
        from kcompat.diff.run import DiffRequest

        return DiffRequest(
            self.base, self.head, self.staged, self.merge_base, self.repo_dir, options
        )


def option_group(command: Callable[..., None]) -> Callable[..., None]:
    """Give a command groups of shared options, each as one argument: every parameter
    annotated with a frozen dataclass (each field a typer-annotated option or argument)
    stands, in its place, for the group's fields on the command line and in ``--help``,
    and the command receives the group as one value.

    Typer reads a command's signature: this one is the command's own parameters with each
    group's fields in the group's place, so each is declared (and documented) once.
    """
    parameters = inspect.signature(command, eval_str=True).parameters
    groups: dict[str, type[Any]] = {
        name: parameter.annotation
        for name, parameter in parameters.items()
        if isinstance(parameter.annotation, type) and is_dataclass(parameter.annotation)
    }
    shown: list[inspect.Parameter] = []
    members: dict[str, list[str]] = {}
    for name, parameter in parameters.items():
        group = groups.get(name)
        if group is None:
            shown.append(parameter.replace(kind=inspect.Parameter.KEYWORD_ONLY))
            continue
        annotations = inspect.get_annotations(group, eval_str=True)
        members[name] = [field.name for field in fields(group)]
        shown += [
            inspect.Parameter(
                field.name,
                inspect.Parameter.KEYWORD_ONLY,
                default=field.default,
                annotation=annotations[field.name],
            )
            for field in fields(group)
        ]

    @functools.wraps(command)
    def run(**values: Any) -> None:
        for name, group in groups.items():
            values[name] = group(**{field: values.pop(field) for field in members[name]})
        command(**values)

    run.__signature__ = inspect.Signature(shown)  # type: ignore[attr-defined]
    return run


def emit(report: Report, *, fmt: FindingsFormat, color: Color) -> None:
    """Render a report in the chosen format to stdout. A reader that stops early
    (``| head``) does not change the exit status: the verdict still counts every finding."""
    write_output(fmt.renderer()(report), color)


def report_findings(
    command: str,
    options: FindingsOptions,
    outcome: Outcome,
    files: int,
    configured_fail_on: FailOn,
    *,
    base: str | None = None,
    head: str | None = None,
    released: str = "",
    base_label: str = "BASE",
    overview: Overview | None = None,
) -> NoReturn:
    """End a findings command (lint, diff, drift): its report at ``--level`` in the chosen
    format, then the exit status ``--fail-on`` (else the configured severity) gives."""
    from kcompat.report.document import Report

    report = Report.of(
        command,
        outcome,
        files=files,
        level=severity_of(options.level),
        base=base,
        head=head,
        released=released,
        show_suppressed=options.show_suppressed,
        base_label=base_label,
        overview=overview,
    )
    emit(report, fmt=options.fmt, color=options.color)
    raise typer.Exit(exit_status(outcome.findings, options.fail_on, configured_fail_on))


class MessageKind(Choice):
    request = "request"
    response = "response"
    header = "header"
    metadata = "metadata"
    data = "data"
    coordinator_key = "coordinator-key"
    coordinator_value = "coordinator-value"


#: ``--type``: how ``explain``, ``encode`` and ``decode`` pick among a bare name's messages
MessageKindOption = Annotated[
    MessageKind | None,
    choice_option(
        MessageKind,
        "--type",
        "-t",
        metavar="KIND",
        help="Which kind a bare name or an API key means: request, response, header, "
        "metadata, data, coordinator-key or coordinator-value (default: request and "
        "response).",
    ),
]
