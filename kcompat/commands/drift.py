"""``kcompat drift UPSTREAM LOCAL``: a vendored copy of specs against its upstream."""

from __future__ import annotations

from typing import Annotated

import typer

from kcompat.app import FindingsOptions, RepoOption, app, option_group, report_findings
from kcompat.completion import sides


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
    report_findings(
        "drift",
        options,
        result.outcome,
        result.files,
        result.config.fail_on,
        base=upstream,
        head=local,
        base_label="upstream",
    )
