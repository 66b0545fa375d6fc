"""``kcompat history``: audit whole histories and release matrices on Spark."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from kcompat.app import (
    Color,
    ColorOption,
    ConfigOption,
    ReleasedOption,
    RepoOption,
    app,
    choice_option,
)
from kcompat.commands import spark_options as spark
from kcompat.commands.samples_option import check_samples, samples_option
from kcompat.commands.table_format import TableFormatOption
from kcompat.modes import HistoryMode
from kcompat.report.tables import TableFormat
from kcompat.verdict import exit_status


@app.command(short_help="Diff every commit or release of a history, on Spark.")
def history(
    repo_dir: RepoOption = None,
    mode: Annotated[
        HistoryMode,
        choice_option(
            HistoryMode,
            "--mode",
            metavar="MODE",
            help="consecutive (commits), releases, or transitive (all pairs).",
        ),
    ] = HistoryMode.CONSECUTIVE,
    revision_range: Annotated[
        str | None,
        typer.Option(
            "--range",
            metavar="A..B",
            help="Only what A..B spans: its commits (consecutive; default: HEAD's history), "
            "or the releases inside it (releases, transitive: from tag A to tag B, or the "
            "release tags B reaches and A does not).",
        ),
    ] = None,
    tags: spark.TagsOption = None,
    released: ReleasedOption = None,
    out: spark.OutOption = None,
    fmt: TableFormatOption = TableFormat.text,
    master: spark.MasterOption = None,
    remote: spark.RemoteOption = None,
    proof: Annotated[
        bool,
        typer.Option(
            "--proof/--no-proof", help="Round-trip samples through both sides of each pair."
        ),
    ] = True,
    samples: Annotated[
        int, samples_option(check_samples, "Samples per version (at most 1,000).")
    ] = 20,
    partitions: spark.PartitionsOption = None,
    report: Annotated[
        Path | None,
        typer.Option(
            "--report",
            metavar="FILE",
            help="Also write the audit as one HTML file (kcompat report).",
        ),
    ] = None,
    changelog: Annotated[
        bool,
        typer.Option(
            "--changelog",
            help="With --mode releases: write each release's changelog (Markdown and HTML) "
            "beside the audit; the report links them.",
        ),
    ] = False,
    color: ColorOption = Color.auto,
    config_file: ConfigOption = None,
) -> None:
    """Diff every commit, every release, or every pair of releases, on Spark."""
    from kcompat.commands.progress_bar import progress_on_terminal
    from kcompat.config import load_config
    from kcompat.pipeline.history_driver import HistoryRequest, run_history
    from kcompat.pipeline.session import preflight, spark_session
    from kcompat.report.history_summary import history_document
    from kcompat.rules.registry import rule_categories
    from kcompat.sources.git import GitRepo
    from kcompat.terminal import show_document

    if changelog and mode != HistoryMode.RELEASES:
        from kcompat.errors import UsageError

        raise UsageError("--changelog writes each release's changelog: use it with --mode releases")
    remote = preflight(master, remote)
    if report is not None:
        from kcompat.auditreport.render import check_output, require_libraries

        require_libraries()  # a bad path or a missing library: one line before Spark starts
        check_output(report)
    if tags is not None:
        check_pattern("--tags", tags)
    repo = GitRepo.open(repo_dir or Path("."), named=repo_dir is not None)
    config = load_config(start=repo.root, explicit=config_file, rules=rule_categories)
    request = HistoryRequest(
        repo=repo.root,
        mode=mode,
        revision_range=revision_range,
        tags=tags,
        released=released,
        out=out,
        master=master,
        proof=proof,
        samples=samples,
        partitions=partitions,
        config=config,
        remote=remote,
        changelog=changelog,
    )
    # Spark starts while the driver prepares the comparisons (see run_history).
    with progress_on_terminal(color):  # --color never: plain lines, no escape code
        result = run_history(request, lambda: spark_session(master, remote=remote))
    from kcompat.escaping import shown as escaped

    for note in result.summary.notes or ():  # tag names: escaped for the terminal
        print(f"kcompat: note: {escaped(note)}", file=sys.stderr)
    if report is not None:
        write_report(result, report)
    document = history_document(result.summary, result.out, result.seconds, chosen=out is not None)
    show_document(document, fmt, color)
    raise typer.Exit(exit_status(result.severities, internal=result.internal))


def write_report(result: Any, path: Path) -> None:
    """The HTML report of an audit just run, from the findings in memory (so it works
    whatever ``--out`` is: a local directory, HDFS or S3)."""
    from kcompat.auditreport.history import HISTORY
    from kcompat.auditreport.render import write_report as write_html

    write_html(HISTORY.audit(result.summary, result.findings, str(result.out)), path)


def check_pattern(option: str, pattern: str) -> None:
    """A regular expression given on the command line, or one line saying what is wrong."""
    from kcompat.errors import UsageError
    from kcompat.patterns import PatternError, compiled, quoted

    try:
        compiled(pattern)
    except PatternError as err:
        raise UsageError(f"{option} {quoted(pattern)} {err}") from None
