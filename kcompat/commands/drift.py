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
    with_unused_ignores,
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
    from kcompat.config import load_config
    from kcompat.drift import drift_specs
    from kcompat.errors import UsageError
    from kcompat.report.document import Report
    from kcompat.sources.git import GitRepo
    from kcompat.sources.sides import load_all, side_for

    repo = GitRepo.around(repo_dir)
    up_side, local_side = side_for(upstream, repo), side_for(local, repo)
    up_specs, local_specs = load_all(up_side), load_all(local_side)
    if not up_specs or not local_specs:
        empty = upstream if not up_specs else local
        raise UsageError(f"no spec files found in {empty}")
    config = with_unused_ignores(
        load_config(start=repo.root if repo is not None else None, explicit=config_file),
        unused_ignores,
    )
    outcome = drift_specs(up_specs, local_specs, config)
    report = Report.of(
        "drift",
        outcome,
        files=len(up_specs) + len(local_specs),
        level=severity_of(level),
        base=upstream,
        head=local,
    )
    emit(report, fmt=fmt, color=color, base_label="upstream")
    raise typer.Exit(exit_status(outcome.findings, fail_on, config.fail_on))
