"""A counterexample of the round-trip proof: the bytes one revision wrote, the field that
changed, and what the other revision made of them.

The annotated dump of the bytes is drawn only when shown: most counterexamples confirm a
finding another one already shows.
"""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from kcompat.codec.annotate import Line, annotate_lines, focus, show
from kcompat.codec.jsonform import value_to_json
from kcompat.codec.values import UNKNOWN_TAGS
from kcompat.escaping import shown
from kcompat.spec.resolve import Layout

#: Bytes shown as hex in evidence; the dump covers the rest around the field.
MAX_HEX_BYTES = 1024
#: Lines of annotated dump kept in evidence, and shown by ``str()``.
MAX_ANNOTATED = 40
SHORT_ANNOTATED = 22
INDEX = re.compile(r"\[\d+\]")
_ITEMS_SHOWN = 8

BASE_TO_HEAD = "base->head"
HEAD_TO_BASE = "head->base"


@dataclass(frozen=True)
class Evidence:
    """One counterexample: the bytes a writer produced and what the reader made of them.

    ``field_path`` is the spec path of the field that changed (``Topics.Partitions.
    LeaderId``, as in findings); ``value_path`` is where in the sample the reading went
    wrong (``Topics[0].Partitions[3].LeaderId``). The annotated dump of the bytes is drawn
    when first asked for: most counterexamples only confirm a finding another one shows.
    """

    message: str
    version: int
    direction: str  # "base->head" or "head->base"
    field_path: str
    hex: str
    written: Any
    read: Any
    error: str | None
    size: int = 0
    value_path: str = ""
    writer: Layout | None = field(default=None, repr=False, compare=False)
    data: bytes = field(default=b"", repr=False, compare=False)

    @cached_property
    def _lines(self) -> list[Line]:
        return annotate_lines(self.writer, self.data) if self.writer is not None else []

    @cached_property
    def annotated(self) -> tuple[str, ...]:
        """The dump around the value path (at most ``MAX_ANNOTATED`` lines)."""
        return tuple(focus(self._lines, self.value_path, MAX_ANNOTATED))

    @cached_property
    def short(self) -> tuple[str, ...]:
        return tuple(focus(self._lines, self.value_path, SHORT_ANNOTATED))

    def __hash__(self) -> int:  # the values may be lists or dicts
        return hash((self.message, self.version, self.direction, self.value_path, self.hex))

    def to_dict(self) -> dict[str, Any]:
        """JSON-able, as ``findings.schema.json`` describes ``evidence``."""
        return {
            "message": self.message,
            "version": self.version,
            "direction": self.direction,
            "field_path": self.field_path,
            "value_path": self.value_path,
            "hex": self.hex,
            "annotated": list(self.annotated),
            "written": value_to_json(_shorten(self.written)),
            "read": value_to_json(_shorten(self.read)),
            "error": self.error,
        }

    def summary(self) -> str:
        """The counterexample in one line, for people: names and values from the spec are
        escaped, so a newline in a name cannot start a line of its own (in a terminal, a
        JUnit failure, a Markdown block, a CI log where a line can be a command)."""
        where = f"{self.message} v{self.version} {self.direction}"
        path = self.value_path or self.field_path
        if INDEX.sub("", path) != self.field_path:
            # the misreading surfaces after the field that changed
            where += f": {self.field_path or 'the message'} changed"
        if self.error is not None:
            return shown(f"{where}: {path}: the reader fails ({self.size} bytes): {self.error}")
        return shown(
            f"{where}: {path}: wrote {show(self.written)}, read {show(self.read)} "
            f"({self.size} bytes)"
        )

    def __str__(self) -> str:
        lines = self.short
        return "\n".join([self.summary(), *(f"  {line}" for line in lines)])


def make_evidence(
    writer: Layout,
    direction: str,
    data: bytes,
    path: str,
    changed: str,
    written: Any,
    read: Any,
    error: str | None,
) -> Evidence:
    hex_text = data[:MAX_HEX_BYTES].hex()
    if len(data) > MAX_HEX_BYTES:
        hex_text += f"...(+{len(data) - MAX_HEX_BYTES} bytes)"
    return Evidence(
        message=writer.message.name,
        version=writer.version,
        direction=direction,
        field_path=changed,
        value_path=path,
        hex=hex_text,
        written=written,
        read=read,
        error=error,
        size=len(data),
        writer=writer,
        data=data,
    )


def value_at(value: Any, path: str) -> Any:
    """The part of a sample at a dotted path with ``[i]`` indexes (``None`` if absent)."""
    if not path:
        return None
    current = value
    for part in path.replace("[", ".[").split("."):
        if not part:
            continue
        if part.startswith("["):
            index = part[1:-1]
            if not index.isdigit() or not isinstance(current, list | tuple):
                return None
            position = int(index)
            if position >= len(current):
                return None
            current = current[position]
        elif isinstance(current, dict) and part in current:
            current = current[part]
        else:
            return None
    return current


def _shorten(value: Any) -> Any:
    """Evidence values for JSON: long lists, strings and byte strings cut down."""
    if isinstance(value, list | tuple) and len(value) > _ITEMS_SHOWN:
        return [_shorten(item) for item in value[:_ITEMS_SHOWN]] + [
            f"... {len(value) - _ITEMS_SHOWN} more items"
        ]
    if isinstance(value, list | tuple):
        return [_shorten(item) for item in value]
    if isinstance(value, dict):
        return {key: _shorten(item) for key, item in value.items() if key != UNKNOWN_TAGS}
    if isinstance(value, str) and len(value) > 200:
        return value[:200] + "..."
    if isinstance(value, bytes | bytearray) and len(value) > 256:
        return bytes(value[:256])
    if isinstance(value, uuid.UUID):
        return value
    return value
