"""``kcompat lint``: check spec files of one revision."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from kcompat.app import FindingsOptions, app, option_group, report_findings


@app.command(short_help="Check spec files: every rule Kafka's generator has, and more.")
@option_group
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

    request = LintRequest(tuple(paths or ()), options.config_choice())
    result = lint_request(request)
    if result.skipped:
        from kcompat.escaping import shown

        print(f"kcompat: note: {shown(result.skipped)}", file=sys.stderr)
    if result.outcome is None:
        print(result.note)
        raise typer.Exit(0)
    report_findings("lint", options, result.outcome, result.files, result.config.fail_on)
