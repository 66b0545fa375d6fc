"""Deterministic sample values for a layout, edge cases first.

The proof is only as good as its samples: a break hides unless some sample puts a value
where the two sides differ. So the first samples are systematic (every field at its
default; every field at its low edge: nulls, empty arrays, minimum integers; at its high
edge: maximum integers, non-ASCII strings, tagged fields set; long arrays and strings
that need two-byte varints; small "one of each" values), and the rest are random. Every
sample is a complete value (every field of the version, tagged ones included) that the
layout can encode, and the same (layout, count, seed) always gives the same samples.

Size is bounded: each sample has a budget of leaf values; once spent, arrays are empty,
so deeply nested layouts cannot explode into megabytes.
"""

from __future__ import annotations

import random
import uuid
from typing import Any

from kcompat.codec.values import default_value, int_range
from kcompat.spec.resolve import Kind, Layout, LayoutField, StructLayout, Wire

#: Leaf values per sample before arrays collapse to empty.
LEAF_BUDGET = 4000
LONG_ARRAY = 130  # crosses the one-byte varint boundary (127)
LONG_TEXT = 200

_DEFAULTS, _LOW, _HIGH, _LONG, _SMALL, _RANDOM = range(6)
_SYSTEMATIC = (_DEFAULTS, _LOW, _HIGH, _LONG, _SMALL)
_TEXTS = ("", "a", "kafka", "ünïcødé ✓ 🙂", "topic-1", "x" * 40, "日本語")
_BIG_FLOAT = 1.7976931348623157e308
_SPECIAL_INTS = (0, -1, 1, 127, 128, -64, -65, 16383, 16384, 255, 256)
_ALPHABET = "abcXYZ019-_.é✓🙂 "


def generate_samples(layout: Layout, count: int, seed: int = 0) -> list[dict[str, Any]]:
    """``count`` complete values for ``layout``: systematic edge cases, then random ones."""
    samples = []
    for index in range(max(count, 0)):
        plan = _SYSTEMATIC[index] if index < len(_SYSTEMATIC) else _RANDOM
        rng = random.Random(f"kcompat:{seed}:{index}")
        samples.append(_Builder(rng, plan).struct(layout.root, 0, plan))
    return samples


class _Builder:
    def __init__(self, rng: random.Random, plan: int) -> None:
        self.rng = rng
        self.budget = LEAF_BUDGET

    def spend(self, amount: int = 1) -> bool:
        self.budget -= amount
        return self.budget >= 0

    def struct(self, layout: StructLayout, depth: int, plan: int) -> dict[str, Any]:
        value: dict[str, Any] = {}
        for lf in layout.fields:
            value[lf.name] = self.field(lf, depth, plan)
        for lf in layout.tagged:
            value[lf.name] = self.tagged(lf, depth, plan)
        return value

    def tagged(self, lf: LayoutField, depth: int, plan: int) -> Any:
        if plan == _RANDOM and self.rng.random() < 0.4:
            return self.default(lf, depth)
        return self.field(lf, depth, plan)

    def default(self, lf: LayoutField, depth: int) -> Any:
        """The field's default if the layout can write it (broken specs aside)."""
        value = default_value(lf)
        wire = lf.wire
        if value is None and not wire.nullable:
            return self.value(wire, depth, _LOW)
        if wire.kind is Kind.INT and isinstance(value, int):
            low, high = int_range(wire)
            if not low <= value <= high:
                return low
        return value

    def field(self, lf: LayoutField, depth: int, plan: int) -> Any:
        if plan == _DEFAULTS:
            return self.default(lf, depth)
        return self.value(lf.wire, depth, plan)

    def value(self, wire: Wire, depth: int, plan: int) -> Any:
        self.spend()
        rng = self.rng
        kind = wire.kind
        nullable = wire.nullable
        if nullable and (plan == _LOW or (plan == _RANDOM and rng.random() < 0.2)):
            return None
        if kind is Kind.BOOL:
            return plan in (_HIGH, _SMALL) or (plan == _RANDOM and rng.random() < 0.5)
        if kind is Kind.INT:
            return self.integer(wire, plan)
        if kind is Kind.FLOAT64:
            return {
                _LOW: -_BIG_FLOAT,
                _HIGH: float("inf"),
                _LONG: -0.5,
                _SMALL: 1.5,
            }.get(plan, rng.choice((0.0, -1.25, 3.0e-300, 2.5e300, float("-inf"))))
        if kind is Kind.UUID:
            if plan in (_LOW, _SMALL):
                return uuid.UUID(int=0)
            if plan == _HIGH:
                return uuid.UUID(int=(1 << 128) - 1)
            if plan == _RANDOM and rng.random() < 0.2:
                return uuid.UUID(int=0)
            return uuid.UUID(int=rng.getrandbits(128))
        if kind is Kind.STRING:
            return self.text(plan)
        if kind in (Kind.BYTES, Kind.RECORDS):
            return self.blob(plan)
        if kind is Kind.ARRAY:
            return self.array(wire, depth, plan)
        assert wire.struct is not None
        return self.struct(wire.struct, depth + 1, plan)

    def integer(self, wire: Wire, plan: int) -> int:
        low, high = int_range(wire)
        if plan == _LOW:
            return low
        if plan == _HIGH:
            return high
        if plan == _LONG:
            return max(low, -1) if low < 0 else min(high, 300)
        if plan == _SMALL:
            return min(high, 1)
        choice = self.rng.random()
        if choice < 0.15:
            return low
        if choice < 0.3:
            return high
        if choice < 0.45:  # small values around the varint and sign boundaries
            return max(low, min(high, _SPECIAL_INTS[int(choice * 1000) % len(_SPECIAL_INTS)]))
        if choice < 0.7:
            return max(low, min(high, int(choice * 1_000_000) - 500_000))
        return low + self.rng.getrandbits((high - low).bit_length()) % (high - low + 1)

    def text(self, plan: int) -> str:
        if plan == _LOW:
            return ""
        if plan == _HIGH:
            return "ünïcødé ✓ 🙂"
        if plan == _LONG:
            return "k" * LONG_TEXT if self.spend(LONG_TEXT // 10) else "k"
        if plan == _SMALL:
            return "a"
        rng = self.rng
        choice = rng.random()
        if choice < 0.5:
            return _TEXTS[int(choice * 100) % len(_TEXTS)]
        return "".join(rng.choices(_ALPHABET, k=int(choice * 50) - 25))

    def blob(self, plan: int) -> bytes:
        if plan == _LOW:
            return b""
        if plan == _HIGH:
            return b"\x00\xff\x7f\x80records"
        if plan == _LONG:
            return bytes(range(256)) + b"\x00" * 44 if self.spend(30) else b"\x01"
        if plan == _SMALL:
            return b"\x01"
        return self.rng.randbytes(self.rng.getrandbits(5))

    def count(self, element: Wire, depth: int, plan: int) -> int:
        """How many items an array of ``element`` gets under ``plan``."""
        if plan == _HIGH:
            return 2
        if plan == _LONG:
            # Long arrays where they stay cheap: primitives anywhere, structs near the top.
            cheap = element.kind is not Kind.STRUCT or depth == 0
            return LONG_ARRAY if cheap and self.budget > LONG_ARRAY * 4 else 2
        if plan == _SMALL:
            return 1
        return int(self.rng.choice((0, 1, 1, 2, 3)))

    def array(self, wire: Wire, depth: int, plan: int) -> list[Any]:
        element = wire.element
        assert element is not None
        if plan == _LOW or self.budget <= 0:
            return []
        items = []
        at_default: tuple[Any, int] | None = None  # a struct at its defaults, and its cost
        for index in range(self.count(element, depth, plan)):
            if self.budget <= 0:
                break
            item_plan = _item_plan(plan, index, element)
            if item_plan != _DEFAULTS:
                items.append(self.value(_not_null(element), depth + 1, item_plan))
            elif at_default is not None:
                # The same struct again, as a copy (129 of them in a long array)
                self.budget -= at_default[1]
                items.append(_copy(at_default[0]))
            else:
                state, budget = self.rng.getstate(), self.budget
                items.append(self.value(_not_null(element), depth + 1, item_plan))
                if self.rng.getstate() == state:  # drew nothing: the next one is the same
                    at_default = (items[-1], budget - self.budget)
        return items


def _item_plan(plan: int, index: int, element: Wire) -> int:
    """A long array is there for its length (a two-byte varint count): its first item is
    long too, the other structs sit at their defaults (cheap: a pre-commit proof generates
    this sample for every version), primitives are random."""
    if plan == _LONG and index > 0:
        return _DEFAULTS if element.kind is Kind.STRUCT else _RANDOM
    if plan == _LONG and element.kind is not Kind.STRUCT:
        return _RANDOM
    return plan


def _copy(value: Any) -> Any:
    """A fresh copy of a sample value (its lists and dicts; the rest is immutable)."""
    if isinstance(value, dict):
        return {key: _copy(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_copy(item) for item in value]
    return value


def _not_null(wire: Wire) -> Wire:
    """Array elements are never null."""
    if not wire.nullable:
        return wire
    from dataclasses import replace

    return replace(wire, nullable=False)
