"""Go to definition and find references, for struct types.

A struct is defined inline (a field with ``fields``: its type names the struct) or once
in ``commonStructs``; fields use it by naming it as their type (``Topic``, ``[]Topic``).
A struct a spec uses but does not define is looked for in the other specs of its folder.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from kcompat.lsp.documents import Parsed, Spot
from kcompat.spec.load import JObject
from kcompat.spec.model import FieldType


@dataclass(frozen=True)
class Target:
    """A place in one of the folder's specs (offsets into its text)."""

    parsed: Parsed
    start: int
    end: int


def struct_name(spot: Spot) -> str | None:
    """The struct the cursor names: on a type (``[]Topic``), on a common struct's name,
    or on the name of a field that defines a struct inline."""
    if spot.on_key:
        return None
    value = spot.obj.get(spot.key)
    if not isinstance(value, str):
        return None
    if spot.kind == "field" and spot.key == "type":
        kind = FieldType(value)
        return kind.base if kind.has_struct else None
    if spot.kind == "commonStruct" and spot.key == "name":
        return value
    if spot.kind == "field" and spot.key == "name" and "fields" in spot.obj:
        kind = FieldType(str(spot.obj.get("type", "")))
        return kind.base if kind.has_struct else None
    return None


def definitions(name: str, here: Parsed, folder: Sequence[Parsed]) -> list[Target]:
    """Where ``name`` is defined: in ``here``, else in the folder's other specs."""
    local = list(_defined(name, here))
    if local:
        return local
    return [t for other in folder if other.path != here.path for t in _defined(name, other)]


def references(
    name: str, here: Parsed, folder: Sequence[Parsed], declaration: bool
) -> list[Target]:
    """Every field whose type names ``name``: in ``here``, and in the folder's specs that
    use it without defining it (so take it from ``here``); with the definitions when
    ``declaration``."""
    found = list(_uses(name, here))
    for other in folder:
        if other.path != here.path and not any(_defined(name, other)):
            found.extend(_uses(name, other))
    if declaration:
        found = definitions(name, here, folder) + found
    return found


def _defined(name: str, parsed: Parsed) -> Iterator[Target]:
    for kind, obj, _path in parsed.objects:
        if obj.get("name") != name and kind == "commonStruct":
            continue
        if kind == "commonStruct" or (kind == "field" and "fields" in obj and _names(obj, name)):
            yield _name_target(parsed, obj)


def _names(obj: JObject, name: str) -> bool:
    value = obj.get("type")
    return isinstance(value, str) and FieldType(value).base == name


def _uses(name: str, parsed: Parsed) -> Iterator[Target]:
    for kind, obj, _path in parsed.objects:
        if kind == "field" and _names(obj, name):
            start, end = parsed.span(obj.value_pos["type"])
            yield Target(parsed, start, end)


def _name_target(parsed: Parsed, obj: JObject) -> Target:
    pos = obj.value_pos.get("name", obj.pos)
    start, end = parsed.span(pos)
    return Target(parsed, start, end)
