"""``kcompat lint``: check spec files of one revision."""

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
    fail,
    severity_of,
    with_unused_ignores,
)


@app.command(short_help="Check spec files: every rule Kafka's generator has, and more.")
def lint(
    paths: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="PATH...", help="Spec files or directories (default: configured paths, or .)."
        ),
    ] = None,
    fmt: FormatOption = LintFormat.text,
    fail_on: FailOnOption = None,
    level: LevelOption = Level.info,
    unused_ignores: UnusedIgnoresOption = False,
    color: ColorOption = Color.auto,
    config_file: ConfigOption = None,
) -> None:
    """Check spec files against every rule Kafka's generator enforces, and more."""
    from kcompat.config import configured_roots, load_config
    from kcompat.lint import run_lint
    from kcompat.report.document import Report
    from kcompat.sources.files import read_paths

    config = with_unused_ignores(load_config(explicit=config_file), unused_ignores)
    chosen = list(paths or [])
    base = Path(config.root) if config.root else Path(".")
    if not chosen:
        chosen = configured_roots(config) or ["."]
    elif config.paths:
        # named files (a pre-commit hook's) outside the configured spec paths are not specs
        roots = [(base / p).resolve() for p in config.paths]
        named = [p for p in chosen if Path(p).is_file()]
        chosen = [p for p in chosen if p not in named or _under(Path(p).resolve(), roots)]
        if named and not chosen:
            print(f"None of the {len(named)} given file(s) is under the configured paths.")
            raise typer.Exit(0)
    targets, context = read_paths(chosen)
    if not targets and chosen and all(Path(p).is_file() for p in chosen):
        # a hook named only other JSON files (package.json, editor settings)
        print(f"No spec files among the {len(chosen)} given file(s); nothing to lint.")
        raise typer.Exit(0)
    if not targets:
        fail(
            f"no spec files found in {', '.join(chosen)} (spec files are *.json with "
            '"validVersions")'
        )
    outcome = run_lint(targets, context, config)
    report = Report.of("lint", outcome, files=len(targets), level=severity_of(level))
    emit(report, fmt=fmt, color=color)
    raise typer.Exit(exit_status(outcome.findings, fail_on, config.fail_on))


def _under(path: Path, roots: list[Path]) -> bool:
    return any(path == root or root in path.parents for root in roots)
