"""One comparison as plain data: the texts that differ, and the policies decided from git.

``prepare_pair`` runs where the repository is (it reads git: changed files, releases, the
tag ledger's history). :func:`kcompat.diff.check.check` is pure: texts in, findings
out. ``kcompat diff`` calls both in one process; ``kcompat history`` prepares on the Spark
driver and checks on the executors, which have no checkout. Both therefore give the same
findings.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kcompat import progress
from kcompat.config import Config
from kcompat.errors import UsageError
from kcompat.modes import ReleasedMode
from kcompat.rules.evolution.pairing import match_specs
from kcompat.sources.compared import Compared
from kcompat.sources.links import LinkText
from kcompat.sources.reading import load_sides, skipped_note
from kcompat.sources.releases import TagReleases, releases_for
from kcompat.sources.sides import companion_requests, companions
from kcompat.sources.source import SpecSource
from kcompat.sources.spec_paths import SpecPaths
from kcompat.sources.tag_history import ledger_from_history
from kcompat.spec.ledger import LedgerRow, TagLedger
from kcompat.spec.released import Releases
from kcompat.spec.specfile import SpecFile

if TYPE_CHECKING:
    from kcompat.cache import Cache


@dataclass(frozen=True)
class PreparedPair:
    """Everything one comparison needs; serialisable to one row."""

    base_label: str
    head_label: str
    base_files: tuple[tuple[str, bytes], ...]
    head_files: tuple[tuple[str, bytes], ...]
    releases: Releases
    ledger: tuple[LedgerRow, ...]  # the tag ledger as plain data (TagLedger.to_rows)
    compared: int
    note: str = ""  # why versions count as released when that needs saying (once, to stderr)

    def to_row(self) -> dict[str, Any]:
        return {
            "base_label": self.base_label,
            "head_label": self.head_label,
            "base_paths": [p for p, _ in self.base_files],
            "base_texts": [t for _, t in self.base_files],
            "head_paths": [p for p, _ in self.head_files],
            "head_texts": [t for _, t in self.head_files],
            "released": self.releases.to_json(),
            "ledger": TagLedger.rows_to_json(self.ledger),
            "compared": self.compared,
        }

    @staticmethod
    def from_row(row: dict[str, Any]) -> PreparedPair:
        return PreparedPair(
            row["base_label"],
            row["head_label"],
            tuple(zip(row["base_paths"], (bytes(t) for t in row["base_texts"]), strict=True)),
            tuple(zip(row["head_paths"], (bytes(t) for t in row["head_texts"]), strict=True)),
            Releases.from_json(row["released"]),
            TagLedger.rows_from_json(row["ledger"]),
            int(row["compared"]),
        )


def prepare_pair(
    base: SpecSource,
    head: SpecSource,
    *,
    pathspecs: Sequence[str] = (),
    released_mode: ReleasedMode = ReleasedMode.AUTO,
    config: Config | None = None,
    history: bool = True,
    releases: TagReleases | None = None,
    cache: Cache | None = None,
) -> PreparedPair:
    """Read what differs between two sides and decide the git-dependent policies.

    ``releases`` may be shared by many comparisons of one repository (its caches then
    serve them all); without it, releases are read from BASE's repository as needed
    (what release texts say is kept between runs in ``cache``, when a command gives one).
    """
    config = config if config is not None else Config()
    loaded = load_sides(base, head, pathspecs, SpecPaths.of(config))
    mode = released_mode
    if releases is None and mode != ReleasedMode.BASE and base.commit and base.repo:
        progress.step("reading the release tags")
        probes = [p for s in loaded.base if (p := base.path_of(s.path)) is not None]
        releases = releases_for(
            base.repo,
            config.release_tags,
            config.release_branches or None,
            pathspecs,
            cache,
            probes,
        )
    by_tags = releases if mode != ReleasedMode.BASE else None
    asked = _compared(base, head, loaded.base, loaded.head)
    counted = by_tags.counted(base, head, asked) if by_tags is not None else ()
    if by_tags is not None:
        present_at = base.commit
        policy = by_tags.policy(asked, counted, present_at)
        note = "; ".join(by_tags.source.problems)  # releases whose tree git cannot read
    else:
        policy = _policy_of_base(base, loaded.base)
        note = _no_releases_note(base, mode, config)
    note = "; ".join(
        part for part in (note, skipped_note(loaded.skipped, links=loaded.links)) if part
    )
    ledger = (
        ledger_from_history(
            base, loaded.base, loaded.head, counted if releases is not None else None, releases
        )
        if history
        else TagLedger.empty()
    )
    return PreparedPair(
        base.label,
        head.label,
        tuple((s.path, _text_of(s)) for s in loaded.base),
        tuple((s.path, _text_of(s)) for s in loaded.head),
        policy,
        ledger.to_rows(),
        loaded.compared,
        note,
    )


def _policy_of_base(base: SpecSource, base_specs: Sequence[SpecFile]) -> Releases:
    """Every version BASE has counts as released (no releases to judge by); a response's
    request is read too, since its latestVersionUnstable bounds the response's."""
    companions = companion_requests(base, base_specs)
    return Releases.from_base(
        s.message for s in (*base_specs, *companions) if s.message is not None
    )


def _compared(
    base: SpecSource,
    head: SpecSource,
    base_specs: Sequence[SpecFile],
    head_specs: Sequence[SpecFile],
) -> list[Compared]:
    """Each BASE message with the HEAD message it became (as diff pairs them, renames
    included) and each side's other half of its API: what releases are asked about (only
    the versions HEAD changes need their layouts)."""
    heads = {id(b): h.message for b, h in match_specs(base_specs, head_specs).pairs}
    base_halves, head_halves = companions(base, base_specs), companions(head, head_specs)
    out = []
    for spec in base_specs:
        if spec.message is not None:
            path = base.path_of(spec.path) or spec.path
            became = heads.get(id(spec))
            out.append(
                Compared(
                    path,
                    spec.message,
                    became,
                    base_halves.get(spec.message.name),
                    head_halves.get(became.name) if became is not None else None,
                )
            )
    return out


def _no_releases_note(base: SpecSource, mode: ReleasedMode, config: Config) -> str:
    """What to tell the user when releases were wanted (or could be) but none exist."""
    if mode == ReleasedMode.BASE:
        return ""
    if base.commit is None or base.repo is None:
        if mode == ReleasedMode.TAGS:
            raise UsageError(
                "--released tags needs BASE to be a git revision (releases come from git tags)"
            )
        return ""
    repo = base.repo
    if mode == ReleasedMode.AUTO and not repo.remotes() and not repo.shallow:
        return ""  # a repository that never fetched anything: nothing to fetch, say nothing
    remote = (repo.remotes() or ["origin"])[0]
    fetch = (
        f"git fetch --depth=1 {remote} '+refs/tags/*:refs/tags/*'"
        if repo.shallow
        else f"git fetch --tags {remote}"
    )
    return (
        f"no release tags matching {config.release_tags} in {repo.root.name or repo.root}, "
        f"so every version in BASE counts as released; to judge by what releases shipped, "
        f"fetch the tags: {fetch}"
    )


def _text_of(spec: SpecFile) -> bytes:
    """A spec's text to check; a link's stays marked (:class:`LinkText`), so checking
    names it as the link it is rather than parsing a path."""
    if spec.document is not None:
        return spec.document.text.encode("utf-8")
    raw = spec.raw if spec.raw is not None else b""
    return LinkText(raw) if spec.link is not None else raw
