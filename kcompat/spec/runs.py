"""Runs of versions in which neither side's layout can change.

A message's layout at a version depends only on which of its version ranges hold that
version: the message's valid and flexible versions, and each field's versions, nullable,
tagged and flexible versions and integer encodings (at any depth, common structs
included). Between two places where one of those ranges starts or ends, every version
resolves to the same layout, so the diff pairs fields, and the proof samples bytes, once
per run instead of once per version: a spec valid for ``0-32766`` with 2,000 fields has a
handful of runs, not 32,767 layouts.
"""

from __future__ import annotations

from collections.abc import Iterator

from kcompat.spec.model import Field, Memo, Message
from kcompat.spec.versions import Versions

_BOUNDARIES: Memo[frozenset[int]] = Memo("boundaries")


def boundaries(message: Message) -> frozenset[int]:
    """Every version at which some range of ``message`` starts, or the one after it ends
    (memoised on the frozen message)."""
    return _BOUNDARIES(message, lambda: _boundaries(message))


def _boundaries(message: Message) -> frozenset[int]:
    marks: set[int] = set()
    _add(marks, message.valid_versions)
    _add(marks, message.flexible_versions)
    for field in _every_field(message):
        for versions in _field_ranges(field):
            _add(marks, versions)
    return frozenset(marks)


def runs(base: Message, head: Message, versions: Versions) -> tuple[Versions, ...]:
    """``versions`` cut into runs (each one contiguous range) within which neither
    ``base``'s nor ``head``'s layout changes, in version order."""
    cuts = sorted(boundaries(base) | boundaries(head))
    out: list[Versions] = []
    for low, high in versions.ranges:
        start = low
        for cut in _between(cuts, low, high):
            out.append(Versions.of(start, cut - 1))
            start = cut
        out.append(Versions.of(start, high))
    return tuple(out)


def _between(cuts: list[int], low: int, high: int) -> Iterator[int]:
    """The cuts strictly after ``low`` and at most ``high`` (``cuts`` sorted)."""
    from bisect import bisect_right

    index = bisect_right(cuts, low)
    while index < len(cuts) and cuts[index] <= high:
        yield cuts[index]
        index += 1


def _add(marks: set[int], versions: Versions) -> None:
    for low, high in versions.ranges:
        marks.add(low)
        marks.add(high + 1)


def _field_ranges(field: Field) -> Iterator[Versions]:
    yield field.versions
    yield field.nullable_versions
    yield field.tagged_versions
    if field.flexible_versions is not None:
        yield field.flexible_versions
    for rule in field.encoding:
        yield rule.versions


def _every_field(message: Message) -> Iterator[Field]:
    """Every field a layout of ``message`` can reach: inline ones at any depth, and those
    of every struct it defines (common or not, redefinitions included)."""
    for _path, field in message.walk():
        yield field
    for struct in (*message.structs, *message.structs.redefinitions):
        for top in struct.fields:
            for _path, field in top.walk():
                yield field
