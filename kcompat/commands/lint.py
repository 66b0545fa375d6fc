"""``kcompat lint``: check spec files of one revision."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from kcompat.app import (
    Color,
    ColorOption,
    ConfigOption,
    FailOn,
    LintFormat,
    app,
    emit,
    exit_status,
    fail,
)


@app.command()
def lint(
    paths: Annotated[
        list[str] | None,
        typer.Argument(help="Spec files or directories (default: configured paths, or .)."),
    ] = None,
    fmt: Annotated[
        LintFormat, typer.Option("--format", "-f", help="Output format.", case_sensitive=False)
    ] = LintFormat.text,
    fail_on: Annotated[
        FailOn | None,
        typer.Option("--fail-on", help="Exit 1 on findings at or above this severity."),
    ] = None,
    color: ColorOption = Color.auto,
    config_file: ConfigOption = None,
) -> None:
    """Check spec files against every rule Kafka's generator enforces, and more."""
    from kcompat.config import load_config
    from kcompat.lint import lint_specs
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
    findings = lint_specs(targets, context, config)
    emit(findings, fmt=fmt, command="lint", files=len(targets), color=color)
    raise typer.Exit(exit_status(findings, fail_on, config.fail_on))
