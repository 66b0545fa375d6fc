"""``kcompat drift UPSTREAM LOCAL``: a vendored copy of specs against its upstream."""

from __future__ import annotations

from typing import Annotated

import typer

from kcompat.app import (
    FindingsOptions,
    RepoOption,
    app,
    emit,
    exit_status,
    findings_command,
    severity_of,
)


@app.command(short_help="A vendored copy of the specs against its upstream.")
@findings_command
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
    repo_dir: RepoOption = None,
    *,
    options: FindingsOptions,
) -> None:
    """Where a vendored copy of a protocol no longer matches upstream, version by version."""
    from kcompat.drift.run import DriftRequest, drift_request
    from kcompat.report.document import Report

    request = DriftRequest(upstream, local, repo_dir, options.config_file, options.unused_ignores)
    result = drift_request(request)
    report = Report.of(
        "drift",
        result.outcome,
        files=result.files,
        level=severity_of(options.level),
        base=upstream,
        head=local,
    )
    emit(report, fmt=options.fmt, color=options.color, base_label="upstream")
    raise typer.Exit(exit_status(result.outcome.findings, options.fail_on, result.config.fail_on))
