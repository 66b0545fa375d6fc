"""The wire layout of one message version: which fields are written, in what order, how.

This is the single version-resolved view every command reads: lint checks it, diff
compares two of them, the codec compiles it, explain draws it. A :class:`Wire` says
exactly how one value becomes bytes at that version (fixed or varint integers, int16 /
int32 / compact lengths, null markers), so two layouts that compare equal are
byte-compatible.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from kcompat.spec.model import INT_TYPES, Default, Field, Memo, Message
from kcompat.spec.placed import declares_fields
from kcompat.spec.versions import Versions


class Kind(StrEnum):
    BOOL = "bool"
    INT = "int"
    FLOAT64 = "float64"
    UUID = "uuid"
    STRING = "string"
    BYTES = "bytes"
    RECORDS = "records"
    ARRAY = "array"
    STRUCT = "struct"


#: Integer forms of ``encoding``: fixed-width big-endian, zig-zag varint, unsigned varint.
INT_FORMS = ("fixed", "packed", "upacked")


@dataclass(frozen=True, slots=True)
class Wire:
    """How one value is written at one version."""

    kind: Kind
    form: str = ""  # ints: fixed | packed | upacked
    bits: int = 0  # ints: encoded width (8/16/32/64)
    signed: bool = True  # ints: false for uint16/uint32
    type_bits: int = 0  # ints: width of the declared type; wider than bits = range-checked
    compact: bool = False  # string/bytes/records/array: uvarint(length+1) prefix
    nullable: bool = False
    null_marker: str = ""  # nullable structs: "int8" (-1/1) or "uvarint" (0/1, tagged)
    element: Wire | None = None  # arrays
    struct: StructLayout | None = None  # structs

    @property
    def is_varint(self) -> bool:
        return self.kind is Kind.INT and self.form != "fixed"

    @property
    def fixed_size(self) -> int | None:
        """Bytes on the wire when constant, else ``None``."""
        if self.kind is Kind.BOOL:
            return 1
        if self.kind is Kind.INT and self.form == "fixed":
            return self.bits // 8
        if self.kind is Kind.FLOAT64:
            return 8
        if self.kind is Kind.UUID:
            return 16
        return None

    def describe(self) -> str:
        """A protocol-guide style name: INT32, COMPACT_NULLABLE_STRING, UNSIGNED_VARINT..."""
        kind = self.kind
        if kind is Kind.BOOL:
            return "BOOLEAN"
        if kind is Kind.INT:
            if self.form == "fixed":
                name = ("INT" if self.signed else "UINT") + str(self.bits)
                return name if self.bits == self.type_bits else f"{name}(of int{self.type_bits})"
            base = {"packed": "VARINT", "upacked": "UNSIGNED_VARINT"}[self.form]
            if self.bits == 64:
                base = base.replace("VARINT", "VARLONG")
            return base if self.bits in (32, 64) else f"{base}{self.bits}"
        if kind is Kind.FLOAT64:
            return "FLOAT64"
        if kind is Kind.UUID:
            return "UUID"
        prefix = ("COMPACT_" if self.compact else "") + ("NULLABLE_" if self.nullable else "")
        if kind in (Kind.STRING, Kind.BYTES):
            return prefix + kind.value.upper()
        if kind is Kind.RECORDS:
            return ("COMPACT_" if self.compact else "") + "RECORDS"
        if kind is Kind.ARRAY:
            assert self.element is not None
            return f"{prefix}ARRAY[{self.element.describe()}]"
        assert self.struct is not None
        return ("NULLABLE_" if self.nullable else "") + f"STRUCT {self.struct.name}"


@dataclass(frozen=True, slots=True)
class LayoutField:
    """One field as it appears on the wire at one version."""

    field: Field
    path: str  # dotted from the message: Topics.Partitions.PartitionIndex
    wire: Wire
    tag: int | None  # the tag when the field is tagged at this version
    nullable: bool

    @property
    def name(self) -> str:
        return self.field.name

    @property
    def default(self) -> Default:
        return self.field.default

    @property
    def tagged(self) -> bool:
        return self.tag is not None


@dataclass(frozen=True, slots=True)
class StructLayout:
    """A struct (or the message body) at one version: fields in wire order, then tags."""

    name: str
    path: str
    fields: tuple[LayoutField, ...]  # untagged, in wire order
    tagged: tuple[LayoutField, ...]  # tagged, ascending tag
    flexible: bool  # a tagged-field section follows the fields
    defined: bool = True  # False when the struct type is not defined anywhere

    def all_fields(self) -> tuple[LayoutField, ...]:
        return self.fields + self.tagged


@dataclass(frozen=True, slots=True)
class Layout:
    """A message at one version."""

    message: Message
    version: int
    flexible: bool
    root: StructLayout


def resolve(message: Message, version: int) -> Layout:
    """The wire layout of ``message`` at ``version`` (memoised per message object)."""
    cache = _cache_of(message)
    layout = cache.get(version)
    if layout is None:
        if version not in message.valid_versions:
            raise ValueError(
                f"{message.name} has no version {version} (valid: {message.valid_versions})"
            )
        at = _At(message, version, version in message.flexible_versions, _shared_of(message))
        root = _struct_layout(at, message.name, "", message.fields)
        layout = Layout(message, version, at.flexible, root)
        cache[version] = layout
    return layout


def layouts(message: Message, versions: Versions | None = None) -> list[Layout]:
    """Layouts for every valid version (or the valid ones among ``versions``)."""
    wanted = message.valid_versions if versions is None else versions & message.valid_versions
    return [resolve(message, v) for v in wanted]


#: Layouts by version, a memo on the (frozen) message: layouts are a pure function of it.
_LAYOUTS: Memo[dict[int, Layout]] = Memo("layouts")
#: Resolved fields without a struct inside, shared by every version that writes them
#: alike: versions then hold the same objects, so comparing (and pairing) a field across
#: versions is an identity check, and a spec with thousands of versions does not hold
#: thousands of copies of each field.
_SHARED: Memo[dict[tuple[object, ...], LayoutField]] = Memo("shared_fields")


def _cache_of(message: Message) -> dict[int, Layout]:
    return _LAYOUTS(message, dict)


def _shared_of(message: Message) -> dict[tuple[object, ...], LayoutField]:
    return _SHARED(message, dict)


@dataclass(frozen=True, slots=True)
class _At:
    """What stays the same while one message version is laid out: the message, the
    version, whether it is flexible, and the message's shared resolved fields."""

    message: Message
    version: int
    flexible: bool
    shared: dict[tuple[object, ...], LayoutField]


def _scalar_key(
    at: _At, field: Field, path: str, tagged: bool, nullable: bool
) -> tuple[object, ...] | None:
    """Everything a field without a struct inside resolves from at one version (``None``
    for struct-typed fields, resolved each time)."""
    if field.type.has_struct:
        return None
    version = at.version
    own_flexible = None if field.flexible_versions is None else version in field.flexible_versions
    rule = field.encoding_at(version) if field.encoding else None
    return (id(field), path, at.flexible, tagged, nullable, own_flexible, id(rule))


def _struct_layout(
    at: _At,
    name: str,
    path: str,
    fields: tuple[Field, ...],
    defined: bool = True,
    chain: tuple[str, ...] = (),
) -> StructLayout:
    regular: list[LayoutField] = []
    tagged: list[LayoutField] = []
    version, shared = at.version, at.shared
    for field in fields:
        if version not in field.versions:
            continue
        field_path = f"{path}.{field.name}" if path else field.name
        is_tagged = field.tagged_at(version)
        nullable = field.nullable_at(version)
        key = _scalar_key(at, field, field_path, is_tagged, nullable)
        entry = shared.get(key) if key is not None else None
        if entry is None:
            wire = _wire(at, field, field_path, is_tagged, nullable, (*chain, name))
            entry = LayoutField(field, field_path, wire, field.tag if is_tagged else None, nullable)
            if key is not None:
                shared[key] = entry
        (tagged if is_tagged else regular).append(entry)
    tagged.sort(key=lambda entry: entry.tag if entry.tag is not None else -1)
    return StructLayout(name, path, tuple(regular), tuple(tagged), at.flexible, defined)


def _wire(
    at: _At, field: Field, path: str, tagged: bool, nullable: bool, chain: tuple[str, ...]
) -> Wire:
    field_type = field.type
    compact = at.flexible or tagged
    if field.flexible_versions is not None and not tagged:
        compact = at.version in field.flexible_versions
    if field_type.is_array:
        element = _element_wire(at, field, path, chain)
        return Wire(Kind.ARRAY, compact=compact, nullable=nullable, element=element)
    name = field_type.text
    if name in INT_TYPES:
        return _int_wire(field, at.version)
    if field_type.is_struct:
        struct = _struct_of(at, field, path, chain)
        marker = ("uvarint" if tagged else "int8") if nullable else ""
        return Wire(Kind.STRUCT, nullable=nullable, null_marker=marker, struct=struct)
    kind = _SIMPLE_KINDS.get(name)
    if kind is None:  # an invalid type: lint reports it; describe it as opaque bytes
        kind = Kind.BYTES
    if kind in (Kind.BOOL, Kind.FLOAT64, Kind.UUID):
        return Wire(kind)
    # records follow nullableVersions like bytes: Kafka's generated readers throw
    # "non-nullable field ... was serialized as null" for records without it.
    return Wire(kind, compact=compact, nullable=nullable)


_SIMPLE_KINDS = {
    "bool": Kind.BOOL,
    "float64": Kind.FLOAT64,
    "uuid": Kind.UUID,
    "string": Kind.STRING,
    "bytes": Kind.BYTES,
    "records": Kind.RECORDS,
}


def _int_wire(field: Field, version: int) -> Wire:
    type_bits, signed = INT_TYPES[field.type.text]
    rule = field.encoding_at(version)
    if rule is not None and rule.form in INT_FORMS and rule.bits in (16, 32, 64):
        return Wire(Kind.INT, form=rule.form, bits=rule.bits, signed=signed, type_bits=type_bits)
    return Wire(Kind.INT, form="fixed", bits=type_bits, signed=signed, type_bits=type_bits)


def _element_wire(at: _At, field: Field, path: str, chain: tuple[str, ...]) -> Wire:
    element = field.type.element
    if element.is_struct:
        struct = _struct_of(at, field, path, chain)
        return Wire(Kind.STRUCT, struct=struct)
    name = element.text
    if name in INT_TYPES:
        bits, signed = INT_TYPES[name]
        return Wire(Kind.INT, form="fixed", bits=bits, signed=signed, type_bits=bits)
    kind = _SIMPLE_KINDS.get(name, Kind.BYTES)
    if kind in (Kind.BOOL, Kind.FLOAT64, Kind.UUID):
        return Wire(kind)
    return Wire(kind, compact=at.flexible)


def _struct_of(at: _At, field: Field, path: str, chain: tuple[str, ...]) -> StructLayout:
    """The layout of a struct-typed field: its inline fields, or the named struct's.

    A struct that contains itself (directly or not) has no finite layout; it resolves as
    undefined (lint reports recursive-struct) instead of recursing forever.
    """
    name = field.type.base
    if name in chain:
        return _struct_layout(at, name, path, (), defined=False)
    if declares_fields(field):
        return _struct_layout(at, name, path, field.fields, True, chain)
    struct = at.message.structs.get(name)
    if struct is None:
        return _struct_layout(at, name, path, (), defined=False)
    return _struct_layout(at, name, path, struct.fields, True, chain)
