"""The typer app and what every command shares: options, output, exit status.

Exit codes: 0 clean, 1 findings at or above ``--fail-on``, 2 bad usage or unreadable input.
Commands live in :mod:`kcompat.commands`, one module each.
"""

from __future__ import annotations

import functools
import inspect
import os
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, fields
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer

from kcompat.completion import rules_or_categories, sides
from kcompat.errors import UsageError
from kcompat.report.formats import FindingsFormat
from kcompat.terminal import write_output

if TYPE_CHECKING:
    from kcompat.config import ConfigChoice
    from kcompat.findings import Finding, Severity
    from kcompat.report.document import Overview, Report
    from kcompat.rules.runner import Outcome

app = typer.Typer(
    name="kcompat",
    help="Keep Kafka-style message protocols compatible, and show the bytes.",
    no_args_is_help=True,
    add_completion=False,  # kcompat's own --install-completion/--show-completion take a shell
    rich_markup_mode=None,  # click's plain help: flag names never cut, readable at 80 columns
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


class Shell(StrEnum):
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
    return typer.Option(
        name,
        metavar="[bash|zsh|fish]",
        is_eager=True,
        callback=callback,
        help=help,
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
            "Install tab completion for this shell (default: the one running kcompat).",
        ),
    ] = None,
    show_completion: Annotated[
        Shell | None,
        _shell_option(
            "--show-completion",
            _show_completion,
            "Print the tab completion script for this shell, to install it by hand.",
        ),
    ] = None,
) -> None:
    """Keep Kafka-style message protocols compatible, and show the bytes."""
    # A callback keeps typer in command-group mode even when only the invoked command
    # is registered (see kcompat.commands.register).


class Color(StrEnum):
    auto = "auto"
    always = "always"
    never = "never"


class FailOn(StrEnum):
    error = "error"
    warning = "warning"
    info = "info"
    never = "never"


ColorOption = Annotated[
    Color,
    typer.Option(
        "--color",
        metavar="WHEN",
        help="Colour the text output: auto (on a terminal), always or never.",
        case_sensitive=False,
    ),
]
FormatOption = Annotated[
    FindingsFormat,
    typer.Option(
        "--format", "-f", metavar="FORMAT", help=FindingsFormat.help(), case_sensitive=False
    ),
]
FailOnOption = Annotated[
    FailOn | None,
    typer.Option(
        "--fail-on",
        metavar="SEVERITY",
        help="Exit 1 on findings at or above this severity: error (the default unless "
        "configured), warning, info, or never.",
        case_sensitive=False,
    ),
]
RepoOption = Annotated[
    Path | None,
    typer.Option("--repo", metavar="DIR", help="The git repository (default: current)."),
]
#: The two sides of a comparison (diff, changelog), each completed from branches and tags.
BaseArgument = Annotated[
    str | None,
    typer.Argument(
        metavar="BASE",
        help="BASE: a git revision, a directory, or REV:path (default: HEAD).",
        autocompletion=sides,
    ),
]
HeadArgument = Annotated[
    str | None,
    typer.Argument(
        metavar="HEAD",
        help="HEAD: a revision, a directory or REV:path (default: working tree).",
        autocompletion=sides,
    ),
]
StagedOption = Annotated[
    bool, typer.Option("--staged", help="Compare BASE (default HEAD) with the index.")
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


class Level(StrEnum):
    error = "error"
    warning = "warning"
    info = "info"


LevelOption = Annotated[
    Level,
    typer.Option(
        "--level",
        metavar="SEVERITY",
        help="Show findings at or above this severity: error, warning or info (the exit "
        "status still counts all).",
        case_sensitive=False,
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


def option_group(command: Callable[..., None]) -> Callable[..., None]:
    """Give a command a group of shared options as one ``options`` argument: the frozen
    dataclass its ``options`` parameter names, each field a typer-annotated option.

    Typer reads a command's signature: this one is the command's own parameters, then the
    group's, so each is declared (and documented in ``--help``) once.
    """
    parameters = inspect.signature(command, eval_str=True).parameters
    group = parameters["options"].annotation
    own = [parameter for parameter in parameters.values() if parameter.name != "options"]
    annotations = inspect.get_annotations(group, eval_str=True)
    names = [field.name for field in fields(group)]
    shared = [
        inspect.Parameter(
            field.name,
            inspect.Parameter.POSITIONAL_OR_KEYWORD,
            default=field.default,
            annotation=annotations[field.name],
        )
        for field in fields(group)
    ]

    @functools.wraps(command)
    def run(**values: Any) -> None:
        options = group(**{name: values.pop(name) for name in names})
        command(**values, options=options)

    run.__signature__ = inspect.Signature([*own, *shared])  # type: ignore[attr-defined]
    return run


def exit_status(
    findings: Iterable[Finding | Severity],
    fail_on: FailOn | None = None,
    configured: int = 3,
    *,
    internal: int = 0,
) -> int:
    """Every command's verdict: 3 when the run reported internal errors (the Spark
    commands' ``internal-error`` findings), else 1 when a finding (or a bare severity) is
    at or above ``--fail-on`` (default: the configured severity, else error); findings
    the configuration accepts ([[ignore]]) never fail."""
    from kcompat.findings import Severity

    if internal:
        return 3
    if fail_on is FailOn.never:
        return 0
    threshold = Severity[fail_on.name.upper()] if fail_on is not None else Severity(configured)
    for found in findings:
        if isinstance(found, Severity):
            if found >= threshold:
                return 1
        elif found.severity >= threshold and not found.accepted:
            return 1
    return 0


def emit(report: Report, *, fmt: FindingsFormat, color: Color) -> None:
    """Render a report in the chosen format to stdout. A reader that stops early
    (``| head``) does not change the exit status: the verdict still counts every finding."""
    write_output(fmt.renderer()(report), color)


def report_findings(
    command: str,
    options: FindingsOptions,
    outcome: Outcome,
    files: int,
    configured_fail_on: int,
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


def severity_of(level: Level) -> Severity:
    from kcompat.findings import Severity

    return Severity[level.name.upper()]


class MessageKind(StrEnum):
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
    typer.Option(
        "--type",
        "-t",
        metavar="KIND",
        help="Which kind a bare name or an API key means: request, response, header, "
        "metadata, data, coordinator-key or coordinator-value (default: request and "
        "response).",
        case_sensitive=False,
    ),
]
