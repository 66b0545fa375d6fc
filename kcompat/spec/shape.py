"""Byte-level shapes of resolved layouts: what two layouts must share to be the same bytes.

Names, docs and struct type names are not bytes; neither is the grouping of fields into a
non-nullable nested struct in a non-flexible version (it is written inline). ``records``
is written exactly like ``bytes``.
"""

from __future__ import annotations

from kcompat.spec.model import Memo, Message
from kcompat.spec.resolve import Kind, LayoutField, StructLayout, Wire
from kcompat.spec.runs import runs
from kcompat.spec.versions import Versions


def struct_inside(wire: Wire) -> StructLayout | None:
    """The struct a field holds: itself, or its array's elements (the one helper every
    comparison of layouts descends with)."""
    if wire.kind is Kind.STRUCT:
        return wire.struct
    if wire.kind is Kind.ARRAY and wire.element is not None:
        return struct_inside(wire.element)
    return None


def _kind_and_null(wire: Wire) -> tuple[Kind, bool]:
    # records are length-prefixed bytes: byte for byte the same as bytes (resolve gives
    # both the field's own nullability)
    if wire.kind is Kind.RECORDS:
        return Kind.BYTES, wire.nullable
    return wire.kind, wire.nullable


def own_shape(wire: Wire) -> tuple[object, ...]:
    """A value's shape without the insides of structs (those are compared field by field)."""
    element = own_shape(wire.element) if wire.element is not None else None
    kind, nullable = _kind_and_null(wire)
    return (
        kind,
        wire.form,
        wire.bits,
        wire.signed,
        wire.compact,
        nullable,
        wire.null_marker,
        element,
    )


def wire_shape(wire: Wire) -> tuple[object, ...]:
    """The bytes-level shape of a value: everything but names, recursively."""
    element = wire_shape(wire.element) if wire.element is not None else None
    struct = struct_shape(wire.struct) if wire.struct is not None else None
    return (*own_shape(wire)[:-1], element, struct)


def untagged_shape(wire: Wire) -> tuple[object, ...]:
    """:func:`wire_shape` without the tagged fields of structs, at any depth: two fields
    whose untagged bytes agree may still be one field renamed while a tagged field was
    added inside it (compatible: pairing their insides reports that on its own)."""
    element = untagged_shape(wire.element) if wire.element is not None else None
    struct = None
    if wire.struct is not None:
        leaves = inline_leaves(wire.struct)
        struct = (tuple(untagged_shape(e.wire) for e in leaves), wire.struct.flexible)
    return (*own_shape(wire)[:-1], element, struct)


def struct_shape(layout: StructLayout) -> tuple[object, ...]:
    """A struct's bytes-level shape.

    In a non-flexible version a non-nullable nested struct is just its fields, back to
    back (no length, no marker, no tagged section), so it is inlined: flattening or
    grouping fields that way does not change a single byte.
    """
    return (
        tuple(wire_shape(entry.wire) for entry in inline_leaves(layout)),
        tuple((f.tag, wire_shape(f.wire)) for f in layout.tagged),
        layout.flexible,
    )


def is_inline(layout: StructLayout, entry: LayoutField) -> bool:
    """A struct field written as its bare fields (see :func:`struct_shape`)."""
    wire = entry.wire
    return (
        wire.kind is Kind.STRUCT
        and not wire.nullable
        and not layout.flexible
        and wire.struct is not None
    )


def inline_leaves(layout: StructLayout) -> list[LayoutField]:
    """The untagged fields in wire order, with inline structs opened up."""
    leaves: list[LayoutField] = []
    for entry in layout.fields:
        if is_inline(layout, entry) and entry.wire.struct is not None:
            leaves.extend(inline_leaves(entry.wire.struct))
        else:
            leaves.append(entry)
    return leaves


def layout_signature(layout: StructLayout, *, all_defaults: bool = True) -> tuple[object, ...]:
    """Everything a struct's codec depends on: names, tags, wire forms, nullability and
    defaults, recursively. Two layouts with equal signatures read and write alike and
    name their fields alike (the proof skips them). Without ``all_defaults`` only tagged
    fields' defaults count: the default of a field written at this version never reaches
    the wire nor a value read from it (FORMAT-NOTES, "Defaults")."""
    return (
        layout.flexible,
        tuple(
            (
                f.name,
                f.tag,
                f.nullable,
                f.default.key() if all_defaults or f.tag is not None else None,
                _wire_signature(f.wire, all_defaults),
            )
            for f in layout.all_fields()
        ),
    )


def _wire_signature(wire: Wire, all_defaults: bool = True) -> tuple[object, ...]:
    element = _wire_signature(wire.element, all_defaults) if wire.element is not None else None
    struct = (
        layout_signature(wire.struct, all_defaults=all_defaults)
        if wire.struct is not None
        else None
    )
    return (
        wire.kind,
        wire.form,
        wire.bits,
        wire.signed,
        wire.type_bits,
        wire.compact,
        wire.nullable,
        wire.null_marker,
        element,
        struct,
    )


#: Layout signatures by version, kept on the message.
_SIGNATURES: Memo[dict[int, tuple[object, ...]]] = Memo("signatures")
#: Wire signatures by version, kept on the message.
_WIRE_SIGNATURES: Memo[dict[int, tuple[object, ...]]] = Memo("wire_signatures")


def version_signature(message: Message, version: int) -> tuple[object, ...]:
    """:func:`layout_signature` of a message version, memoised on the (frozen) message:
    history audits ask about the same message versions in hundreds of comparisons."""
    from kcompat.spec.resolve import resolve

    cache = _SIGNATURES(message, dict)
    found = cache.get(version)
    if found is None:
        found = layout_signature(resolve(message, version).root)
        cache[version] = found
    return found


def wire_signature(message: Message, version: int) -> tuple[object, ...]:
    """What a version is on the wire and in the values read from it: its
    :func:`layout_signature` less the defaults of fields written at it (untagged).

    Releases are told apart by it: a release and a revision whose layouts differ only in
    such a default ship the same version (memoised on the frozen message, as
    :func:`version_signature`)."""
    from kcompat.spec.resolve import resolve

    cache = _WIRE_SIGNATURES(message, dict)
    found = cache.get(version)
    if found is None:
        found = layout_signature(resolve(message, version).root, all_defaults=False)
        cache[version] = found
    return found


#: Release layouts by version (and whether tagged fields count), kept on the message.
_RELEASE_LAYOUTS: Memo[dict[tuple[int, bool], str]] = Memo("release_layouts")


def release_layout(message: Message, version: int, *, tagged: bool = True) -> str:
    """What a release is told apart by at ``version``, as a short digest: the bytes on the
    wire and the values read from them, never a name (2.7.0 renamed FetchRequest's
    ``MaxWait`` to ``MaxWaitMs`` and shipped versions 0-10 as 2.2.0 did). Fields go in wire
    order, a non-nullable struct of a non-flexible version opened up (it is written as
    its bare fields), tagged fields by tag with their defaults (a writer omits a value
    equal to it), ``records`` as ``bytes``. Without ``tagged``, tagged fields (at any
    depth) do not count: what every reader of the version must agree on (memoised on
    the frozen message)."""
    from kcompat.spec.resolve import resolve

    cache = _RELEASE_LAYOUTS(message, dict)
    found = cache.get((version, tagged))
    if found is None:
        found = signature_digest(_struct_identity(resolve(message, version).root, tagged))
        cache[(version, tagged)] = found
    return found


def _struct_identity(layout: StructLayout, tagged: bool) -> tuple[object, ...]:
    return (
        layout.flexible,
        tuple((e.nullable, _value_identity(e.wire, tagged)) for e in inline_leaves(layout)),
        tuple(
            (f.tag, f.nullable, f.default.key(), _value_identity(f.wire, tagged))
            for f in (layout.tagged if tagged else ())
        ),
    )


def _value_identity(wire: Wire, tagged: bool) -> tuple[object, ...]:
    element = _value_identity(wire.element, tagged) if wire.element is not None else None
    struct = _struct_identity(wire.struct, tagged) if wire.struct is not None else None
    kind, nullable = _kind_and_null(wire)
    return (
        kind,
        wire.form,
        wire.bits,
        wire.signed,
        wire.type_bits,
        wire.compact,
        nullable,
        wire.null_marker,
        element,
        struct,
    )


#: The versions two messages have whose wire signatures differ, kept on the newer message
#: by the older one's identity (with the older one, so that identity stays its own).
_WIRE_CHANGES: Memo[dict[int, tuple[Message, Versions]]] = Memo("wire_changes")
#: :func:`wire_changes` compares versions up to this one (open-ended ranges stop here).
WIRE_CHANGES_UPTO = 4096


def wire_changes(base: Message, head: Message) -> Versions:
    """The versions both messages have (up to :data:`WIRE_CHANGES_UPTO`) whose
    :func:`wire_signature` differs, compared once per pair of messages: reading releases
    asks twice per comparison (the releases that count, then what each shipped), and the
    changelog once more (:func:`same_layout`)."""
    known = _WIRE_CHANGES(head, dict)
    found = known.get(id(base))
    if found is None or found[0] is not base:
        common = (base.valid_versions & head.valid_versions).clip(WIRE_CHANGES_UPTO)
        # once per run of versions whose layouts cannot differ (kcompat.spec.runs)
        changed = [
            run
            for run in runs(base, head, common)
            if wire_signature(base, run.lowest) != wire_signature(head, run.lowest)
        ]
        found = (base, Versions.from_ranges(r for run in changed for r in run.ranges))
        known[id(base)] = found
    return found[1]


def _known_wire_changes(base: Message, head: Message) -> Versions | None:
    """:func:`wire_changes` if it was worked out already, else None."""
    if not _WIRE_CHANGES.known(head):
        return None
    found = _WIRE_CHANGES(head, dict).get(id(base))
    return found[1] if found is not None and found[0] is base else None


def same_layout(before: Message, after: Message, version: int) -> bool:
    """Whether two messages have one :func:`version_signature` at ``version``, without
    building either: their :func:`wire_signature` differs only in the defaults of fields
    written at the version (which versions differ so is known once releases were read:
    :func:`wire_changes`), so with equal wire signatures the two layouts have one shape,
    and only their defaults, field by field, remain to compare."""
    from kcompat.spec.resolve import resolve

    changed = _known_wire_changes(before, after)
    if changed is not None and version <= WIRE_CHANGES_UPTO:
        if version in changed:
            return False
    elif wire_signature(before, version) != wire_signature(after, version):
        return False
    return _same_defaults(resolve(before, version).root, resolve(after, version).root)


def _same_defaults(before: StructLayout, after: StructLayout) -> bool:
    """Every default of two layouts of one shape agrees (as :func:`layout_signature`
    walks them: each field, then the struct or elements it holds)."""
    for old, new in zip(before.all_fields(), after.all_fields(), strict=True):
        if old.default.key() != new.default.key() or not _same_wire_defaults(old.wire, new.wire):
            return False
    return True


def _same_wire_defaults(before: Wire, after: Wire) -> bool:
    """The defaults inside two values of one shape agree (as :func:`_wire_signature`)."""
    element, other = before.element, after.element
    if element is not None and other is not None and not _same_wire_defaults(element, other):
        return False
    if before.struct is not None and after.struct is not None:
        return _same_defaults(before.struct, after.struct)
    return True


def signature_digest(signature: tuple[object, ...]) -> str:
    import hashlib

    text = repr(signature).encode("utf-8", "surrogatepass")
    return hashlib.sha1(text, usedforsecurity=False).hexdigest()[:16]
