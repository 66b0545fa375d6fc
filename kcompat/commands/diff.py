"""``kcompat diff BASE [HEAD]``: every breaking change between two revisions."""

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
)


@app.command()
def diff(
    base: Annotated[
        str | None,
        typer.Argument(help="BASE: a git revision, a directory, or REV:path (default: HEAD)."),
    ] = None,
    head: Annotated[
        str | None,
        typer.Argument(help="HEAD: a revision, a directory or REV:path (default: working tree)."),
    ] = None,
    staged: Annotated[
        bool, typer.Option("--staged", help="Compare BASE (default HEAD) with the index.")
    ] = False,
    merge_base: Annotated[
        bool, typer.Option("--merge-base", help="Diff from the merge base of BASE and HEAD.")
    ] = False,
    repo_dir: Annotated[
        Path | None, typer.Option("--repo", help="The git repository (default: current).")
    ] = None,
    fmt: Annotated[
        LintFormat, typer.Option("--format", "-f", help="Output format.", case_sensitive=False)
    ] = LintFormat.text,
    fail_on: Annotated[
        FailOn | None,
        typer.Option("--fail-on", help="Exit 1 on findings at or above this severity."),
    ] = None,
    history: Annotated[
        bool,
        typer.Option("--history/--no-history", help="Check tag reuse against BASE's history."),
    ] = True,
    proof: Annotated[
        bool, typer.Option("--proof/--no-proof", help="Round-trip samples through both revisions.")
    ] = True,
    samples: Annotated[
        int | None,
        typer.Option(
            "--samples",
            min=1,
            help="Samples per message version for the proof (default 20; 10 with --staged, "
            "where a pre-commit hook must be instant: on Kafka's whole history 6 already "
            "confirm every break).",
        ),
    ] = None,
    released: Annotated[
        str | None,
        typer.Option("--released", help="Which versions are released: base or tags."),
    ] = None,
    baseline: Annotated[
        Path | None, typer.Option("--baseline", help="Accept the findings in this JSON report.")
    ] = None,
    write_baseline: Annotated[
        Path | None,
        typer.Option("--write-baseline", help="Write the current findings as a baseline."),
    ] = None,
    color: ColorOption = Color.auto,
    config_file: ConfigOption = None,
) -> None:
    """Every breaking change between BASE and HEAD (revisions, the index, or directories)."""
    from kcompat.diffing import DiffRequest, run_diff

    result = run_diff(
        DiffRequest(
            base=base,
            head=head,
            staged=staged,
            merge_base=merge_base,
            repo=repo_dir,
            history=history,
            proof=proof,
            samples=samples if samples is not None else (10 if staged else 20),
            released=released,
            config_file=config_file,
        )
    )
    findings = result.findings
    if write_baseline is not None:
        from kcompat.report.json_report import render_json

        write_baseline.write_text(
            render_json(findings, command="diff", files=result.files) + "\n", encoding="utf-8"
        )
    if baseline is not None:
        from kcompat.report.baseline import read_baseline, without_baseline

        findings = without_baseline(findings, read_baseline(baseline))
    emit(
        findings,
        fmt=fmt,
        command="diff",
        files=result.files,
        color=color,
        base_label=result.base_label,
        extra={"base": result.base_label, "head": result.head_label},
    )
    raise typer.Exit(exit_status(findings, fail_on, result.fail_on))
