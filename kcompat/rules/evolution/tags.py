"""Tag evolution rules (KIP-482): tags are forever, tagging is per released version."""

from __future__ import annotations

from kcompat.findings import Reporter, Severity, Wording
from kcompat.rules.evolution.adapters import field_pair_rule, pair_rule, pair_rule_in_context
from kcompat.rules.evolution.common import node
from kcompat.rules.evolution.context import DiffContext
from kcompat.rules.evolution.pairing import FieldPair, MessagePair
from kcompat.rules.registry import Category
from kcompat.spec.ledger import Binding, tag_bindings, walk_fields
from kcompat.spec.load import JObject
from kcompat.spec.model import Field, Message
from kcompat.spec.resolve import LayoutField


@field_pair_rule("tag-changed", Category.TAGS, Severity.ERROR)
def tag_changed(match: FieldPair, report: Reporter) -> None:
    """A tagged field's tag number changed in a released version."""
    base, head = match.base, match.head
    if base.tagged and head.tagged and base.tag != head.tag:
        report.changed(
            node(head),
            node(base),
            "tag",
            Wording(
                f"tag of {head.path} changed from {base.tag} to {head.tag} in ",
                "; old writers' tag means nothing (or something else) to new readers",
            ),
            hint=f"keep tag {base.tag}",
        )


@field_pair_rule("field-tagging-changed", Category.TAGS, Severity.ERROR)
def field_tagging_changed(match: FieldPair, report: Reporter) -> None:
    """A field turned tagged or untagged (taggedVersions changed) in a released version."""
    base, head = match.base, match.head
    if base.tagged == head.tagged:
        return
    now = f"tagged (tag {head.tag})" if head.tagged else "untagged"
    report(
        node(head),
        Wording(
            f"{head.path} became {now} in ",
            ": it moves between the fixed fields and the tagged section (taggedVersions "
            f"{base.field.tagged_versions} -> {head.field.tagged_versions})",
        ),
        key="taggedVersions" if head.tagged or "taggedVersions" in (node(head) or {}) else "name",
        base=node(base),
        base_key="taggedVersions" if base.tagged else "name",
        hint="tag a field only from a new version on",
    )


@pair_rule_in_context("tag-reused", Category.TAGS, Severity.ERROR)
def tag_reused(pair: MessagePair, report: Reporter, context: DiffContext) -> None:
    """A tag that once meant one field (name and type) now means another."""
    base_fields = _tagged_fields(pair.base)
    head_fields = _tagged_fields(pair.head)
    base_bindings = tag_bindings(pair.base, "BASE")
    renumbered = _renumbered(base_fields, head_fields)
    for (path, tag), binding in tag_bindings(pair.head, "HEAD").items():
        earlier = base_bindings.get((path, tag))
        if earlier is not None and not _released_tagged(base_fields.get((path, tag)), pair):
            earlier = None  # BASE's meaning never shipped (an unreleased version): free to change
        if _same_field(earlier, binding):
            continue
        meanings = _other_meanings(pair, context, path, tag, earlier, binding, renumbered)
        if meanings:
            tagged = (base_fields.get((path, tag)), head_fields.get((path, tag)))
            _report_reuse(pair, report, path, tag, binding, meanings[0], tagged)


def _same_field(earlier: Binding | None, binding: Binding) -> bool:
    """Whether HEAD's meaning of a tag is BASE's field: the same name and type, the same
    field with a new type (field-type-changed reports it), or a renamed field with the
    same type (field-renamed reports it)."""
    return earlier is not None and (
        earlier.name.lower() == binding.name.lower() or earlier.type == binding.type
    )


#: Types written as the same bytes: a bool is one byte, 0 or 1, as an int8 0 or 1 is.
_SAME_BYTES = {frozenset({"bool", "int8"})}


def same_meaning(left: Binding, right: Binding) -> bool:
    """Two meanings of a tag that are one field: names equal but for case (Java's
    accessors aside, ``LastKnownELR`` is ``LastKnownElr``) and types written alike."""
    same_type = left.type == right.type or frozenset({left.type, right.type}) in _SAME_BYTES
    return left.name.lower() == right.name.lower() and same_type


def _other_meanings(
    pair: MessagePair,
    context: DiffContext,
    path: str,
    tag: int,
    earlier: Binding | None,
    binding: Binding,
    renumbered: set[tuple[str, str, str]],
) -> list[Binding]:
    """What the tag meant before (BASE's meaning first, then the history's) other than
    HEAD's ``binding``."""
    meanings = [earlier] if earlier is not None else []
    meanings += [
        m
        for m in context.ledger.meanings(pair.base.name, path, tag)
        if not same_meaning(m, binding)
    ]
    # Fields of BASE that only moved to other numbers (two swapping their tags, or a
    # shift) are tag-changed's findings, not reuses: reported once each, not four times.
    # A field new in HEAD that takes a moved field's old tag does reuse it.
    if (path, binding.name, binding.type) in renumbered:
        meanings = [m for m in meanings if (path, m.name, m.type) not in renumbered]
    return meanings


def _report_reuse(
    pair: MessagePair,
    report: Reporter,
    path: str,
    tag: int,
    binding: Binding,
    old: Binding,
    tagged: tuple[Field | None, Field | None],
) -> None:
    """Report that ``tag`` of ``path`` meant ``old`` and now means ``binding``, at the HEAD
    field (and the BASE one when the old meaning is BASE's); ``tagged`` is the (BASE, HEAD)
    field with that tag, if any."""
    base_tagged, head_field = tagged
    field_path = f"{path}.{binding.name}" if path else binding.name
    base_field = base_tagged if old.seen_in == "BASE" else None
    where = "in BASE" if old.seen_in == "BASE" else f"in {old.seen_in}"
    old_path = f"{path}.{old.name}" if path else old.name
    report.changed(
        head_field.node if head_field is not None else pair.head.node,
        base_field.node if base_field is not None else None,
        "tag",
        f"tag {tag} of {path or pair.head.name} is reused: it meant {old.name} "
        f"({old.type}) {where}, now {binding.name} ({binding.type})",
        field_path=field_path,
        hint="never reuse a tag; take the next unused one",
        explains=(old_path,),
    )


def _released_tagged(field: Field | None, pair: MessagePair) -> bool:
    """Whether a BASE field was tagged in a version that counts as released."""
    return field is None or not (field.tagged_versions & pair.released).empty


def _tagged_fields(message: Message) -> dict[tuple[str, int], Field]:
    """(struct path, tag) -> field, as :func:`tag_bindings` keys them."""
    out: dict[tuple[str, int], Field] = {}
    for scope_path, field in walk_fields(message, message.fields, "", ()):
        if field.tag is not None and not field.tagged_versions.empty:
            out.setdefault((scope_path, field.tag), field)
    return out


def _renumbered(
    base: dict[tuple[str, int], Field], head: dict[tuple[str, int], Field]
) -> set[tuple[str, str, str]]:
    """(struct path, name, type) of tagged fields whose tag differs between the sides
    (as BASE and as HEAD type it)."""
    base_by_name = {(path, f.name): (tag, f) for (path, tag), f in base.items()}
    out = set()
    for (path, tag), field in head.items():
        found = base_by_name.get((path, field.name))
        if found is not None and found[0] != tag:
            out.add((path, found[1].name, found[1].type.text))
            out.add((path, field.name, field.type.text))
    return out


@pair_rule_in_context("tagged-field-added", Category.TAGS, Severity.INFO)
def tagged_field_added(pair: MessagePair, report: Reporter, context: DiffContext) -> None:
    """A tagged field added to existing versions with a fresh tag (compatible)."""
    base_bindings = tag_bindings(pair.base, "BASE")
    for struct_pair in pair.struct_pairs:
        for entry in struct_pair.head_only:
            known = entry.tag is not None and (struct_pair.path, entry.tag) in base_bindings
            if (
                entry.tagged
                and not known
                and not _tag_taken(pair, context, base_bindings, struct_pair.path, entry)
            ):
                report(
                    node(entry),
                    Wording(f"tagged field {entry.path} (tag {entry.tag}) added to "),
                    key="tag",
                    field_path=entry.path,
                    versions=struct_pair.versions,
                )


def _tag_taken(
    pair: MessagePair,
    context: DiffContext,
    base_bindings: dict[tuple[str, int], Binding],
    path: str,
    entry: LayoutField,
) -> bool:
    """The tag meant another field in BASE or its history: tag-reused's finding, not ours."""
    assert entry.tag is not None
    meanings = [base_bindings.get((path, entry.tag))]
    meanings += context.ledger.meanings(pair.base.name, path, entry.tag)
    return any(
        m is not None and (m.name, m.type) != (entry.name, entry.field.type.text) for m in meanings
    )


@pair_rule("tagged-versions-changed", Category.TAGS, Severity.ERROR)
def tagged_versions_changed(pair: MessagePair, report: Reporter) -> None:
    """A tagged field added to or dropped from a released version while the other side knows its
    tag: Kafka's readers reject a known tag in a version it is not valid for.
    """
    base_bindings = tag_bindings(pair.base, "BASE")
    head_bindings = tag_bindings(pair.head, "HEAD")
    for struct_pair in pair.struct_pairs:
        cases = (
            (struct_pair.head_only, base_bindings, "BASE", "added to"),
            (struct_pair.base_only, head_bindings, "HEAD", "dropped from"),
        )
        for entries, reader_bindings, reader, change in cases:
            for entry in entries:
                if not entry.tagged or entry.tag is None:
                    continue
                known = reader_bindings.get((struct_pair.path, entry.tag))
                if known is None or known.name.lower() != entry.name.lower():
                    continue  # unknown to the reader (skipped), or tag-reused's finding
                report.changed(
                    node(entry) if change == "added to" else _head_node(pair, entry),
                    node(entry) if change == "dropped from" else None,
                    "taggedVersions",
                    Wording(
                        f"tagged field {entry.path} (tag {entry.tag}) was {change} ",
                        f", but {reader} knows tag {entry.tag} from other versions: its "
                        "readers reject a known tag in a version where it is not valid",
                    ),
                    field_path=entry.path,
                    versions=struct_pair.versions,
                    hint="change taggedVersions only from a new version on; a tag unknown to "
                    "the reader would be skipped, a known one is an error",
                )


def _head_node(pair: MessagePair, entry: LayoutField) -> JObject | None:
    """HEAD's definition of a BASE field (its name's case may differ), else the message."""
    wanted = entry.path.lower()
    found = next((f for path, f in pair.head.walk() if path.lower() == wanted), None)
    return found.node if found is not None and found.node is not None else pair.head.node
