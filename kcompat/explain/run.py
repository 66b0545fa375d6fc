"""The I/O edge of ``kcompat explain``: where to look, what to compare, diff's findings.

Everything that touches the file system, git or configuration is here; the rest of the
package is pure. Git is opened only for ``--rev`` and ``--against``, so explaining a
message in the working tree never starts a git process.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from kcompat.config import Config, load_config
from kcompat.errors import UsageError
from kcompat.explain.explanation import Against, Explanation, explain
from kcompat.explain.find import FileSource, Found, SideSource, Source, find_exact, find_messages
from kcompat.rules.registry import rule_categories

if TYPE_CHECKING:
    from kcompat.cache import Cache
    from kcompat.findings import Finding
    from kcompat.sources.git import GitRepo
    from kcompat.sources.source import SpecSource
    from kcompat.spec.model import Message


@dataclass(frozen=True)
class ExplainRequest:
    query: str  # a name, a name without Request/Response, or an API key number
    kind: str | None = None  # --type
    version: int | None = None  # --version: the grammar of one version
    rev: str | None = None  # --rev: the message as it was at a revision
    against: str | None = None  # --against: a revision, REV:path or a directory
    specs: tuple[str, ...] = ()  # --specs: files or directories to look in
    repo: Path | None = None  # --repo
    config_file: Path | None = None
    proof: bool = True  # diff's round-trip proof for --against
    samples: int = 20
    cache: Cache | None = None  # the user's disk cache, when the command keeps one


def run_explain(request: ExplainRequest) -> list[Explanation]:
    """Find the message(s) and explain them; a :class:`UsageError` for anything wrong."""
    if request.version is not None and request.against is not None:
        raise UsageError("--version shows one version's layout; it does not combine with --against")
    config = load_config(explicit=request.config_file, rules=rule_categories)
    from kcompat.sources.git import GitRepo  # only when a revision is asked for: git costs

    repo = (
        GitRepo.around(request.repo, required=request.rev is not None)
        if request.rev is not None or request.against is not None
        else None
    )  # --against a directory works without git
    source = source_for(request, config, repo)
    found = find_messages(source, request.query, request.kind)
    if request.version is not None:
        for item in found:
            valid = item.message.valid_versions
            if request.version not in valid:
                name = item.message.name
                raise UsageError(
                    f"{name} has no version {request.version} (valid versions: {valid})"
                )
    out = []
    for item in found:
        if request.against is None:
            out.append(explain(item.message, item.label, version=request.version))
            continue
        base_message, against = _against(request, config, repo, source, item)
        out.append(explain(item.message, item.label, base=base_message, against=against))
    return out


# -- where to look ------------------------------------------------------------------------
def _roots(request: ExplainRequest, config: Config) -> list[str]:
    if request.specs:
        return list(request.specs)
    from kcompat.sources.spec_paths import SpecPaths

    return SpecPaths.of(config).roots() or ["."]


def _pathspecs(request: ExplainRequest, config: Config, repo: GitRepo) -> list[str]:
    if request.specs:
        return [repo.relative(p) for p in request.specs]
    from kcompat.diff.run import pathspecs

    return pathspecs(config, repo)


def source_for(request: ExplainRequest, config: Config, repo: GitRepo | None) -> Source:
    """Where to look: the paths (``--specs``, else the configured ones, else here), or the
    revision ``--rev`` names, each side a :class:`SpecSource`."""
    from kcompat.sources.spec_paths import SpecPaths

    spec_paths = SpecPaths.of(config)
    if request.rev is None:
        return FileSource(_roots(request, config), spec_paths)
    assert repo is not None
    side = _rev_side(request.rev, repo)
    return SideSource(side, _pathspecs(request, config, repo), spec_paths)


def _rev_side(rev: str, repo: GitRepo) -> SpecSource:
    """``--rev``: a revision, or ``REV:path`` for a folder at a revision."""
    from kcompat.sources import revision

    side = revision.parse(rev, repo)
    assert side is not None  # a repository is open
    return side


# -- --against ----------------------------------------------------------------------------
def _against(
    request: ExplainRequest,
    config: Config,
    repo: GitRepo | None,
    source: Source,
    item: Found,
) -> tuple[Message | None, Against]:
    from kcompat.sources.sides import side_for

    assert request.against is not None
    head, head_key = _head_side(source, item, repo)
    base = side_for(request.against, repo)
    base_specs = _pathspecs(request, config, repo) if base.commit and repo else []
    base_source = SideSource(base, base_specs)
    base_found = find_exact(base_source, item.message.name, prefer=head_key)
    base_key = base_source.side_of(base_found.key)[1] if base_found is not None else head_key
    findings = _findings(
        base.restricted(base_key), head.restricted(head_key), config, request, item.message.name
    )
    against = Against(
        base_label=request.against,
        head_label=head.label,
        base_path=base_found.label if base_found is not None else "",
        findings=tuple(findings),
    )
    return (base_found.message if base_found is not None else None), against


def _head_side(source: Source, item: Found, repo: GitRepo | None) -> tuple[SpecSource, str]:
    """The side the explained message comes from, and its path there (a file on disk in
    a repository: in its working tree)."""
    from kcompat.sources.directory import DirectorySource
    from kcompat.sources.worktree import WorkTreeSource

    side, key = source.side_of(item.key)
    if not isinstance(side, DirectorySource):
        return side, key
    path = Path(item.label)
    if repo is not None:
        try:
            return WorkTreeSource(repo), repo.relative(path)
        except UsageError:
            pass  # a file outside the repository: compare it as a plain file
    return DirectorySource(str(path.parent), path.parent), path.name


def _findings(
    base: SpecSource, head: SpecSource, config: Config, request: ExplainRequest, name: str
) -> Sequence[Finding]:
    from kcompat.diff.check import CheckOptions, check
    from kcompat.diff.prepared import prepare_pair

    cache = request.cache
    prepared = prepare_pair(base, head, released_mode=config.released, config=config, cache=cache)
    code = cache.code if cache is not None else None
    outcome = check(prepared, CheckOptions(config, request.proof, request.samples, code_cache=code))
    return [f for f in outcome.findings if not f.message_name or f.message_name == name]
