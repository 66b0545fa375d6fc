"""The byte spans the reference decoder records: what each run of input bytes means, for
the annotated hex dump and for naming the field a failure is in."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


class _NoValue:
    def __repr__(self) -> str:
        return "<no value>"


#: A span that has no decoded value of its own (a prefix, a header, a container).
NO_VALUE: Any = _NoValue()


@dataclass(frozen=True, slots=True)
class Span:
    """Bytes ``start..end`` of the input and what they mean."""

    start: int
    end: int
    path: str
    what: str
    value: Any = NO_VALUE
    depth: int = 0
