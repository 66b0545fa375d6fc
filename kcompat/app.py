"""The typer app and what every command shares: options, output, exit status.

Exit codes: 0 clean, 1 findings at or above ``--fail-on``, 2 bad usage or unreadable input.
Commands live in :mod:`kcompat.commands`, one module each.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn

import typer

if TYPE_CHECKING:
    from kcompat.config import Config
    from kcompat.report.document import Report
    from kcompat.rules.engine import Finding, Severity

app = typer.Typer(
    name="kcompat",
    help="Keep Kafka-style message protocols compatible, and show the bytes.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


@app.callback()
def _kcompat() -> None:
    """Keep Kafka-style message protocols compatible, and show the bytes."""
    # A callback keeps typer in command-group mode even when only the invoked command
    # is registered (see kcompat.commands.register).


class Color(StrEnum):
    auto = "auto"
    always = "always"
    never = "never"


class LintFormat(StrEnum):
    text = "text"
    json = "json"
    sarif = "sarif"
    github = "github"
    junit = "junit"
    markdown = "markdown"
    gitlab = "gitlab"


class FailOn(StrEnum):
    error = "error"
    warning = "warning"
    info = "info"
    never = "never"


ColorOption = Annotated[
    Color, typer.Option("--color", help="Colour the text output.", case_sensitive=False)
]
ConfigOption = Annotated[
    Path | None,
    typer.Option("--config", help="kcompat.toml or pyproject.toml to use (default: nearest)."),
]


def console_for(color: Color, stderr: bool = False):  # type: ignore[no-untyped-def]
    from rich.console import Console

    force = {Color.always: True, Color.never: False}.get(color)
    no_color = color is Color.never or (color is Color.auto and "NO_COLOR" in os.environ)
    return Console(
        stderr=stderr,
        force_terminal=force,
        no_color=no_color,
        highlight=False,
        soft_wrap=True,
        emoji=False,
        markup=False,
    )


def fail(message: str) -> NoReturn:
    """Print one line to stderr and exit 2."""
    print(f"kcompat: error: {message}", file=sys.stderr)
    raise typer.Exit(2)


class Level(StrEnum):
    error = "error"
    warning = "warning"
    info = "info"


LevelOption = Annotated[
    Level,
    typer.Option(
        "--level",
        help="Show findings at or above this severity (exit status still counts all).",
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


def with_unused_ignores(config: Config, asked: bool) -> Config:
    """The configuration, asked to report unused ignore comments when the flag says so."""
    from dataclasses import replace

    return replace(config, report_unused_ignores=True) if asked else config


def exit_status(findings: Sequence[Finding], fail_on: FailOn | None, configured: int) -> int:
    """1 when a finding is at or above ``--fail-on`` (default: the configured severity);
    findings the configuration accepts ([[ignore]]) never fail."""
    from kcompat.rules.engine import Severity

    if fail_on is FailOn.never:
        return 0
    threshold = Severity[fail_on.name.upper()] if fail_on is not None else Severity(configured)
    return 1 if any(f.severity >= threshold and not f.accepted for f in findings) else 0


def emit(report: Report, *, fmt: LintFormat, color: Color, base_label: str = "BASE") -> None:
    """Render a report in the chosen format to stdout."""
    if fmt is LintFormat.text:
        from kcompat.report.text import plain, render_text, styled

        lines = render_text(report, base_label=base_label)
        if uses_color(color):
            console = console_for(color)
            for line in lines:
                console.print(styled(line))
        else:  # a hook's or a CI log's output: no styling, so no rich to import
            sys.stdout.write("".join(plain(line) + "\n" for line in lines))
        return
    from kcompat.report import formats

    text = formats.render(fmt.value, report)
    sys.stdout.write(text if text.endswith("\n") else text + "\n")


def uses_color(color: Color) -> bool:
    """Whether text output is styled: ``always``, or ``auto`` on a terminal without
    NO_COLOR (what rich would decide, without importing it)."""
    if color is Color.always:
        return True
    if color is Color.never or "NO_COLOR" in os.environ:
        return False
    return sys.stdout.isatty() or bool(os.environ.get("FORCE_COLOR"))


def severity_of(level: Level) -> Severity:
    from kcompat.rules.engine import Severity

    return Severity[level.name.upper()]
