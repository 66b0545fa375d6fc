"""Run one ``kcompat diff``: resolve the two sides, load what differs, check, prove.

This is the I/O edge around the pure :func:`kcompat.diff.engine.diff_specs`: it opens the
repository, reads configuration, turns command-line sides into :class:`Side` objects,
reads history for the tag ledger, and runs the round-trip proof.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from kcompat.config import Config, load_config
from kcompat.diff.engine import diff_specs
from kcompat.diff.history import ledger_from_history
from kcompat.diff.ledger import TagLedger
from kcompat.diff.match import ReleasedFor
from kcompat.diff.released import BaseReleased
from kcompat.errors import UsageError
from kcompat.rules.engine import Finding, Severity
from kcompat.sources.git import GitRepo
from kcompat.sources.sides import Side, companion_requests, load_sides, side_for
from kcompat.spec.specfile import SpecFile


@dataclass(frozen=True)
class DiffRequest:
    base: str | None = None
    head: str | None = None
    staged: bool = False
    merge_base: bool = False
    repo: Path | None = None
    history: bool = True
    proof: bool = True
    samples: int = 20
    released: str | None = None  # "base" | "tags" (default: configuration, else base)
    config_file: Path | None = None


@dataclass(frozen=True)
class DiffResult:
    findings: list[Finding]
    files: int
    base_label: str
    head_label: str
    fail_on: Severity


def _open_repo(request: DiffRequest) -> GitRepo | None:
    where = request.repo or Path(".")
    try:
        return GitRepo.open(where)
    except UsageError:
        if request.repo is not None:
            raise
        return None


def resolve_sides(request: DiffRequest, repo: GitRepo | None) -> tuple[Side, Side]:
    """BASE and HEAD as sides; HEAD defaults to the working tree, BASE to HEAD."""
    if request.staged and request.head is not None:
        raise UsageError("--staged compares BASE with the index; do not also give HEAD")
    if request.staged or request.head is None:
        if repo is None:
            raise UsageError(
                "not in a git repository: give BASE and HEAD directories, or use --repo DIR"
            )
        head = Side(
            "the index" if request.staged else "the working tree",
            "index" if request.staged else "worktree",
            repo,
        )
    else:
        head = side_for(request.head, repo)
    base = side_for(request.base or "HEAD", repo)
    if request.merge_base:
        if repo is None or base.kind != "rev" or head.kind not in ("rev", "index", "worktree"):
            raise UsageError("--merge-base needs git revisions on both sides")
        assert base.sha is not None
        head_commit = head.sha if head.kind == "rev" and head.sha else repo.head_sha()
        merge = repo.merge_base(base.sha, head_commit)
        base = replace(base, sha=merge, label=f"merge-base({base.label})")
    return base, head


def pathspecs(config: Config, repo: GitRepo | None) -> list[str]:
    """Configured spec paths, relative to the repository root."""
    if not config.paths or repo is None:
        return []
    root = Path(config.root) if config.root else Path(".")
    return [repo.relative(root / p) for p in config.paths]


def run_diff(request: DiffRequest) -> DiffResult:
    repo = _open_repo(request)
    start = repo.root if repo is not None else Path(".")
    config = load_config(start=start, explicit=request.config_file)
    base, head = resolve_sides(request, repo)
    loaded = load_sides(base, head, pathspecs(config, repo))
    released_for = released_policy(request, config, base, loaded.base)
    ledger = (
        ledger_from_history(base, loaded.base, loaded.head)
        if request.history
        else TagLedger.empty()
    )
    findings = diff_specs(
        loaded.base, loaded.head, config=config, released_for=released_for, ledger=ledger
    )
    if request.proof:
        findings = add_proof(
            findings, loaded.base, loaded.head, released_for, request.samples, config
        )
    return DiffResult(findings, loaded.compared, base.label, head.label, config.fail_on)


def released_policy(
    request: DiffRequest, config: Config, base: Side, base_specs: list[SpecFile]
) -> ReleasedFor:
    mode = request.released or config.released
    messages = [
        s.message
        for s in (*base_specs, *companion_requests(base, base_specs))
        if s.message is not None
    ]
    if mode == "tags":
        from kcompat.diff.tags_released import tags_policy

        return tags_policy(base, messages, config)
    if mode != "base":
        raise UsageError(f"--released must be 'base' or 'tags', not {mode!r}")
    return BaseReleased(messages)


def add_proof(
    findings: list[Finding],
    base_specs: list[SpecFile],
    head_specs: list[SpecFile],
    released_for: ReleasedFor,
    samples: int,
    config: Config,
) -> list[Finding]:
    """Round-trip evidence for every released version both sides have (if the codec is in)."""
    try:
        from kcompat.codec.prove_findings import proof_findings
    except ImportError:  # the codec is optional at this layer
        return findings
    extra = proof_findings(base_specs, head_specs, released_for, samples=samples, config=config)
    return sorted([*findings, *extra], key=Finding.sort_key)
