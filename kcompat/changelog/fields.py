"""What HEAD changes in the fields of versions BASE already had, on the resolved layouts.

A version **both sides have** is compared as the evolution rules compare it: BASE's
layout against HEAD's, paired by name and renames by shape
(:mod:`kcompat.rules.evolution.pairing`). On versions a release shipped only what keeps
the bytes is listed (tagged fields added or dropped, renames, structs renamed, moved or
regrouped), since what breaks them is diff's finding; on the others, every change. (What
a *new* version does is :mod:`kcompat.changelog.steps`.)

Layouts are resolved once per run of versions in which neither side can change
(:mod:`kcompat.spec.runs`), so a message valid for 0-32766 costs a handful of layouts.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Iterator
from dataclasses import replace
from typing import Any

from kcompat.changelog.model import Change, ChangeKind
from kcompat.rules.evolution.pairing import MessagePair, StructPair, pair_layouts
from kcompat.spec.model import Field, Message, show_value
from kcompat.spec.resolve import Kind, LayoutField, Wire, resolve
from kcompat.spec.runs import runs
from kcompat.spec.shape import same_layout
from kcompat.spec.versions import Versions

#: What a change to versions a release shipped may be without breaking their bytes.
KEEPS_BYTES = frozenset(
    {
        ChangeKind.TAGGED_FIELD_ADDED,
        ChangeKind.FIELD_RENAMED,
        ChangeKind.STRUCT_RENAMED,
        ChangeKind.STRUCT_MOVED,
        ChangeKind.FIELDS_REGROUPED,
    }
)


def existing_version_changes(pair: MessagePair, released: Versions) -> list[Change]:
    """What HEAD changes in versions BASE already had (each change split into its
    released and unreleased versions; on released ones, only what keeps the bytes).

    The released versions the rules judged are paired already (``pair.struct_pairs``,
    shared with diff's rules); the rest are paired here, once per run. A run whose two
    layouts have one signature (names, tags, forms, defaults: what the release ledger
    compared already) can only differ in what its structs are called or where they are
    defined, so with the same structs on both sides it is skipped."""
    base, head = pair.base, pair.head
    verdicts: dict[int, bool] = {}  # by a run's lowest version: a run has many structs
    same_structs = _same_structs(base, head)

    def unchanged(run: Versions) -> bool:
        version = run.lowest
        found = verdicts.get(version)
        if found is None:
            found = same_structs and same_layout(base, head, version)
            verdicts[version] = found
        return found

    # one change per identity and release state, its versions gathered over the runs
    gathered: dict[tuple[object, ...], tuple[Change, bool, list[tuple[int, int]]]] = {}

    def keep(change: Change, versions: Versions, shipped: bool) -> None:
        entry = gathered.setdefault((change.identity(), shipped), (change, shipped, []))
        entry[2].extend(versions.ranges)

    for struct_pair in pair.struct_pairs:  # released versions as the rules saw them
        if unchanged(struct_pair.versions):
            continue
        found = _struct_changes(head.name, (struct_pair,), base, head, forms=False)
        for change in found:
            if _keeps_bytes(change):
                keep(change, struct_pair.versions, True)
    rest = (base.valid_versions & head.valid_versions) - pair.common
    for run in runs(base, head, rest):
        if unchanged(run):
            continue
        before, after = resolve(base, run.lowest), resolve(head, run.lowest)
        pairs = pair_layouts(run, before.root, after.root, before.flexible != after.flexible)
        shipped = run & released  # released, but judged apart (restored or diverged)
        for change in _struct_changes(head.name, pairs, base, head):
            keep(change, run - shipped, False)
            if _keeps_bytes(change):
                keep(change, shipped, True)
    return [
        replace(change, versions=Versions.from_ranges(ranges), existing=True, released=shipped)
        for change, shipped, ranges in gathered.values()
        if ranges
    ]


def _same_structs(base: Message, head: Message) -> bool:
    """Both messages define the same structs, common ones as common ones."""

    def structs(message: Message) -> frozenset[tuple[str, bool]]:
        common = {struct.name for struct in message.common_structs}
        return frozenset((struct.name, struct.name in common) for struct in message.structs)

    return structs(base) == structs(head)


def _keeps_bytes(change: Change) -> bool:
    if change.kind is ChangeKind.FIELD_REMOVED:
        return change.tag is not None  # a tagged field dropped: old readers skip it
    return change.kind in KEEPS_BYTES


def _struct_changes(
    message: str,
    pairs: Iterable[StructPair],
    base: Message,
    head: Message,
    *,
    forms: bool = True,
) -> Iterator[Change]:
    """The changes of paired structs: fields only one side has, renames, structs renamed
    or moved, and (with ``forms``) matched fields whose form differs."""
    for pair in pairs:
        for added in pair.head_only:
            yield _added(message, added)
        for gone in pair.base_only:
            yield Change(
                message,
                ChangeKind.FIELD_REMOVED,
                field=gone.path,
                type=_type_of(gone),
                tag=gone.tag,
            )
        for old, new in pair.renamed:
            yield _from_to(message, ChangeKind.FIELD_RENAMED, new.path, old.path, new.name)
        if pair.restructured:
            yield Change(message, ChangeKind.FIELDS_REGROUPED, field=pair.path)
        for old, new in (*pair.matched, *pair.renamed):
            if forms:
                yield from _field_changes(message, old, new)
            if _struct_name(old.wire) and _struct_name(new.wire):
                yield from _struct_identity(message, old, new, base, head)


def _added(message: str, field: LayoutField) -> Change:
    kind = ChangeKind.TAGGED_FIELD_ADDED if field.tagged else ChangeKind.FIELD_ADDED
    return Change(
        message,
        kind,
        field=field.path,
        type=_type_of(field),
        default=default_text(field.field),
        tag=field.tag,
    )


def _type_of(field: LayoutField) -> str:
    """The type as written, ``nullable`` added where the version makes it so."""
    text = field.field.type.text
    return f"nullable {text}" if field.nullable else text


def default_text(field: Field) -> str:
    """An explicit default as a reviewer reads it ("" when the type's own applies)."""
    default = field.default
    if not default.explicit:
        return ""
    if default.error is not None or isinstance(default.value, uuid.UUID):
        return str(default.text)
    return show_value(default.value)


def _field_changes(message: str, old: LayoutField, new: LayoutField) -> Iterator[Change]:
    """A matched field's own form: type, nullability, tag, integer encoding, default."""
    path = new.path
    old_type, new_type = old.field.type, new.field.type
    if old_type.is_array != new_type.is_array or (
        old_type.text != new_type.text and not (old_type.has_struct and new_type.has_struct)
    ):
        yield _from_to(message, ChangeKind.TYPE_CHANGED, path, old_type.text, new_type.text)
    if old.nullable != new.nullable:
        kind = ChangeKind.NULLABLE_STARTED if new.nullable else ChangeKind.NULLABLE_ENDED
        yield Change(message, kind, field=path, type=new_type.text)
    if old.tag != new.tag:
        tagging = _tagging(old.tag), _tagging(new.tag)
        yield _from_to(message, ChangeKind.TAGGING_CHANGED, path, *tagging, tag=new.tag)
    before, after = _encoding(old.wire), _encoding(new.wire)
    if before != after and old_type.text == new_type.text:  # a new type says it already
        yield _from_to(message, ChangeKind.ENCODING_CHANGED, path, before, after)
    old_default, new_default = old.field.default, new.field.default
    if old_default.key() != new_default.key() and (old_default.explicit or new_default.explicit):
        defaults = default_text(old.field) or "the type's", default_text(new.field) or "the type's"
        yield _from_to(message, ChangeKind.DEFAULT_CHANGED, path, *defaults)


def _from_to(
    message: str, kind: ChangeKind, path: str, before: str, after: str, **details: Any
) -> Change:
    """Something of the field at ``path`` went from ``before`` to ``after``: its name,
    type, tagging, encoding, default, or its struct's name or home."""
    return Change(message, kind, field=path, before=before, after=after, **details)


def _tagging(tag: int | None) -> str:
    return "untagged" if tag is None else f"tag {tag}"


def _encoding(wire: Wire) -> str:
    """An integer's encoding (``fixed32``, ``packed64``...); "" for other types."""
    if wire.kind is not Kind.INT:
        return ""
    return f"{wire.form}{wire.bits}"


def _struct_identity(
    message: str, old: LayoutField, new: LayoutField, base: Message, head: Message
) -> Iterator[Change]:
    """A struct-typed field whose struct was renamed, or moved between ``commonStructs``
    and the field's own definition (neither changes a byte)."""
    old_struct, new_struct = _struct_name(old.wire), _struct_name(new.wire)
    if old_struct != new_struct:
        yield _from_to(message, ChangeKind.STRUCT_RENAMED, new.path, old_struct, new_struct)
    old_home, new_home = _home(old, base), _home(new, head)
    if old_home != new_home:
        moved = ChangeKind.STRUCT_MOVED
        yield _from_to(message, moved, new.path, old_home, new_home, type=new_struct)


def _struct_name(wire: Wire) -> str:
    """The struct a field's value is (or its array holds), "" if none."""
    if wire.struct is not None:
        return wire.struct.name
    element = wire.element
    return element.struct.name if element is not None and element.struct is not None else ""


def _home(field: LayoutField, message: Message) -> str:
    """Where a struct is defined: ``commonStructs``, or inline in the field."""
    if field.field.fields or (field.field.node is not None and "fields" in field.field.node):
        return "inline"
    common = {struct.name for struct in message.common_structs}
    return "commonStructs" if field.field.type.base in common else "inline"
