"""Field-level evolution rules, over fields matched by name at each released version."""

from __future__ import annotations

from collections.abc import Iterator

from kcompat.findings import Reporter, Severity, Wording
from kcompat.rules.evolution.adapters import definition_rule, field_pair_rule, pair_rule
from kcompat.rules.evolution.common import (
    boxing_exception,
    describe,
    int_encoding_changed,
    node,
    struct_renamed,
    type_names_differ,
)
from kcompat.rules.evolution.pairing import FieldPair, MessagePair, StructPair
from kcompat.rules.registry import Category
from kcompat.spec.load import JObject
from kcompat.spec.model import Field, show_value
from kcompat.spec.resolve import Kind, LayoutField
from kcompat.spec.shape import own_shape
from kcompat.spec.versions import Versions


def _owner(pair: MessagePair, struct_pair: StructPair, side: str) -> JObject | None:
    """The JSON node that owns a struct: the field holding it, or the message."""
    layout = struct_pair.head if side == "head" else struct_pair.base
    message = pair.head if side == "head" else pair.base
    if not layout.path:
        return message.node
    for walked_path, walked in message.walk():
        if walked_path == layout.path:
            return walked.node
    return message.node


def _untagged_only(
    pair: MessagePair, report: Reporter, side: str
) -> Iterator[tuple[StructPair, LayoutField, Reporter]]:
    """Each non-tagged field only ``side`` ("head" or "base") has, with its struct pair and
    ``report`` naming it at that pair's versions: what field-added and field-removed report
    (a tagged one is compatible; a restructured struct pair is fields-restructured's)."""
    for struct_pair in pair.struct_pairs:
        if struct_pair.restructured:
            continue  # same bytes: fields-restructured reports it
        for entry in struct_pair.head_only if side == "head" else struct_pair.base_only:
            if not entry.tagged:
                yield struct_pair, entry, report.about(entry.path, struct_pair.versions)


@pair_rule("field-added", Category.FIELDS, Severity.ERROR)
def field_added(pair: MessagePair, report: Reporter) -> None:
    """A non-tagged field added to a released version: old readers misparse."""
    for struct_pair, entry, about in _untagged_only(pair, report, "head"):
        about(
            node(entry),
            Wording(f"non-tagged field {entry.path} ({entry.field.type}) was added to "),
            key="versions",
            base=_owner(pair, struct_pair, "base"),
            base_key="fields",
            hint=f'add it only to a new version ("versions": "'
            f'{pair.base.valid_versions.highest + 1}+") or make it a tagged field',
        )


@pair_rule("field-removed", Category.FIELDS, Severity.ERROR)
def field_removed(pair: MessagePair, report: Reporter) -> None:
    """A non-tagged field removed from a released version."""
    for struct_pair, entry, about in _untagged_only(pair, report, "base"):
        about(
            _owner(pair, struct_pair, "head"),
            Wording(f"field {entry.path} ({entry.field.type}) was removed from "),
            key="fields",
            base=node(entry),
            base_key="name",
            hint='keep it in released versions: end its range instead ("versions": '
            f'"{entry.field.versions.lowest}-{pair.base.valid_versions.highest}")'
            if not entry.field.versions.empty
            else "keep it in released versions",
        )


@pair_rule("fields-restructured", Category.NAMES, Severity.WARNING)
def fields_restructured(pair: MessagePair, report: Reporter) -> None:
    """Fields regrouped or flattened without changing a byte: generated code breaks."""
    for struct_pair in pair.struct_pairs:
        if not struct_pair.restructured:
            continue
        gone = [f.name for f in struct_pair.base_only if not f.tagged]
        new = [f.name for f in struct_pair.head_only if not f.tagged]
        where = struct_pair.path or pair.head.name
        # Name the side that is the same in every version: the struct that was flattened,
        # or the struct the fields were grouped into.
        change = (
            f"{', '.join(gone)} flattened into its fields"
            if len(gone) <= len(new)
            else f"fields grouped into {', '.join(new)}"
        )
        report.changed(
            _owner(pair, struct_pair, "head"),
            _owner(pair, struct_pair, "base"),
            "fields",
            Wording(
                f"fields of {where} were restructured in ",
                f" ({change}): the bytes are the same, the generated classes are not",
            ),
            field_path=struct_pair.path,
            versions=struct_pair.versions,
            hint="a nested struct without a null marker or tagged fields is written inline; "
            "keep the old grouping unless you mean to break generated code",
        )


def _type_change(base: LayoutField, head: LayoutField) -> str | None:
    """Why a matched field's type change breaks the wire, or None if it does not."""
    if not type_names_differ(base, head) or struct_renamed(base, head):
        return None
    boxing = boxing_exception(base, head)
    if boxing == "compatible":
        return None
    if boxing is not None:
        return boxing
    if own_shape(base.wire) == own_shape(head.wire) and base.wire.kind is not Kind.STRUCT:
        return None  # e.g. int32 -> int64 with a fixed32 encoding for old versions
    return ""


@field_pair_rule("field-type-changed", Category.FIELDS, Severity.ERROR)
def field_type_changed(match: FieldPair, report: Reporter) -> None:
    """A field's type changed (except []P <-> []{P} in non-flexible versions)."""
    base, head = match.base, match.head
    why = _type_change(base, head)
    if why is None:
        return
    # No per-version wire names here: string -> bytes is STRING -> BYTES in one version
    # and COMPACT_STRING -> COMPACT_BYTES in the next, and it is one change.
    detail = f": {why}" if why else ""
    report.changed(
        node(head),
        node(base),
        "type",
        Wording(
            f"field {head.path} changed type from {base.field.type} to {head.field.type} in ",
            detail,
        ),
        hint="add a new field in a new version instead of changing this one",
    )


@field_pair_rule("encoding-changed", Category.FIELDS, Severity.ERROR)
def encoding_changed(match: FieldPair, report: Reporter) -> None:
    """Integer `encoding` changed for a released version (incl. narrower)."""
    base, head = match.base, match.head
    if type_names_differ(base, head) or base.tagged != head.tagged:
        return
    if int_encoding_changed(base.wire, head.wire):
        narrower = " (narrower)" if head.wire.bits < base.wire.bits else ""
        report.changed(
            node(head),
            node(base),
            "encoding",
            Wording(
                f"encoding of {head.path} changed from {describe(base)} to "
                f"{describe(head)}{narrower} in "
            ),
            hint="change an encoding only from a new version on (an encoding range)",
        )


@field_pair_rule("nullable-narrowed", Category.FIELDS, Severity.ERROR)
def nullable_narrowed(match: FieldPair, report: Reporter) -> None:
    """A field stopped being nullable in a released version: old nulls fail to read."""
    _nullability(
        match,
        report,
        now_nullable=False,
        message=Wording("is no longer nullable in ", "; readers reject the nulls old writers send"),
    )


@field_pair_rule("nullable-widened", Category.FIELDS, Severity.ERROR)
def nullable_widened(match: FieldPair, report: Reporter) -> None:
    """A field became nullable in a released version: old readers reject the null."""
    _nullability(
        match,
        report,
        now_nullable=True,
        message=Wording("became nullable in ", "; old readers fail on a null"),
    )


def _nullability(
    match: FieldPair, report: Reporter, *, now_nullable: bool, message: Wording
) -> None:
    """A field (not a struct: KIP-893 has its own rule) whose nullability flipped one way."""
    base, head = match.base, match.head
    if base.wire.kind is Kind.STRUCT or type_names_differ(base, head):
        return
    if head.nullable == now_nullable and base.nullable != now_nullable:
        hint = (
            "make it nullable from a new version on"
            if now_nullable
            else f'keep "nullableVersions": "{base.field.nullable_versions}"'
        )
        report.changed(
            node(head),
            node(base),
            "nullableVersions",
            f"{head.path} " + message,
            hint=hint,
        )


@field_pair_rule("struct-nullability-changed", Category.FIELDS, Severity.ERROR)
def struct_nullability_changed(match: FieldPair, report: Reporter) -> None:
    """KIP-893: a struct became nullable or non-nullable in a released version."""
    base, head = match.base, match.head
    if base.wire.kind is not Kind.STRUCT or head.wire.kind is not Kind.STRUCT:
        return
    if base.nullable != head.nullable:
        now = "nullable" if head.nullable else "non-nullable"
        marker = "adds" if head.nullable else "drops"
        report.changed(
            node(head),
            node(base),
            "nullableVersions",
            Wording(
                f"struct {head.path} became {now} in ",
                f", which {marker} the presence byte before it (KIP-893)",
            ),
            hint="change nullability only in a new version",
        )


@field_pair_rule("wire-format-changed", Category.FIELDS, Severity.ERROR)
def wire_format_changed(match: FieldPair, report: Reporter) -> None:
    """A field's bytes changed in a released version in another way (e.g. compact)."""
    base, head = match.base, match.head
    if match.flexibility_changed or type_names_differ(base, head):
        return
    if base.tagged != head.tagged or int_encoding_changed(base.wire, head.wire):
        return
    b, h = base.wire, head.wire
    if b.nullable != h.nullable:
        return  # nullable-* and struct-nullability-changed
    if own_shape(b) != own_shape(h):
        report(
            node(head),
            Wording(f"{head.path} is written as {describe(head)} instead of {describe(base)} in "),
            key=_override_key(head),
            base=node(base),
            base_key=_override_key(base),
            hint="check field-level flexibleVersions overrides",
        )


def _override_key(entry: LayoutField) -> str:
    """Where a field's own encoding is decided: its flexibleVersions override, or its type."""
    found = node(entry)
    return "flexibleVersions" if found is not None and "flexibleVersions" in found else "type"


@pair_rule("default-changed", Category.FIELDS, Severity.ERROR)
def default_changed(pair: MessagePair, report: Reporter) -> None:
    """A field's default changed where it reaches the wire or a decoded value."""
    effect = _DefaultEffect.of(pair)
    for path, base, head in pair.unique_matched_fields():
        if base.type.text != head.type.text or base.default.error or head.default.error:
            continue  # a retyped field is field-type-changed's; an invalid default is lint's
        if base.default.key() == head.default.key():
            continue
        severity, versions, why = effect.judge(path, base, head)
        report(
            head.node.where_value("default")
            if head.node is not None and "default" in head.node
            else head.node,
            f"default of {path} changed from {show_value(base.default.value)} to "
            f"{show_value(head.default.value)}" + why,
            field_path=path,
            versions=versions,
            severity=severity,
            base=base.node,
            base_key="default" if base.node is not None and "default" in base.node else "name",
            hint="keep the old default; to change the meaning, add a new field in a new version"
            if severity is not Severity.INFO
            else "",
        )


class _DefaultEffect:
    """Where a field's default matters on a pair's released versions (FORMAT-NOTES,
    "Defaults"): a tagged field equal to its default is not written, so the default is
    the value; a non-tagged field's default is what readers of versions without it fill
    in, and what writers compare with before refusing (or silently dropping, when
    ignorable) a value those versions cannot carry. Elsewhere it touches nothing."""

    def __init__(self, pair: MessagePair) -> None:
        self.common = pair.common
        self.around: dict[str, Versions] = {}  # struct path -> versions it is written in
        for struct_pair in pair.struct_pairs:
            known = self.around.get(struct_pair.path, Versions.none())
            self.around[struct_pair.path] = known | struct_pair.versions
        self.tagged: dict[str, Versions] = {}  # field path -> versions tagged on a side
        for match in pair.field_pairs:
            if match.base.tagged or match.head.tagged:
                known = self.tagged.get(match.head.path, Versions.none())
                self.tagged[match.head.path] = known | match.versions

    @staticmethod
    def of(pair: MessagePair) -> _DefaultEffect:
        return _DefaultEffect(pair)

    def judge(
        self, path: str, base: Field, head: Field
    ) -> tuple[Severity, Versions, str | Wording]:
        """(severity, versions it matters in, what it does) for one changed default."""
        tagged = self.tagged.get(path, Versions.none())
        if not tagged.empty:
            return (
                Severity.ERROR,
                tagged,
                Wording(
                    " in ",
                    ", where it is tagged: a writer omits a tagged field equal to its default, "
                    "so old and new readers fill in different values",
                ),
            )
        around = self.around.get(path.rpartition(".")[0], Versions.none())
        absent = around - (base.versions & head.versions)
        present = around & base.versions & head.versions
        if present.empty:
            return Severity.INFO, self.common, "; the field is in no released version"
        if absent.empty:
            return (
                Severity.INFO,
                present,
                "; the field is written in every released version and is not tagged, so "
                "no byte and no decoded value changes",
            )
        old = show_value(base.default.value)
        writer = (
            "drops the field silently when it holds it (ignorable)"
            if head.ignorable
            else "fails to write it (non-ignorable)"
        )
        return (
            Severity.WARNING,
            absent,
            Wording(
                ": readers of ",
                f", which lack the field, now fill in {show_value(head.default.value)} "
                f"instead of {old}, and a writer asked to send {old} to them {writer}",
            ),
        )


@pair_rule("field-renamed", Category.NAMES, Severity.WARNING)
def field_renamed(pair: MessagePair, report: Reporter) -> None:
    """A field renamed: same bytes, but generated code and JSON break."""
    seen = set()
    for struct_pair in pair.struct_pairs:
        for base, head in struct_pair.renamed:
            if (base.path, head.path) in seen:
                continue
            seen.add((base.path, head.path))
            report.changed(
                node(head),
                node(base),
                "name",
                f"field {base.path} was renamed to {head.name}",
                field_path=head.path,
                hint="keep the old name; renames break generated accessors and JSON",
            )


@pair_rule("struct-renamed", Category.NAMES, Severity.WARNING)
def struct_renamed_rule(pair: MessagePair, report: Reporter) -> None:
    """A struct type renamed: same bytes, but generated class names change."""
    seen = set()
    for match in pair.matched_fields():
        base, head = match.base, match.head
        if struct_renamed(base, head) and head.path not in seen:
            seen.add(head.path)
            report.changed(
                node(head),
                node(base),
                "type",
                f"struct type of {head.path} was renamed from "
                f"{base.field.type.base} to {head.field.type.base}",
                field_path=head.path,
                hint="keep the struct's name; generated classes are named after it",
            )


@definition_rule("map-key-changed", Category.FIELDS, Severity.WARNING)
def map_key_changed(path: str, base: Field, head: Field, report: Reporter) -> None:
    """mapKey changed: the generated collection type and lookups change."""
    if base.map_key != head.map_key:
        report(
            head.node,
            f"mapKey of {path} changed from {str(base.map_key).lower()} to "
            f"{str(head.map_key).lower()}",
            key="mapKey" if head.map_key else "name",
            base=base.node,
            hint="generated code switches between a list and a keyed collection",
        )


@definition_rule("ignorable-changed", Category.FIELDS, Severity.WARNING)
def ignorable_changed(path: str, base: Field, head: Field, report: Reporter) -> None:
    """ignorable changed: writers now drop (or refuse to drop) the field silently."""
    if base.ignorable == head.ignorable:
        return
    key = "ignorable" if head.node is not None and "ignorable" in head.node else "name"
    if base.ignorable:
        report(
            head.node,
            f"{path} is no longer ignorable: code that sets it and writes an "
            "older version without it now fails instead of dropping it",
            key=key,
            base=base.node,
            hint="keep ignorable: true unless dropping the value is really unsafe",
        )
    else:
        report(
            head.node,
            f"{path} became ignorable: writers of older versions now drop it "
            "silently instead of failing",
            key=key,
            base=base.node,
            severity=Severity.INFO,
        )


@definition_rule("entity-type-changed", Category.FIELDS, Severity.WARNING)
def entity_type_changed(path: str, base: Field, head: Field, report: Reporter) -> None:
    """entityType changed or removed: tooling that redacts or routes by entity breaks."""
    before = base.entity_type if base.entity_type not in (None, "unknown") else None
    after = head.entity_type if head.entity_type not in (None, "unknown") else None
    if before is None or before == after:
        return  # adding an entityType where there was none breaks nothing
    key = "entityType" if head.node is not None and "entityType" in head.node else "name"
    report(
        head.node,
        f"entityType of {path} changed from {before} to {after or 'none'}",
        key=key,
        base=base.node,
        base_key="entityType",
    )


@definition_rule("docs-changed", Category.DOCS, Severity.INFO)
def docs_changed(path: str, base: Field, head: Field, report: Reporter) -> None:
    """A field's about text changed (compatible)."""
    if base.about != head.about:
        report.changed(
            head.node,
            base.node,
            "about",
            f"documentation of {path} changed",
        )
