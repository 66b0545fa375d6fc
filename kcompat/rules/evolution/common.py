"""Predicates shared by evolution rules, so each change is reported by exactly one rule."""

from __future__ import annotations

from kcompat.spec.load import JObject
from kcompat.spec.resolve import Kind, LayoutField, StructLayout, Wire
from kcompat.spec.shape import own_shape


def node(entry: LayoutField) -> JObject | None:
    return entry.field.node


def type_names_differ(base: LayoutField, head: LayoutField) -> bool:
    return base.field.type.text != head.field.type.text


def struct_renamed(base: LayoutField, head: LayoutField) -> bool:
    """Both are structs (or arrays of structs) whose struct type name changed."""
    b, h = base.field.type, head.field.type
    return b.has_struct and h.has_struct and b.is_array == h.is_array and b.base != h.base


def boxing_exception(base: LayoutField, head: LayoutField) -> str | None:
    """Kafka's one allowed type change: []P <-> []S where S holds a single P field.

    Returns "compatible" when the bytes really are the same, or an explanation when the
    change is the documented exception but breaks anyway (in flexible versions every
    struct element carries its own tagged-field section).
    """
    for primitive, boxed in ((base.wire, head.wire), (head.wire, base.wire)):
        if primitive.kind is not Kind.ARRAY or boxed.kind is not Kind.ARRAY:
            continue
        element, box = primitive.element, boxed.element
        if element is None or box is None or element.kind is Kind.STRUCT:
            continue
        if box.kind is not Kind.STRUCT or box.struct is None:
            continue
        inner: StructLayout = box.struct
        if (
            len(inner.fields) != 1
            or inner.tagged
            or own_shape(inner.fields[0].wire) != own_shape(element)
        ):
            continue
        if primitive.compact != boxed.compact or primitive.nullable != boxed.nullable:
            continue
        if inner.flexible:
            return (
                "in flexible versions each struct element ends with its own tagged-field "
                "section, so an array of single-field structs is not the same bytes as an "
                "array of primitives"
            )
        return "compatible"
    return None


def int_encoding_changed(base: Wire, head: Wire) -> bool:
    return (
        base.kind is Kind.INT
        and head.kind is Kind.INT
        and (base.form, base.bits, base.signed) != (head.form, head.bits, head.signed)
    )


def describe(entry: LayoutField) -> str:
    return entry.wire.describe()
