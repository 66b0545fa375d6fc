"""``kcompat corpus build|verify``: store one revision's bytes, read them with another's.

``build`` writes seeded samples of every message version at REV (the JSON value and the
bytes) as Parquet; ``verify`` decodes every stored byte string with another revision's
model (its ``--rev``) on Spark
and reports each sample it rejects or misreads, with the bytes. Exit status: 0 clean,
1 mismatches in released versions, 2 bad usage, 3 a kcompat bug on some sample.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer

import kcompat.rules.corpus  # noqa: F401  (registers the corpus rules)
from kcompat.app import (
    Color,
    ColorOption,
    Commands,
    ConfigOption,
    RepoOption,
    app,
    option_group,
)
from kcompat.commands import spark_options as spark
from kcompat.commands.samples_option import check_corpus_samples, samples_option
from kcompat.commands.table_format import TableFormatOption
from kcompat.report.tables import TableFormat
from kcompat.verdict import exit_status

corpus_app = Commands(
    name="corpus",
    help="Store one revision's bytes (build) and read them with another (verify), on Spark.",
    short_help="Store one revision's bytes and read them with another, on Spark.",
    no_args_is_help=True,
)
app.add_typer(corpus_app)

Plan = TypeVar("Plan")

SpecsPathOption = Annotated[
    list[str] | None,
    typer.Option("--specs-path", metavar="PATH", help="Only specs under this path (repeatable)."),
]


@dataclass(frozen=True)
class CorpusOptions:
    """The options both corpus commands end with: where Spark runs, which specs, how to
    show the result, which configuration."""

    master: spark.MasterOption = None
    remote: spark.RemoteOption = None
    specs_path: SpecsPathOption = None
    partitions: spark.PartitionsOption = None
    color: ColorOption = Color.auto
    config_file: ConfigOption = None

    def scope(self, repo_dir: Path | None) -> tuple[tuple[str, ...], int | None, Any]:
        """What both corpus requests end with: the spec paths, the partitions, and the
        configuration (``--config``, else the nearest to the repository). A ``--repo``
        given sets aside the git variables inherited from the environment, as every
        command's ``--repo`` does (:mod:`kcompat.sources.gitenv`)."""
        from kcompat.config import load_config
        from kcompat.errors import UsageError
        from kcompat.rules.registry import rule_categories
        from kcompat.sources.git import GitRepo

        here = repo_dir or Path(".")
        try:
            start = GitRepo.open(here, named=repo_dir is not None).root
        except UsageError:
            start = here
        config = load_config(start=start, explicit=self.config_file, rules=rule_categories)
        return tuple(self.specs_path or ()), self.partitions, config

    def start(self, plan: Callable[[], Plan]) -> tuple[Plan, Any]:
        """The plan, then Spark: the Spark options and every usage error are checked
        before Spark starts."""
        from kcompat.pipeline.session import preflight, spark_session

        preflight(self.master, self.remote)
        planned = plan()
        return planned, spark_session(self.master, remote=self.remote)


@corpus_app.command("build", short_help="Store samples of every message version at REV.")
@option_group
def build(
    rev: Annotated[
        str, typer.Option("--rev", metavar="REV", help="The revision (or directory) to sample.")
    ],
    out: Annotated[
        str,
        typer.Option(
            "--out", metavar="DIR", help="The corpus directory (or hdfs://, s3a:// URI) to write."
        ),
    ],
    samples: Annotated[
        int, samples_option(check_corpus_samples, "Samples per message version (at most 10,000).")
    ] = 100,
    seed: Annotated[
        int, typer.Option("--seed", metavar="N", help="Seed of the random samples.")
    ] = 0,
    repo_dir: RepoOption = None,
    *,
    options: CorpusOptions,
) -> None:
    """Write seeded samples of every message version at REV, with their bytes (Parquet)."""
    from kcompat.pipeline.corpus_build import BuildRequest, plan_build
    from kcompat.pipeline.corpus_build import build as run_build

    here = repo_dir or Path(".")
    request = BuildRequest(rev, out, samples, seed, here, *options.scope(repo_dir))
    plan, session = options.start(lambda: plan_build(request))
    result = run_build(plan, session)
    manifest = result.manifest
    from kcompat.terminal import console_for

    console = console_for(options.color)
    skipped = manifest["skipped_samples"]
    console.print(
        f"corpus of {manifest['revision_label']}: {manifest['rows']} samples of "
        f"{manifest['message_versions']} versions of {manifest['messages']} messages "
        f"({manifest['samples']} per version, seed {manifest['seed']}"
        + (f", {skipped} not encodable" if skipped else "")
        + f") in {result.seconds:.1f} s, "
        f"{manifest['rows'] / max(result.seconds, 1e-9):.0f} rows/s: {result.out}",
        markup=False,
        highlight=False,
    )


@corpus_app.command(
    "verify", short_help="Read stored samples with another revision; report each misread."
)
@option_group
def verify(
    corpus: Annotated[
        str,
        typer.Argument(
            metavar="CORPUS", help="A directory (or URI) written by kcompat corpus build."
        ),
    ],
    rev: Annotated[
        str, typer.Option("--rev", metavar="REV", help="The revision (or directory) to read with.")
    ],
    repo_dir: RepoOption = None,
    out: spark.OutOption = None,
    fmt: TableFormatOption = TableFormat.text,
    *,
    options: CorpusOptions,
) -> None:
    """Decode every stored sample with the model at REV; report each one it misreads."""
    from kcompat.pipeline.corpus_verify import VerifyRequest, plan_verify
    from kcompat.pipeline.corpus_verify import verify as run_verify
    from kcompat.pipeline.unreadable import reading_corpus
    from kcompat.report.corpus_summary import corpus_document
    from kcompat.terminal import show_document

    here = repo_dir or Path(".")
    request = VerifyRequest(corpus, rev, here, out, *options.scope(repo_dir))
    plan, session = options.start(lambda: plan_verify(request))
    with reading_corpus(corpus):  # a corrupt part file: one line, exit 2
        result = run_verify(plan, session)
    document = corpus_document(result, chosen=out is not None)
    show_document(document, fmt, options.color)
    raise typer.Exit(exit_status(result.severities, internal=result.internal))
