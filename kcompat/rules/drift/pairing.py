"""Which upstream message a local copy's message is, and which field is which.

Brokers and client libraries vendor Kafka's specs: they rename files, keep old names
(their ``ListOffsetRequest`` is upstream's ``ListOffsetsRequest``) and rename fields. Only
the wire counts, so messages pair by API key and type (what a peer sees), then by name
(headers, records and data types without an API key); fields pair by their place on the
wire at each version both sides have (untagged ones by position, tagged ones by tag),
never by name.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from kcompat.spec.model import NO_VERSIONS, Message
from kcompat.spec.resolve import LayoutField, StructLayout, resolve
from kcompat.spec.runs import runs
from kcompat.spec.shape import inline_leaves, own_shape, struct_inside, struct_shape
from kcompat.spec.specfile import SpecFile
from kcompat.spec.versions import Versions

#: What identifies a message on the wire: its API key and type (None: no API key).
Identity = tuple[int, str] | None


def identity(message: Message) -> Identity:
    return (message.api_key, message.kind) if message.api_key is not None else None


@dataclass(frozen=True)
class Proof:
    """What the round-trip proof showed for the versions both sides have whose layouts
    match: ``alike`` versions have one codec (nothing to prove), ``proven`` ones were
    written by each side and read by the other, ``samples`` times each way."""

    alike: Versions = NO_VERSIONS
    proven: Versions = NO_VERSIONS
    samples: int = 0
    evidence: tuple[object, ...] = ()  # kcompat.codec.evidence.Evidence, per break


@dataclass(frozen=True)
class DriftPair:
    """One message as upstream and the local copy define it."""

    upstream: Message
    local: Message
    upstream_spec: SpecFile
    local_spec: SpecFile
    matching: Versions = NO_VERSIONS  # shared versions whose layouts do not part
    proof: Proof = field(default_factory=Proof, compare=False)

    @property
    def shared(self) -> Versions:
        return self.upstream.valid_versions & self.local.valid_versions

    @property
    def renamed(self) -> bool:
        """Paired by API key and type under another name."""
        return self.upstream.name != self.local.name


@dataclass(frozen=True)
class Release:
    """The messages one upstream release shipped (those a local copy could pair with)."""

    name: str
    messages: tuple[Message, ...]


@dataclass(frozen=True)
class DriftSet:
    pairs: tuple[DriftPair, ...]
    upstream_only: tuple[SpecFile, ...]
    local_only: tuple[SpecFile, ...]
    unreadable: tuple[tuple[str, SpecFile], ...] = ()  # ("upstream" or "local", the file)
    releases: tuple[Release, ...] = ()  # upstream's releases, oldest first (none: unknown)


def pair_messages(
    upstream: Sequence[Message], local: Sequence[Message]
) -> tuple[list[tuple[Message, Message]], list[Message], list[Message]]:
    """(pairs, upstream only, local only): by API key and type where each side has one
    message with that identity, then by name among the rest."""
    pairs: list[tuple[Message, Message]] = []
    up_keys, lo_keys = _unique_identities(upstream), _unique_identities(local)
    paired_up: set[int] = set()
    paired_lo: set[int] = set()
    for key in sorted(up_keys.keys() & lo_keys.keys(), key=str):
        up, lo = up_keys[key], lo_keys[key]
        pairs.append((up, lo))
        paired_up.add(id(up))
        paired_lo.add(id(lo))
    up_names = {m.name: m for m in upstream if id(m) not in paired_up}
    lo_names = {m.name: m for m in local if id(m) not in paired_lo}
    for name in sorted(up_names.keys() & lo_names.keys()):
        up, lo = up_names[name], lo_names[name]
        if identity(up) is not None and identity(lo) is not None and identity(up) != identity(lo):
            continue  # one name, two APIs: not one message
        pairs.append((up, lo))
        paired_up.add(id(up))
        paired_lo.add(id(lo))
    pairs.sort(key=lambda pair: (pair[1].name, pair[0].name))
    return (
        pairs,
        [m for m in upstream if id(m) not in paired_up],
        [m for m in local if id(m) not in paired_lo],
    )


def _unique_identities(messages: Iterable[Message]) -> dict[tuple[int, str], Message]:
    """Messages by API key and type, leaving out identities two messages share."""
    found: dict[tuple[int, str], list[Message]] = {}
    for message in messages:
        key = identity(message)
        if key is not None:
            found.setdefault(key, []).append(message)
    return {key: ms[0] for key, ms in found.items() if len(ms) == 1}


def pair_drift(
    upstream: Sequence[SpecFile],
    local: Sequence[SpecFile],
    releases: Sequence[Release] = (),
) -> DriftSet:
    """Both spec sets paired (see the module); the files that do not parse set aside."""
    up_specs = {id(s.message): s for s in upstream if s.message is not None and s.message.name}
    lo_specs = {id(s.message): s for s in local if s.message is not None and s.message.name}
    pairs, up_only, lo_only = pair_messages(
        [s.message for s in up_specs.values() if s.message is not None],
        [s.message for s in lo_specs.values() if s.message is not None],
    )
    return DriftSet(
        tuple(
            DriftPair(u, lo, up_specs[id(u)], lo_specs[id(lo)], matching(u, lo)) for u, lo in pairs
        ),
        tuple(sorted((up_specs[id(m)] for m in up_only), key=_named)),
        tuple(sorted((lo_specs[id(m)] for m in lo_only), key=_named)),
        tuple(
            (side, spec)
            for side, specs in (("upstream", upstream), ("local", local))
            for spec in specs
            if spec.message is None
        ),
        tuple(releases),
    )


def _named(spec: SpecFile) -> str:
    return spec.message.name if spec.message is not None else spec.path


# -- where two layouts part ----------------------------------------------------------------
@dataclass(frozen=True)
class Difference:
    """The first place two layouts of one version differ on the wire."""

    path: str  # the field (or struct) where they part
    upstream: LayoutField | None  # the field upstream has there (None: nothing)
    local: LayoutField | None
    position: int = 0  # 1-based place among the struct's untagged fields (0: n/a)
    flexibility: tuple[bool, bool] | None = None  # (upstream, local) when that differs


def first_difference(upstream: StructLayout, local: StructLayout) -> Difference | None:
    """The first byte-level difference between two layouts, fields compared in wire order."""
    if upstream.flexible != local.flexible:
        return Difference(
            upstream.path or "(message)",
            None,
            None,
            flexibility=(upstream.flexible, local.flexible),
        )
    for position, (up, lo) in enumerate(zip(upstream.fields, local.fields, strict=False), 1):
        found = _compare(up, lo, position)
        if found is not None:
            return found
    if len(upstream.fields) != len(local.fields):
        position = min(len(upstream.fields), len(local.fields))
        if len(upstream.fields) > position:
            extra = upstream.fields[position]
            return Difference(extra.path, extra, None, position + 1)
        extra = local.fields[position]
        return Difference(extra.path, None, extra, position + 1)
    up_tags = {f.tag: f for f in upstream.tagged}
    lo_tags = {f.tag: f for f in local.tagged}
    for tag in sorted(k for k in up_tags.keys() | lo_tags.keys() if k is not None):
        u, lo_ = up_tags.get(tag), lo_tags.get(tag)
        if u is None or lo_ is None:
            continue  # a tag only one side knows is skipped by the other: compatible
        found = _compare(u, lo_, 0)
        if found is not None:
            return found
    return None


def _compare(up: LayoutField, lo: LayoutField, position: int) -> Difference | None:
    if own_shape(up.wire) != own_shape(lo.wire):
        return Difference(up.path if up.path == lo.path else lo.path, up, lo, position)
    child_up, child_lo = struct_inside(up.wire), struct_inside(lo.wire)
    if child_up is not None and child_lo is not None:
        return first_difference(child_up, child_lo)
    return None


def matching(upstream: Message, local: Message) -> Versions:
    """The versions both have whose layouts do not part on the wire (a tagged field only
    one side knows is skipped by the other: compatible)."""
    shared = upstream.valid_versions & local.valid_versions
    found: list[tuple[int, int]] = []
    for run in runs(upstream, local, shared):
        up = resolve(upstream, run.lowest).root
        lo = resolve(local, run.lowest).root
        if struct_shape(up) == struct_shape(lo) or first_difference(up, lo) is None:
            found.extend(run.ranges)
    return Versions.from_ranges(found)


# -- fields by their place on the wire ---------------------------------------------------
@dataclass(frozen=True)
class Place:
    """One place on the wire at some versions, and the field each side has there."""

    upstream: LayoutField | None
    local: LayoutField | None
    versions: Versions


def places(pair: DriftPair) -> list[Place]:
    """Every place on the wire of the versions both sides have and lay out alike
    (:attr:`DriftPair.matching`), with the field each side has there."""
    found: dict[tuple[str, str, bool, bool], list[tuple[int, int]]] = {}
    entries: dict[tuple[str, str, bool, bool], tuple[LayoutField | None, LayoutField | None]] = {}
    for run in runs(pair.upstream, pair.local, pair.matching):
        up = resolve(pair.upstream, run.lowest).root
        lo = resolve(pair.local, run.lowest).root
        for u, lo_ in _matched(up, lo):
            key = (
                u.path if u is not None else "",
                lo_.path if lo_ is not None else "",
                u is not None and u.tag is not None,
                lo_ is not None and lo_.tag is not None,
            )
            entries.setdefault(key, (u, lo_))
            found.setdefault(key, []).extend(run.ranges)
    return [Place(*entries[key], Versions.from_ranges(ranges)) for key, ranges in found.items()]


def _matched(
    up: StructLayout, lo: StructLayout
) -> Iterator[tuple[LayoutField | None, LayoutField | None]]:
    """The fields of two layouts of one struct at one version, paired by place."""
    ups, los = inline_leaves(up), inline_leaves(lo)
    for index in range(max(len(ups), len(los))):
        u = ups[index] if index < len(ups) else None
        lo_ = los[index] if index < len(los) else None
        yield u, lo_
        if u is not None and lo_ is not None and own_shape(u.wire) == own_shape(lo_.wire):
            yield from _inside(u, lo_)
    up_tags = {f.tag: f for f in up.tagged}
    lo_tags = {f.tag: f for f in lo.tagged}
    for tag in sorted(t for t in up_tags.keys() | lo_tags.keys() if t is not None):
        u, lo_ = up_tags.get(tag), lo_tags.get(tag)
        yield u, lo_
        if u is not None and lo_ is not None and own_shape(u.wire) == own_shape(lo_.wire):
            yield from _inside(u, lo_)


def _inside(
    up: LayoutField, lo: LayoutField
) -> Iterator[tuple[LayoutField | None, LayoutField | None]]:
    inner_up, inner_lo = struct_inside(up.wire), struct_inside(lo.wire)
    if inner_up is not None and inner_lo is not None:
        yield from _matched(inner_up, inner_lo)


def same_wire(pair: DriftPair, version: int) -> bool:
    """Whether both sides lay out ``version`` alike on the wire (names aside)."""
    up = resolve(pair.upstream, version).root
    lo = resolve(pair.local, version).root
    return struct_shape(up) == struct_shape(lo)
