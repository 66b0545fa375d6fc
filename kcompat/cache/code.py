"""Compiled codec code on disk: what the codec is handed to keep its code objects.

Compiling the generated codec modules (:mod:`kcompat.codec.compiler`) is a large part of
a small proof: a cold ``kcompat diff --staged`` with one Kafka message changed compiled
10 modules in about 20 ms, a tenth of its CPU time, and a pre-commit hook does it again on
every commit. So a command hands the codec these entries: one per generated source,
marshalled. ``marshal.loads`` runs on nothing but a payload whose seal was verified, in an
entry of the user's own (a corrupt marshal stream can crash the interpreter, and a
planted one would be code kcompat runs).
"""

from __future__ import annotations

import marshal
from types import CodeType
from typing import Protocol

from kcompat.cache.entries import CODE, Kind


class Entries(Protocol):
    """Where sealed entries are read and written (the user's ``Cache``)."""

    def read(self, kind: Kind, key: bytes) -> bytes | None: ...

    def write(self, kind: Kind, key: bytes, payload: bytes) -> None: ...


class CodeEntries:
    """Code objects by the source they were compiled from (the codec's ``CodeStore``)."""

    def __init__(self, cache: Entries) -> None:
        self.cache = cache

    def load(self, source: str) -> CodeType | None:
        """The stored code of ``source`` (None: not stored, not whole, or not ours)."""
        payload = self.cache.read(CODE, _key(source))
        if payload is None:
            return None
        try:
            code = marshal.loads(payload)
        except (EOFError, ValueError, TypeError):
            return None
        return code if isinstance(code, CodeType) else None

    def store(self, source: str, code: CodeType) -> None:
        """Keep ``code`` for the next run."""
        self.cache.write(CODE, _key(source), marshal.dumps(code))


def _key(source: str) -> bytes:
    return source.encode("utf-8", "surrogatepass")
