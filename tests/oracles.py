"""Two independent Kafka body codecs ("oracles") behind one dict interface, for tests.

kafka-python 3.x (its spec-driven ``StructField``, the raw layer) and kio 0.6.x (generated
dataclasses, a Rust reader and a Python writer). Neither shares code with kcompat, and
they read the spec JSON themselves (this module parses it on its own, not with kcompat),
so agreement between all three is strong evidence.

Value model (what the adapters take and return), keyed by the spec's field names:
  int8 ... int64, uint16, uint32 -> int     bool -> bool    float64 -> float
  string -> str | None      bytes / records -> bytes | None
  uuid -> uuid.UUID (never None; the zero uuid stands for "unset")
  [] of anything -> list | None     struct -> dict | None (KIP-893 nullable)
Decoded values hold every field of the version (absent tagged fields at the Java-style
default). On encode, missing keys take the spec default; a tagged field equal to its
default is omitted (the Java rule); fields outside the version are ignored.

Bodies only: no length prefix, no header. Decoders raise ValueError on trailing bytes.
Workarounds for the libraries' gaps (see /work/notes/oracles.md and the quirk table in
test_codec_oracles.py): kafka-python has no uint32, no zero-field messages, no field-level
flexibleVersions, parses uuid defaults as hex and writes tags in dict order; kio maps
time and error fields to rich types (swapped for raw ints in "shadow" dataclasses) and
knows only the layouts of the one Kafka release it was generated from
(:meth:`Oracles.kio_layout_mismatch` says when its class does not match a spec).
"""

from __future__ import annotations

import base64
import copy
import dataclasses
import datetime
import io
import json
import os
import re
import types
import typing
import uuid
from functools import cache
from typing import Any, cast

ZERO_UUID = uuid.UUID(int=0)
UNKNOWN = "_unknownTaggedFields"
INT_TYPES = ("int8", "int16", "uint16", "int32", "uint32", "int64")

Spec = dict[str, Any]
FieldSpec = dict[str, Any]


def kafka_python_spec_dir() -> str:
    import kafka

    return os.path.join(os.path.dirname(kafka.__file__), "protocol", "schemas", "resources")


# ----------------------------------------------------------------------------------------
# Spec helpers (independent of kcompat)
# ----------------------------------------------------------------------------------------


def parse_versions(text: str | None) -> tuple[int, int] | None:
    if text is None or text.strip() in ("", "none"):
        return None
    text = text.strip()
    if text.endswith("+"):
        return (int(text[:-1]), 32767)
    if "-" in text:
        low, high = text.split("-")
        return (int(low), int(high))
    return (int(text), int(text))


def in_versions(text: str | None, version: int) -> bool:
    bounds = parse_versions(text)
    return bounds is not None and bounds[0] <= version <= bounds[1]


def is_tagged(field: FieldSpec, version: int) -> bool:
    return "tag" in field and in_versions(field.get("taggedVersions"), version)


def _default_of(field: FieldSpec, version: int) -> Any:
    """Java-generator semantics for a field's default value."""
    kind, default = field["type"], field.get("default")
    if default == "null":
        return None
    if kind.startswith("[]"):
        return []
    if "fields" in field:
        return {
            child["name"]: _default_of(child, version)
            for child in field["fields"]
            if in_versions(child["versions"], version)
        }
    if kind in INT_TYPES:
        return int(default, 0) if isinstance(default, str) and default else int(default or 0)
    if kind == "bool":
        return default.lower() == "true" if isinstance(default, str) else bool(default)
    if kind == "float64":
        return float(default or 0)
    if kind == "string":
        return default or ""
    if kind == "records":  # Kafka's generator ignores the text: records default to null
        return None
    if kind == "bytes":
        return b""
    if kind == "uuid":  # Kafka writes uuid defaults as URL-safe base64 (Uuid.toString)
        if not default:
            return ZERO_UUID
        if len(default) == 22:
            return uuid.UUID(bytes=base64.urlsafe_b64decode(default + "=="))
        return uuid.UUID(default)
    raise ValueError(f"unknown type {kind}")


class Oracles:
    """The adapters for the specs in one directory (kafka-python's bundled ones by default)."""

    def __init__(self, spec_dir: str | None = None) -> None:
        self.spec_dir = spec_dir or kafka_python_spec_dir()
        self._specs: dict[str, Spec] = {}
        self._fields: dict[tuple[int, int], list[FieldSpec]] = {}
        self._names: dict[int, frozenset[str]] = {}
        self._kp: dict[str, Any] = {}
        self._kio: dict[tuple[str, int], Any] = {}

    # -- specs ---------------------------------------------------------------------------
    def spec(self, name: str) -> Spec:
        found = self._specs.get(name)
        if found is None:
            found = self._specs[name] = self._load(name)
        return found

    def _load(self, name: str) -> Spec:
        with open(os.path.join(self.spec_dir, name + ".json"), encoding="utf-8") as handle:
            raw = handle.read()
        try:
            spec: Spec = json.loads(re.sub(r"(?m)^\s*//.*$", "", raw))
        except ValueError:  # /* */ comments and the like
            import json5

            spec = json5.loads(raw)
        common = {s["name"]: s["fields"] for s in spec.get("commonStructs", [])}

        def inline(fields: list[FieldSpec]) -> None:
            for field in fields:
                if "tag" in field:  # some real specs write "tag": "0"
                    field["tag"] = int(field["tag"])
                if "versions" not in field and "taggedVersions" in field:
                    field["versions"] = field["taggedVersions"]
                base = field["type"][2:] if field["type"].startswith("[]") else field["type"]
                if base in common and "fields" not in field:
                    field["fields"] = copy.deepcopy(common[base])
                if "fields" in field:
                    inline(field["fields"])

        inline(spec["fields"])
        return spec

    def check_version(self, spec: Spec, version: int) -> None:
        if not in_versions(spec["validVersions"], version):
            raise ValueError(f"{spec['name']} v{version} not in {spec['validVersions']}")

    def fields_for(self, fields: list[FieldSpec], version: int) -> list[FieldSpec]:
        key = (id(fields), version)
        found = self._fields.get(key)
        if found is None:
            found = self._fields[key] = [f for f in fields if in_versions(f["versions"], version)]
        return found

    def filled(
        self, fields: list[FieldSpec], version: int, value: dict[str, Any]
    ) -> list[tuple[FieldSpec, Any]]:
        """A (possibly partial) value as (field, value) for every field of the version."""
        names = self._names.get(id(fields))
        if names is None:
            names = self._names[id(fields)] = frozenset(f["name"] for f in fields) | {UNKNOWN}
        extra = value.keys() - names
        if extra:
            raise KeyError(f"not fields of this struct: {sorted(extra)}")
        return [
            (f, value[f["name"]] if f["name"] in value else _default_of(f, version))
            for f in self.fields_for(fields, version)
        ]

    # -- kafka-python (raw StructField: dict in, dict out) --------------------------------
    def _kp_struct(self, name: str) -> Any:
        found = self._kp.get(name)
        if found is None:
            from kafka.protocol.schemas import StructField

            _kp_patch_uint32()
            spec = copy.deepcopy(self.spec(name))

            def fix_uuid_defaults(fields: list[FieldSpec]) -> None:  # it parses them as hex
                for field in fields:
                    if field["type"] == "uuid" and field.get("default"):
                        field["default"] = str(_default_of(field, 0))
                    if "fields" in field:
                        fix_uuid_defaults(field["fields"])

            fix_uuid_defaults(spec["fields"])
            found = self._kp[name] = StructField(spec)
        return found

    def _to_snake(self, fields: list[FieldSpec], version: int, value: dict[str, Any]) -> Any:
        out: dict[str, Any] = {}
        tagged = []
        for field, item in self.filled(fields, version, value):
            snake = _snake(field["name"])
            if "fields" in field and item is not None:
                if field["type"].startswith("[]"):
                    item = [self._to_snake(field["fields"], version, x) for x in item]
                else:
                    item = self._to_snake(field["fields"], version, item)
            if is_tagged(field, version):
                # Java omits a tagged field equal to its default (kafka-python would write a
                # default struct); emit the rest in ascending tag order (it follows dict order).
                given = value.get(field["name"], _default_of(field, version))
                if given != _default_of(field, version):
                    tagged.append((field["tag"], snake, item))
                continue
            out[snake] = item
        for _, snake, item in sorted(tagged, key=lambda entry: entry[0]):
            out[snake] = item
        return out

    def _from_snake(self, fields: list[FieldSpec], version: int, data: dict[str, Any]) -> Any:
        out: dict[str, Any] = {}
        for field in self.fields_for(fields, version):
            snake = _snake(field["name"])
            if snake not in data:  # an absent tagged field
                out[field["name"]] = _default_of(field, version)
                continue
            item = data[snake]
            if "fields" in field and item is not None:
                if field["type"].startswith("[]"):
                    item = [self._from_snake(field["fields"], version, x) for x in item]
                else:
                    item = self._from_snake(field["fields"], version, item)
            elif field["type"] == "uuid":
                item = ZERO_UUID if item is None else item
            elif field["type"] == "[]uuid" and item is not None:
                item = [ZERO_UUID if x is None else x for x in item]
            out[field["name"]] = item
        unknown = {
            int(k[1:]): bytes(x) for k, x in data.items() if k.startswith("_") and k[1:].isdigit()
        }
        if unknown:
            out[UNKNOWN] = unknown
        return out

    @staticmethod
    def _kp_modes(spec: Spec, version: int) -> tuple[bool, bool]:
        flexible = in_versions(spec.get("flexibleVersions"), version)
        # kafka-python ignores field-level flexibleVersions (only RequestHeader.ClientId has
        # one, "none"); its own header class encodes the whole header non-compact.
        compact = flexible and not any("flexibleVersions" in f for f in spec["fields"])
        return compact, flexible

    def kp_encode(self, name: str, version: int, value: dict[str, Any]) -> bytes:
        spec = self.spec(name)
        self.check_version(spec, version)
        compact, tagged = self._kp_modes(spec, version)
        if not spec["fields"]:  # StructField cannot hold zero fields
            return b"\x00" if tagged else b""
        snake = self._to_snake(spec["fields"], version, value)
        data: bytes = self._kp_struct(name).encode(
            snake, version=version, compact=compact, tagged=tagged
        )
        return data

    def kp_decode(self, name: str, version: int, data: bytes) -> dict[str, Any]:
        spec = self.spec(name)
        self.check_version(spec, version)
        compact, tagged = self._kp_modes(spec, version)
        if not spec["fields"]:
            if bytes(data) != (b"\x00" if tagged else b""):
                raise ValueError("unexpected bytes for an empty message")
            return {}
        stream = io.BytesIO(bytes(data))
        decoded = self._kp_struct(name).decode(
            stream, version=version, compact=compact, tagged=tagged
        )
        if stream.tell() != len(data):
            raise ValueError(f"{len(data) - stream.tell()} trailing bytes")
        result: dict[str, Any] = self._from_snake(spec["fields"], version, decoded)
        return result

    # -- kio (shadow dataclasses with raw ints; native reader, Python writer) -------------
    def _kio_class(self, name: str, version: int) -> Any:
        key = (name, version)
        found = self._kio.get(key)
        if found is None:
            from kio.index import load_entity_schema
            from kio.static.constants import EntityType

            spec = self.spec(name)
            entity: Any = {
                "request": EntityType.request,
                "response": EntityType.response,
                "header": EntityType.header,
                "data": EntityType.data,
            }[spec["type"]]
            base = _kio_snake(name)
            if spec["type"] in ("request", "response"):
                base = base.removesuffix("_request").removesuffix("_response")
            found = self._kio[key] = _kio_shadow(load_entity_schema(base, version, entity))
        return found

    def _kio_build(self, cls: Any, fields: list[FieldSpec], version: int, value: Any) -> Any:
        spec_fields = self.fields_for(fields, version)
        kio_fields = dataclasses.fields(cls)
        if len(spec_fields) != len(kio_fields):
            raise ValueError(
                f"kio {cls.__name__}: {len(kio_fields)} fields, spec has {len(spec_fields)}"
            )
        kwargs = {}
        for (field, item), kfield in zip(
            self.filled(fields, version, value), kio_fields, strict=True
        ):
            if "fields" in field and item is not None:
                _, _, element = _unwrap(kfield.type)
                if field["type"].startswith("[]"):
                    item = tuple(
                        self._kio_build(element, field["fields"], version, x) for x in item
                    )
                else:
                    item = self._kio_build(element, field["fields"], version, item)
            elif isinstance(item, list):
                item = tuple(item)
            if field["type"] == "uuid" and item == ZERO_UUID:
                item = None
            kwargs[kfield.name] = item
        return cls(**kwargs)

    def _kio_dump(self, obj: Any, fields: list[FieldSpec], version: int) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for field, kfield in zip(
            self.fields_for(fields, version), dataclasses.fields(obj), strict=True
        ):
            item = getattr(obj, kfield.name)
            if "fields" in field and item is not None:
                if field["type"].startswith("[]"):
                    item = [self._kio_dump(x, field["fields"], version) for x in item]
                else:
                    item = self._kio_dump(item, field["fields"], version)
            elif isinstance(item, tuple):
                item = [
                    ZERO_UUID if x is None and field["type"] == "[]uuid" else _plain(x)
                    for x in item
                ]
            elif field["type"] == "uuid" and item is None:
                item = ZERO_UUID
            else:
                item = _plain(item)
            out[field["name"]] = item
        return out

    def kio_encode(self, name: str, version: int, value: dict[str, Any]) -> bytes:
        from kio.serial import entity_writer

        spec = self.spec(name)
        self.check_version(spec, version)
        cls = self._kio_class(name, version)
        buffer = io.BytesIO()
        entity_writer(cls)(buffer, self._kio_build(cls, spec["fields"], version, value))
        return buffer.getvalue()

    def kio_decode(self, name: str, version: int, data: bytes) -> dict[str, Any]:
        from kio.serial import entity_reader

        spec = self.spec(name)
        self.check_version(spec, version)
        cls = self._kio_class(name, version)
        obj, consumed = entity_reader(cls)(bytes(data), 0)
        if consumed != len(data):
            raise ValueError(f"{len(data) - consumed} trailing bytes")
        return self._kio_dump(obj, spec["fields"], version)

    def kio_layout_mismatch(self, name: str, version: int) -> str | None:
        """``None`` if kio's class has the spec's layout at this version, else why not."""
        try:
            spec = self.spec(name)
            cls = self._kio_class(name, version)
        except Exception as err:  # unknown to kio
            return f"kio has no class: {type(err).__name__}: {err}"
        return self._kio_compare(spec["fields"], cls, name, version)

    def _kio_compare(
        self, fields: list[FieldSpec], cls: Any, path: str, version: int
    ) -> str | None:
        spec_fields = self.fields_for(fields, version)
        kio_fields = dataclasses.fields(cls)
        if len(spec_fields) != len(kio_fields):
            return f"{path}: {len(spec_fields)} spec fields vs {len(kio_fields)} kio fields"
        for field, kfield in zip(spec_fields, kio_fields, strict=True):
            where = f"{path}.{field['name']}"
            tagged = is_tagged(field, version)
            if tagged != ("tag" in kfield.metadata) or (
                tagged and field["tag"] != kfield.metadata["tag"]
            ):
                return f"{where}: tag differs"
            optional, array, element = _unwrap(kfield.type)
            if array != field["type"].startswith("[]"):
                return f"{where}: array-ness differs"
            if "fields" in field:
                if not dataclasses.is_dataclass(element):
                    return f"{where}: struct vs primitive"
                nullable = in_versions(field.get("nullableVersions"), version)
                if not array and optional != nullable:
                    return f"{where}: struct nullability differs"
                reason = self._kio_compare(field["fields"], element, where, version)
                if reason:
                    return reason
                continue
            kind = field["type"][2:] if array else field["type"]
            kio_kind = kfield.metadata.get("kafka_type")
            same_wire = {kind, kio_kind} == {"bytes", "records"}
            if kind not in _KIO_TYPES or (kio_kind != kind and not same_wire):
                return f"{where}: type {kind} vs kio {kio_kind}"
            if tagged and not array:  # kio omits tags equal to ITS default
                kio_default = None if kfield.default is dataclasses.MISSING else kfield.default
                spec_default = _default_of(field, version)
                if kind == "uuid" and kio_default is None:
                    kio_default = ZERO_UUID
                if kio_default is not None and kio_default != spec_default:
                    return f"{where}: tagged default {spec_default!r} vs kio {kio_default!r}"
        return None


_KIO_TYPES = {
    "int8",
    "int16",
    "uint16",
    "int32",
    "int64",
    "float64",
    "bool",
    "uuid",
    "string",
    "bytes",
    "records",
}
_RAW = {
    "timedelta_i32": "int32",
    "timedelta_i64": "int64",
    "datetime_i64": "int64",
    "error_code": "int16",
}


def _kp_patch_uint32() -> None:
    """kafka-python 3.0.12 has no uint32 (it is commented out of SimpleField.TYPES)."""
    from kafka.protocol.schemas.fields.codecs.types import FixedCodec
    from kafka.protocol.schemas.fields.simple import SimpleField

    if "uint32" not in SimpleField.TYPES:

        class UnsignedInt32(FixedCodec):  # type: ignore[misc]
            fmt = "I"
            size = 4

        SimpleField.TYPES["uint32"] = UnsignedInt32


@cache
def _snake(name: str) -> str:
    from kafka.protocol.schemas.fields.base import BaseField

    result: str = BaseField.underscore_name(name)
    return result


def _kio_snake(value: str) -> str:  # kio's codegen to_snake_case (without builtins suffix)
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", value).lower()


def _unwrap(kind: Any) -> tuple[bool, bool, Any]:
    optional = typing.get_origin(kind) in (types.UnionType, typing.Union)
    inner = next(a for a in typing.get_args(kind) if a is not type(None)) if optional else kind
    array = typing.get_origin(inner) is tuple
    element = typing.get_args(inner)[0] if array else inner
    return optional, array, element


def _plain(item: Any) -> Any:
    """kio's phantom subclasses (Records, i32, TopicName, ...) as plain Python values."""
    if isinstance(item, bool):
        return item
    if isinstance(item, bytes):
        return bytes(item)
    if isinstance(item, str):
        return str(item)
    if isinstance(item, int):
        return int(item)
    return item


def _to_raw_default(default: Any) -> Any:
    if isinstance(default, datetime.timedelta):
        return default // datetime.timedelta(milliseconds=1)
    if isinstance(default, datetime.datetime):
        return round(default.timestamp() * 1000)
    if hasattr(default, "value") and isinstance(default.value, int):  # ErrorCode
        return default.value
    if dataclasses.is_dataclass(default) and not isinstance(default, type):
        shadow = _kio_shadow(type(default))
        return shadow(
            **{
                f.name: _to_raw_default(getattr(default, f.name))
                for f in dataclasses.fields(default)
            }
        )
    return default


@cache
def _kio_shadow(cls: Any) -> Any:
    """A copy of a kio dataclass with timedelta/datetime/ErrorCode fields as raw ints."""
    from kio.static.primitive import i16, i32, i64

    raw_types = {"int16": i16, "int32": i32, "int64": i64}
    new_fields = []
    for field in dataclasses.fields(cls):
        metadata = dict(field.metadata)
        optional, array, element = _unwrap(field.type)
        if dataclasses.is_dataclass(element):
            element = _kio_shadow(cast(type, element))
        elif metadata.get("kafka_type") in _RAW:
            metadata["kafka_type"] = _RAW[metadata["kafka_type"]]
            element = raw_types[metadata["kafka_type"]]
            # kio reads LogAppendTimeMs = -1 as None ("TZAware | None"); the spec field is a
            # plain int64, so drop the Optional again.
            if optional and not array:
                optional = False
        kind: Any = tuple[element, ...] if array else element  # type: ignore[valid-type]
        if optional:
            kind = kind | None
        options: dict[str, Any] = {"metadata": metadata}
        if field.default is not dataclasses.MISSING:
            options["default"] = _to_raw_default(field.default)
            if options["default"] is None and not optional:
                options["default"] = -1
        new_fields.append((field.name, kind, dataclasses.field(**options)))
    namespace = {
        key: getattr(cls, key)
        for key in ("__type__", "__version__", "__flexible__", "__api_key__", "__header_schema__")
        if hasattr(cls, key)
    }
    return dataclasses.make_dataclass(
        cls.__name__, new_fields, namespace=namespace, frozen=True, slots=True, kw_only=True
    )
