"""The codec's front door: compiled once per (message, version), exact errors on failure.

:func:`codec_for` compiles a layout the first time it is asked and keeps the result on
the message object (layouts are a pure function of the frozen message, so the cache
lives and dies with it). Encoding and decoding run the compiled code; if it rejects the
input, the reference codec runs on the same input to raise an error that names the
field path and the byte offset. Should the two ever disagree, that is a kcompat bug
and says so (:class:`CodecBug`) rather than hiding behind a plausible message.

Decoding is strict by default; ``decode(data, java=True)`` reads as Kafka's generated
Java readers do (trailing bytes ignored, invalid UTF-8 replaced, and the rest listed in
:mod:`kcompat.codec.java`): what a Kafka broker or client would make of the bytes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from kcompat.codec import reference
from kcompat.codec.compiler import CodeStore, compile_java_decoder, compile_layout
from kcompat.codec.errors import CodecBug, DecodeError, EncodeError
from kcompat.spec.model import Memo, Message
from kcompat.spec.resolve import Layout, StructLayout, resolve


@dataclass(frozen=True)
class Codec:
    """The compiled encoder and decoder of one layout."""

    layout: Layout
    source: str = field(repr=False)
    _encode: Callable[[Any], bytearray] = field(repr=False)
    _decode: Callable[[bytes], dict[str, Any]] = field(repr=False)
    code_cache: CodeStore | None = field(default=None, repr=False, compare=False)

    def encode(self, value: Any) -> bytes:
        """The bytes of ``value``; :class:`EncodeError` names the offending field."""
        try:
            return bytes(self._encode(value))
        except Exception as failure:
            raise self._explain_encode(value, failure) from None

    def decode(self, data: bytes | bytearray | memoryview, *, java: bool = False) -> dict[str, Any]:
        """The value ``data`` holds; :class:`DecodeError` names the offset and field.

        ``java``: read as Kafka's generated Java readers do, not strictly.
        """
        buf = data if type(data) is bytes else bytes(data)
        try:
            return self._decode_java(buf) if java else self._decode(buf)
        except Exception as failure:
            raise self._explain_decode(buf, failure, java) from None

    @cached_property
    def _decode_java(self) -> Callable[[bytes], dict[str, Any]]:
        """The Java-mode decoder, generated on first use (most callers never need it)."""
        return compile_java_decoder(self.layout, self.code_cache)

    def _explain_encode(self, value: Any, failure: Exception) -> Exception:
        try:
            reference.encode(self.layout, value)
        except EncodeError as err:
            return err
        except RecursionError:
            return EncodeError("", "the value nests too deeply (is it recursive?)")
        return CodecBug(
            f"{self.layout.message.name} v{self.layout.version}: the compiled encoder failed "
            f"({type(failure).__name__}: {failure}) where the reference encoder did not"
        )

    def _explain_decode(self, buf: bytes, failure: Exception, java: bool) -> Exception:
        try:
            reference.decode(self.layout, buf, java=java)
        except DecodeError as err:
            return err
        except RecursionError:
            return DecodeError(0, "", "the message nests too deeply to read")
        mode = "Java-mode " if java else ""
        return CodecBug(
            f"{self.layout.message.name} v{self.layout.version}: the compiled {mode}decoder "
            f"failed ({type(failure).__name__}: {failure}) where the reference decoder did not"
        )


#: Compiled codecs by version, kept on the message whose layouts they encode.
_CODECS: Memo[dict[int, Codec]] = Memo("codecs")


def codec_for(layout: Layout, code_cache: CodeStore | None = None) -> Codec:
    """The compiled codec of ``layout`` (compiled on first use, then cached on its
    message; ``code_cache``: where a command keeps compiled code between processes)."""
    cache = _CODECS(layout.message, dict)
    found = cache.get(layout.version)
    if found is not None and found.layout is layout:
        return found
    encoder, decoder, source = compile_layout(layout, code_cache)
    codec = Codec(layout, source, encoder, decoder, code_cache)
    cache[layout.version] = codec
    return codec


#: A layout of more fields than this (nested ones included) is interpreted unless it is
#: used often: compiling costs about 0.5 ms a field, so a message of thousands of fields
#: took seconds to compile for a proof's twenty samples. Kafka's largest has 30.
COMPILE_AT_MOST = 256
#: Compiling costs about as much as running the reference codec this many times (both
#: grow with the fields: about 0.5 ms and 5 us a field).
COMPILE_PAYS_AFTER = 100


class Interpreted:
    """The reference codec of one layout behind :class:`Codec`'s ``encode`` and ``decode``:
    the same bytes, values and errors, without compiling (see :func:`codec_for_uses`)."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout

    def encode(self, value: Any) -> bytes:
        try:
            return bytes(reference.encode(self.layout, value))
        except RecursionError:
            raise EncodeError("", "the value nests too deeply (is it recursive?)") from None

    def decode(self, data: bytes | bytearray | memoryview, *, java: bool = False) -> dict[str, Any]:
        buf = data if type(data) is bytes else bytes(data)
        try:
            return reference.decode(self.layout, buf, java=java)
        except RecursionError:
            raise DecodeError(0, "", "the message nests too deeply to read") from None


def codec_for_uses(
    layout: Layout, uses: int, code_cache: CodeStore | None = None
) -> Codec | Interpreted:
    """A codec for about ``uses`` encodes and decodes of ``layout``: the compiled one,
    unless the layout is too big to compile for that few uses (and this process has not
    compiled it already): then the reference codec, which gives the same results."""
    found = _CODECS(layout.message, dict).get(layout.version)
    compiled = found is not None and found.layout is layout
    if compiled or uses >= COMPILE_PAYS_AFTER or _fields(layout.root) <= COMPILE_AT_MOST:
        return codec_for(layout, code_cache)
    return Interpreted(layout)


def _fields(root: StructLayout) -> int:
    """How many fields the layout's code handles, nested ones included (counting stops
    past :data:`COMPILE_AT_MOST`)."""
    count, pending = 0, [root]
    while pending and count <= COMPILE_AT_MOST:
        struct = pending.pop()
        for entry in struct.all_fields():
            count += 1
            wire = entry.wire
            while wire.element is not None:
                wire = wire.element
            if wire.struct is not None:
                pending.append(wire.struct)
    return count


def encode(layout: Layout, value: Any) -> bytes:
    """Encode a value dict as the body of ``layout.message`` at ``layout.version``."""
    return codec_for(layout).encode(value)


def decode(
    layout: Layout, data: bytes | bytearray | memoryview, *, java: bool = False
) -> dict[str, Any]:
    """Decode the body of ``layout.message`` at ``layout.version`` (``java``: as Kafka's
    Java readers do)."""
    return codec_for(layout).decode(data, java=java)


def encode_message(message: Message, version: int, value: Any) -> bytes:
    return encode(resolve(message, version), value)


def decode_message(
    message: Message, version: int, data: bytes | bytearray | memoryview, *, java: bool = False
) -> dict[str, Any]:
    return decode(resolve(message, version), data, java=java)
