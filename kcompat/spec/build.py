"""Document to model, tolerantly: a bad value becomes an empty or default one.

Lint rules look at the raw document for why a value is bad; everything downstream (diff,
codec, explain) gets a model it can always walk. The builder never raises for bad specs.
"""

from __future__ import annotations

import re
from types import MappingProxyType
from typing import Any

from kcompat.spec.defaults import parse_default
from kcompat.spec.jackson import scalar_text
from kcompat.spec.load import Document, JArray, JObject
from kcompat.spec.model import EncodingRule, Field, FieldType, Message, Struct, StructRegistry
from kcompat.spec.versions import Versions


def build_message(document: Document) -> Message | None:
    """The message a document defines, or ``None`` when its root is not an object."""
    root = document.root
    if not isinstance(root, JObject):
        return None
    valid = _versions(root.get("validVersions"))
    flexible = _versions(root.get("flexibleVersions"))
    fields = _fields(root.get("fields"), valid)
    common = tuple(_struct(node, common=True) for node in _objects(root.get("commonStructs")))
    listeners = root.get("listeners")
    if isinstance(listeners, str):  # Jackson reads a single value as a one-item list
        listeners = [listeners]
    return Message(
        name=_scalar(root.get("name")),
        kind=_text(root.get("type")),  # an enum: Jackson does not read a number as its name
        valid_versions=valid,
        flexible_versions=flexible,
        fields=fields,
        api_key=_int(root.get("apiKey")),
        deprecated_versions=_versions(root.get("deprecatedVersions")),
        latest_version_unstable=_bool(root.get("latestVersionUnstable")),
        listeners=tuple(x for x in listeners if isinstance(x, str))
        if isinstance(listeners, list)
        else (),
        common_structs=common,
        structs=_registry(fields, common),
        path=document.path,
        node=root,
    )


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _scalar(value: Any) -> str:
    """A string key as Kafka reads it: a JSON number or boolean becomes its text."""
    text = scalar_text(value)
    return text if text is not None else ""


def _type_text(value: Any) -> str:
    """A type as Kafka's FieldType.parse reads it: trimmed, and the element of [] too."""
    text = _scalar(value).strip()
    if text.startswith("[]"):
        return "[]" + text[2:].strip()
    return text


def _int(value: Any) -> int | None:
    """An integer as Kafka's Jackson reads it: numbers, integral floats, decimal strings."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and _INT_TEXT.fullmatch(value):
        return int(value)  # ASCII digits only: str.isdigit() also takes "²", which int() refuses
    return None


_INT_TEXT = re.compile(r"\s*-?[0-9]{1,20}\s*")


def _bool(value: Any) -> bool:
    """A boolean as Jackson reads it: true, or the string "true"."""
    return value is True or value == "true"


def _versions(value: Any, fallback: Versions | None = None) -> Versions:
    # Jackson reads a JSON number or boolean where a string belongs as its text; most
    # version keys a field may have are absent (None), which needs no parsing
    parsed = None if value is None else Versions.try_parse(scalar_text(value))
    if parsed is None:
        return fallback if fallback is not None else Versions.none()
    return parsed


def _objects(value: Any) -> list[JObject]:
    if not isinstance(value, JArray):
        return []
    return [item for item in value if isinstance(item, JObject)]


def _fields(value: Any, parent_versions: Versions) -> tuple[Field, ...]:
    if not isinstance(value, JArray):  # most fields have no "fields"
        return ()
    return tuple(_field(node, parent_versions) for node in _objects(value))


def _field(node: JObject, parent_versions: Versions) -> Field:
    tagged = _versions(node.get("taggedVersions"))
    # Kafka: a field without "versions" but with taggedVersions takes those.
    versions = _versions(node.get("versions"), tagged)
    field_type = FieldType(_type_text(node.get("type")))
    nullable = _versions(node.get("nullableVersions"))
    flexible_override = node.get("flexibleVersions")
    entity_type = node.get("entityType")
    return Field(
        name=_scalar(node.get("name")),
        type=field_type,
        versions=versions,
        about=_scalar(node.get("about")),
        nullable_versions=nullable,
        tag=_int(node.get("tag")),
        tagged_versions=tagged,
        default=parse_default(node.get("default"), field_type, versions, nullable),
        ignorable=_bool(node.get("ignorable")),
        map_key=_bool(node.get("mapKey")),
        entity_type=entity_type if isinstance(entity_type, str) else None,
        flexible_versions=Versions.try_parse(scalar_text(flexible_override)),
        zero_copy=_bool(node.get("zeroCopy")),
        encoding=_encoding(node.get("encoding"), versions),
        fields=_fields(node.get("fields"), versions),
        node=node,
    )


def _encoding(value: Any, versions: Versions) -> tuple[EncodingRule, ...]:
    """The ``encoding`` extension: a name for all versions, or {range: name}."""
    if isinstance(value, str):
        return (EncodingRule(versions, value),)
    if isinstance(value, JObject):
        rules = []
        for key, name in value.items():
            parsed = Versions.try_parse(key)
            if parsed is not None and isinstance(name, str):
                rules.append(EncodingRule(parsed, name))
        return tuple(rules)
    return ()


def _struct(node: JObject, *, common: bool) -> Struct:
    versions = _versions(node.get("versions"))
    return Struct(
        name=_scalar(node.get("name")),
        versions=versions,
        fields=_fields(node.get("fields"), versions),
        common=common,
        node=node,
    )


def _registry(fields: tuple[Field, ...], common: tuple[Struct, ...]) -> StructRegistry:
    """Common structs first, then inline ones in document order; first definition wins."""
    by_name: dict[str, Struct] = {}
    redefinitions: list[Struct] = []

    def add(struct: Struct) -> None:
        if not struct.name:
            return
        if struct.name in by_name:
            redefinitions.append(struct)
        else:
            by_name[struct.name] = struct

    for struct in common:
        add(struct)

    def visit(children: tuple[Field, ...]) -> None:
        for child in children:
            if child.type.has_struct and child.node is not None and "fields" in child.node:
                add(Struct(child.type.base, child.versions, child.fields, False, child.node))
            visit(child.fields)

    visit(fields)
    for struct in common:
        visit(struct.fields)
    return StructRegistry(MappingProxyType(by_name), tuple(redefinitions))
