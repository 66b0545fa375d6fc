"""Pair two revisions once: messages by name, then structs and fields by name, per run of
versions in which neither side's layout changes (:mod:`kcompat.spec.runs`).

Every evolution rule reads these pairs instead of re-deriving them, in the style of buf's
breaking-change handlers. Fields are matched by name, never by position alone; a field
that only one side has at a released version, sitting at the same wire position with
the same wire shape as a field only the other side has, is paired as a rename.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import PurePosixPath

from kcompat.rules.evolution.released import Releases
from kcompat.spec.headers import header_versions, renumbered
from kcompat.spec.model import Field, Message
from kcompat.spec.resolve import Kind, LayoutField, StructLayout, Wire, resolve
from kcompat.spec.runs import runs
from kcompat.spec.shape import (
    signature_digest,
    struct_shape,
    untagged_shape,
    wire_signature,
)
from kcompat.spec.specfile import SpecFile
from kcompat.spec.versions import Versions


@dataclass(frozen=True)
class StructPair:
    """One struct (or the message body) on both sides, over a run of released versions
    that all resolve to these two layouts."""

    versions: Versions  # one contiguous run
    path: str  # dotted path of the owning field in HEAD; "" for the message body
    base: StructLayout
    head: StructLayout
    matched: tuple[tuple[LayoutField, LayoutField], ...]  # same name
    renamed: tuple[tuple[LayoutField, LayoutField], ...]  # same position or tag, same shape
    base_only: tuple[LayoutField, ...]
    head_only: tuple[LayoutField, ...]
    flexibility_changed: bool  # the message's flexibility differs at this version
    restructured: bool = False  # fields regrouped or flattened without changing a byte


@dataclass(frozen=True)
class FieldPair:
    """A field matched by name, with every released version whose two sides are exactly
    these resolved fields (and whose flexibility changed alike)."""

    versions: Versions
    base: LayoutField
    head: LayoutField
    flexibility_changed: bool  # the message's flexibility differs in these versions


@dataclass(frozen=True)
class MessagePair:
    """A message in BASE and HEAD, with the versions that count as released."""

    base: Message
    head: Message
    base_spec: SpecFile
    head_spec: SpecFile
    released: Versions  # versions whose wire format must not change
    released_by: str = "base"  # why: "base", or the release tag(s)
    # Versions BASE had changed from a shipped layout and HEAD restores, with the release
    # that shipped that layout: a repair, so no longer among ``released``.
    restored: tuple[tuple[int, str], ...] = ()
    # Versions BASE had changed from every shipped layout and HEAD changes again, with the
    # latest release before BASE that shipped them, which they are judged against instead
    # (see :class:`Judged`); not in ``released``.
    diverged: tuple[tuple[int, str], ...] = ()
    # Versions whose BASE layout no release shipped and that only releases cut after BASE
    # shipped, as another layout (the release's "v6" is another version that shares the
    # number), with the latest of them: the change breaks none; not in ``released``.
    shared: tuple[tuple[int, str], ...] = ()
    # A request or response header's released versions that HEAD numbers differently for a
    # group of API versions (group, BASE's version, HEAD's): judged by the bytes each API
    # version's header has (kcompat.spec.headers), so not in ``released``.
    renumbered: tuple[tuple[str, int, int], ...] = ()

    @cached_property
    def common(self) -> Versions:
        """Released versions that HEAD still has (removed ones are reported on their own)."""
        return self.released & self.head.valid_versions

    @cached_property
    def struct_pairs(self) -> tuple[StructPair, ...]:
        pairs: list[StructPair] = []
        for run in runs(self.base, self.head, self.common):
            base_layout = resolve(self.base, run.lowest)
            head_layout = resolve(self.head, run.lowest)
            changed = base_layout.flexible != head_layout.flexible
            _pair_structs(run, "", base_layout.root, head_layout.root, changed, pairs)
        return tuple(pairs)

    @cached_property
    def field_pairs(self) -> tuple[FieldPair, ...]:
        """Every field matched by name, each distinct pair of resolved fields once (in the
        order first met) with all its versions: runs share resolved fields, so a field
        present in 200 runs is checked once, not 200 times."""
        seen: dict[tuple[int, int, bool], tuple[LayoutField, LayoutField, list[Versions]]] = {}
        for struct_pair in self.struct_pairs:
            changed = struct_pair.flexibility_changed
            for base_field, head_field in struct_pair.matched:
                key = (id(base_field), id(head_field), changed)
                found = seen.get(key)
                if found is None:
                    seen[key] = (base_field, head_field, [struct_pair.versions])
                else:
                    found[2].append(struct_pair.versions)
        return tuple(
            FieldPair(_union(runs_), base_field, head_field, changed)
            for (_b, _h, changed), (base_field, head_field, runs_) in seen.items()
        )

    def matched_fields(self) -> Iterator[FieldPair]:
        """Every field matched by name, with the versions where it is matched so."""
        yield from self.field_pairs

    def unique_matched_fields(self) -> Iterator[tuple[str, Field, Field]]:
        """Each field matched by name once (its HEAD path, base and head definitions)."""
        seen: set[str] = set()
        for match in self.field_pairs:
            if match.head.path not in seen:
                seen.add(match.head.path)
                yield match.head.path, match.base.field, match.head.field


def pair_layouts(
    versions: Versions, base: StructLayout, head: StructLayout, flexibility_changed: bool
) -> tuple[StructPair, ...]:
    """Two resolved layouts paired as the rules pair them (by name, renames by shape),
    the body and every struct inside both: for callers that choose the two layouts
    themselves (the changelog pairs a new version with the version before it)."""
    out: list[StructPair] = []
    _pair_structs(versions, "", base, head, flexibility_changed, out)
    return tuple(out)


def _union(parts: list[Versions]) -> Versions:
    if len(parts) == 1:
        return parts[0]
    return Versions.from_ranges(r for part in parts for r in part.ranges)


def _pair_structs(
    versions: Versions,
    path: str,
    base: StructLayout,
    head: StructLayout,
    flexibility_changed: bool,
    out: list[StructPair],
) -> None:
    base_by_name = {f.name: f for f in base.all_fields()}
    head_by_name = {f.name: f for f in head.all_fields()}
    matched = tuple((base_by_name[f.name], f) for f in head.all_fields() if f.name in base_by_name)
    base_only = [f for f in base.all_fields() if f.name not in head_by_name]
    head_only = [f for f in head.all_fields() if f.name not in base_by_name]
    renamed = _renames(base, head, base_only, head_only)
    renamed_base = {id(b) for b, _h in renamed}
    renamed_head = {id(h) for _b, h in renamed}
    base_left = [f for f in base_only if id(f) not in renamed_base]
    head_left = [f for f in head_only if id(f) not in renamed_head]
    restructured = bool(base_left or head_left) and struct_shape(base) == struct_shape(head)
    out.append(
        StructPair(
            versions,
            path,
            base,
            head,
            matched,
            renamed,
            tuple(base_left),
            tuple(head_left),
            flexibility_changed,
            restructured,
        )
    )
    for base_field, head_field in (*matched, *renamed):
        base_child = _child_struct(base_field.wire)
        head_child = _child_struct(head_field.wire)
        if base_child is not None and head_child is not None:
            _pair_structs(
                versions, head_field.path, base_child, head_child, flexibility_changed, out
            )


def _child_struct(wire: Wire) -> StructLayout | None:
    if wire.kind is Kind.STRUCT:
        return wire.struct
    if wire.kind is Kind.ARRAY and wire.element is not None and wire.element.kind is Kind.STRUCT:
        return wire.element.struct
    return None


def _renames(
    base: StructLayout,
    head: StructLayout,
    base_only: list[LayoutField],
    head_only: list[LayoutField],
) -> tuple[tuple[LayoutField, LayoutField], ...]:
    """Unmatched fields at the same wire position (or tag) with the same wire shape: each
    BASE field takes the first HEAD field (in order) still free in its slot. HEAD's
    fields are looked up by slot, so thousands of unmatched fields cost no more than
    their number."""
    pairs = []
    head_left = {id(f) for f in head_only}
    base_index = {id(f): i for i, f in enumerate(base.fields)}
    head_index = {id(f): i for i, f in enumerate(head.fields)}
    by_slot: dict[tuple[bool, object], list[LayoutField]] = {}
    for new in head_only:
        slot = new.tag if new.tagged else head_index.get(id(new))
        by_slot.setdefault((new.tagged, slot), []).append(new)
    for old in base_only:
        slot = old.tag if old.tagged else base_index.get(id(old))
        for new in by_slot.get((old.tagged, slot), ()):
            if id(new) in head_left and untagged_shape(old.wire) == untagged_shape(new.wire):
                pairs.append((old, new))
                head_left.discard(id(new))
                break
    return tuple(pairs)


@dataclass(frozen=True)
class Pairing:
    """How the messages of two revisions correspond."""

    pairs: tuple[MessagePair, ...]
    removed: tuple[SpecFile, ...]  # BASE messages with no HEAD counterpart
    added: tuple[SpecFile, ...]  # HEAD messages with no BASE counterpart
    renamed: tuple[MessagePair, ...] = field(default=())  # matched by apiKey or file, not name
    judged: tuple[Judged, ...] = ()  # changes to versions BASE had already changed


@dataclass(frozen=True)
class Judged:
    """A change to released versions that BASE had already changed from every release.

    BASE is then not what shipped, so the change is compared twice: as made (``change``,
    BASE to HEAD) and against the latest release before BASE that shipped those versions
    (``shipped``, that release to HEAD). Only what both comparisons find is new against
    BASE and breaks that release; the rest was BASE's doing, or touches nothing any
    release has (a tagged field added after the release, say).
    """

    change: MessagePair
    shipped: MessagePair
    release: str


def pair_messages(
    base_specs: list[SpecFile],
    head_specs: list[SpecFile],
    releases: Releases,
) -> Pairing:
    """Match by name; then unmatched ones by (type, apiKey), by file path, and finally
    (for messages without an apiKey) by mostly identical top-level fields: renames.

    Two files may hold messages of one name (a vendored copy, a test fixture): each BASE
    file then pairs with the HEAD file of that name whose path matches best, so neither
    copy hides the other's changes.
    """
    base_left = [s for s in base_specs if s.message is not None]
    head_left = [s for s in head_specs if s.message is not None]
    pairs = _pair_by_name(base_left, head_left, releases)
    # Names one side still has are not renames of the other side's leftovers.
    base_names = {_name_of(s) for s in base_specs if s.message is not None}
    head_names = {_name_of(s) for s in head_specs if s.message is not None}
    base_left = [s for s in base_left if _name_of(s) not in head_names]
    head_left = [s for s in head_left if _name_of(s) not in base_names]
    renamed = _pair_by_key(base_left, head_left, releases, _api_key_of)
    renamed += _pair_by_key(base_left, head_left, releases, _path_of)
    renamed += _pair_by_similar_fields(base_left, head_left, releases)
    everything = tuple(pairs + renamed)
    judged = tuple(j for pair in everything for j in judged_pairs(pair, releases))
    return Pairing(everything, tuple(base_left), tuple(head_left), tuple(renamed), judged)


def _message_pair(base_spec: SpecFile, head_spec: SpecFile, releases: Releases) -> MessagePair:
    """The pair of two specs' messages, its released versions less those HEAD restores
    to a shipped layout or whose BASE layout no release shipped (see ``diverged``)."""
    assert base_spec.message is not None and head_spec.message is not None
    base, head = base_spec.message, head_spec.message
    versions = releases.released(base)
    restored, diverged, shared = against_releases(base, head, versions, releases)
    for moved in (restored, diverged, shared):
        if moved:
            versions = versions - Versions.from_ranges((v, v) for v, _ in moved)
    moves = tuple(m for m in renumbered(base, head) if m[1] in versions)
    if moves:  # a header version still used by some group as it was is compared as usual
        kept = set(header_versions(base).items()) & set(header_versions(head).items())
        still = {version for _group, version in kept}
        versions = versions - Versions.from_ranges((b, b) for _g, b, _h in moves if b not in still)
    return MessagePair(
        base, head, base_spec, head_spec, versions, releases.mode, restored, diverged, shared, moves
    )


def _name_of(spec: SpecFile) -> str:
    assert spec.message is not None
    return spec.message.name


def _api_key_of(spec: SpecFile) -> tuple[str, int] | None:
    """(type, apiKey), the identity a renamed RPC message keeps; None without an apiKey."""
    message = spec.message
    if message is None or message.api_key is None:
        return None
    return (message.kind, message.api_key)


def _path_of(spec: SpecFile) -> str:
    """The file path, the identity a message renamed inside its file keeps."""
    return spec.path


def _top_level_names(spec: SpecFile) -> tuple[str, frozenset[str]] | None:
    """Messages without an apiKey (data, headers) renamed with their file: same type,
    mostly the same top-level fields."""
    message = spec.message
    if message is None or message.api_key is not None:
        return None
    return (message.kind, frozenset(f.name for f in message.fields))


def _pair_by_name(
    base_left: list[SpecFile], head_left: list[SpecFile], releases: Releases
) -> list[MessagePair]:
    """Pairs of one message name (the HEAD file whose path matches best when several hold
    it); the paired specs are taken out of ``base_left`` and ``head_left``."""
    pairs = []
    for base_spec in list(base_left):
        candidates = [h for h in head_left if _name_of(h) == _name_of(base_spec)]
        if candidates:
            head_spec = max(candidates, key=lambda h: _common_suffix(base_spec.path, h.path))
            pairs.append(_message_pair(base_spec, head_spec, releases))
            base_left.remove(base_spec)
            head_left.remove(head_spec)
    return pairs


def _pair_by_key(
    base_left: list[SpecFile],
    head_left: list[SpecFile],
    releases: Releases,
    key: Callable[[SpecFile], object],
) -> list[MessagePair]:
    """Renames: leftovers with the same (non-None) ``key``, first HEAD match; the paired
    specs are taken out of ``base_left`` and ``head_left``."""
    renamed = []
    for base_spec in list(base_left):
        k = key(base_spec)
        if k is None:
            continue
        found = next((h for h in head_left if key(h) == k), None)
        if found is not None:
            renamed.append(_message_pair(base_spec, found, releases))
            base_left.remove(base_spec)
            head_left.remove(found)
    return renamed


def _pair_by_similar_fields(
    base_left: list[SpecFile], head_left: list[SpecFile], releases: Releases
) -> list[MessagePair]:
    """Renames of messages without an apiKey: the leftover of the same type sharing the
    most top-level field names, if at least 60% of them; the paired specs are taken out of
    ``base_left`` and ``head_left``."""
    renamed = []
    for base_spec in list(base_left):
        base_key = _top_level_names(base_spec)
        if base_key is None:
            continue
        best, best_score = _most_similar(base_key, head_left)
        if best is not None and best_score >= 0.6:
            renamed.append(_message_pair(base_spec, best, releases))
            base_left.remove(base_spec)
            head_left.remove(best)
    return renamed


def _most_similar(
    base_key: tuple[str, frozenset[str]], head_left: list[SpecFile]
) -> tuple[SpecFile | None, float]:
    """The HEAD spec of the same type whose top-level field names overlap ``base_key``'s
    most (Jaccard), with that score; the first one on ties."""
    best, best_score = None, 0.0
    for head_spec in head_left:
        head_key = _top_level_names(head_spec)
        if head_key is None or head_key[0] != base_key[0]:
            continue
        union = base_key[1] | head_key[1]
        score = len(base_key[1] & head_key[1]) / len(union) if union else 0.0
        if score > best_score:
            best, best_score = head_spec, score
    return best, best_score


def _common_suffix(a: str, b: str) -> int:
    """How many trailing path components two paths share."""
    left, right = PurePosixPath(a).parts, PurePosixPath(b).parts
    count = 0
    while count < min(len(left), len(right)) and left[-1 - count] == right[-1 - count]:
        count += 1
    return count


def against_releases(
    base: Message, head: Message, released: Versions, releases: Releases
) -> tuple[tuple[tuple[int, str], ...], ...]:
    """Released versions that HEAD changes, judged against the layouts releases shipped
    (by :func:`~kcompat.spec.shape.wire_signature`): (restored, diverged, shared). A
    version whose BASE layout a release shipped is judged as changed: the change breaks
    that layout. Restored: HEAD's layout is one a release shipped and BASE's is none (HEAD
    repairs a break that had landed). Diverged: neither is, and a release before BASE
    shipped the version (the change is judged against it). Shared: neither is, and only
    releases cut after BASE shipped the number, as another version. Each comes with the
    release it is measured against."""
    shipped = releases.shipped_of(base.name)
    if not shipped.layouts:
        return (), (), ()
    restored: list[tuple[int, str]] = []
    diverged: list[tuple[int, str]] = []
    shared: list[tuple[int, str]] = []

    def apart(version: int) -> None:
        reference = shipped.reference(version)
        if reference is not None:
            diverged.append((version, reference[0]))
        elif (latest := shipped.latest_release(version)) is not None:
            shared.append((version, latest))

    # Signatures once per run of versions whose layouts cannot differ (kcompat.spec.runs).
    for run in runs(base, head, released & head.valid_versions):
        base_signature = wire_signature(base, run.lowest)
        head_signature = wire_signature(head, run.lowest)
        if base_signature == head_signature:
            continue
        base_digest = signature_digest(base_signature)
        head_digest = signature_digest(head_signature)
        for version in run:
            digests = shipped.digests(version)
            if not digests or base_digest in digests:
                continue  # not shipped, or BASE is what shipped: judged as made
            if head_digest in digests:
                restored.append((version, digests[head_digest]))
            else:
                apart(version)
    for version in released - head.valid_versions:  # removed: was BASE's layout shipped?
        digests = shipped.digests(version)
        if digests and signature_digest(wire_signature(base, version)) not in digests:
            apart(version)
    return tuple(restored), tuple(diverged), tuple(shared)


def judged_pairs(pair: MessagePair, releases: Releases) -> list[Judged]:
    """One :class:`Judged` per release that ``pair``'s diverged versions are judged by."""
    if not pair.diverged:
        return []
    from kcompat.spec.specfile import read_spec

    shipped = releases.shipped_of(pair.base.name)
    by_release: dict[str, list[int]] = {}
    for version, release in pair.diverged:
        by_release.setdefault(release, []).append(version)
    out = []
    for release, numbers in by_release.items():
        versions = Versions.from_ranges((v, v) for v in numbers)
        reference = next((t for t in shipped.texts if t[0] == release), None)
        if reference is None:
            continue
        spec = read_spec(f"{reference[1]}@{release}", reference[2].encode("utf-8"))
        if spec.message is None:
            continue
        change = replace(pair, released=versions, restored=(), diverged=(), shared=())
        against = MessagePair(
            spec.message, pair.head, spec, pair.head_spec, versions, f"released in {release}"
        )
        out.append(Judged(change, against, release))
    return out
