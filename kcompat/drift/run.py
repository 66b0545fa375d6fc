"""``kcompat drift`` as a request and its result: read both sides (and, when upstream is
a revision of a repository with release tags, what each release shipped), check them
once."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from kcompat import progress
from kcompat.config import Config, ConfigChoice
from kcompat.drift.check import drift_check
from kcompat.drift.summary import DriftSummary
from kcompat.errors import UsageError
from kcompat.rules.drift.pairing import Release
from kcompat.rules.registry import rule_categories
from kcompat.rules.runner import Outcome
from kcompat.sources.git import GitRepo
from kcompat.sources.reading import read_sides, skipped_note
from kcompat.sources.release_specs import may_hold, release_messages
from kcompat.sources.sides import side_for
from kcompat.sources.source import SpecSource
from kcompat.spec.specfile import SpecFile


@dataclass(frozen=True)
class DriftRequest:
    upstream: str  # a directory, a revision or REV:path
    local: str
    repo: Path | None = None  # --repo (default: the repository around the directory)
    config_choice: ConfigChoice = field(default_factory=ConfigChoice)
    samples: int = 20  # per version both sides lay out alike but name differently


@dataclass(frozen=True)
class DriftResult:
    config: Config
    outcome: Outcome
    files: int
    note: str = ""  # one line for stderr: the .json files left out as not specs
    summary: DriftSummary | None = None


def drift_request(request: DriftRequest) -> DriftResult:
    """Both sides read (a :class:`UsageError` when one has no spec), then checked."""
    repo = GitRepo.around(request.repo)
    up_side, local_side = side_for(request.upstream, repo), side_for(request.local, repo)
    up_read, local_read = read_sides(up_side, local_side)
    up_specs, local_specs = up_read.specs, local_read.specs
    skipped = skipped_note(
        (*up_read.skipped, *local_read.skipped), links=(*up_read.links, *local_read.links)
    )
    if not up_specs or not local_specs:
        empty = request.upstream if not up_specs else request.local
        raise UsageError(f"no spec files found in {empty}" + (f"; {skipped}" if skipped else ""))
    config = request.config_choice.load(
        repo.root if repo is not None else None, rules=rule_categories
    )
    releases = upstream_releases(up_side, local_specs, config)
    progress.step(f"comparing {len(local_specs)} local specs with {len(up_specs)} upstream")
    checked = drift_check(up_specs, local_specs, config, releases=releases, samples=request.samples)
    files = len(up_specs) + len(local_specs)
    return DriftResult(config, checked.outcome, files, skipped, checked.summary)


def upstream_releases(
    upstream: SpecSource, local: Sequence[SpecFile], config: Config
) -> list[Release]:
    """What each release of upstream's repository shipped of the copy's messages (by API
    key or name), oldest first; none when upstream is not a revision of a repository
    with release tags."""
    repo = upstream.repo
    if repo is None or upstream.commit is None:
        return []
    messages = [s.message for s in local if s.message is not None]
    keys = [m.api_key for m in messages if m.api_key is not None]
    # REV:path: the releases' files under that path (a revision restricted to a folder)
    pathspecs = [] if upstream.whole else [upstream.label.partition(":")[2].strip("/")]
    progress.step("reading what upstream's releases shipped")
    found = release_messages(
        repo, config.release_tags, pathspecs, may_hold(keys, [m.name for m in messages])
    )
    return [Release(name, shipped) for name, shipped in found]
