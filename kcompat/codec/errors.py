"""The codec's exceptions: every failure names the field path (and, decoding, the offset).

A caller shows one line to a user, so the message must say where and why without a
traceback: ``offset 37, Topics[0].Partitions[3].LeaderId: 4 bytes needed, 2 left``.
"""

from __future__ import annotations


class CodecError(Exception):
    """Base class of the codec's errors."""


class EncodeError(CodecError, ValueError):
    """A value that cannot be written at this version (range, type, null, unknown key)."""

    def __init__(self, path: str, reason: str) -> None:
        self.path = path
        self.reason = reason
        super().__init__(f"{path}: {reason}" if path else reason)


class DecodeError(CodecError, ValueError):
    """Bytes that are not a valid encoding of the message at this version."""

    def __init__(self, offset: int, path: str, reason: str) -> None:
        self.offset = offset
        self.path = path
        self.reason = reason
        where = f"offset {offset}, {path}" if path else f"offset {offset}"
        super().__init__(f"{where}: {reason}")


class CodecBug(CodecError, RuntimeError):
    """The compiled codec and the reference codec disagree: a bug in kcompat, not the input."""
