"""``--samples N`` within its ceiling (:mod:`kcompat.ceilings`): click's own "Invalid
value" line, on the command line and in the Action's ``args`` alike."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import typer

from kcompat.ceilings import MAX_CORPUS_SAMPLES, MAX_SAMPLES


def samples_option(check: Callable[[Any], Any], help: str) -> Any:
    """``--samples N``: at least 1, and within its ceiling (``check``: one of these)."""
    return typer.Option("--samples", metavar="N", min=1, callback=check, help=help)


def check_samples(value: int | None) -> int | None:
    """The proof's ``--samples`` (diff, history), or a bad-parameter error past the ceiling."""
    if value is not None and value > MAX_SAMPLES:
        raise typer.BadParameter(
            f"{value} is over the ceiling of {MAX_SAMPLES:,} samples per message version "
            "(the default is 20; more only costs time)"
        )
    return value


def check_corpus_samples(value: int) -> int:
    """``corpus build --samples``, within a corpus's ceiling."""
    if value > MAX_CORPUS_SAMPLES:
        raise typer.BadParameter(
            f"{value} is over the ceiling of {MAX_CORPUS_SAMPLES:,} samples per message version"
        )
    return value
