"""Pair two revisions once: messages by name, then structs and fields by name, per run of
versions in which neither side's layout changes (:mod:`kcompat.spec.runs`).

Every evolution rule reads these pairs instead of re-deriving them, in the style of buf's
breaking-change handlers. Fields are matched by name, never by position alone; a field
that only one side has at a released version, sitting at the same wire position with
the same wire shape as a field only the other side has, is paired as a rename.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import PurePosixPath

from kcompat.naming import release_order
from kcompat.spec.headers import header_versions, renumbered
from kcompat.spec.model import Field, Message
from kcompat.spec.released import TAGS, Releases
from kcompat.spec.resolve import LayoutField, StructLayout, resolve
from kcompat.spec.runs import runs
from kcompat.spec.shape import struct_inside, struct_shape, untagged_shape
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
    # Versions whose BASE layout no release shipped and whose HEAD layout one did, with the
    # first release that shipped HEAD's: HEAD restores (or joins) a release, so these are
    # not among ``released``.
    restored: tuple[tuple[int, str], ...] = ()
    # Versions whose BASE layout no release shipped, though releases shipped the number as
    # another layout (BASE is already incompatible with them, or they came later), with
    # the first release of each other layout: a change breaks none; not in ``released``.
    diverged: tuple[tuple[int, str], ...] = ()
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
    """The pair of two structs, then the pairs of the structs inside their matched fields."""
    pair = _struct_pair(versions, path, base, head, flexibility_changed)
    out.append(pair)
    for base_field, head_field in (*pair.matched, *pair.renamed):
        base_child = struct_inside(base_field.wire)
        head_child = struct_inside(head_field.wire)
        if base_child is not None and head_child is not None:
            _pair_structs(
                versions, head_field.path, base_child, head_child, flexibility_changed, out
            )


def _struct_pair(
    versions: Versions,
    path: str,
    base: StructLayout,
    head: StructLayout,
    flexibility_changed: bool,
) -> StructPair:
    """Two structs' fields matched by name, renames recognised by slot and shape."""
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
    return StructPair(
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


@dataclass(frozen=True)
class Matched:
    """Which spec of one revision is which of the other's (before any version is judged):
    the same message name, renames, and the messages only one side has."""

    same: tuple[tuple[SpecFile, SpecFile], ...]  # by name
    renamed: tuple[tuple[SpecFile, SpecFile], ...]  # by apiKey, file, or top-level fields
    removed: tuple[SpecFile, ...]  # BASE messages with no HEAD counterpart
    added: tuple[SpecFile, ...]  # HEAD messages with no BASE counterpart

    @property
    def pairs(self) -> tuple[tuple[SpecFile, SpecFile], ...]:
        return self.same + self.renamed


def match_specs(base_specs: Sequence[SpecFile], head_specs: Sequence[SpecFile]) -> Matched:
    """Match by name; then unmatched ones by (type, apiKey), by file path, and finally
    (for messages without an apiKey) by mostly identical top-level fields: renames.

    Two files may hold messages of one name (a vendored copy, a test fixture): each BASE
    file then pairs with the HEAD file of that name whose path matches best, so neither
    copy hides the other's changes. Reading releases asks this too (which HEAD message a
    BASE message became), so it is apart from judging versions.
    """
    base_left = [s for s in base_specs if s.message is not None]
    head_left = [s for s in head_specs if s.message is not None]
    same = _match_by_name(base_left, head_left)
    # Names one side still has are not renames of the other side's leftovers.
    base_names = {_name_of(s) for s in base_specs if s.message is not None}
    head_names = {_name_of(s) for s in head_specs if s.message is not None}
    base_left = [s for s in base_left if _name_of(s) not in head_names]
    head_left = [s for s in head_left if _name_of(s) not in base_names]
    renamed = _match_by_key(base_left, head_left, _api_key_of)
    renamed += _match_by_key(base_left, head_left, _path_of)
    renamed += _match_by_similar_fields(base_left, head_left)
    return Matched(tuple(same), tuple(renamed), tuple(base_left), tuple(head_left))


def pair_messages(
    base_specs: list[SpecFile],
    head_specs: list[SpecFile],
    releases: Releases,
) -> Pairing:
    """The specs matched (:func:`match_specs`), each pair with its released versions."""
    matched = match_specs(base_specs, head_specs)
    pairs = tuple(_message_pair(b, h, releases) for b, h in matched.same)
    renamed = tuple(_message_pair(b, h, releases) for b, h in matched.renamed)
    return Pairing(pairs + renamed, matched.removed, matched.added, renamed)


def _message_pair(base_spec: SpecFile, head_spec: SpecFile, releases: Releases) -> MessagePair:
    """The pair of two specs' messages, its released versions less those whose BASE layout
    no release shipped (see ``restored`` and ``diverged``)."""
    assert base_spec.message is not None and head_spec.message is not None
    base, head = base_spec.message, head_spec.message
    versions = releases.released(base)
    restored, diverged = against_releases(base, releases)
    moves = tuple(m for m in renumbered(base, head) if m[1] in versions)
    if moves:  # a header version still used by some group as it was is compared as usual
        kept = set(header_versions(base).items()) & set(header_versions(head).items())
        still = {version for _group, version in kept}
        versions = versions - Versions.from_ranges((b, b) for _g, b, _h in moves if b not in still)
    return MessagePair(
        base, head, base_spec, head_spec, versions, releases.mode, restored, diverged, moves
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


def _match_by_name(
    base_left: list[SpecFile], head_left: list[SpecFile]
) -> list[tuple[SpecFile, SpecFile]]:
    """Pairs of one message name (the HEAD file whose path matches best when several hold
    it); the paired specs are taken out of ``base_left`` and ``head_left``."""
    pairs = []
    for base_spec in list(base_left):
        candidates = [h for h in head_left if _name_of(h) == _name_of(base_spec)]
        if candidates:
            head_spec = max(candidates, key=lambda h: _common_suffix(base_spec.path, h.path))
            pairs.append((base_spec, head_spec))
            base_left.remove(base_spec)
            head_left.remove(head_spec)
    return pairs


def _match_by_key(
    base_left: list[SpecFile],
    head_left: list[SpecFile],
    key: Callable[[SpecFile], object],
) -> list[tuple[SpecFile, SpecFile]]:
    """Renames: leftovers with the same (non-None) ``key``, first HEAD match; the paired
    specs are taken out of ``base_left`` and ``head_left``."""
    renamed = []
    for base_spec in list(base_left):
        k = key(base_spec)
        if k is None:
            continue
        found = next((h for h in head_left if key(h) == k), None)
        if found is not None:
            renamed.append((base_spec, found))
            base_left.remove(base_spec)
            head_left.remove(found)
    return renamed


def _match_by_similar_fields(
    base_left: list[SpecFile], head_left: list[SpecFile]
) -> list[tuple[SpecFile, SpecFile]]:
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
            renamed.append((base_spec, best))
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
    base: Message, releases: Releases
) -> tuple[tuple[tuple[int, str], ...], tuple[tuple[int, str], ...]]:
    """Which shipped versions of BASE a change is not judged on, by the layouts releases
    shipped (what reaches the wire, never names; worked out where the releases are read):
    (restored, diverged). An error needs a release whose layout of the version is BASE's
    (and, the change being one, not HEAD's); such versions stay released. The others:
    restored when HEAD's layout is one a release shipped (HEAD puts back, or reaches, a
    release), diverged when neither is (releases shipped the number as another layout:
    BASE is already incompatible with them). Each comes with the first release it is
    measured against. :meth:`Releases.released` leaves them out already."""
    shipped = releases.shipped_of(base.name)
    if releases.mode != TAGS or not shipped.layouts:
        return (), ()
    ours, theirs = dict(shipped.base_first), dict(shipped.head_first)
    restored: list[tuple[int, str]] = []
    diverged: list[tuple[int, str]] = []
    for version in base.valid_versions & shipped.unlike_base:
        if version in ours:
            continue
        if version in theirs:
            restored.append((version, theirs[version]))
        else:
            first = min(shipped.digests(version).values(), key=release_order)
            diverged.append((version, first))
    return tuple(restored), tuple(diverged)
