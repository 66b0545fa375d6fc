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

from collections.abc import Callable
from types import CodeType
from typing import Any, Protocol

from kcompat.codec.decoders import ARGUMENTS, DecoderGenerator
from kcompat.codec.encoders import EncoderGenerator
from kcompat.codec.generator import Source
from kcompat.codec.runtime import namespace
from kcompat.memo import Lru
from kcompat.spec.resolve import Layout


class CodeStore(Protocol):
    """Compiled code kept between processes, by source text. The codec never finds one by
    itself: a command hands it one (:class:`kcompat.cache.code.CodeEntries`), and the code
    it returns was verified there as the user's own, whole, compiled from that source."""

    def load(self, source: str) -> CodeType | None: ...

    def store(self, source: str, code: CodeType) -> None: ...


class Generator(EncoderGenerator, DecoderGenerator):
    """Writes the module for one layout: ``_enc(v) -> bytearray``, ``_dec(buf) -> dict``.

    With ``java``, only ``_dec``, reading as Kafka's Java readers do.
    """

    def build(self) -> str:
        """The module's source: the encoder (strict mode only) and the decoder."""
        enc = Source()
        if not self.java:
            with enc.block("def _enc(v):"):
                enc("out = bytearray()")
                self.enc_struct(enc, self.layout.root, "v", "out", 0)
                enc("return out")
        dec = Source()
        with dec.block("def _dec(buf):"):
            dec("blen = len(buf)")
            dec("pos = 0")
            self.dec_struct(dec, self.layout.root, ARGUMENTS, "r", 0)
            if not self.java:  # Java leaves trailing bytes unread
                with dec.block("if pos != blen:"):
                    dec("raise _Bad")
            dec("return r")
        parts = ["\n".join(self.header)]
        parts.extend("\n".join(lines) for lines in self.functions)
        parts.append("\n".join(enc.lines))
        parts.append("\n".join(dec.lines))
        return "\n\n".join(parts) + "\n"


# ------------------------------------------------------------------------------------
# Compilation with a cache of code objects keyed by source (and, when a command hands
# one in, a CodeStore that keeps them between its short processes)
# ------------------------------------------------------------------------------------

#: Code objects by their source, for the process (a store keeps them between processes).
_CODE: Lru[str, CodeType] = Lru("compiled codecs", 512)


def compile_layout(
    layout: Layout, code_cache: CodeStore | None = None
) -> tuple[Callable[[Any], bytearray], Callable[[bytes], dict[str, Any]], str]:
    """The generated encoder and strict decoder for ``layout``, and their source.

    The source ends with the module's constants as comment lines, so equal sources mean
    equal codecs (the proof skips a pair of layouts whose codecs are the same).
    """
    generator = Generator(layout)
    code = generator.build()
    namespace = _run(code, generator, code_cache)
    return namespace["_enc"], namespace["_dec"], code + generator.constants_text()


def compile_java_decoder(
    layout: Layout, code_cache: CodeStore | None = None
) -> Callable[[bytes], dict[str, Any]]:
    """The generated decoder for ``layout`` that reads as Kafka's Java readers do."""
    generator = Generator(layout, java=True)
    module = _run(generator.build(), generator, code_cache)
    decoder: Callable[[bytes], dict[str, Any]] = module["_dec"]
    return decoder


def _run(source: str, generator: Generator, code_cache: CodeStore | None) -> dict[str, Any]:
    """Execute a generated module (its code object cached by source) with its constants."""

    def compiled() -> CodeType:
        # compiled by an earlier process of the user's, or now
        code = code_cache.load(source) if code_cache is not None else None
        if code is None:
            code = compile(source, "<kcompat codec>", "exec")
            if code_cache is not None:
                code_cache.store(source, code)
        return code

    code = _CODE.get(source, compiled)
    module = namespace()
    module["_SK"] = generator.keys
    module["_KV"] = generator.values
    exec(code, module)
    return module
