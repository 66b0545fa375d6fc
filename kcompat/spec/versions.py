"""Version ranges as Kafka writes them (``none``, ``N``, ``N-M``, ``N+``) and sets of them.

A :class:`Versions` is an immutable, normalised set of disjoint ranges, so subtracting
``3-4`` from ``0+`` keeps both ``0-2`` and ``5+`` instead of losing one side, which is
what a single Kafka-style range would do.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache

#: The highest version Kafka can express; ``N+`` means ``N-32767``.
MAX_VERSION = 0x7FFF

# ASCII digits only (``\d`` would take other scripts' digits) and, as in Kafka's
# Short.parseShort, no whitespace inside a range: "1 - 3" is an error there.
_RANGE_RE = re.compile(r"\s*([0-9]+)(?:(\+)|-([0-9]+))?\s*\Z")
_SPACED_RE = re.compile(r"\s*[0-9]+\s*(?:\+|-\s*[0-9]+)?\s*\Z")


class VersionSyntaxError(ValueError):
    """A version string that is not ``none``, ``N``, ``N-M`` or ``N+``."""


@dataclass(frozen=True, slots=True)
class Versions:
    """An immutable set of versions stored as sorted, disjoint, non-adjacent ranges."""

    ranges: tuple[tuple[int, int], ...] = ()

    # -- construction -----------------------------------------------------------------
    @staticmethod
    def none() -> Versions:
        return _NONE

    @staticmethod
    def of(lowest: int, highest: int = MAX_VERSION) -> Versions:
        """The range ``lowest-highest`` (empty when reversed)."""
        if lowest > highest:
            return _NONE
        return Versions(((lowest, highest),))

    @staticmethod
    def from_ranges(ranges: Iterable[tuple[int, int]]) -> Versions:
        """Normalise arbitrary ranges: drop empty ones, sort, merge overlaps and neighbours."""
        merged: list[tuple[int, int]] = []
        for low, high in sorted(r for r in ranges if r[0] <= r[1]):
            if merged and low <= merged[-1][1] + 1:
                if high > merged[-1][1]:
                    merged[-1] = (merged[-1][0], high)
            else:
                merged.append((low, high))
        return Versions(tuple(merged)) if merged else _NONE

    @staticmethod
    def parse(text: str) -> Versions:
        """Parse ``none``, ``N``, ``N-M`` or ``N+``; also ``a, b`` lists as :meth:`__str__` writes.

        Raises :class:`VersionSyntaxError` for anything else, including reversed ranges
        such as ``2-1``, so the caller can report them rather than silently reading none.
        """
        # Only short texts are memoised: a fuzzed or broken file must not pin megabytes.
        return _parse(text) if len(text) <= 64 else _parse.__wrapped__(text)

    @staticmethod
    def try_parse(text: object) -> Versions | None:
        """Like :meth:`parse` but returns ``None`` for anything invalid (tolerant builders)."""
        if not isinstance(text, str):
            return None
        try:
            return Versions.parse(text)
        except VersionSyntaxError:
            return None

    # -- queries ----------------------------------------------------------------------
    @property
    def empty(self) -> bool:
        return not self.ranges

    @property
    def lowest(self) -> int:
        """The lowest version; raises on an empty set."""
        if not self.ranges:
            raise ValueError("empty version set has no lowest version")
        return self.ranges[0][0]

    @property
    def highest(self) -> int:
        """The highest version (``MAX_VERSION`` when open-ended); raises on an empty set."""
        if not self.ranges:
            raise ValueError("empty version set has no highest version")
        return self.ranges[-1][1]

    @property
    def open_ended(self) -> bool:
        return bool(self.ranges) and self.ranges[-1][1] == MAX_VERSION

    @property
    def contiguous(self) -> bool:
        return len(self.ranges) <= 1

    def __contains__(self, version: object) -> bool:
        # Called once per field and version by every layout: a plain loop over the
        # sorted ranges, stopping at the first that starts above ``version``.
        if not isinstance(version, int):
            return False
        for low, high in self.ranges:
            if version < low:
                return False
            if version <= high:
                return True
        return False

    def contains(self, other: Versions) -> bool:
        """True when every version of ``other`` is in this set."""
        return other.subtract(self).empty

    def overlaps(self, other: Versions) -> bool:
        return not self.intersect(other).empty

    def __bool__(self) -> bool:
        return bool(self.ranges)

    def __iter__(self) -> Iterator[int]:
        """Every version, in order. Open-ended sets stop at ``MAX_VERSION``; clip first."""
        for low, high in self.ranges:
            yield from range(low, high + 1)

    def __len__(self) -> int:
        return sum(high - low + 1 for low, high in self.ranges)

    # -- algebra ----------------------------------------------------------------------
    def intersect(self, other: Versions) -> Versions:
        out: list[tuple[int, int]] = []
        i = j = 0
        a, b = self.ranges, other.ranges
        while i < len(a) and j < len(b):
            low = max(a[i][0], b[j][0])
            high = min(a[i][1], b[j][1])
            if low <= high:
                out.append((low, high))
            if a[i][1] < b[j][1]:
                i += 1
            else:
                j += 1
        return Versions(tuple(out)) if out else _NONE

    def union(self, other: Versions) -> Versions:
        return Versions.from_ranges(self.ranges + other.ranges)

    def subtract(self, other: Versions) -> Versions:
        out: list[tuple[int, int]] = []
        for low, high in self.ranges:
            current = low
            for o_low, o_high in other.ranges:
                if o_high < current or o_low > high:
                    continue
                if o_low > current:
                    out.append((current, o_low - 1))
                current = max(current, o_high + 1)
                if current > high:
                    break
            if current <= high:
                out.append((current, high))
        return Versions.from_ranges(out)

    def symmetric_difference(self, other: Versions) -> Versions:
        """Versions in exactly one of the two sets."""
        return self.subtract(other).union(other.subtract(self))

    __and__ = intersect
    __xor__ = symmetric_difference
    __or__ = union
    __sub__ = subtract

    def clip(self, highest: int) -> Versions:
        """This set without versions above ``highest`` (to iterate open-ended sets)."""
        return self.intersect(Versions.of(0, highest))

    # -- text -------------------------------------------------------------------------
    def __str__(self) -> str:
        if not self.ranges:
            return "none"
        return ", ".join(_range_text(low, high) for low, high in self.ranges)

    def __repr__(self) -> str:
        return f"Versions({str(self)!r})"


@lru_cache(maxsize=4096)
def _parse(text: str) -> Versions:
    """:meth:`Versions.parse`, memoised: a spec repository repeats a few dozen range texts."""
    stripped = text.strip()
    if stripped == "none":
        return _NONE
    parts = stripped.split(",")
    ranges = []
    for part in parts:
        match = _RANGE_RE.match(part)
        if not match:
            if _SPACED_RE.match(part):
                raise VersionSyntaxError(
                    f"invalid version range {text!r}: no spaces inside a range "
                    "(Kafka reads '1 - 3' as an error); write 'N-M' or 'N+'"
                )
            raise VersionSyntaxError(
                f"invalid version range {text!r}: use 'none', 'N', 'N-M' or 'N+'"
            )
        low_text, high_text = match.group(1), match.group(3)
        if any(
            len(digits.lstrip("0")) > len(str(MAX_VERSION))
            for digits in (low_text, high_text or "")
        ):  # checked before int(): Python refuses to convert thousands of digits
            raise VersionSyntaxError(f"version in {text[:40]!r} is above {MAX_VERSION}")
        low = int(low_text)
        if match.group(2):
            high = MAX_VERSION
        elif high_text is not None:
            high = int(high_text)
        else:
            high = low
        if low > MAX_VERSION or high > MAX_VERSION:
            raise VersionSyntaxError(f"version in {text!r} is above {MAX_VERSION}")
        if low > high:
            raise VersionSyntaxError(
                f"reversed version range {text!r}: the lowest version comes first"
            )
        ranges.append((low, high))
    return Versions.from_ranges(ranges)


def _range_text(low: int, high: int) -> str:
    if high == MAX_VERSION:
        return f"{low}+"
    if low == high:
        return str(low)
    return f"{low}-{high}"


_NONE = Versions(())


def released_phrase(versions: Versions) -> str:
    """ "released version 2", "released versions 0-3", or "its released versions"."""
    if versions.empty:
        return "its released versions"
    single = len(versions.ranges) == 1 and versions.ranges[0][0] == versions.ranges[0][1]
    return f"released version{'' if single else 's'} {versions}"
