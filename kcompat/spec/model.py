"""The immutable model of a message spec: messages, structs, fields and their types.

Built tolerantly from a document by :mod:`kcompat.spec.build` (a bad value becomes an
empty or default one and lint says why), so every command can work on partly broken
specs. Each object keeps the JSON object it came from for positions; that reference is
excluded from equality and hashing.
"""

from __future__ import annotations

import math
import uuid
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from types import MappingProxyType
from typing import Any, ClassVar, Generic, TypeVar, cast

from kcompat.spec.load import JObject
from kcompat.spec.versions import Versions

#: Integer types: name -> (bits, signed).
INT_TYPES: Mapping[str, tuple[int, bool]] = MappingProxyType(
    {
        "int8": (8, True),
        "int16": (16, True),
        "uint16": (16, False),
        "int32": (32, True),
        "uint32": (32, False),
        "int64": (64, True),
    }
)
PRIMITIVE_TYPES: frozenset[str] = frozenset(
    {*INT_TYPES, "bool", "float64", "string", "bytes", "records", "uuid"}
)
#: Types with a null form on the wire (KIP-893 adds structs, handled separately).
NULLABLE_PRIMITIVES: frozenset[str] = frozenset({"string", "bytes", "records"})
#: Message types Kafka knows (``coordinator-key``/``-value`` arrived in Kafka 4.0).
MESSAGE_KINDS: tuple[str, ...] = (
    "request",
    "response",
    "header",
    "metadata",
    "data",
    "coordinator-key",
    "coordinator-value",
)
ENTITY_TYPES: tuple[str, ...] = (
    "unknown",
    "transactionalId",
    "producerId",
    "groupId",
    "topicName",
    "brokerId",
)
LISTENERS: tuple[str, ...] = ("zkBroker", "broker", "controller")
ZERO_UUID = uuid.UUID(int=0)
NO_VERSIONS = Versions()


@dataclass(frozen=True, slots=True)
class FieldType:
    """A field's declared type, as written: ``int32``, ``[]string``, ``Topic``, ``[]Topic``."""

    text: str

    @property
    def is_array(self) -> bool:
        return self.text.startswith("[]")

    @property
    def element(self) -> FieldType:
        """The element type of an array; the type itself otherwise."""
        return FieldType(self.text[2:]) if self.is_array else self

    @property
    def base(self) -> str:
        """The element type's name (``Topic`` for ``[]Topic``)."""
        return self.text.removeprefix("[]")

    @property
    def is_primitive(self) -> bool:
        return self.text in PRIMITIVE_TYPES

    @property
    def is_struct(self) -> bool:
        """A struct (not an array of one): Kafka reads any capitalised name as a struct."""
        return not self.is_array and _is_struct_name(self.text)

    @property
    def is_struct_array(self) -> bool:
        return self.is_array and _is_struct_name(self.base)

    @property
    def has_struct(self) -> bool:
        """A struct or an array of structs, i.e. the field may carry ``fields``."""
        return _names_struct(self.text)

    @property
    def is_int(self) -> bool:
        return self.text in INT_TYPES

    @property
    def is_valid(self) -> bool:
        """Parseable by Kafka: a primitive, a struct name, or an array of either."""
        base = self.base
        if base.startswith("[]"):
            return False
        return base in PRIMITIVE_TYPES or _is_struct_name(base)

    @property
    def can_be_nullable(self) -> bool:
        return self.is_array or self.text in NULLABLE_PRIMITIVES or self.is_struct

    def __str__(self) -> str:
        return self.text


def _is_struct_name(name: str) -> bool:
    return bool(name) and name[0].isupper() and name.isidentifier()


@lru_cache(maxsize=4096)
def _names_struct(text: str) -> bool:
    """Whether a type as written is a struct or an array of structs: asked of every field
    by many lint rules, about the few hundred type names one folder's specs use, so kept
    by name (a bounded cache: a history's names stay few, hostile ones cannot grow it)."""
    return _is_struct_name(text.removeprefix("[]"))


@dataclass(frozen=True, slots=True)
class Default:
    """A field default: the text as written and the typed value it means.

    ``value`` is what a reader assumes when the field is absent: the parsed custom
    default, or the type's own default (0, false, "", empty, zero uuid, null records).
    ``error`` says why the text is invalid for the type; the value is then the type's.
    """

    text: str | None
    value: Any
    error: str | None = None

    @property
    def explicit(self) -> bool:
        return self.text is not None

    def key(self) -> Any:
        """A value that compares equal exactly when two defaults mean the same thing."""
        value = self.value
        if isinstance(value, float):
            return ("float", "nan" if math.isnan(value) else value)
        if isinstance(value, bool):
            return ("bool", value)
        return value

    def __str__(self) -> str:
        return show_value(self.value)


class EmptyStruct:
    """The default of a non-null struct: every field at its own default."""

    _instance: EmptyStruct | None = None

    def __new__(cls) -> EmptyStruct:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "{}"


EMPTY_STRUCT = EmptyStruct()


def show_value(value: Any) -> str:
    """A short human form of a typed value (defaults, samples)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return repr(value) if value else '""'
    if isinstance(value, bytes | bytearray):
        return "0x" + value.hex() if value else "empty bytes"
    if isinstance(value, tuple | list):
        return "[]" if not value else f"[{len(value)} items]"
    if isinstance(value, uuid.UUID):
        return str(value)
    if isinstance(value, float) and not math.isfinite(value):
        return "NaN" if math.isnan(value) else ("-Infinity" if value < 0 else "Infinity")
    return repr(value) if not isinstance(value, int | float) else str(value)


@dataclass(frozen=True, slots=True)
class EncodingRule:
    """The integer ``encoding`` (``fixed32``, ``packed64``, ...) of some versions."""

    versions: Versions
    name: str

    @property
    def form(self) -> str:
        return self.name.rstrip("0123456789")

    @property
    def bits(self) -> int:
        digits = self.name[len(self.form) :]
        return int(digits) if digits.isdigit() else 0


@dataclass(frozen=True, slots=True)
class Field:
    """One field of a message or struct, across all its versions."""

    name: str
    type: FieldType
    versions: Versions
    about: str = ""
    nullable_versions: Versions = NO_VERSIONS
    tag: int | None = None
    tagged_versions: Versions = NO_VERSIONS
    default: Default = Default(None, None)
    ignorable: bool = False
    map_key: bool = False
    entity_type: str | None = None
    flexible_versions: Versions | None = None  # field-level override (RequestHeader.ClientId)
    zero_copy: bool = False
    encoding: tuple[EncodingRule, ...] = ()
    fields: tuple[Field, ...] = ()  # inline struct definition, if any
    node: JObject | None = field(default=None, compare=False, repr=False)

    @property
    def is_tagged(self) -> bool:
        return self.tag is not None and not self.tagged_versions.empty

    def tagged_at(self, version: int) -> bool:
        return self.tag is not None and version in self.tagged_versions

    def nullable_at(self, version: int) -> bool:
        return version in self.nullable_versions

    def encoding_at(self, version: int) -> EncodingRule | None:
        for rule in self.encoding:
            if version in rule.versions:
                return rule
        return None

    def walk(self, prefix: str = "") -> Iterator[tuple[str, Field]]:
        """This field and its inline descendants as (dotted path, field)."""
        path = f"{prefix}.{self.name}" if prefix else self.name
        yield path, self
        for child in self.fields:
            yield from child.walk(path)


@dataclass(frozen=True, slots=True)
class Struct:
    """A struct type: inline (defined by a field with ``fields``) or a common struct."""

    name: str
    versions: Versions
    fields: tuple[Field, ...]
    common: bool = False
    node: JObject | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class StructRegistry:
    """Every struct a message defines, by name; later definitions of a name are kept apart."""

    by_name: Mapping[str, Struct] = field(default_factory=lambda: MappingProxyType({}))
    redefinitions: tuple[Struct, ...] = ()

    def get(self, name: str) -> Struct | None:
        return self.by_name.get(name)

    def __contains__(self, name: object) -> bool:
        return name in self.by_name

    def __iter__(self) -> Iterator[Struct]:
        return iter(self.by_name.values())


def releasable(valid: Versions, latest_unstable: bool) -> Versions:
    """The versions a release of a message ships: valid ones, less the highest when
    ``latestVersionUnstable`` says it is still being worked on."""
    if latest_unstable and not valid.empty:
        return valid.subtract(Versions.of(valid.highest, valid.highest))
    return valid


@dataclass(frozen=True)
class Message:
    """One spec file's message: a request, response, header, record or data type."""

    name: str
    kind: str  # the JSON "type": request, response, header, metadata, data, ...
    valid_versions: Versions
    flexible_versions: Versions
    fields: tuple[Field, ...]
    api_key: int | None = None
    deprecated_versions: Versions = NO_VERSIONS
    latest_version_unstable: bool = False
    listeners: tuple[str, ...] = ()
    common_structs: tuple[Struct, ...] = ()
    structs: StructRegistry = field(default_factory=StructRegistry)
    path: str = ""
    node: JObject | None = field(default=None, compare=False, repr=False)

    @property
    def released_versions(self) -> Versions:
        """Valid versions minus the highest one when it is marked unstable."""
        return releasable(self.valid_versions, self.latest_version_unstable)

    def struct_for(self, field_: Field) -> Struct | None:
        """The struct a struct-typed field refers to (inline or common), if defined."""
        if not field_.type.has_struct:
            return None
        return self.structs.get(field_.type.base)

    def walk(self) -> Iterator[tuple[str, Field]]:
        """Every field written in this spec (inline and common structs) as (path, field)."""
        for top in self.fields:
            yield from top.walk()
        for struct in self.common_structs:
            for child in struct.fields:
                yield from child.walk(struct.name)


_V = TypeVar("_V")
_ABSENT = object()


class Memo(Generic[_V]):
    """A value derived from a frozen :class:`Message`, worked out once and kept on it.

    The one way kcompat memoises on a frozen model object (nothing else writes into one):
    what is derived from a message (its layouts, signatures, scopes, compiled codecs) is
    a pure function of it, so it lives and dies with the message, and equal messages built
    apart keep their own. Each memo is declared once, at module level, under a name of its
    own: ``_LAYOUTS: Memo[dict[int, Layout]] = Memo("layouts")``, then
    ``_LAYOUTS(message, dict)`` is the message's dictionary, made on first use.
    """

    _names: ClassVar[set[str]] = set()
    __slots__ = ("_slot", "name")

    def __init__(self, name: str) -> None:
        if name in Memo._names:
            raise ValueError(f"a memo named {name!r} exists already: choose another name")
        Memo._names.add(name)
        self.name = name
        self._slot = f"_memo_{name}"

    def __call__(self, message: Message, compute: Callable[[], _V]) -> _V:
        """The value kept on ``message``; ``compute()`` gives it the first time."""
        found = message.__dict__.get(self._slot, _ABSENT)
        if found is _ABSENT:
            found = compute()
            message.__dict__[self._slot] = found
        return cast(_V, found)

    def known(self, message: Message) -> bool:
        """Whether ``message`` holds this memo's value already."""
        return self._slot in message.__dict__

    def put(self, message: Message, value: _V) -> None:
        """Keep ``value`` on ``message`` (for values worked out for many messages at once)."""
        message.__dict__[self._slot] = value
