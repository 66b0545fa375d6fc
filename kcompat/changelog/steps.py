"""What each new version does, compared with the version before it in the same spec.

Within one spec a field's name is its identity and its definition does not change from
version to version: only which versions hold it, make it nullable or tagged, or encode
it otherwise. So a new version is compared with the one before it on the model's own
per-version accessors (:meth:`Field.nullable_at`, :meth:`Field.tagged_at`,
:meth:`Field.encoding_at`), walking the structs the fields hold as
:func:`kcompat.spec.resolve.resolve` walks them, without laying either version out:
a history's new versions cost a few set lookups each, not a layout.

Only versions where some range of the spec starts or ends are looked at
(:func:`kcompat.spec.runs.boundaries`): elsewhere a version is the one before it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from kcompat.changelog.fields import default_text
from kcompat.changelog.model import Change, ChangeKind
from kcompat.spec.model import INT_TYPES, Field, Message
from kcompat.spec.runs import boundaries, runs
from kcompat.spec.versions import Versions


def new_version_changes(base: Message, head: Message) -> list[Change]:
    """What each version HEAD adds does, compared with HEAD's version before it."""
    new = head.valid_versions - base.valid_versions
    if new.empty:
        return []
    cuts = boundaries(head)
    out: list[Change] = []
    for run in runs(head, head, new):
        version = run.lowest
        if version not in cuts or version == head.valid_versions.lowest:
            continue
        previous = (head.valid_versions & Versions.of(0, version - 1)).highest
        step = _Step(head, previous, version, Versions.of(version, version))
        out += step.walk(head.fields, "", (head.name,))
    return out


class _Step:
    """One version of a spec against an earlier one."""

    def __init__(self, message: Message, before: int, after: int, at: Versions) -> None:
        self.message, self.before, self.after, self.at = message, before, after, at

    def walk(self, fields: Sequence[Field], path: str, chain: tuple[str, ...]) -> Iterator[Change]:
        before, after = self.before, self.after
        for field in fields:
            was, now = before in field.versions, after in field.versions
            if not (was or now):
                continue
            field_path = f"{path}.{field.name}" if path else field.name
            if was != now:
                yield self._added(field, field_path) if now else self._ended(field, field_path)
                continue
            yield from self._form(field, field_path)
            children = self._children(field, chain)
            if children:
                yield from self.walk(children, field_path, (*chain, field.type.base))

    def _children(self, field: Field, chain: tuple[str, ...]) -> Sequence[Field]:
        """The fields of the struct a field holds, as resolve finds them: its own
        definition, else the message's struct of that name (none inside itself)."""
        if field.fields:
            return field.fields if field.type.base not in chain else ()
        if not field.type.has_struct or field.type.base in chain:
            return ()
        if field.node is not None and "fields" in field.node:
            return field.fields
        struct = self.message.struct_for(field)
        return struct.fields if struct is not None else ()

    def _added(self, field: Field, path: str) -> Change:
        version = self.after
        tagged = field.tagged_at(version)
        return Change(
            self.message.name,
            ChangeKind.TAGGED_FIELD_ADDED if tagged else ChangeKind.FIELD_ADDED,
            self.at,
            field=path,
            type=_type_at(field, version),
            default=default_text(field),
            tag=field.tag if tagged else None,
        )

    def _ended(self, field: Field, path: str) -> Change:
        version = self.before
        tag = field.tag if field.tagged_at(version) else None
        return Change(
            self.message.name,
            ChangeKind.FIELD_ENDED,
            self.at,
            field=path,
            type=_type_at(field, version),
            tag=tag,
        )

    def _form(self, field: Field, path: str) -> Iterator[Change]:
        """Nullability, tagging and integer encoding: what may differ between versions."""
        if not (field.nullable_versions or field.tagged_versions or field.encoding):
            return  # the same at every version
        before, after, name = self.before, self.after, self.message.name
        if field.nullable_at(before) != field.nullable_at(after):
            starts = field.nullable_at(after)
            kind = ChangeKind.NULLABLE_STARTED if starts else ChangeKind.NULLABLE_ENDED
            yield Change(name, kind, self.at, field=path, type=field.type.text)
        was_tagged, now_tagged = field.tagged_at(before), field.tagged_at(after)
        if was_tagged != now_tagged:
            yield Change(
                name,
                ChangeKind.TAGGING_CHANGED,
                self.at,
                field=path,
                before=f"tag {field.tag}" if was_tagged else "untagged",
                after=f"tag {field.tag}" if now_tagged else "untagged",
                tag=field.tag if now_tagged else None,
            )
        if field.encoding and field.type.is_int:
            old, new = _encoding_at(field, before), _encoding_at(field, after)
            if old != new:
                kind = ChangeKind.ENCODING_CHANGED
                yield Change(name, kind, self.at, field=path, before=old, after=new)


def _type_at(field: Field, version: int) -> str:
    """The type as written, ``nullable`` added where the version makes it so."""
    text = field.type.text
    return f"nullable {text}" if field.nullable_at(version) else text


def _encoding_at(field: Field, version: int) -> str:
    """An integer field's encoding at a version (``fixed32`` when none is given)."""
    rule = field.encoding_at(version)
    return rule.name if rule is not None else f"fixed{INT_TYPES[field.type.text][0]}"
