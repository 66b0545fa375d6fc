"""Run one ``kcompat diff``: resolve the two sides, prepare the comparison, check it.

The I/O edge: it opens the repository, reads configuration and turns command-line sides
into :class:`~kcompat.sources.source.SpecSource` objects; :mod:`kcompat.diff.prepared`
reads git and :mod:`kcompat.diff.check` checks, purely, exactly as ``kcompat history``
does on Spark.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

from kcompat import progress
from kcompat.config import Config
from kcompat.diff.check import check
from kcompat.diff.options import RunOptions
from kcompat.diff.prepared import PreparedPair, prepare_pair
from kcompat.errors import UsageError
from kcompat.modes import FailOn
from kcompat.rules.registry import rule_categories
from kcompat.rules.runner import Outcome
from kcompat.sources.git import GitRepo
from kcompat.sources.revision import RevisionSource, revision
from kcompat.sources.sides import side_for
from kcompat.sources.source import SpecSource
from kcompat.sources.spec_paths import SpecPaths
from kcompat.spec.specfile import parsed_once


@dataclass(frozen=True)
class DiffRequest:
    """What to compare, as a command names the sides (BASE and HEAD: a revision, a
    directory, ``REV:path``; the index, the working tree), and how (:class:`RunOptions`)."""

    base: str | None = None
    head: str | None = None
    staged: bool = False
    merge_base: bool = False
    repo: Path | None = None
    options: RunOptions = field(default_factory=RunOptions)


@dataclass(frozen=True)
class Comparison:
    """Two sides read once: the repository, the configuration, the sides, and the pair
    prepared from them. What diff checks and the changelog reads (the Action asks both
    of the one comparison)."""

    request: DiffRequest
    config: Config
    base: SpecSource
    head: SpecSource
    prepared: PreparedPair


@dataclass(frozen=True)
class DiffResult:
    outcome: Outcome
    files: int
    base_label: str
    head_label: str
    fail_on: FailOn  # the configuration's
    released: str  # which versions counted as released (for the summary)
    note: str = ""  # one line for stderr (e.g. how to fetch the release tags)
    first_commit: bool = False  # no commit yet: nothing was compared (the note says why)
    base_sha: str = ""  # the commits compared, where the sides are commits (CI links them)
    head_sha: str = ""
    changed: tuple[str, ...] = ()  # the spec files HEAD changed, as findings name them
    comparison: Comparison | None = None  # what was compared (None: nothing, first commit)


def resolve_sides(request: DiffRequest, repo: GitRepo | None) -> tuple[SpecSource, SpecSource]:
    """BASE and HEAD as sides; HEAD defaults to the working tree, BASE to HEAD."""
    if request.staged and request.head is not None:
        raise UsageError("--staged compares BASE with the index; do not also give HEAD")
    if request.staged or request.head is None:
        if repo is None:
            raise UsageError(
                "not in a git repository: give BASE and HEAD directories, or use --repo DIR"
            )
        head = _live(repo, request.staged)
    else:
        head = side_for(request.head, repo)
    if request.base is None and repo is not None:
        base: SpecSource = revision("HEAD", repo)  # the implicit BASE is the revision
    else:
        base = side_for(request.base or "HEAD", repo)
    if request.merge_base:
        if repo is None or not isinstance(base, RevisionSource) or head.repo is not repo:
            raise UsageError("--merge-base needs git revisions on both sides")
        merge = repo.merge_base(base.sha, head.commit or repo.head_sha())
        base = replace(base, sha=merge, label=f"merge-base({base.label})")
    return base, head


def _live(repo: GitRepo, staged: bool) -> SpecSource:
    """The index (``--staged``) or the working tree, each imported when asked for."""
    if staged:
        from kcompat.sources.staged import staged as index

        return index(repo)
    from kcompat.sources.worktree import working_tree

    return working_tree(repo)


def pathspecs(config: Config, repo: GitRepo | None) -> list[str]:
    """Configured spec paths, relative to the repository root (checked)."""
    return SpecPaths.of(config).pathspecs(repo)


def compare(request: DiffRequest) -> Comparison | None:
    """Read the two sides a request names and prepare the pair (``--released`` over the
    configuration's ``released``); None before a repository's first commit (a pre-commit
    hook runs before it exists: there is no BASE)."""
    repo = GitRepo.around(request.repo)
    if request.base is None and repo is not None and not repo.has_commits():
        return None
    options = request.options
    config = options.config_choice.load(
        repo.root if repo is not None else Path("."), rules=rule_categories
    )
    base, head = resolve_sides(request, repo)
    progress.step(f"reading {base.label} and {head.label}")
    prepared = prepare_pair(
        base,
        head,
        pathspecs=pathspecs(config, repo),
        released_mode=options.released_mode(config),
        config=config,
        history=options.history,
        cache=options.cache,
    )
    return Comparison(request, config, base, head, prepared)


def run_diff(request: DiffRequest) -> DiffResult:
    """Compare, check, and review the change's own configuration."""
    with parsed_once():  # each side parsed once, when read (checking reads it again)
        comparison = compare(request)
        if comparison is None:
            return DiffResult(
                Outcome(()),
                0,
                "HEAD",
                "the index" if request.staged else "the working tree",
                FailOn.error,
                "",
                "the repository has no commits yet: nothing to compare (lint checks new specs)",
                first_commit=True,
            )
        config, prepared = comparison.config, comparison.prepared
        base, head = comparison.base, comparison.head
        progress.step(f"checking {prepared.compared} spec files")
        # the change's own configuration edits, in the open (config-weakened); imported
        # here, as only diff reviews them (changelog reads the sides with this module)
        from kcompat.diff.weakened import base_configuration, review_configuration

        options = request.options
        before = base_configuration(options, base, config)
        settled = before.config.ignore if before is not None else None
        outcome = check(prepared, options.check_options(config, settled))
        review = review_configuration(options, base, head, config, prepared, outcome, before)
    return DiffResult(
        review.outcome,
        prepared.compared,
        base.label,
        head.label,
        config.fail_on,
        prepared.releases.describe(),
        "; ".join(note for note in (prepared.note, review.note) if note),
        base_sha=base.commit or "",
        head_sha=head.commit or "",
        changed=tuple(path for path, _ in prepared.head_files),
        comparison=comparison,
    )
