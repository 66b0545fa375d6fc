"""Walk a message's field lists (the top level, inline structs, common structs) once.

Tags, names and mapKeys are scoped per struct, so most lint rules iterate scopes. Rules
that read the document as written (schema, version syntax) walk its objects instead.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from kcompat.spec.load import JArray, JObject
from kcompat.spec.model import Field, Memo, Message
from kcompat.spec.specfile import SpecFile
from kcompat.spec.versions import Versions


@dataclass(frozen=True)
class Scope:
    """One list of sibling fields and the versions in which it exists."""

    name: str  # the message or struct name
    path: str  # dotted path of the owning field ("" at the top level)
    versions: Versions  # versions in which this scope exists
    fields: tuple[Field, ...]
    node: JObject | None
    top_level: bool = False
    common: bool = False

    def field_path(self, field: Field) -> str:
        return f"{self.path}.{field.name}" if self.path else field.name


#: A message's scopes, its fields with their scopes, the fields written in the spec, and
#: the document's objects (every lint rule walks some of them).
_SCOPES: Memo[tuple[Scope, ...]] = Memo("scopes")
_FIELDS: Memo[tuple[tuple[Scope, Field], ...]] = Memo("fields_with_scopes")
_WRITTEN: Memo[tuple[tuple[Scope, Field, JObject], ...]] = Memo("written_fields")
_OBJECTS: Memo[tuple[tuple[str, JObject], ...]] = Memo("written_objects")


def scopes(message: Message) -> tuple[Scope, ...]:
    """The top level, every inline struct (depth first), then every common struct.

    Memoised on the (frozen) message: every lint rule walks the same scopes.
    """
    return _SCOPES(message, lambda: tuple(_scopes(message)))


def _scopes(message: Message) -> Iterator[Scope]:
    top = Scope(message.name, "", message.valid_versions, message.fields, message.node, True)
    yield top
    yield from _inline(top)
    for struct in message.common_structs:
        # A common struct exists only in message versions that its own versions allow.
        common = Scope(
            struct.name,
            struct.name,
            struct.versions & message.valid_versions,
            struct.fields,
            struct.node,
            common=True,
        )
        yield common
        yield from _inline(common)


def _inline(scope: Scope) -> Iterator[Scope]:
    for field in scope.fields:
        if field.node is not None and isinstance(field.node.get("fields"), list):
            child = Scope(
                field.type.base,
                scope.field_path(field),
                scope.versions & field.versions,
                field.fields,
                field.node,
            )
            yield child
            yield from _inline(child)


def fields_of(message: Message) -> tuple[tuple[Scope, Field], ...]:
    """Every field written in the spec, with the scope it belongs to (memoised)."""
    return _FIELDS(
        message,
        lambda: tuple((scope, field) for scope in scopes(message) for field in scope.fields),
    )


def written_fields(scope: Scope) -> Iterator[tuple[Field, JObject]]:
    """The scope's fields written in the spec (with a JSON node): for rules that check a
    field against its siblings (a finding names the field: ``field_path=``
    ``scope.field_path(field)``)."""
    for field in scope.fields:
        if field.node is not None:
            yield field, field.node


def each_field(message: Message) -> tuple[tuple[Scope, Field, JObject], ...]:
    """Every field written in the spec, with its scope and its JSON node (memoised): what
    the field walk hands each field rule, and what rules that also need the whole message
    go through (a finding names the field: ``field_path=scope.field_path(field)``)."""

    def written() -> tuple[tuple[Scope, Field, JObject], ...]:
        return tuple(
            (scope, field, field.node)
            for scope, field in fields_of(message)
            if field.node is not None
        )

    return _WRITTEN(message, written)


def written_objects(spec: SpecFile) -> tuple[tuple[str, JObject], ...]:
    """Every object of the document as written, in order, with the schema it follows: the
    message (``"message"``), each field at any depth (``"field"``), each common struct
    (``"commonStruct"``); nothing if the document is not an object (then it has no
    message). Memoised on the message: the schema and version rules each go through them."""
    message = spec.message
    if message is None or message.node is None:
        return ()
    root = message.node
    return _OBJECTS(message, lambda: tuple(_objects(root)))


def _objects(root: JObject) -> Iterator[tuple[str, JObject]]:
    yield "message", root

    def fields(value: object) -> Iterator[tuple[str, JObject]]:
        if isinstance(value, JArray):
            for item in value:
                if isinstance(item, JObject):
                    yield "field", item
                    yield from fields(item.get("fields"))

    yield from fields(root.get("fields"))
    structs = root.get("commonStructs")
    if isinstance(structs, JArray):
        for struct in structs:
            if isinstance(struct, JObject):
                yield "commonStruct", struct
                yield from fields(struct.get("fields"))
