"""The reference codec: a message value to bytes and back, and the round-trip proof.

Values are plain Python, keyed by the spec's field names at the version in question:

* ``bool`` -> bool; int8 ... int64, uint16, uint32 -> int; float64 -> float
* string -> str; bytes and records -> bytes; uuid -> uuid.UUID (the zero uuid, never None)
* ``[]T`` -> list; a struct -> dict; ``None`` wherever the field is nullable
* tagged fields a reader does not know -> ``"_unknown_tagged_fields": [[tag, bytes], ...]``
  (written back in tag order)

A field missing from a value is written as its default; a decoded value holds every field
of the version (absent tagged fields at their defaults), keys in wire order. A key that is
a field of the struct only in other versions may be given at its default (or when the
field is ``ignorable``), as Kafka's generated writers allow; anything else is an
:class:`EncodeError`.

Decoding is strict by default; ``codec_for(layout).decode(data, java=True)`` (and
``decode``, ``decode_message``, ``reference.decode``, ``reference.decode_spans`` with
``java=True``) reads as Kafka's generated Java readers do, as :mod:`.java` lists.

Modules: :mod:`.codec` (compiled, cached codecs), :mod:`.reference` (the interpreter that
explains failures and records byte spans: :mod:`.reference_decoder` and
:mod:`.reference_encoder`), :mod:`.java` (what Java readers accept),
:mod:`.annotate` (hex dumps), :mod:`.jsonform` (the CLI's JSON form), :mod:`.samples`
(edge-case samples), :mod:`.proof` (evidence).
"""

from kcompat.codec.codec import Codec, codec_for, decode, decode_message, encode, encode_message
from kcompat.codec.errors import CodecBug, CodecError, DecodeError, EncodeError
from kcompat.codec.values import UNKNOWN_TAGS

__all__ = [
    "UNKNOWN_TAGS",
    "Codec",
    "CodecBug",
    "CodecError",
    "DecodeError",
    "EncodeError",
    "codec_for",
    "decode",
    "decode_message",
    "encode",
    "encode_message",
]
