"""``kcompat drift`` as a request and its result: read both sides, check them once."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from kcompat.config import Config, ConfigChoice
from kcompat.drift.check import drift_specs
from kcompat.errors import UsageError
from kcompat.rules.registry import rule_categories
from kcompat.rules.runner import Outcome
from kcompat.sources.git import GitRepo
from kcompat.sources.sides import load_all, side_for


@dataclass(frozen=True)
class DriftRequest:
    upstream: str  # a directory, a revision or REV:path
    local: str
    repo: Path | None = None  # --repo (default: the repository around the directory)
    config_choice: ConfigChoice = field(default_factory=ConfigChoice)


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
    config = request.config_choice.load(
        repo.root if repo is not None else None, rules=rule_categories
    )
    outcome = drift_specs(up_specs, local_specs, config)
    return DriftResult(config, outcome, len(up_specs) + len(local_specs))
