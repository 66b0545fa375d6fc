"""``kcompat lint``: check spec files of one revision."""

from __future__ import annotations

from typing import Annotated

import typer

from kcompat.app import (
    Color,
    ColorOption,
    ConfigOption,
    FailOnOption,
    FormatOption,
    Level,
    LevelOption,
    LintFormat,
    UnusedIgnoresOption,
    app,
    emit,
    exit_status,
    severity_of,
)


@app.command(short_help="Check spec files: every rule Kafka's generator has, and more.")
def lint(
    paths: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="PATH...", help="Spec files or directories (default: configured paths, or .)."
        ),
    ] = None,
    fmt: FormatOption = LintFormat.text,
    fail_on: FailOnOption = None,
    level: LevelOption = Level.info,
    unused_ignores: UnusedIgnoresOption = False,
    color: ColorOption = Color.auto,
    config_file: ConfigOption = None,
) -> None:
    """Check spec files against every rule Kafka's generator enforces, and more."""
    from kcompat.lint.run import LintRequest, lint_request
    from kcompat.report.document import Report

    result = lint_request(LintRequest(tuple(paths or ()), config_file, unused_ignores))
    if result.outcome is None:
        print(result.note)
        raise typer.Exit(0)
    report = Report.of("lint", result.outcome, files=result.files, level=severity_of(level))
    emit(report, fmt=fmt, color=color)
    raise typer.Exit(exit_status(result.outcome.findings, fail_on, result.config.fail_on))
