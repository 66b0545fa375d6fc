"""The codec's front door: compiled once per (message, version), exact errors on failure.

:func:`codec_for` compiles a layout the first time it is asked and keeps the result on
the message object (layouts are a pure function of the frozen message, so the cache
lives and dies with it). Encoding and decoding run the compiled code; if it rejects the
input, the reference codec runs on the same input to raise an error that names the
field path and the byte offset. Should the two ever disagree, that is a kcompat bug
and says so (:class:`CodecBug`) rather than hiding behind a plausible message.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from kcompat.codec import reference
from kcompat.codec.compiler import compile_layout
from kcompat.codec.errors import CodecBug, DecodeError, EncodeError
from kcompat.spec.model import Message
from kcompat.spec.resolve import Layout, resolve


@dataclass(frozen=True)
class Codec:
    """The compiled encoder and decoder of one layout."""

    layout: Layout
    source: str = field(repr=False)
    _encode: Callable[[Any], bytearray] = field(repr=False)
    _decode: Callable[[bytes], dict[str, Any]] = field(repr=False)

    def encode(self, value: Any) -> bytes:
        """The bytes of ``value``; :class:`EncodeError` names the offending field."""
        try:
            return bytes(self._encode(value))
        except Exception as failure:
            raise self._explain_encode(value, failure) from None

    def decode(self, data: bytes | bytearray | memoryview) -> dict[str, Any]:
        """The value ``data`` holds; :class:`DecodeError` names the offset and field."""
        buf = data if type(data) is bytes else bytes(data)
        try:
            return self._decode(buf)
        except Exception as failure:
            raise self._explain_decode(buf, failure) from None

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

    def _explain_decode(self, buf: bytes, failure: Exception) -> Exception:
        try:
            reference.decode(self.layout, buf)
        except DecodeError as err:
            return err
        return CodecBug(
            f"{self.layout.message.name} v{self.layout.version}: the compiled decoder failed "
            f"({type(failure).__name__}: {failure}) where the reference decoder did not"
        )


_CACHE_KEY = "_kcompat_codecs"


def codec_for(layout: Layout) -> Codec:
    """The compiled codec of ``layout`` (compiled on first use, then cached)."""
    message = layout.message
    cache: dict[int, Codec] | None = message.__dict__.get(_CACHE_KEY)
    if cache is None:
        cache = {}
        object.__setattr__(message, _CACHE_KEY, cache)
    found = cache.get(layout.version)
    if found is not None and found.layout is layout:
        return found
    encoder, decoder, source = compile_layout(layout)
    codec = Codec(layout, source, encoder, decoder)
    cache[layout.version] = codec
    return codec


def encode(layout: Layout, value: Any) -> bytes:
    """Encode a value dict as the body of ``layout.message`` at ``layout.version``."""
    return codec_for(layout).encode(value)


def decode(layout: Layout, data: bytes | bytearray | memoryview) -> dict[str, Any]:
    """Decode the body of ``layout.message`` at ``layout.version``."""
    return codec_for(layout).decode(data)


def encode_message(message: Message, version: int, value: Any) -> bytes:
    return encode(resolve(message, version), value)


def decode_message(
    message: Message, version: int, data: bytes | bytearray | memoryview
) -> dict[str, Any]:
    return decode(resolve(message, version), data)
