"""Every field of a message where it is used: the fields of a struct under each field of
its type, common structs expanded in place, in declared order (as resolve reads them).

A field declares its struct's fields itself (``"fields"``, even an empty list) or names a
struct defined elsewhere (a ``commonStructs`` entry): :func:`struct_fields`, the one
place that rule is written. A struct
that contains itself is not expanded again (resolve gives it no layout).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from kcompat.spec.model import Field, Message
from kcompat.spec.versions import Versions


@dataclass(frozen=True, slots=True)
class Placed:
    """One field at one place in the message."""

    path: str  # dotted from the message: Topics.Partitions.PartitionIndex
    depth: int  # 0 at the top level
    field: Field
    around: Versions  # the versions its enclosing structs are written in
    common: str  # the common struct this struct-typed field expands ("" if none)
    within: str  # the common struct this field is part of ("" if none)
    recursive: bool  # its struct contains itself: not expanded here


def declares_fields(field: Field) -> bool:
    """Whether a field writes its struct's fields itself (``"fields"``, even empty)."""
    return bool(field.fields) or (field.node is not None and "fields" in field.node)


def struct_fields(message: Message, field: Field) -> tuple[Field, ...]:
    """The fields of a struct-typed field: its own when it declares them, else those of
    the struct its type names (() when that struct is not defined)."""
    if declares_fields(field):
        return field.fields
    struct = message.structs.get(field.type.base)
    return struct.fields if struct is not None else ()


def placed_fields(message: Message) -> Iterator[Placed]:
    """Every field of ``message`` where it is used, in declared order, depth first."""
    return _walk(message, message.fields, "", 0, message.valid_versions, (), "")


def _walk(
    message: Message,
    fields: tuple[Field, ...],
    prefix: str,
    depth: int,
    around: Versions,
    chain: tuple[str, ...],
    within: str,
) -> Iterator[Placed]:
    for item in fields:
        path = f"{prefix}.{item.name}" if prefix else item.name
        name = item.type.base
        if not item.type.has_struct or name in chain:
            yield Placed(path, depth, item, around, "", within, item.type.has_struct)
            continue
        struct = None if declares_fields(item) else message.structs.get(name)
        common = struct.name if struct is not None and struct.common else ""
        yield Placed(path, depth, item, around, common, within, False)
        children = struct_fields(message, item)
        inside = around & item.versions
        yield from _walk(
            message, children, path, depth + 1, inside, (*chain, name), common or within
        )
