"""An annotated hex dump: each field's bytes, its path, its wire form and its value.

Evidence of a break is a byte string; nobody can read one unaided. Each line shows the
offset, the first bytes of a span, and what the layout says those bytes are (names and
values :func:`~kcompat.escaping.shown`: a terminal acts on none of them)::

    0000  00 00 00 05               ThrottleTimeMs (int32) = 5
    0004  03                        Brokers (compact array, 2 items)
    0005  00 00 00 01                 Brokers[0].NodeId (int32) = 1
    0009  03 68 31                    Brokers[0].Host (compact string) = "h1"

If the bytes do not decode, the dump stops at the failing offset with the error and
counts the bytes left unread. Read as Kafka's Java readers do (``java``), bytes after the
message are not an error: the dump says how many a Java reader leaves unread.

:func:`write_annotation` streams the dump line by line as the bytes are read, keeping no
decoded value and no list of spans, so its memory stays flat however long the message.
"""

from __future__ import annotations

import math
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from kcompat.codec.errors import DecodeError
from kcompat.codec.reference_decoder import decode_spans, walk_spans
from kcompat.codec.spans import NO_VALUE, Span
from kcompat.escaping import shown
from kcompat.spec.defaults import uuid_text
from kcompat.spec.model import show_value
from kcompat.spec.resolve import Layout

#: Bytes shown per line; longer spans are cut with an ellipsis.
HEX_BYTES = 8
VALUE_CHARS = 48


@dataclass(frozen=True, slots=True)
class Line:
    """One line of the dump; ``path`` is the field it describes ("" for the message)."""

    offset: int
    path: str
    text: str


def annotate(
    layout: Layout, data: bytes, *, max_lines: int | None = None, java: bool = False
) -> list[str]:
    """The dump of ``data`` read with ``layout``, as text lines."""
    return [line.text for line in annotate_lines(layout, data, max_lines=max_lines, java=java)]


def annotate_lines(
    layout: Layout, data: bytes, *, max_lines: int | None = None, java: bool = False
) -> list[Line]:
    """The dump as :class:`Line` objects (with the path of each line, for focusing)."""
    data = bytes(data)
    _, spans, error = decode_spans(layout, data, java=java)
    width = _width(data)
    lines = [_line(span, data, width) for span in sorted(spans, key=lambda s: s.start)]
    lines.extend(_tail(data, width, max((span.end for span in spans), default=0), error))
    if max_lines is not None and len(lines) > max_lines:
        hidden = len(lines) - max_lines + 1
        lines = [*lines[: max_lines - 1], Line(-1, "", f"... {hidden} more lines")]
    return lines


def write_annotation(
    layout: Layout, data: bytes, write: Callable[[str], object], *, java: bool = False
) -> DecodeError | None:
    """Write the dump of ``data`` line by line (each ending in a newline) as it is read;
    the error that stopped it, if any."""
    width = _width(data)
    furthest = 0

    def sink(span: Span) -> None:
        nonlocal furthest
        furthest = max(furthest, span.end)
        write(_line(span, data, width).text + "\n")

    error = walk_spans(layout, data, sink, java=java)
    for line in _tail(data, width, furthest, error):
        write(line.text + "\n")
    return error


def _width(data: bytes) -> int:
    return max(4, len(f"{len(data):x}"))


def _tail(data: bytes, width: int, stop: int, error: DecodeError | None) -> list[Line]:
    """The lines after the spans: the error and the bytes not decoded, or (a Java reader)
    the bytes after the message left unread."""
    lines = []
    if error is not None:
        text = shown(f"{error.offset:0{width}x}  !! {error}")
        lines.append(Line(error.offset, error.path, text))
    rest = len(data) - stop
    if rest > 0:
        chunk = _hex(data[stop : stop + HEX_BYTES], rest)
        what = "bytes not decoded" if error is not None else "bytes after the message, unread"
        text = f"{stop:0{width}x}  {chunk:<{HEX_BYTES * 3 + 1}} ({rest} {what})"
        lines.append(Line(stop, "", text))
    return lines


def focus(lines: list[Line], path: str, limit: int) -> list[str]:
    """At most ``limit`` lines around the first line about ``path`` (or the start)."""
    if len(lines) <= limit:
        return [line.text for line in lines]
    target = 0
    for index, line in enumerate(lines):
        if line.path == path or line.path.startswith((path + ".", path + "[")):
            target = index
            break
    else:
        for index, line in enumerate(lines):
            if line.text.split("  ", 2)[-1].lstrip().startswith("!!"):
                target = index
                break
    before = min(target, max(limit // 3, 1))
    start = max(0, target - before)
    end = min(len(lines), start + limit)
    start = max(0, end - limit)
    shown = [line.text for line in lines[start:end]]
    if start > 0:
        shown[0] = f"... {start} lines before"
    if end < len(lines):
        shown[-1] = f"... {len(lines) - end} lines after"
    return shown


def _line(span: Span, data: bytes, width: int) -> Line:
    chunk = _hex(data[span.start : min(span.end, span.start + HEX_BYTES)], span.end - span.start)
    label = span.path or "(message)"
    text = f"{'  ' * span.depth}{label} ({span.what})"
    if span.value is not NO_VALUE:
        text += f" = {show(span.value)}"
    return Line(
        span.start, span.path, shown(f"{span.start:0{width}x}  {chunk:<{HEX_BYTES * 3 + 1}} {text}")
    )


def _hex(chunk: bytes, total: int) -> str:
    text = " ".join(f"{byte:02x}" for byte in chunk)
    if total > len(chunk):
        text += " …"
    return text


def show(value: Any, limit: int = VALUE_CHARS) -> str:
    """A value as the dump prints it: JSON-like, short."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        text = value if len(value) <= limit else value[:limit] + "…"
        return (
            '"'
            + text.replace("\\", "\\\\").replace('"', '\\"')
            + '"'
            + (f" ({len(value)} chars)" if len(value) > limit else "")
        )
    if isinstance(value, bytes | bytearray):
        shown = bytes(value[: limit // 2]).hex()
        more = "…" if len(value) > limit // 2 else ""
        return f"0x{shown}{more} ({len(value)} bytes)" if value else "empty bytes"
    if isinstance(value, uuid.UUID):
        return uuid_text(value)
    if isinstance(value, float) and not math.isfinite(value):
        return show_value(value)  # Java's spelling: Infinity, -Infinity, NaN
    if isinstance(value, list):
        return f"[{len(value)} items]"
    if isinstance(value, dict):
        return "{...}"
    return str(value)
