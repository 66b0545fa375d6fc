"""``kcompat diff BASE [HEAD]``: every breaking change between two revisions."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from kcompat.app import (
    BaseArgument,
    FindingsOptions,
    HeadArgument,
    RepoOption,
    StagedOption,
    app,
    option_group,
    report_findings,
)
from kcompat.commands.samples_option import check_samples


@app.command(short_help="Every breaking change between two revisions, with the bytes.")
@option_group
def diff(
    base: BaseArgument = None,
    head: HeadArgument = None,
    staged: StagedOption = False,
    merge_base: Annotated[
        bool, typer.Option("--merge-base", help="Diff from the merge base of BASE and HEAD.")
    ] = False,
    repo_dir: RepoOption = None,
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
            metavar="N",
            min=1,
            callback=check_samples,
            help="Samples per message version for the proof (default 20; 10 with --staged, "
            "where a pre-commit hook must be instant: on Kafka's whole history 6 already "
            "confirm every break; at most 1,000).",
        ),
    ] = None,
    released: Annotated[
        str | None,
        typer.Option(
            "--released",
            metavar="MODE",
            help="Which versions are released: tags (shipped by a release tag), base (every "
            "version in BASE), or auto (tags where the repository has release tags; default).",
        ),
    ] = None,
    baseline: Annotated[
        Path | None,
        typer.Option("--baseline", metavar="FILE", help="Accept the findings in this JSON report."),
    ] = None,
    write_baseline: Annotated[
        Path | None,
        typer.Option(
            "--write-baseline",
            metavar="FILE",
            help="Write the current findings to FILE as a baseline, say how many, exit 0.",
        ),
    ] = None,
    *,
    options: FindingsOptions,
) -> None:
    """Every breaking change between BASE and HEAD (revisions, the index, or directories)."""
    import sys

    from kcompat.cache import user_cache
    from kcompat.commands.progress_bar import progress_on_terminal
    from kcompat.diff.run import DiffRequest, run_diff
    from kcompat.errors import UsageError
    from kcompat.escaping import shown
    from kcompat.sources.baseline import read_baseline

    accepted = read_baseline(baseline) if baseline is not None else frozenset()
    with progress_on_terminal(options.color):  # on stderr, for a diff of over a second
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
                config_choice=options.config_choice(),
                baseline=frozenset(accepted),
                cache=user_cache(),  # compiled codecs and release facts, for the next run
            )
        )
    outcome = result.outcome
    # BASE defaults to HEAD; next to "the index" or "the working tree" name it as the commit
    base_label = "the HEAD commit" if base is None else result.base_label
    if result.note:
        print(f"kcompat: note: {shown(result.note)}", file=sys.stderr)
    if write_baseline is not None:
        from kcompat.report.json_report import findings_json

        everything = sorted((*outcome.findings, *outcome.baselined), key=lambda f: f.sort_key())
        text = findings_json(everything, command="diff", files=result.files) + "\n"
        try:
            write_baseline.write_text(text, encoding="utf-8")
        except OSError as err:
            raise UsageError(
                f"{write_baseline}: cannot write the baseline ({err.strerror or err}); "
                "give a writable file path"
            ) from None
        one = len(everything) == 1
        print(
            f"Wrote {len(everything)} finding{'' if one else 's'} to {write_baseline}; "
            f"accept {'it' if one else 'them'} with --baseline {write_baseline}."
        )
        raise typer.Exit(0)
    report_findings(
        "diff",
        options,
        outcome,
        result.files,
        result.fail_on,
        base=None if result.first_commit else result.base_label,  # the note says why
        head=result.head_label,
        released=result.released,
        base_label=base_label,
    )
