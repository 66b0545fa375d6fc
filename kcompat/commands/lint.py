"""``kcompat lint``: check spec files of one revision."""

from __future__ import annotations

from pathlib import Path
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
    app,
    emit,
    exit_status,
    fail,
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
    color: ColorOption = Color.auto,
    config_file: ConfigOption = None,
) -> None:
    """Check spec files against every rule Kafka's generator enforces, and more."""
    from kcompat.config import load_config
    from kcompat.lint import run_lint
    from kcompat.report.document import Report
    from kcompat.sources.files import read_paths

    config = load_config(explicit=config_file)
    chosen = list(paths or [])
    if not chosen:
        base = Path(config.root) if config.root else Path(".")
        chosen = [str(base / p) for p in config.paths] or ["."]
    targets, context = read_paths(chosen)
    if not targets:
        fail(
            f"no spec files found in {', '.join(chosen)} (spec files are *.json with "
            '"validVersions")'
        )
    outcome = run_lint(targets, context, config)
    report = Report.of("lint", outcome, files=len(targets), level=severity_of(level))
    emit(report, fmt=fmt, color=color)
    raise typer.Exit(exit_status(outcome.findings, fail_on, config.fail_on))
