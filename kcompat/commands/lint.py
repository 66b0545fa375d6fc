"""``kcompat lint``: check spec files of one revision."""

from __future__ import annotations

from typing import Annotated

import typer

from kcompat.app import FindingsOptions, app, emit, exit_status, findings_command, severity_of


@app.command(short_help="Check spec files: every rule Kafka's generator has, and more.")
@findings_command
def lint(
    paths: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="PATH...", help="Spec files or directories (default: configured paths, or .)."
        ),
    ] = None,
    *,
    options: FindingsOptions,
) -> None:
    """Check spec files against every rule Kafka's generator enforces, and more."""
    from kcompat.lint.run import LintRequest, lint_request
    from kcompat.report.document import Report

    request = LintRequest(tuple(paths or ()), options.config_file, options.unused_ignores)
    result = lint_request(request)
    if result.outcome is None:
        print(result.note)
        raise typer.Exit(0)
    level = severity_of(options.level)
    report = Report.of("lint", result.outcome, files=result.files, level=level)
    emit(report, fmt=options.fmt, color=options.color)
    raise typer.Exit(exit_status(result.outcome.findings, options.fail_on, result.config.fail_on))
