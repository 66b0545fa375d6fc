"""Generated encoders: one layout's ``_enc(v) -> bytearray`` as straight-line Python."""

from __future__ import annotations

from kcompat.codec.generator import MAX_INLINE_LOOPS, GeneratorBase, Source
from kcompat.codec.ints import INT_CODES
from kcompat.codec.values import (
    MAX_STRING_BYTES,
    default_value,
    int_range,
    struct_keys,
)
from kcompat.spec.resolve import Kind, LayoutField, StructLayout, Wire


class EncoderGenerator(GeneratorBase):
    """The encoding half of a codec generator."""

    def enc_struct(self, src: Source, layout: StructLayout, v: str, out: str, loops: int) -> None:
        if loops > MAX_INLINE_LOOPS:
            name = f"_es{self.uid()}"
            fn = Source()
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
        self, src: Source, fields: list[tuple[LayoutField, str]], out: str, loops: int
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

    def enc_run(self, src: Source, run: list[tuple[Wire, str]], out: str) -> None:
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

    def enc_int_check(self, src: Source, wire: Wire, var: str) -> None:
        """Range check where ``struct`` would not do it (a type narrower than its wire)."""
        low, high = int_range(wire)
        if wire.form != "fixed" or (wire.type_bits and wire.type_bits < wire.bits):
            with src.block(f"if not {low} <= {var} <= {high}:"):
                src("raise _Bad")

    def enc_uv(self, src: Source, out: str, expr: str) -> None:
        with src.block(f"if {expr} < 128:"):
            src(f"{out}.append({expr})")
        with src.block("else:"):
            src(f"_wuv({out}, {expr})")

    def enc_null(self, src: Source, wire: Wire, out: str, short: bool) -> None:
        if not wire.nullable:
            src("raise _Bad")
        elif wire.compact:
            src(f"{out}.append(0)")
        else:
            marker = b"\xff\xff" if short else b"\xff\xff\xff\xff"
            src(f"{out} += {marker!r}")

    def enc_value(self, src: Source, wire: Wire, var: str, out: str, loops: int) -> None:
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

    def enc_blob(self, src: Source, wire: Wire, var: str, out: str, u: int) -> None:
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

    def enc_array(self, src: Source, wire: Wire, var: str, out: str, loops: int, u: int) -> None:
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
        src: Source,
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
