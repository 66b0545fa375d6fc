"""Tag evolution rules (KIP-482): tags are forever, tagging is per released version."""

from __future__ import annotations

from kcompat.diff.engine import DiffContext
from kcompat.diff.ledger import Binding, tag_bindings
from kcompat.diff.match import MessagePair
from kcompat.rules.engine import Reporter, Severity, rule
from kcompat.rules.evolution.common import DIFF, node


@rule(
    "tag-changed",
    category="tags",
    severity=Severity.ERROR,
    summary="A tagged field's tag number changed in a released version.",
    **DIFF,
)
def tag_changed(pair: MessagePair, report: Reporter, context: DiffContext) -> None:
    for struct_pair, base, head in pair.matched_fields():
        if base.tagged and head.tagged and base.tag != head.tag:
            report(
                node(head),
                f"tag of {head.path} changed from {base.tag} to {head.tag} in "
                "{versions}; old writers' tag means nothing (or something else) to new readers",
                key="tag",
                field_path=head.path,
                versions=str(struct_pair.version),
                base=node(base),
                base_key="tag",
                hint=f"keep tag {base.tag}",
            )


@rule(
    "field-tagging-changed",
    category="tags",
    severity=Severity.ERROR,
    summary="A field turned tagged or untagged (taggedVersions changed) in a released version.",
    **DIFF,
)
def field_tagging_changed(pair: MessagePair, report: Reporter, context: DiffContext) -> None:
    for struct_pair, base, head in pair.matched_fields():
        if base.tagged == head.tagged:
            continue
        now = f"tagged (tag {head.tag})" if head.tagged else "untagged"
        report(
            node(head),
            f"{head.path} became {now} in {{versions}}: it moves between the "
            "fixed fields and the tagged section (taggedVersions "
            f"{base.field.tagged_versions} -> {head.field.tagged_versions})",
            key="taggedVersions"
            if head.tagged or "taggedVersions" in (node(head) or {})
            else "name",
            field_path=head.path,
            versions=str(struct_pair.version),
            base=node(base),
            base_key="taggedVersions" if base.tagged else "name",
            hint="tag a field only from a new version on",
        )


@rule(
    "tag-reused",
    category="tags",
    severity=Severity.ERROR,
    summary="A tag that once meant one field (name and type) now means another.",
    **DIFF,
)
def tag_reused(pair: MessagePair, report: Reporter, context: DiffContext) -> None:
    base_bindings = tag_bindings(pair.base, "BASE")
    for (path, tag), binding in tag_bindings(pair.head, "HEAD").items():
        earlier = base_bindings.get((path, tag))
        if earlier is not None and (earlier.name, earlier.type) == (binding.name, binding.type):
            continue  # the same field as in BASE
        if earlier is not None and (earlier.name == binding.name or earlier.type == binding.type):
            # the same field with a new type (field-type-changed reports it), or a renamed
            # field with the same type (field-renamed reports it)
            continue
        meanings = [earlier] if earlier is not None else []
        meanings += [
            m
            for m in context.ledger.meanings(pair.base.name, path, tag)
            if (m.name, m.type) != (binding.name, binding.type)
        ]
        if not meanings:
            continue
        old: Binding = meanings[0]
        field_path = f"{path}.{binding.name}" if path else binding.name
        head_field = dict(pair.head.walk()).get(field_path)
        where = "in BASE" if old.seen_in == "BASE" else f"in {old.seen_in}"
        report(
            head_field.node if head_field is not None else pair.head.node,
            f"tag {tag} of {path or pair.head.name} is reused: it meant {old.name} "
            f"({old.type}) {where}, now {binding.name} ({binding.type})",
            key="tag",
            field_path=field_path,
            hint="never reuse a tag; take the next unused one",
        )


@rule(
    "tagged-field-added",
    category="tags",
    severity=Severity.INFO,
    summary="A tagged field added to existing versions with a fresh tag (compatible).",
    **DIFF,
)
def tagged_field_added(pair: MessagePair, report: Reporter, context: DiffContext) -> None:
    for struct_pair in pair.struct_pairs:
        for entry in struct_pair.head_only:
            if entry.tagged:
                report(
                    node(entry),
                    f"tagged field {entry.path} (tag {entry.tag}) added to {{versions}}",
                    key="tag",
                    field_path=entry.path,
                    versions=str(struct_pair.version),
                )


def _same_field(old: Binding, new: Binding) -> bool:
    """Same name, and a struct type on both sides: the struct was renamed, not the tag reused."""
    return (
        old.name == new.name
        and old.type.startswith("[]") == new.type.startswith("[]")
        and old.type.removeprefix("[]")[:1].isupper()
        and new.type.removeprefix("[]")[:1].isupper()
    )
