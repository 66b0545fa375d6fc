"""Generated decoders: one layout's ``_dec(buf) -> dict`` as straight-line Python, strict
or reading as Kafka's Java readers do (``java``)."""

from __future__ import annotations

import struct
from collections.abc import Callable
from typing import NamedTuple

from kcompat.codec.generator import FIXED_CODES, MAX_INLINE_LOOPS, GeneratorBase, Source
from kcompat.codec.ints import INT_CODES
from kcompat.codec.java import INT32_MAX
from kcompat.codec.reference_decoder import tag_index
from kcompat.codec.values import (
    MAX_STRING_BYTES,
    UNKNOWN_TAGS,
    default_value,
    int_range,
    struct_keys,
    varint_max_bytes,
)
from kcompat.spec.resolve import Kind, StructLayout, Wire


class Cursor(NamedTuple):
    """The generated code's names for what is being read: the bytes, the position in them
    and their length (a tagged field's value is read from a slice of its own)."""

    buf: str
    pos: str
    blen: str


#: the names a decoding function takes: ``_dec(buf)`` and each out-of-line struct reader
ARGUMENTS = Cursor("buf", "pos", "blen")


class DecoderGenerator(GeneratorBase):
    """The decoding half of a codec generator."""

    #
    # A variable-length field right after a run of fixed-width fields has its prefix (a
    # classic int16/int32 length, the first byte of a compact length, a null marker, the
    # tagged-field count) read by the run's ``unpack_from`` too: one call instead of two.
    # ``pre`` names the variable that holds such an already-read prefix.

    def dec_struct(
        self, src: Source, layout: StructLayout, at: Cursor, target: str, loops: int
    ) -> None:
        buf, pos, blen = at
        if loops > MAX_INLINE_LOOPS:
            name = f"_ds{self.uid()}"
            fn = Source()
            with fn.block(f"def {name}(buf, pos, blen):"):
                self.dec_struct(fn, layout, ARGUMENTS, "r", 0)
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
            self.dec_value(src, lf.wire, var, at, loops, pre)
        pre = None
        if run and layout.flexible:
            pre = f"pc{k}"
            run.append(("B", pre, None))
        self.dec_run(src, run, buf, pos)
        if layout.flexible:
            self.dec_tags(src, layout, at, loops, k, values, target, pre)
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
        return FIXED_CODES[wire.kind]

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
        self, src: Source, run: list[tuple[str, str, Wire | None]], buf: str, pos: str
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
        src: Source,
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

    def dec_len(self, src: Source, var: str, buf: str, pos: str, pre: str | None = None) -> None:
        """A varint length, count, tag, size or null marker (a Java int in Java mode)."""
        self.dec_uv(src, var, buf, pos, 32, pre, java=self.java)

    def dec_value(
        self, src: Source, wire: Wire, var: str, at: Cursor, loops: int, pre: str | None = None
    ) -> None:
        buf, pos, _ = at
        kind = wire.kind
        u = self.uid()
        if wire.fixed_size is not None:
            self.dec_run(src, [(self.fixed_code(wire), var, wire)], buf, pos)
        elif (
            kind is Kind.INT
        ):  # the `encoding` extension's varints: not Kafka's, strict in both modes
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
            self.dec_blob(src, wire, var, at, u, pre)
        elif kind is Kind.ARRAY:
            self.dec_array(src, wire, var, at, loops, u, pre)
        else:
            layout = wire.struct
            assert layout is not None
            if not wire.nullable:
                self.dec_struct(src, layout, at, var, loops)
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
                self.dec_struct(src, layout, at, var, loops)

    def dec_null(self, src: Source, wire: Wire, var: str) -> None:
        if wire.nullable:
            src(f"{var} = None")
        else:
            src("raise _Bad")

    def compact_null(self, size: str) -> str:
        """When a compact length or count (``length + 1``) means null: 0, and in Java mode
        every raw value whose Java int minus one is negative (above 2^31)."""
        return f"{size} == 0 or {size} > {1 << 31}" if self.java else f"{size} == 0"

    def dec_blob(
        self, src: Source, wire: Wire, var: str, at: Cursor, u: int, pre: str | None
    ) -> None:
        buf, pos, blen = at
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
        self, src: Source, wire: Wire, var: str, at: Cursor, loops: int, u: int, pre: str | None
    ) -> None:
        buf, pos, blen = at
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
                    self.dec_struct(src, element.struct, at, item, loops + 1)
                else:
                    self.dec_value(src, element, item, at, loops + 1)
                src(f"{append}({item})")

    def dec_tags(
        self,
        src: Source,
        layout: StructLayout,
        at: Cursor,
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
        buf, pos, blen = at
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
                known = [
                    (lf.tag, self._tag_reader(src, lf.wire, i, k, at, loops))
                    for i, lf in enumerate(layout.tagged)
                    if lf.tag is not None and dispatch.get(lf.tag) == i
                ]  # a repeated tag reaches the first field declaring it

                def other_tags(keyword: str) -> None:
                    if declared:
                        with src.block(f"{keyword} {tag} in {self.k(declared)}:"):
                            src("raise _Bad")
                        keyword = "elif"
                    if keyword == "elif":
                        with src.block("else:"):
                            self.dec_unknown_tag(src, unknown, tag, size, at, end)
                    else:  # no known tags at all: every tag is unknown
                        self.dec_unknown_tag(src, unknown, tag, size, at, end)

                self.dispatch(src, tag, known, other_tags)
            src(f"{target} = {self.dict_display([*values, *tagged_vars])}")
            with src.block(f"if {unknown} is not None:"):
                src(f"{target}[{UNKNOWN_TAGS!r}] = {unknown}")
        with src.block("else:"):
            defaults = [(lf.name, self.fresh(default_value(lf))) for lf in layout.tagged]
            src(f"{target} = {self.dict_display([*values, *defaults])}")

    def _tag_reader(
        self, src: Source, wire: Wire, i: int, k: int, at: Cursor, loops: int
    ) -> Callable[[], None]:
        """What reads the value of the ``i``-th tagged field once its tag matched: Java reads
        it from the stream; strict mode from a slice of the entry's declared size, which
        it must fill exactly."""
        buf, pos, _ = at
        size, end, target = f"sz{k}", f"te{k}", f"t{k}_{i}"

        def read() -> None:
            if self.java:
                self.dec_value(src, wire, target, at, loops + 1)
                return
            sub, subpos, sublen = f"sb{k}_{i}", f"sp{k}_{i}", f"sl{k}_{i}"
            src(f"{sub} = {buf}[{pos}:{end}]")
            src(f"{subpos} = 0")
            src(f"{sublen} = {size}")
            self.dec_value(src, wire, target, Cursor(sub, subpos, sublen), loops + 1)
            with src.block(f"if {subpos} != {sublen}:"):
                src("raise _Bad")
            src(f"{pos} = {end}")

        return read

    def dec_unknown_tag(
        self, src: Source, unknown: str, tag: str, size: str, at: Cursor, end: str
    ) -> None:
        buf, pos, blen = at
        if self.java:  # readArray(size): a negative Java int, or past the end, fails
            src(f"{end} = {pos} + {size}")
            with src.block(f"if {size} > {INT32_MAX} or {end} > {blen}:"):
                src("raise _Bad")
        with src.block(f"if {unknown} is None:"):
            src(f"{unknown} = []")
        src(f"{unknown}.append([{tag}, {buf}[{pos}:{end}]])")
        src(f"{pos} = {end}")
