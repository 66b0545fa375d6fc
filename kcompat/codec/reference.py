"""The reference codec: a plain interpreter of a layout, slow, exact and talkative.

It is the executable statement of the wire rules (docs/FORMAT.md and Kafka's generated
code), and it is used where speed does not matter but precision does:

* diagnosing failures of the compiled codec (:mod:`kcompat.codec.compiler` runs without
  per-field bookkeeping; when it fails, this module re-runs the input to name the byte
  offset and the field path);
* recording the byte span of every field for the annotated hex dump;
* a second implementation that tests compare the compiled codec with.

Decoding is hardened: every length is checked against the bytes that remain before
anything is allocated, varints are bounded, and every failure is a :class:`DecodeError`.
It reads strictly by default, or as Kafka's Java readers do (``java=True``; see
:mod:`kcompat.codec.java`).

The decoder is :mod:`kcompat.codec.reference_decoder`, the encoder
:mod:`kcompat.codec.reference_encoder`; this module names the codec as a whole, for the
callers that use both sides.
"""

from __future__ import annotations

from kcompat.codec.reference_decoder import decode, decode_spans, walk_spans
from kcompat.codec.reference_encoder import encode
from kcompat.codec.spans import NO_VALUE, Span

__all__ = ["NO_VALUE", "Span", "decode", "decode_spans", "encode", "walk_spans"]
