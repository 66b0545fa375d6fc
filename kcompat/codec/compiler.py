"""Compile one version-resolved layout into a fast encoder and decoder (Python source).

Interpreting a layout per value costs a dictionary walk and a dispatch per field; the
proof encodes and decodes thousands of samples, so each (message, version) is compiled
once into straight-line Python: runs of fixed-width fields become one
``struct.pack``/``unpack_from`` call, arrays of fixed-width primitives one
``unpack_from(">{n}i")``, nested structs are inlined into their parent's loop, and
every constant (defaults, key sets, the bytes a tagged default takes) is bound once.

The generated code checks only what it must to stay safe (lengths against the bytes
left, nulls, string limits, varint lengths); it does no bookkeeping of paths or offsets.
When it fails, :mod:`kcompat.codec.codec` re-runs the input through the reference codec,
which names the offset and the field.

Nothing from the spec is written into the source as text: field names, tags and defaults
are constants ``_K0``, ``_K1`` ... bound from a table when the module runs, and every
generated identifier is built from counters and indexes. So no spec (a negative tag, a
name that is not an identifier, a default of 5,000 digits) can make the source invalid,
and layouts that differ only in names or defaults share one compiled code object.

The decoder comes in two modes: strict, and as Kafka's generated Java readers read
(:mod:`kcompat.codec.java`); the Java one is generated on first use.
"""

from __future__ import annotations

import struct
import uuid
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import CodeType
from typing import Any

from kcompat.codec.java import INT32_MAX, JAVA_UTF8
from kcompat.codec.reference import INT_CODES, _Writer, tag_index
from kcompat.codec.values import (
    MAX_STRING_BYTES,
    UNKNOWN_TAGS,
    StructKeys,
    default_value,
    int_range,
    is_default,
    layout_owner_fields,
    struct_keys,
    varint_max_bytes,
)
from kcompat.spec.model import Message
from kcompat.spec.resolve import Kind, Layout, LayoutField, StructLayout, Wire

#: Loops nested deeper than this are moved into their own function (CPython allows 20
#: nested blocks per function).
_MAX_INLINE_LOOPS = 8
_FIXED_CODES = {Kind.BOOL: "?", Kind.FLOAT64: "d", Kind.UUID: "16s"}


class _Bad(Exception):
    """Raised by generated code on invalid input; the reference codec explains it."""


class _Missing:
    pass


_MISSING = _Missing()


# ------------------------------------------------------------------------------------
# Runtime helpers the generated code calls
# ------------------------------------------------------------------------------------


def _ruv(buf: bytes, pos: int, limit: int, bits: int) -> tuple[int, int]:
    """An unsigned varint of at most ``limit`` bytes and ``bits`` bits at ``pos``."""
    result = shift = 0
    for _ in range(limit):
        byte = buf[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if byte < 0x80:
            if result >> bits:
                raise _Bad
            return result, pos
        shift += 7
    raise _Bad


def _ruvj(buf: bytes, pos: int) -> tuple[int, int]:
    """Java's ``readUnsignedVarint``: at most five bytes, the low 32 bits kept (unsigned)."""
    result = shift = 0
    for _ in range(5):
        byte = buf[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if byte < 0x80:
            return result & 0xFFFFFFFF, pos
        shift += 7
    raise _Bad


def _wuv(out: bytearray, value: int) -> None:
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)


_UNPACKERS: dict[tuple[str, int], Callable[[bytes, int], tuple[Any, ...]]] = {}
_PACKERS: dict[tuple[str, int], Callable[..., bytes]] = {}


def _uf(code: str, count: int) -> Callable[[bytes, int], tuple[Any, ...]]:
    """``unpack_from`` for ``count`` big-endian items of ``code`` (cached for small counts)."""
    key = (code, count)
    found = _UNPACKERS.get(key)
    if found is None:
        found = struct.Struct(f">{count}{code}").unpack_from
        if count <= 1024:
            _UNPACKERS[key] = found
    return found


def _pf(code: str, count: int) -> Callable[..., bytes]:
    key = (code, count)
    found = _PACKERS.get(key)
    if found is None:
        found = struct.Struct(f">{count}{code}").pack
        if count <= 1024:
            _PACKERS[key] = found
    return found


def _small_unpackers(code: str) -> list[Callable[[bytes, int], tuple[Any, ...]]]:
    return [_uf(code, count) for count in range(64)]


def _uuid_slow(raw: bytes) -> uuid.UUID:
    return uuid.UUID(bytes=raw)


def _uuid_fast(raw: bytes) -> uuid.UUID:
    """``uuid.UUID(bytes=raw)`` in a third of the time: the checks it skips cannot fail
    here (always 16 bytes), and the result is an ordinary UUID (equal, hashable, picklable)."""
    made = object.__new__(uuid.UUID)
    object.__setattr__(made, "int", int.from_bytes(raw, "big"))
    object.__setattr__(made, "is_safe", uuid.SafeUUID.unknown)
    return made


def _pick_uuid() -> Callable[[bytes], uuid.UUID]:
    probe = bytes(range(16))
    try:
        made = _uuid_fast(probe)
        if made == uuid.UUID(bytes=probe) and str(made) == str(uuid.UUID(bytes=probe)):
            return _uuid_fast
    except (AttributeError, TypeError):  # a Python whose UUID differs inside
        pass
    return _uuid_slow


_uuid = _pick_uuid()


def _as_bytes(value: Any) -> bytes:
    if isinstance(value, bytearray | memoryview):
        return bytes(value)
    raise _Bad


def _extra(value: Any, keys: tuple[StructKeys, Message]) -> Any:
    """Keys beyond this version's fields: other versions' fields at default, unknown tags."""
    struct_keys_, message = keys
    unknown = None
    for key, item in value.items():
        if key in struct_keys_.names:
            continue
        if key == UNKNOWN_TAGS:
            unknown = item
            continue
        other = struct_keys_.others.get(key) if isinstance(key, str) else None
        if other is None or not (other.ignorable or is_default(other, item, message)):
            raise _Bad
    return unknown


def _merge(
    entries: list[tuple[int, Any]] | None, unknown: Any, declared: frozenset[int]
) -> list[tuple[int, Any]]:
    """Known tagged entries plus unknown ones, validated and in ascending tag order."""
    merged = list(entries or ())
    if unknown.__class__ is not list and unknown.__class__ is not tuple:
        raise _Bad
    previous = -1
    for item in unknown:
        if (item.__class__ is not list and item.__class__ is not tuple) or len(item) != 2:
            raise _Bad
        tag, data = item
        if tag.__class__ is not int or not 0 <= tag < (1 << 31) or tag in declared:
            raise _Bad
        if tag <= previous:  # ascending, as Kafka's RawTaggedFieldWriter demands
            raise _Bad
        previous = tag
        if data.__class__ is not bytes:
            data = _as_bytes(data)
        merged.append((tag, data))
    merged.sort(key=lambda entry: entry[0])
    return merged


def _wtags(out: bytearray, entries: list[tuple[int, Any]]) -> None:
    _wuv(out, len(entries))
    for tag, payload in entries:
        _wuv(out, tag)
        _wuv(out, len(payload))
        out += payload


def _namespace() -> dict[str, Any]:
    return {
        "_Bad": _Bad,
        "_MISSING": _MISSING,
        "_ruv": _ruv,
        "_ruvj": _ruvj,
        "_JAVA_UTF8": JAVA_UTF8,
        "_wuv": _wuv,
        "_uf": _uf,
        "_pf": _pf,
        "_as_bytes": _as_bytes,
        "_extra": _extra,
        "_merge": _merge,
        "_wtags": _wtags,
        "_Struct": struct.Struct,
        "_UUID": uuid.UUID,
        "_uuid": _uuid,
        "_small_unpackers": _small_unpackers,
        "__builtins__": __builtins__,
    }


# ------------------------------------------------------------------------------------
# Source generation
# ------------------------------------------------------------------------------------


def constant_text(value: Any) -> str:
    """A one-line, deterministic text of a constant, for the codec's identity (the text
    is compared, never run; ints in hex, which has no digit limit, floats exactly)."""
    if value is None or isinstance(value, bool | str | bytes):
        return repr(value)
    if isinstance(value, int):
        return hex(value)
    if isinstance(value, float):
        return value.hex()
    if isinstance(value, uuid.UUID):
        return f"uuid:{value.hex}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(constant_text(item) for item in value) + "]"
    if isinstance(value, dict):
        items = (f"{constant_text(k)}: {constant_text(v)}" for k, v in value.items())
        return "{" + ", ".join(items) + "}"
    if isinstance(value, frozenset):
        return "frozenset(" + ", ".join(sorted(constant_text(item) for item in value)) + ")"
    raise TypeError(f"no constant text for {type(value).__name__}")


def _constant_key(value: Any) -> tuple[type, Any] | None:
    """A key under which equal constants share one name (``None``: never shared)."""
    if isinstance(value, float):
        return (float, value.hex())
    if value is None or isinstance(value, bool | int | str | bytes | uuid.UUID | frozenset):
        return (type(value), value)
    return None


class _Source:
    def __init__(self) -> None:
        self.lines: list[str] = []
        self.depth = 0

    def __call__(self, line: str) -> None:
        self.lines.append("    " * self.depth + line)

    @contextmanager
    def block(self, header: str) -> Iterator[None]:
        self(header)
        self.depth += 1
        yield
        self.depth -= 1


class _Generator:
    """Writes the module for one layout: ``_enc(v) -> bytearray``, ``_dec(buf) -> dict``.

    With ``java``, only ``_dec``, reading as Kafka's Java readers do.
    """

    def __init__(self, layout: Layout, java: bool = False) -> None:
        self.layout = layout
        self.java = java
        self.owners = layout_owner_fields(layout)
        self.writer = _Writer(layout)
        self.header: list[str] = []
        self.functions: list[list[str]] = []
        self.keys: list[tuple[StructKeys, Message]] = []
        self.consts: dict[str, str] = {}
        self.values: list[Any] = []
        self.value_names: dict[tuple[type, Any], str] = {}
        self.count = 0

    # -- shared ------------------------------------------------------------------------
    def uid(self) -> int:
        self.count += 1
        return self.count

    def struct_const(self, fmt: str) -> str:
        """A compiled ``struct.Struct`` for ``fmt``, shared by all calls."""
        return self.const(f"_Struct({fmt!r})")

    def unpackers(self, code: str) -> str:
        return self.const(f"_small_unpackers({code!r})")

    def const(self, expr: str) -> str:
        """A module-level constant for ``expr`` (evaluated once, shared by all calls)."""
        name = self.consts.get(expr)
        if name is None:
            name = f"_C{len(self.consts)}"
            self.consts[expr] = name
            self.header.append(f"{name} = {expr}")
        return name

    def k(self, value: Any) -> str:
        """The module constant holding ``value`` (a name, tag, default, set of names): the
        only way a value from the spec reaches the generated code."""
        key = _constant_key(value)
        name = self.value_names.get(key) if key is not None else None
        if name is None:
            name = f"_K{len(self.values)}"
            self.header.append(f"{name} = _KV[{len(self.values)}]")
            self.values.append(value)
            if key is not None:
                self.value_names[key] = name
        return name

    def fresh(self, value: Any) -> str:
        """An expression for a default a decoded value owns: new lists and dicts each time
        (displays of constants, as fast as literals), immutable leaves shared."""
        if isinstance(value, list):
            return "[" + ", ".join(self.fresh(item) for item in value) + "]"
        if isinstance(value, dict):
            items = (f"{self.k(key)}: {self.fresh(item)}" for key, item in value.items())
            return "{" + ", ".join(items) + "}"
        return self.k(value)

    def constants_text(self) -> str:
        """The constants as comment lines: with the source, what makes two codecs equal."""
        lines = (f"# _K{index} = {constant_text(value)}" for index, value in enumerate(self.values))
        return "\n".join(lines) + "\n"

    def keys_index(self, layout: StructLayout) -> int:
        owner = self.owners.get(id(layout))
        self.keys.append((struct_keys(self.layout.message, layout, owner), self.layout.message))
        return len(self.keys) - 1

    def build(self) -> str:
        """The module's source: the encoder (strict mode only) and the decoder."""
        enc = _Source()
        if not self.java:
            with enc.block("def _enc(v):"):
                enc("out = bytearray()")
                self.enc_struct(enc, self.layout.root, "v", "out", 0)
                enc("return out")
        dec = _Source()
        with dec.block("def _dec(buf):"):
            dec("blen = len(buf)")
            dec("pos = 0")
            self.dec_struct(dec, self.layout.root, "buf", "pos", "blen", "r", 0)
            if not self.java:  # Java leaves trailing bytes unread
                with dec.block("if pos != blen:"):
                    dec("raise _Bad")
            dec("return r")
        parts = ["\n".join(self.header)]
        parts.extend("\n".join(lines) for lines in self.functions)
        parts.append("\n".join(enc.lines))
        parts.append("\n".join(dec.lines))
        return "\n\n".join(parts) + "\n"

    # -- encoding ----------------------------------------------------------------------
    def enc_struct(self, src: _Source, layout: StructLayout, v: str, out: str, loops: int) -> None:
        if loops > _MAX_INLINE_LOOPS:
            name = f"_es{self.uid()}"
            fn = _Source()
            with fn.block(f"def {name}(v, out):"):
                self.enc_struct(fn, layout, "v", "out", 0)
            self.functions.append(fn.lines)
            src(f"{name}({v}, {out})")
            return
        k = self.uid()
        names = frozenset(lf.name for lf in layout.all_fields())
        unknown = f"u{k}"
        with src.block(f"if {self.k(names)}.issuperset({v}):"):
            src(f"{unknown} = None")
        with src.block("else:"):
            src(f"{unknown} = _extra({v}, _SK[{self.keys_index(layout)}])")
        get = f"g{k}"
        if layout.all_fields():
            src(f"{get} = {v}.get")
        values = []
        for i, lf in enumerate(layout.fields):
            var = f"x{k}_{i}"
            values.append(var)
            src(f"{var} = {get}({self.k(lf.name)}, {self.k(default_value(lf))})")
        self.enc_fields(src, list(zip(layout.fields, values, strict=True)), out, loops)
        self.enc_tags(src, layout, get, unknown, out, loops, k)

    def enc_fields(
        self, src: _Source, fields: list[tuple[LayoutField, str]], out: str, loops: int
    ) -> None:
        run: list[tuple[Wire, str]] = []
        for lf, var in fields:
            if lf.wire.fixed_size is not None:
                run.append((lf.wire, var))
                continue
            self.enc_run(src, run, out)
            run = []
            self.enc_value(src, lf.wire, var, out, loops)
        self.enc_run(src, run, out)

    def enc_run(self, src: _Source, run: list[tuple[Wire, str]], out: str) -> None:
        if not run:
            return
        codes = []
        args = []
        for wire, var in run:
            if wire.kind is Kind.INT:
                codes.append(INT_CODES[(wire.bits, wire.signed)])
                self.enc_int_check(src, wire, var)
                args.append(var)
            elif wire.kind is Kind.BOOL:
                with src.block(f"if {var}.__class__ is not bool:"):
                    src("raise _Bad")
                codes.append("?")
                args.append(var)
            elif wire.kind is Kind.UUID:
                codes.append("16s")
                args.append(f"{var}.bytes")
            else:
                codes.append("d")
                args.append(var)
        packer = self.struct_const(">" + "".join(codes))
        src(f"{out} += {packer}.pack({', '.join(args)})")

    def enc_int_check(self, src: _Source, wire: Wire, var: str) -> None:
        """Range check where ``struct`` would not do it (a type narrower than its wire)."""
        low, high = int_range(wire)
        if wire.form != "fixed" or (wire.type_bits and wire.type_bits < wire.bits):
            with src.block(f"if not {low} <= {var} <= {high}:"):
                src("raise _Bad")

    def enc_uv(self, src: _Source, out: str, expr: str) -> None:
        with src.block(f"if {expr} < 128:"):
            src(f"{out}.append({expr})")
        with src.block("else:"):
            src(f"_wuv({out}, {expr})")

    def enc_null(self, src: _Source, wire: Wire, out: str, short: bool) -> None:
        if not wire.nullable:
            src("raise _Bad")
        elif wire.compact:
            src(f"{out}.append(0)")
        else:
            marker = b"\xff\xff" if short else b"\xff\xff\xff\xff"
            src(f"{out} += {marker!r}")

    def enc_value(self, src: _Source, wire: Wire, var: str, out: str, loops: int) -> None:
        kind = wire.kind
        u = self.uid()
        if wire.fixed_size is not None:
            self.enc_run(src, [(wire, var)], out)
        elif kind is Kind.INT:
            self.enc_int_check(src, wire, var)
            raw = f"z{u}"
            if wire.form == "packed":
                src(f"{raw} = ({var} << 1) ^ ({var} >> {wire.bits - 1})")
            elif wire.signed:
                src(f"{raw} = {var} & {(1 << wire.bits) - 1}")
            else:
                src(f"{raw} = {var}")
            self.enc_uv(src, out, raw)
        elif kind in (Kind.STRING, Kind.BYTES, Kind.RECORDS):
            self.enc_blob(src, wire, var, out, u)
        elif kind is Kind.ARRAY:
            self.enc_array(src, wire, var, out, loops, u)
        else:
            layout = wire.struct
            assert layout is not None
            if wire.nullable:
                marker = "0" if wire.null_marker == "uvarint" else "255"
                with src.block(f"if {var} is None:"):
                    src(f"{out}.append({marker})")
                with src.block("else:"):
                    src(f"{out}.append(1)")
                    self.enc_struct(src, layout, var, out, loops)
            else:
                self.enc_struct(src, layout, var, out, loops)

    def enc_blob(self, src: _Source, wire: Wire, var: str, out: str, u: int) -> None:
        is_string = wire.kind is Kind.STRING
        data, size = f"b{u}", f"n{u}"
        with src.block(f"if {var} is None:"):
            self.enc_null(src, wire, out, short=is_string)
        with src.block("else:"):
            if is_string:
                src(f"{data} = {var}.encode()")
                src(f"{size} = len({data})")
                with src.block(f"if {size} > {MAX_STRING_BYTES}:"):
                    src("raise _Bad")
            else:
                with src.block(f"if {var}.__class__ is bytes:"):
                    src(f"{data} = {var}")
                with src.block("else:"):
                    src(f"{data} = _as_bytes({var})")
                src(f"{size} = len({data})")
            if wire.compact:
                src(f"{size} += 1")
                self.enc_uv(src, out, size)
            else:
                packer = self.struct_const(">h" if is_string else ">i")
                src(f"{out} += {packer}.pack({size})")
            src(f"{out} += {data}")

    def enc_array(self, src: _Source, wire: Wire, var: str, out: str, loops: int, u: int) -> None:
        element = wire.element
        assert element is not None
        size = f"n{u}"
        with src.block(f"if {var} is None:"):
            self.enc_null(src, wire, out, short=False)
        with src.block(f"elif {var}.__class__ is not list and {var}.__class__ is not tuple:"):
            src("raise _Bad")
        with src.block("else:"):
            src(f"{size} = len({var})")
            if wire.compact:
                with src.block(f"if {size} < 127:"):
                    src(f"{out}.append({size} + 1)")
                with src.block("else:"):
                    src(f"_wuv({out}, {size} + 1)")
            else:
                src(f"{out} += {self.struct_const('>i')}.pack({size})")
            item = f"e{u}"
            fixed = element.fixed_size is not None
            if fixed and element.kind in (Kind.INT, Kind.FLOAT64):
                code = (
                    INT_CODES[(element.bits, element.signed)] if element.kind is Kind.INT else "d"
                )
                with src.block(f"if {size}:"):
                    src(f"{out} += _pf({code!r}, {size})(*{var})")
                return
            with src.block(f"for {item} in {var}:"):
                if element.kind is Kind.STRUCT:
                    assert element.struct is not None
                    self.enc_struct(src, element.struct, item, out, loops + 1)
                else:
                    self.enc_value(src, element, item, out, loops + 1)

    def enc_tags(
        self,
        src: _Source,
        layout: StructLayout,
        get: str,
        unknown: str,
        out: str,
        loops: int,
        k: int,
    ) -> None:
        entries = f"tg{k}"
        if layout.flexible:
            src(f"{entries} = None")
        for i, lf in enumerate(layout.tagged):
            var, payload = f"t{k}_{i}", f"p{k}_{i}"
            src(f"{var} = {get}({self.k(lf.name)}, _MISSING)")
            with src.block(f"if {var} is not _MISSING:"):
                src(f"{payload} = bytearray()")
                self.enc_value(src, lf.wire, var, payload, loops + 1)
                default = self.writer.default_payload(lf)
                with src.block(f"if {payload} != {self.k(default)}:"):
                    if not layout.flexible:
                        src("raise _Bad")
                    else:
                        with src.block(f"if {entries} is None:"):
                            src(f"{entries} = []")
                        src(f"{entries}.append(({self.k(lf.tag)}, {payload}))")
        if not layout.flexible:
            with src.block(f"if {unknown}:"):
                src("raise _Bad")
            return
        declared = struct_keys(
            self.layout.message, layout, self.owners.get(id(layout))
        ).declared_tags
        with src.block(f"if {unknown} is not None:"):
            src(f"{entries} = _merge({entries}, {unknown}, {self.k(declared)})")
        with src.block(f"if {entries} is None:"):
            src(f"{out}.append(0)")
        with src.block("else:"):
            src(f"_wtags({out}, {entries})")

    # -- decoding ----------------------------------------------------------------------
    #
    # A variable-length field right after a run of fixed-width fields has its prefix (a
    # classic int16/int32 length, the first byte of a compact length, a null marker, the
    # tagged-field count) read by the run's ``unpack_from`` too: one call instead of two.
    # ``pre`` names the variable that holds such an already-read prefix.

    def dec_struct(
        self,
        src: _Source,
        layout: StructLayout,
        buf: str,
        pos: str,
        blen: str,
        target: str,
        loops: int,
    ) -> None:
        if loops > _MAX_INLINE_LOOPS:
            name = f"_ds{self.uid()}"
            fn = _Source()
            with fn.block(f"def {name}(buf, pos, blen):"):
                self.dec_struct(fn, layout, "buf", "pos", "blen", "r", 0)
                fn("return r, pos")
            self.functions.append(fn.lines)
            src(f"{target}, {pos} = {name}({buf}, {pos}, {blen})")
            return
        k = self.uid()
        values: list[tuple[str, str]] = []
        run: list[tuple[str, str, Wire | None]] = []
        for i, lf in enumerate(layout.fields):
            var = f"a{k}_{i}"
            values.append((lf.name, var))
            if lf.wire.fixed_size is not None:
                run.append((self.fixed_code(lf.wire), var, lf.wire))
                continue
            pre = None
            code = self.prefix_code(lf.wire)
            if run and code is not None:
                pre = f"p{k}_{i}"
                run.append((code, pre, None))
            self.dec_run(src, run, buf, pos)
            run = []
            self.dec_value(src, lf.wire, var, buf, pos, blen, loops, pre)
        pre = None
        if run and layout.flexible:
            pre = f"pc{k}"
            run.append(("B", pre, None))
        self.dec_run(src, run, buf, pos)
        if layout.flexible:
            self.dec_tags(src, layout, buf, pos, blen, loops, k, values, target, pre)
            return
        for lf in layout.tagged:
            values.append((lf.name, self.fresh(default_value(lf))))
        src(f"{target} = {self.dict_display(values)}")

    def dict_display(self, items: list[tuple[str, str]]) -> str:
        """``{name: expression, ...}``, each name a module constant."""
        return "{" + ", ".join(f"{self.k(name)}: {expr}" for name, expr in items) + "}"

    @staticmethod
    def fixed_code(wire: Wire) -> str:
        if wire.kind is Kind.INT:
            return INT_CODES[(wire.bits, wire.signed)]
        return _FIXED_CODES[wire.kind]

    @staticmethod
    def prefix_code(wire: Wire) -> str | None:
        """The struct code of a variable-length field's first bytes, if they can be batched."""
        kind = wire.kind
        if kind in (Kind.STRING, Kind.BYTES, Kind.RECORDS, Kind.ARRAY):
            if wire.compact:
                return "B"
            return "h" if kind is Kind.STRING else "i"
        if kind is Kind.INT:  # a varint: its first byte
            return "B"
        if kind is Kind.STRUCT and wire.nullable and wire.null_marker != "uvarint":
            return "B"
        return None

    def dec_run(
        self, src: _Source, run: list[tuple[str, str, Wire | None]], buf: str, pos: str
    ) -> None:
        if not run:
            return
        fmt = ">" + "".join(code for code, _, _ in run)
        unpacker = self.struct_const(fmt)
        names = ", ".join(var for _, var, _ in run)
        src(f"{names}, = {unpacker}.unpack_from({buf}, {pos})")
        src(f"{pos} += {struct.calcsize(fmt)}")
        for _, var, wire in run:
            if wire is None:
                continue
            if wire.kind is Kind.UUID:
                src(f"{var} = _uuid({var})")
            elif wire.kind is Kind.INT and wire.type_bits and wire.type_bits < wire.bits:
                low, high = int_range(wire)
                with src.block(f"if not {low} <= {var} <= {high}:"):
                    src("raise _Bad")

    def dec_uv(
        self,
        src: _Source,
        var: str,
        buf: str,
        pos: str,
        bits: int = 32,
        pre: str | None = None,
        limit: int | None = None,
        java: bool = False,
    ) -> None:
        """An unsigned varint into ``var``; ``limit`` is checked on the multi-byte path.

        ``java``: Java's ``readUnsignedVarint`` (the low 32 bits of up to five bytes).
        """
        if pre is None:
            src(f"{var} = {buf}[{pos}]")
            src(f"{pos} += 1")
        elif pre != var:
            src(f"{var} = {pre}")
        with src.block(f"if {var} > 127:"):
            second = f"{var}_2"
            src(f"{second} = {buf}[{pos}]")
            with src.block(f"if {second} < 128:"):  # two bytes (up to 16383): inline
                src(f"{var} = ({var} & 127) | ({second} << 7)")
                src(f"{pos} += 1")
            with src.block("else:"):
                if java:
                    src(f"{var}, {pos} = _ruvj({buf}, {pos} - 1)")
                else:
                    src(f"{var}, {pos} = _ruv({buf}, {pos} - 1, {varint_max_bytes(bits)}, {bits})")
                if limit is not None:
                    with src.block(f"if {var} > {limit}:"):
                        src("raise _Bad")

    def dec_len(self, src: _Source, var: str, buf: str, pos: str, pre: str | None = None) -> None:
        """A varint length, count, tag, size or null marker (a Java int in Java mode)."""
        self.dec_uv(src, var, buf, pos, 32, pre, java=self.java)

    def dec_value(
        self,
        src: _Source,
        wire: Wire,
        var: str,
        buf: str,
        pos: str,
        blen: str,
        loops: int,
        pre: str | None = None,
    ) -> None:
        kind = wire.kind
        u = self.uid()
        if wire.fixed_size is not None:
            self.dec_run(src, [(self.fixed_code(wire), var, wire)], buf, pos)
        elif kind is Kind.INT:  # seed 004's varints: not Kafka's, strict in both modes
            raw = f"z{u}"
            self.dec_uv(src, raw, buf, pos, wire.bits, pre)
            if wire.form == "packed":
                src(f"{var} = ({raw} >> 1) ^ -({raw} & 1)")
            elif wire.signed:
                src(f"{var} = {raw} - {1 << wire.bits} if {raw} >> {wire.bits - 1} else {raw}")
            else:
                src(f"{var} = {raw}")
            if wire.type_bits and wire.type_bits < wire.bits:
                low, high = int_range(wire)
                with src.block(f"if not {low} <= {var} <= {high}:"):
                    src("raise _Bad")
        elif kind in (Kind.STRING, Kind.BYTES, Kind.RECORDS):
            self.dec_blob(src, wire, var, buf, pos, blen, u, pre)
        elif kind is Kind.ARRAY:
            self.dec_array(src, wire, var, buf, pos, blen, loops, u, pre)
        else:
            layout = wire.struct
            assert layout is not None
            if not wire.nullable:
                self.dec_struct(src, layout, buf, pos, blen, var, loops)
                return
            marker = f"m{u}"
            if wire.null_marker == "uvarint":  # Java: readUnsignedVarint() <= 0 is null
                self.dec_len(src, marker, buf, pos, pre)
                null = f"{marker} == 0 or {marker} >= {1 << 31}"
            else:  # Java: readByte() < 0 is null
                if pre is None:
                    src(f"{marker} = {buf}[{pos}]")
                    src(f"{pos} += 1")
                else:
                    marker = pre
                null = f"{marker} > 127"
            with src.block(f"if {null}:"):
                src(f"{var} = None")
            with src.block("else:"):
                self.dec_struct(src, layout, buf, pos, blen, var, loops)

    def dec_null(self, src: _Source, wire: Wire, var: str) -> None:
        if wire.nullable:
            src(f"{var} = None")
        else:
            src("raise _Bad")

    def compact_null(self, size: str) -> str:
        """When a compact length or count (``length + 1``) means null: 0, and in Java mode
        every raw value whose Java int minus one is negative (above 2^31)."""
        return f"{size} == 0 or {size} > {1 << 31}" if self.java else f"{size} == 0"

    def dec_blob(
        self,
        src: _Source,
        wire: Wire,
        var: str,
        buf: str,
        pos: str,
        blen: str,
        u: int,
        pre: str | None,
    ) -> None:
        is_string = wire.kind is Kind.STRING
        size, end = f"n{u}", f"q{u}"
        if wire.compact:  # uvarint(length + 1), 0 = null
            size = pre or size
            if self.java:
                self.dec_len(src, size, buf, pos, pre)
            else:
                limit = MAX_STRING_BYTES + 1 if is_string else None
                self.dec_uv(src, size, buf, pos, 32, pre, limit)
            with src.block(f"if {self.compact_null(size)}:"):
                self.dec_null(src, wire, var)
            if is_string and self.java:
                with src.block(f"elif {size} > {MAX_STRING_BYTES + 1}:"):
                    src("raise _Bad")
            start = f"{pos} + {size} - 1"
        else:  # int16/int32 length, -1 = null (any negative in Java mode)
            if pre is None:
                unpacker = self.struct_const(">h" if is_string else ">i")
                src(f"{size}, = {unpacker}.unpack_from({buf}, {pos})")
                src(f"{pos} += {2 if is_string else 4}")
            else:
                size = pre
            with src.block(f"if {size} < 0:"):
                if not self.java:
                    with src.block(f"if {size} != -1:"):
                        src("raise _Bad")
                self.dec_null(src, wire, var)
            start = f"{pos} + {size}"
        with src.block("else:"):
            src(f"{end} = {start}")
            with src.block(f"if {end} > {blen}:"):
                src("raise _Bad")
            if is_string and self.java:
                src(f"{var} = {buf}[{pos}:{end}].decode('utf-8', _JAVA_UTF8)")
            elif is_string:
                src(f"{var} = {buf}[{pos}:{end}].decode()")
            else:
                src(f"{var} = {buf}[{pos}:{end}]")
            src(f"{pos} = {end}")

    def dec_array(
        self,
        src: _Source,
        wire: Wire,
        var: str,
        buf: str,
        pos: str,
        blen: str,
        loops: int,
        u: int,
        pre: str | None,
    ) -> None:
        element = wire.element
        assert element is not None
        size = f"n{u}"
        # Read the count as "items + 1" (compact) or "items" (classic), -1/0 meaning null.
        if wire.compact:
            size = pre or size
            self.dec_len(src, size, buf, pos, pre)
            null, shift = self.compact_null(size), 1
        else:
            if pre is None:
                src(f"{size}, = {self.struct_const('>i')}.unpack_from({buf}, {pos})")
                src(f"{pos} += 4")
            else:
                size = pre
            if self.java:
                null = f"{size} < 0"
            else:
                with src.block(f"if {size} < -1:"):
                    src("raise _Bad")
                null = f"{size} == -1"
            shift = 0
        with src.block(f"if {null}:"):
            self.dec_null(src, wire, var)
        width = element.fixed_size
        if width is not None and element.kind is not Kind.UUID:
            # Small arrays of fixed-width items: one cached unpack_from, no bounds check
            # needed (unpack_from itself refuses to read past the end).
            code = self.fixed_code(element)
            table = self.const(f"[None] * {shift} + _small_unpackers({code!r})")
            with src.block(f"elif {size} < {64 + shift}:"):
                src(f"{var} = [*{table}[{size}]({buf}, {pos})]")
                src(f"{pos} += {width} * {size}" + (f" - {width * shift}" if shift else ""))
            with src.block("else:"):
                if shift:
                    src(f"{size} -= 1")
                with src.block(f"if {size} * {width} > {blen} - {pos}:"):
                    src("raise _Bad")
                src(f"{var} = [*_uf({code!r}, {size})({buf}, {pos})]")
                src(f"{pos} += {size} * {width}")
            return
        with src.block(f"elif {size} == {shift}:"):  # empty: no list building machinery
            src(f"{var} = []")
        with src.block("else:"):
            if shift:
                src(f"{size} -= 1")
            with src.block(f"if {size} > {blen} - {pos}:"):
                src("raise _Bad")
            if element.kind is Kind.UUID:
                with src.block(f"if {size} * 16 > {blen} - {pos}:"):
                    src("raise _Bad")
                src(
                    f"{var} = [_uuid({buf}[i:i + 16]) "
                    f"for i in range({pos}, {pos} + 16 * {size}, 16)]"
                )
                src(f"{pos} += 16 * {size}")
                return
            item, append = f"e{u}", f"ap{u}"
            src(f"{var} = []")
            src(f"{append} = {var}.append")
            with src.block(f"for _ in range({size}):"):
                if element.kind is Kind.STRUCT:
                    assert element.struct is not None
                    self.dec_struct(src, element.struct, buf, pos, blen, item, loops + 1)
                else:
                    self.dec_value(src, element, item, buf, pos, blen, loops + 1)
                src(f"{append}({item})")

    def dec_tags(
        self,
        src: _Source,
        layout: StructLayout,
        buf: str,
        pos: str,
        blen: str,
        loops: int,
        k: int,
        values: list[tuple[str, str]],
        target: str,
        pre: str | None,
    ) -> None:
        """The tagged-field section, tags in any order. Strict: no tag twice, none over
        2^31 - 1, and each entry's value fills exactly its declared size. Java: a known tag
        is read by its type from the stream (the size is ignored), a repeated one
        overwrites, unknown ones are kept as they come."""
        count, tag, size, end, seen = f"c{k}", f"tag{k}", f"sz{k}", f"te{k}", f"seen{k}"
        unknown = f"u{k}"
        if pre is None:
            src(f"{count} = {buf}[{pos}]")
            src(f"{pos} += 1")
        else:
            count = pre
        declared = struct_keys(
            self.layout.message, layout, self.owners.get(id(layout))
        ).declared_tags
        dispatch = tag_index(layout)
        with src.block(f"if {count}:"):
            with src.block(f"if {count} > 127:"):
                if self.java:
                    src(f"{count}, {pos} = _ruvj({buf}, {pos} - 1)")
                    with src.block(f"if {count} > {INT32_MAX}:"):  # a negative Java int
                        src(f"{count} = 0")
                else:
                    src(f"{count}, {pos} = _ruv({buf}, {pos} - 1, 5, 32)")
            tagged_vars = []
            for i, lf in enumerate(layout.tagged):
                var = f"t{k}_{i}"
                tagged_vars.append((lf.name, var))
                src(f"{var} = {self.fresh(default_value(lf))}")
            src(f"{unknown} = None")
            if not self.java:
                src(f"{seen} = set()")
            with src.block(f"for _ in range({count}):"):
                self.dec_len(src, tag, buf, pos)
                self.dec_len(src, size, buf, pos)
                if self.java:
                    with src.block(f"if {tag} > {INT32_MAX}:"):
                        src(f"{tag} -= {1 << 32}")
                else:
                    src(f"{end} = {pos} + {size}")
                    with src.block(f"if {end} > {blen} or {tag} in {seen} or {tag} > {INT32_MAX}:"):
                        src("raise _Bad")
                    src(f"{seen}.add({tag})")
                keyword = "if"
                for i, lf in enumerate(layout.tagged):
                    if lf.tag is None or dispatch.get(lf.tag) != i:
                        continue  # a repeated tag reaches the first field declaring it
                    with src.block(f"{keyword} {tag} == {self.k(lf.tag)}:"):
                        if self.java:
                            self.dec_value(src, lf.wire, f"t{k}_{i}", buf, pos, blen, loops + 1)
                        else:
                            sub, subpos, sublen = f"sb{k}_{i}", f"sp{k}_{i}", f"sl{k}_{i}"
                            src(f"{sub} = {buf}[{pos}:{end}]")
                            src(f"{subpos} = 0")
                            src(f"{sublen} = {size}")
                            target_var = f"t{k}_{i}"
                            self.dec_value(src, lf.wire, target_var, sub, subpos, sublen, loops + 1)
                            with src.block(f"if {subpos} != {sublen}:"):
                                src("raise _Bad")
                            src(f"{pos} = {end}")
                    keyword = "elif"
                if declared:
                    with src.block(f"{keyword} {tag} in {self.k(declared)}:"):
                        src("raise _Bad")
                    keyword = "elif"
                if keyword == "elif":
                    with src.block("else:"):
                        self.dec_unknown_tag(src, unknown, tag, size, buf, pos, blen, end)
                else:  # no known tags at all: every tag is unknown
                    self.dec_unknown_tag(src, unknown, tag, size, buf, pos, blen, end)
            src(f"{target} = {self.dict_display([*values, *tagged_vars])}")
            with src.block(f"if {unknown} is not None:"):
                src(f"{target}[{UNKNOWN_TAGS!r}] = {unknown}")
        with src.block("else:"):
            defaults = [(lf.name, self.fresh(default_value(lf))) for lf in layout.tagged]
            src(f"{target} = {self.dict_display([*values, *defaults])}")

    def dec_unknown_tag(
        self, src: _Source, unknown: str, tag: str, size: str, buf: str, pos: str, blen: str,
        end: str,
    ) -> None:  # fmt: skip
        if self.java:  # readArray(size): a negative Java int, or past the end, fails
            src(f"{end} = {pos} + {size}")
            with src.block(f"if {size} > {INT32_MAX} or {end} > {blen}:"):
                src("raise _Bad")
        with src.block(f"if {unknown} is None:"):
            src(f"{unknown} = []")
        src(f"{unknown}.append([{tag}, {buf}[{pos}:{end}]])")
        src(f"{pos} = {end}")


# ------------------------------------------------------------------------------------
# Compilation with a cache of code objects keyed by source
# ------------------------------------------------------------------------------------

_CODE_CACHE: OrderedDict[str, CodeType] = OrderedDict()
_CODE_CACHE_SIZE = 512


def compile_layout(
    layout: Layout,
) -> tuple[Callable[[Any], bytearray], Callable[[bytes], dict[str, Any]], str]:
    """The generated encoder and strict decoder for ``layout``, and their source.

    The source ends with the module's constants as comment lines, so equal sources mean
    equal codecs (the proof skips a pair of layouts whose codecs are the same).
    """
    generator = _Generator(layout)
    code = generator.build()
    namespace = _run(code, generator)
    return namespace["_enc"], namespace["_dec"], code + generator.constants_text()


def compile_java_decoder(layout: Layout) -> Callable[[bytes], dict[str, Any]]:
    """The generated decoder for ``layout`` that reads as Kafka's Java readers do."""
    generator = _Generator(layout, java=True)
    decoder: Callable[[bytes], dict[str, Any]] = _run(generator.build(), generator)["_dec"]
    return decoder


def _run(source: str, generator: _Generator) -> dict[str, Any]:
    """Execute a generated module (its code object cached by source) with its constants."""
    code = _CODE_CACHE.get(source)
    if code is None:
        code = compile(source, "<kcompat codec>", "exec")
        _CODE_CACHE[source] = code
        if len(_CODE_CACHE) > _CODE_CACHE_SIZE:
            _CODE_CACHE.popitem(last=False)
    else:
        _CODE_CACHE.move_to_end(source)
    namespace = _namespace()
    namespace["_SK"] = generator.keys
    namespace["_KV"] = generator.values
    exec(code, namespace)
    return namespace
