"""How Kafka's generated Java readers turn bytes into values, where that differs from strict.

Both decoders (the compiled one and the reference interpreter) read in one of two modes:
strict (the wire rules of docs/FORMAT.md, the default) or as Kafka's generated
``XData(Readable, version)`` classes do. Java is more lenient in a few places, and the
proof must call bytes unreadable only where a Kafka broker or client would fail:

* trailing bytes after the message are left unread;
* invalid UTF-8 decodes with U+FFFD, exactly as ``new String(bytes, UTF_8)`` does
  (:data:`JAVA_UTF8`, which differs from Python's own ``"replace"`` in how many bytes one
  U+FFFD stands for);
* lengths, counts, tags and sizes are Java ints: an unsigned varint keeps its low 32 bits
  (``ByteUtils.readUnsignedVarint``: five bytes at most, the fifth may carry bits beyond
  32, which are dropped), and a compact length is that int minus one, wrapping like Java;
  a length or count below zero is null where the field is nullable;
* a tagged-field count below zero (2^31 or more unsigned) reads no tagged fields;
* a known tagged field is read by its type from the stream, ignoring the size its entry
  declares; a repeated known tag overwrites the earlier value; unknown tags are kept in
  wire order, duplicates and all, with Java's (possibly negative) int tag.

The rest is common to both modes: a known tag outside its ``taggedVersions`` fails, a null
for a non-nullable field fails, a KIP-893 marker byte 0x80-0xff is null, any non-zero bool
byte is true; tags in any order are read (a writer must write them ascending). The
varint encodings of integer fields (the ``encoding`` extension) are not Kafka's and read
the same in both modes. One corner differs on purpose: a tag of a field whose
``versions`` never meet its ``taggedVersions`` fails in both modes, where Java would keep
it as unknown (Kafka's generator refuses such a spec anyway).
"""

from __future__ import annotations

import codecs

#: Name of the codec error handler that replaces invalid UTF-8 as Java does:
#: ``data.decode("utf-8", JAVA_UTF8)`` equals Java's ``new String(data, UTF_8)``.
JAVA_UTF8 = "kcompat-java-utf8"

INT32_MAX = (1 << 31) - 1
UINT32_MASK = (1 << 32) - 1


def int32(raw: int) -> int:
    """The Java int of the low 32 bits of ``raw``."""
    raw &= UINT32_MASK
    return raw - (1 << 32) if raw > INT32_MAX else raw


def compact_length(raw: int) -> int:
    """``readUnsignedVarint() - 1`` in Java int arithmetic (raw 0 is -1; 2^31 wraps to
    2^31 - 1; above 2^31 is negative)."""
    return int32(raw - 1)


def _continuation(byte: int) -> bool:
    return byte & 0xC0 == 0x80


def java_utf8_resume(data: bytes, start: int) -> int:
    """Where Java's UTF-8 decoder goes on after the malformed sequence at ``start``.

    This follows the JDK's ``String`` decoding loop, branch by branch: each malformed
    sequence becomes one U+FFFD, and the loop resumes after the bytes that branch
    consumed, or stops (``len(data)``) where the JDK ``break``\\ s on a truncated
    sequence at the end of the input.
    """
    first = data[start]
    if 0xC2 <= first <= 0xDF:
        return _resume_two_bytes(data, start)
    if 0xE0 <= first <= 0xEF:
        return _resume_three_bytes(data, start)
    if 0xF0 <= first <= 0xF7:
        return _resume_four_bytes(data, start)
    return start + 1  # a continuation byte, C0, C1 or F8-FF


def _resume_two_bytes(data: bytes, start: int) -> int:
    """A two-byte lead is malformed here only when its continuation is bad or missing."""
    return len(data) if start + 1 >= len(data) else start + 1


def _overlong3(first: int, second: int) -> bool:
    """E0 followed by 80-9F: an overlong three-byte sequence, bad from its second byte."""
    return first == 0xE0 and second & 0xE0 == 0x80


def _resume_three_bytes(data: bytes, start: int) -> int:
    """The JDK's three-byte branch: complete sequences resume after the first bad byte (a
    surrogate as a whole), truncated ones at the end stop unless already bad."""
    size = len(data)
    first = data[start]
    if start + 2 < size:
        second = data[start + 1]
        if _overlong3(first, second) or not _continuation(second):
            return start + 1
        if not _continuation(data[start + 2]):
            return start + 2
        return start + 3  # a surrogate code point: one U+FFFD for all three
    if start + 1 < size:
        second = data[start + 1]
        if _overlong3(first, second) or not _continuation(second):
            return start + 1
    return size


def _resume_four_bytes(data: bytes, start: int) -> int:
    """The JDK's four-byte branch: as for three bytes, with F5-F7 leads always bad."""
    size = len(data)
    first = data[start]
    if start + 3 < size:
        return start + _malformed4(data, start)
    if first > 0xF4:
        return start + 1
    if start + 1 < size and _malformed4_2(first, data[start + 1]):
        return start + 1
    if start + 2 < size and not _continuation(data[start + 2]):
        return start + 2
    return size


def _malformed4_2(first: int, second: int) -> bool:
    return (
        (first == 0xF0 and not 0x90 <= second <= 0xBF)
        or (first == 0xF4 and second & 0xF0 != 0x80)
        or not _continuation(second)
    )


def _malformed4(data: bytes, start: int) -> int:
    """Bytes one U+FFFD stands for, for a malformed four-byte sequence at ``start``."""
    first = data[start]
    second = data[start + 1]
    if first > 0xF4 or _malformed4_2(first, second):
        return 1
    if not _continuation(data[start + 2]):
        return 2
    return 3


def _replace_as_java(error: UnicodeError) -> tuple[str, int]:
    if not isinstance(error, UnicodeDecodeError):
        raise error
    return "\ufffd", java_utf8_resume(error.object, error.start)


codecs.register_error(JAVA_UTF8, _replace_as_java)
