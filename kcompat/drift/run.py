"""``kcompat drift`` as a request and its result: read both sides, check them once."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from kcompat.config import Config, load_config
from kcompat.drift.check import drift_specs
from kcompat.errors import UsageError
from kcompat.rules.runner import Outcome
from kcompat.sources.git import GitRepo
from kcompat.sources.sides import load_all, side_for


@dataclass(frozen=True)
class DriftRequest:
    upstream: str  # a directory, a revision or REV:path
    local: str
    repo: Path | None = None  # --repo (default: the repository around the directory)
    config_file: Path | None = None
    report_unused_ignores: bool = False


@dataclass(frozen=True)
class DriftResult:
    config: Config
    outcome: Outcome
    files: int


def drift_request(request: DriftRequest) -> DriftResult:
    """Both sides read (a :class:`UsageError` when one has no spec), then checked."""
    repo = GitRepo.around(request.repo)
    up_side, local_side = side_for(request.upstream, repo), side_for(request.local, repo)
    up_specs, local_specs = load_all(up_side), load_all(local_side)
    if not up_specs or not local_specs:
        empty = request.upstream if not up_specs else request.local
        raise UsageError(f"no spec files found in {empty}")
    config = load_config(
        start=repo.root if repo is not None else None,
        explicit=request.config_file,
        report_unused_ignores=request.report_unused_ignores,
    )
    outcome = drift_specs(up_specs, local_specs, config)
    return DriftResult(config, outcome, len(up_specs) + len(local_specs))
