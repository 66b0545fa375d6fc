"""``kcompat drift UPSTREAM LOCAL``: a vendored copy of specs against its upstream."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated

import typer

from kcompat.app import FindingsOptions, RepoOption, app, option_group, report_findings
from kcompat.completion import sides

if TYPE_CHECKING:
    from kcompat.drift.summary import DriftSummary
    from kcompat.report.document import Overview


@app.command(short_help="A vendored copy of the specs against its upstream.")
@option_group
def drift(
    upstream: Annotated[
        str,
        typer.Argument(
            metavar="UPSTREAM",
            help="Upstream specs: a directory, revision or REV:path.",
            autocompletion=sides,
        ),
    ],
    local: Annotated[
        str,
        typer.Argument(
            metavar="LOCAL",
            help="The local copy: a directory, revision or REV:path.",
            autocompletion=sides,
        ),
    ],
    repo_dir: RepoOption = None,
    *,
    options: FindingsOptions,
) -> None:
    """Where a vendored copy of a protocol no longer matches upstream, version by version."""
    from kcompat.drift.run import DriftRequest, drift_request

    request = DriftRequest(upstream, local, repo_dir, options.config_choice())
    result = drift_request(request)
    if result.note:
        from kcompat.escaping import shown

        print(f"kcompat: note: {shown(result.note)}", file=sys.stderr)
    report_findings(
        "drift",
        options,
        result.outcome,
        result.files,
        result.config.fail_on,
        base=upstream,
        head=local,
        base_label="upstream",
        overview=_overview(result.summary),
    )


def _overview(summary: DriftSummary | None) -> Overview | None:
    from kcompat.report.document import Overview

    if summary is None:
        return None
    return Overview(tuple(summary.lines()), summary.to_json())
