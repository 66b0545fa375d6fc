"""``kcompat drift UPSTREAM LOCAL``: a vendored copy of specs against its upstream."""

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
    UnusedIgnoresOption,
    app,
    emit,
    exit_status,
    severity_of,
)


@app.command(short_help="A vendored copy of the specs against its upstream.")
def drift(
    upstream: Annotated[
        str,
        typer.Argument(
            metavar="UPSTREAM", help="Upstream specs: a directory, revision or REV:path."
        ),
    ],
    local: Annotated[
        str,
        typer.Argument(metavar="LOCAL", help="The local copy: a directory, revision or REV:path."),
    ],
    repo_dir: Annotated[
        Path | None,
        typer.Option("--repo", metavar="DIR", help="Repository for revisions (default: current)."),
    ] = None,
    fmt: FormatOption = LintFormat.text,
    fail_on: FailOnOption = None,
    level: LevelOption = Level.info,
    unused_ignores: UnusedIgnoresOption = False,
    color: ColorOption = Color.auto,
    config_file: ConfigOption = None,
) -> None:
    """Where a vendored copy of a protocol no longer matches upstream, version by version."""
    from kcompat.drift.run import DriftRequest, drift_request
    from kcompat.report.document import Report

    result = drift_request(DriftRequest(upstream, local, repo_dir, config_file, unused_ignores))
    report = Report.of(
        "drift",
        result.outcome,
        files=result.files,
        level=severity_of(level),
        base=upstream,
        head=local,
    )
    emit(report, fmt=fmt, color=color, base_label="upstream")
    raise typer.Exit(exit_status(result.outcome.findings, fail_on, result.config.fail_on))
