"""``kcompat diff BASE [HEAD]``: every breaking change between two revisions."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from kcompat.app import (
    FindingsOptions,
    ReleasedOption,
    Sides,
    app,
    option_group,
    report_findings,
)
from kcompat.commands.samples_option import check_samples, samples_option

if TYPE_CHECKING:
    from kcompat.cache import Cache
    from kcompat.diff.options import RunOptions


@dataclass(frozen=True)
class DiffOptions:
    """How ``kcompat diff`` runs: its own options (the GitHub Action reads its ``args``
    into these too, with the diff command's parser)."""

    history: Annotated[
        bool,
        typer.Option("--history/--no-history", help="Check tag reuse against BASE's history."),
    ] = True
    proof: Annotated[
        bool, typer.Option("--proof/--no-proof", help="Round-trip samples through both revisions.")
    ] = True
    samples: Annotated[
        int | None,
        samples_option(
            check_samples,
            "Samples per message version for the proof (default: 20; 10 with --staged, where "
            "a pre-commit hook must be instant: on Kafka's whole history 6 already confirm "
            "every break; at most 1,000).",
        ),
    ] = None
    released: ReleasedOption = None
    baseline: Annotated[
        Path | None,
        typer.Option("--baseline", metavar="FILE", help="Accept the findings in this JSON report."),
    ] = None
    write_baseline: Annotated[
        Path | None,
        typer.Option(
            "--write-baseline",
            metavar="FILE",
            help="Write the current findings to FILE as a baseline, say how many, exit 0.",
        ),
    ] = None

    def run_options(
        self, findings: FindingsOptions, *, staged: bool, cache: Cache | None
    ) -> RunOptions:
        """The run these options (and the findings options' configuration) ask for."""
        from kcompat.diff.options import RunOptions
        from kcompat.sources.baseline import read_baseline

        accepted = read_baseline(self.baseline) if self.baseline is not None else frozenset()
        return RunOptions(
            released=self.released,
            history=self.history,
            proof=self.proof,
            samples=self.samples if self.samples is not None else (10 if staged else 20),
            config_choice=findings.config_choice(),
            baseline=frozenset(accepted),
            baseline_file=self.baseline,
            cache=cache,
        )


@app.command(short_help="Every breaking change between two revisions, with the bytes.")
@option_group
def diff(sides: Sides, run: DiffOptions, options: FindingsOptions) -> None:
    """Every breaking change between BASE and HEAD (revisions, the index, or directories)."""
    import sys

    from kcompat.cache import user_cache
    from kcompat.commands.progress_bar import progress_on_terminal
    from kcompat.diff.run import run_diff
    from kcompat.errors import UsageError
    from kcompat.escaping import shown

    # the disk cache keeps compiled codecs and release facts for the next run
    request = sides.request(run.run_options(options, staged=sides.staged, cache=user_cache()))
    with progress_on_terminal(options.color):  # on stderr, for a diff of over a second
        result = run_diff(request)
    outcome = result.outcome
    # BASE defaults to HEAD; next to "the index" or "the working tree" name it as the commit
    base_label = "the HEAD commit" if sides.base is None else result.base_label
    if result.note:
        print(f"kcompat: note: {shown(result.note)}", file=sys.stderr)
    write_baseline = run.write_baseline
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
