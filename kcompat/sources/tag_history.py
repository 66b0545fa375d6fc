"""Build the tag ledger from git: BASE's history, or the releases (the I/O half).

Reading history costs time, so it is read only for messages whose HEAD binds a tag to
something BASE does not: only those can introduce a reuse.
"""

from __future__ import annotations

from collections.abc import Sequence

from kcompat.sources.compared import Lineage
from kcompat.sources.gitrefs import Tag
from kcompat.sources.releases import TagReleases
from kcompat.sources.source import SpecSource
from kcompat.spec.ledger import TagLedger, tag_bindings
from kcompat.spec.specfile import SpecFile, read_spec


def needs_history(base_specs: Sequence[SpecFile], head_specs: Sequence[SpecFile]) -> list[SpecFile]:
    """BASE specs whose HEAD counterpart binds a tag to a new (name, type)."""
    base_by_name = {s.message.name: s for s in base_specs if s.message is not None}
    wanted = []
    for head in head_specs:
        if head.message is None:
            continue
        base = base_by_name.get(head.message.name)
        head_bindings = tag_bindings(head.message, "HEAD")
        if not head_bindings or base is None or base.message is None:
            continue
        known = {k: (b.name, b.type) for k, b in tag_bindings(base.message, "BASE").items()}
        if any(known.get(k) != (b.name, b.type) for k, b in head_bindings.items()):
            wanted.append(base)
    return wanted


def ledger_from_history(
    side: SpecSource,
    base_specs: Sequence[SpecFile],
    head_specs: Sequence[SpecFile],
    tags: Sequence[Tag] | None = None,
    releases: TagReleases | None = None,
) -> TagLedger:
    """Tags of every revision in BASE's history that touched the files that need it.

    With released versions from releases, only releases count: a tag used on a trunk and
    dropped before any release never reached anyone, so reusing it breaks nobody.
    """
    ledger = TagLedger.empty()
    if side.commit is None or side.repo is None:
        return ledger
    repo = side.repo
    for spec in needs_history(base_specs, head_specs):
        path = side.path_of(spec.path)
        if path is None or spec.message is None:
            continue
        if tags is not None and releases is not None:
            for tag in tags:
                shipped = releases.message_at(tag, path, Lineage.of(spec.message))
                if shipped is not None:
                    ledger.add(shipped, tag.name, as_name=spec.message.name)
            continue
        for commit, old_path in repo.file_history(side.commit, path):
            data = repo.read_at(commit, old_path)
            if data is None or b'"tag"' not in data:
                continue
            old = read_spec(old_path, data).message
            if old is None:
                continue
            # The file's history is the message's: file renames keep its identity, and
            # an older message name is filed under the current one.
            ledger.add(old, commit[:12], as_name=spec.message.name)
    return ledger
