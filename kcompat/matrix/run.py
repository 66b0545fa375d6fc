"""The I/O edge of ``kcompat matrix``: the repository, its releases and HEAD read into
:class:`~kcompat.negotiation.apis.ReleaseApis`, then the pure matrix and its summary."""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING

from kcompat.errors import UsageError
from kcompat.matrix.read import ApiReader
from kcompat.matrix.releases import HEAD, ReleaseSide, Span, SpecReleases, spec_releases
from kcompat.naming import release_order
from kcompat.negotiation.apis import ReleaseApis, Role
from kcompat.negotiation.grid import Api, Matrix, apis_of, build, chosen
from kcompat.negotiation.negotiate import api_label
from kcompat.negotiation.summary import Move, Reach, Removal, moves, reaches, what_if_dropped

if TYPE_CHECKING:
    from kcompat.config import Config
    from kcompat.sources.git import GitRepo
    from kcompat.sources.source import SpecSource


class WhatIf(StrEnum):
    """``--what-if``: HEAD judged as if a change were made."""

    DROP_DEPRECATED = "drop-deprecated"


@dataclass(frozen=True)
class MatrixRequest:
    repo: Path | None = None  # --repo
    revision_range: str | None = None  # --range A..B
    apis: tuple[str, ...] = ()  # --apis: names (any an API had) or keys
    controller: bool = False  # --controller-apis
    inter_broker: bool = False  # --inter-broker-apis
    what_if: WhatIf | None = None
    head: str | None = None  # --head: a revision, REV:path or directory (None: the tree)
    no_head: bool = False  # --no-head: release tags only
    unstable: bool = False  # --unstable: unstable latest versions are advertised
    config_file: Path | None = None


@dataclass(frozen=True)
class MatrixResult:
    """A matrix and what it says, ready for any format."""

    repository: str  # the repository's directory, as shown
    matrix: Matrix
    reaches: tuple[Reach, ...]
    moves: tuple[tuple[Move, ...], ...]  # per API of the matrix
    roles: tuple[Role, ...]  # the roles judged (those of the APIs --apis names)
    what_if: WhatIf | None = None
    removals: tuple[Removal, ...] = ()  # --what-if drop-deprecated
    unstable: bool = False
    notes: tuple[str, ...] = ()


def run_matrix(request: MatrixRequest) -> MatrixResult:
    """Read the releases, build the matrix; a :class:`UsageError` for anything wrong."""
    from kcompat.config import load_config
    from kcompat.rules.registry import rule_categories
    from kcompat.sources.git import GitRepo

    repo = GitRepo.open(request.repo or Path("."), named=request.repo is not None)
    config = load_config(start=repo.root, explicit=request.config_file, rules=rule_categories)
    span = Span.parse(request.revision_range)
    if request.what_if is not None and (request.no_head or (span and not span.keeps_head)):
        raise UsageError(
            "--what-if judges HEAD: keep it in the matrix (no --no-head; --range A.. or A..HEAD)"
        )
    releases, notes = read_releases(repo, config, request, span)
    every = apis_of(releases)
    keys = named_keys(every, request.apis) if request.apis else None
    roles = _roles(request)
    apis = chosen(every, frozenset(roles), keys)
    if not apis:
        raise UsageError(
            "no API to judge: the releases hold no request spec with an apiKey of "
            f"the roles asked for ({', '.join(roles)})"
        )
    if request.what_if is WhatIf.DROP_DEPRECATED:
        matrix, removed = what_if_dropped(releases, apis, unstable=request.unstable)
    else:
        matrix, removed = build(releases, apis, unstable=request.unstable), ()
    return MatrixResult(
        str(repo.root),
        matrix,
        reaches(matrix),
        tuple(moves(matrix, j) for j in range(len(apis))),
        tuple(roles) if keys is None else tuple(r for r in Role if any(a.role is r for a in apis)),
        request.what_if,
        removed,
        request.unstable,
        tuple(notes),
    )


def _roles(request: MatrixRequest) -> list[Role]:
    roles = [Role.CLIENT]
    if request.controller:
        roles.append(Role.CONTROLLER)
    if request.inter_broker:
        roles.append(Role.INTER_BROKER)
    return roles


def read_releases(
    repo: GitRepo, config: Config, request: MatrixRequest, span: Span | None
) -> tuple[list[ReleaseApis], list[str]]:
    """The releases that hold request specs (within ``--range``), then HEAD."""
    from kcompat.diff.run import pathspecs

    reader = ApiReader(pathspecs(config, repo), config.is_fixture)
    found = spec_releases(
        repo, config.release_tags, reader.pathspecs, config.release_branches or None
    )
    if not found.tagged:
        raise UsageError(
            f"{repo.root}: no release tags (none matches release-tags "
            f"{config.release_tags!r}): tag the releases, or set release-tags in kcompat.toml"
        )
    releases, without = _tagged(reader, found, span)
    if not releases:
        raise UsageError(
            f"{repo.root}: none of the {len(found.tagged)} release tags"
            f"{' in --range ' + span.text if span and found.releases else ''} holds a request "
            "spec with an apiKey (looked in: "
            f"{', '.join(reader.pathspecs) or 'the whole tree'}); set paths in kcompat.toml"
        )
    if not request.no_head and (span is None or span.keeps_head):
        side, name = head_side(repo, request.head, reader.pathspecs)
        releases.append(reader.release(name, side, head=True))
    notes = [*found.problems, *(f"{path}: not readable, left out" for path in reader.unreadable)]
    if without:
        names = sorted(without, key=release_order)
        notes.append(
            f"{len(names)} release tag{'s hold' if len(names) != 1 else ' holds'} no "
            f"request spec, so no release of the protocol: {_few(names)}"
        )
    return releases, notes


def _tagged(
    reader: ApiReader, found: SpecReleases, span: Span | None
) -> tuple[list[ReleaseApis], list[str]]:
    """(the releases in ``--range`` whose specs hold request APIs, the tags that hold no
    request spec)."""
    tags = found.releases
    wanted = set(span.chosen([t.name for t in tags])) if span is not None and tags else None
    releases = []
    without = list(found.specless)
    for tag in tags:
        if wanted is not None and tag.name not in wanted:
            continue
        assert found.source is not None  # there are releases
        release = reader.release(tag.name, ReleaseSide(found.source, tag))
        if release.apis:
            releases.append(release)
        else:
            without.append(tag.name)
    return releases, without


def head_side(repo: GitRepo, head: str | None, specs: Sequence[str]) -> tuple[SpecSource, str]:
    """The compared HEAD and its name: ``--head`` as given; else the working tree when its
    specs differ from the HEAD commit's (``working tree``), else the HEAD commit (``HEAD``)."""
    from kcompat.sources.revision import revision
    from kcompat.sources.sides import side_for
    from kcompat.sources.worktree import working_tree

    if head is not None:
        return side_for(head, repo), head
    if not repo.has_commits():
        return working_tree(repo), "working tree"
    changed = [] if repo.bare else repo.changed_in_worktree(repo.head_sha(), specs)
    if any(path.endswith(".json") for path in changed):  # a build output is no spec
        return working_tree(repo), "working tree"
    return revision(HEAD, repo), HEAD


def named_keys(apis: Sequence[Api], names: Sequence[str]) -> frozenset[int]:
    """The keys ``--apis`` names: an API key, or any name an API had, with or without
    ``Request`` (any case); one line naming what is unknown, with the closest names."""
    by_name: dict[str, int] = {}
    for api in apis:
        for name in api.names:
            by_name.setdefault(name.lower(), api.key)
            by_name.setdefault(api_label(name).lower(), api.key)
    keys = set()
    known = {api.key for api in apis}
    for raw in names:
        name = raw.strip()
        if name.isdigit() and int(name) in known:
            keys.add(int(name))
            continue
        key = by_name.get(name.lower())
        if key is None:
            newest = {api_label(n): api_label(api.name) for api in apis for n in api.names}
            close = difflib.get_close_matches(api_label(name), sorted(newest), n=6, cutoff=0.6)
            found = list(dict.fromkeys(newest[label] for label in close))[:3]
            hint = f"; did you mean {' or '.join(found)}?" if found else ""
            raise UsageError(
                f"--apis: no API named {name!r} in these releases{hint} "
                "(an API's name, with or without Request, or its key)"
            )
        keys.add(key)
    return frozenset(keys)


def _few(names: Sequence[str], limit: int = 5) -> str:
    shown = ", ".join(names[:limit])
    return shown + (f" and {len(names) - limit} more" if len(names) > limit else "")
