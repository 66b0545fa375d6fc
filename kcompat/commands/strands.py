"""``kcompat strands``: since which commit of a line (trunk) each client release can
no longer talk to it: every commit, as a broker, against every client release, on Spark.

Exit status: 0 done, 2 bad usage (no release tags, a range with no commit or release,
an unknown API name, Spark or Java missing).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from kcompat.app import (
    Color,
    ColorOption,
    ConfigOption,
    RepoOption,
    app,
    format_option,
    option_group,
)
from kcompat.commands import spark_options as spark
from kcompat.commands.matrix import ApiOptions
from kcompat.formats import FormatRegistry


class StrandsFormat(FormatRegistry):
    text = "text", "kcompat.report.strands_summary:render_text"
    json = "json", "kcompat.report.strands_summary:render_json", "summary.json"


@app.command("strands", short_help="Since which commit each client release is stranded, on Spark.")
@option_group
def strands(
    revision_range: Annotated[
        str | None,
        typer.Option(
            "--range",
            metavar="A..B",
            help="The line's commits: the first-parent line of A..B that changed a spec "
            "(default: HEAD's line).",
        ),
    ] = None,
    clients: Annotated[
        str | None,
        typer.Option(
            "--clients",
            metavar="A..B",
            help="Only the client releases from A to B (2.2.0..3.8.0, 3.0.., ..2.8).",
        ),
    ] = None,
    tags: spark.TagsOption = None,
    repo_dir: RepoOption = None,
    out: spark.OutOption = None,
    master: spark.MasterOption = None,
    remote: spark.RemoteOption = None,
    partitions: spark.PartitionsOption = None,
    report: Annotated[
        Path | None,
        typer.Option(
            "--report",
            metavar="FILE",
            help="Also write the result as one HTML file (kcompat report).",
        ),
    ] = None,
    fmt: Annotated[StrandsFormat, format_option(StrandsFormat)] = StrandsFormat.text,
    color: ColorOption = Color.auto,
    config_file: ConfigOption = None,
    *,
    options: ApiOptions,
) -> None:
    """Every commit of a line (trunk), as a broker, against every client release (the
    release tags that hold specs): the APIs each client is stranded on, as Parquet, and
    since which commit each release can no longer talk to the line. ``kcompat report``
    draws it; ``kcompat matrix`` answers for release tags alone, without Spark."""
    from kcompat.commands.history import check_pattern
    from kcompat.config import load_config
    from kcompat.pipeline.session import preflight, spark_session
    from kcompat.pipeline.strands_driver import StrandsRequest, run_strands
    from kcompat.rules.registry import rule_categories
    from kcompat.sources.git import GitRepo
    from kcompat.terminal import write_output

    remote = preflight(master, remote)
    if report is not None:
        from kcompat.auditreport.render import check_output, require_libraries

        require_libraries()
        check_output(report)
    if tags is not None:
        check_pattern("--tags", tags)
    repo = GitRepo.open(repo_dir or Path("."), named=repo_dir is not None)
    config = load_config(start=repo.root, explicit=config_file, rules=rule_categories)
    result = run_strands(
        StrandsRequest(
            repo=repo.root,
            revision_range=revision_range,
            clients=clients,
            tags=tags,
            apis=options.names(),
            controller=options.controller,
            inter_broker=options.inter_broker,
            unstable=options.unstable,
            out=out,
            partitions=partitions,
            config=config,
        ),
        lambda: spark_session(master, remote=remote),
    )
    if report is not None:
        from kcompat.auditreport.render import write_report
        from kcompat.auditreport.strands import STRANDS

        write_report(STRANDS.audit(result.summary, result.rows, str(result.out)), report)
    write_output(fmt.render_function()(result.summary), color)
    import sys

    from kcompat.escaping import shown

    print(f"kcompat: note: strandings/ (Parquet) and summary.json in {shown(str(result.out))}",
          file=sys.stderr)  # fmt: skip
