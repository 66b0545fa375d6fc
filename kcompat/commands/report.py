"""``kcompat report``: an audit directory as one self-contained HTML page."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from kcompat.app import app


@app.command(short_help="One HTML page of a history audit: plot, breaks, findings.")
def report(
    audit_dir: Annotated[
        Path,
        typer.Argument(
            metavar="DIR", help="The --out directory of kcompat history, corpus verify or strands."
        ),
    ],
    output: Annotated[
        Path,
        typer.Option(
            "--output", "-o", metavar="FILE", help="The HTML file to write (e.g. audit.html)."
        ),
    ],
) -> None:
    """Write an audit as one HTML file: timeline plot, broken messages, every finding."""
    from kcompat.auditreport.kinds import job_kind
    from kcompat.auditreport.render import report_from_directory

    audit, size = report_from_directory(audit_dir, output)
    what = job_kind(audit.kind).counted
    typer.echo(
        f"{output}: report of {len(audit.findings)} {what} ({size / 1e6:.1f} MB), "
        "one file, nothing fetched when viewed"
    )
