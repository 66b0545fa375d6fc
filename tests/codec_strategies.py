"""Hypothesis strategies for codec values, built from a version-resolved layout.

Independent of kcompat's own sample generator (:mod:`kcompat.codec.samples`), so the two
find different things: hypothesis shrinks a failure to a minimal value, the generator
walks the systematic edges.
"""

from __future__ import annotations

import uuid
from typing import Any

from hypothesis import strategies as st

from kcompat.codec.values import default_value, int_range
from kcompat.spec.resolve import Kind, Layout, LayoutField, StructLayout, Wire

ZERO_UUID = uuid.UUID(int=0)


def values(layout: Layout, max_items: int = 3) -> st.SearchStrategy[dict[str, Any]]:
    """Complete values (every field of the version) that ``layout`` can encode."""
    key = (id(layout), max_items)
    cached = _CACHE.get(key)
    if cached is None or cached[0] is not layout:
        cached = (layout, _struct(layout.root, 0, max_items))
        _CACHE[key] = cached
    return cached[1]


_CACHE: dict[tuple[int, int], tuple[Layout, st.SearchStrategy[dict[str, Any]]]] = {}


def _struct(layout: StructLayout, depth: int, max_items: int) -> st.SearchStrategy[Any]:
    fields = {lf.name: _field(lf, depth, max_items) for lf in layout.fields}
    fields.update({lf.name: _tagged(lf, depth, max_items) for lf in layout.tagged})
    return st.fixed_dictionaries(fields)


def _tagged(lf: LayoutField, depth: int, max_items: int) -> st.SearchStrategy[Any]:
    default = default_value(lf)
    if default is None and not lf.wire.nullable:
        return _field(lf, depth, max_items)
    return st.one_of(st.just(default), _field(lf, depth, max_items))


def _field(lf: LayoutField, depth: int, max_items: int) -> st.SearchStrategy[Any]:
    return _wire(lf.wire, depth, max_items)


def _wire(wire: Wire, depth: int, max_items: int) -> st.SearchStrategy[Any]:
    base = _base(wire, depth, max_items)
    return st.one_of(st.none(), base) if wire.nullable else base


def _base(wire: Wire, depth: int, max_items: int) -> st.SearchStrategy[Any]:
    kind = wire.kind
    if kind is Kind.BOOL:
        return st.booleans()
    if kind is Kind.INT:
        low, high = int_range(wire)
        return st.integers(low, high)
    if kind is Kind.FLOAT64:
        return st.floats(allow_nan=False)
    if kind is Kind.UUID:
        return st.one_of(st.just(ZERO_UUID), st.uuids())
    if kind is Kind.STRING:
        return st.text(max_size=20)
    if kind in (Kind.BYTES, Kind.RECORDS):
        return st.binary(max_size=24)
    if kind is Kind.ARRAY:
        assert wire.element is not None
        element = _base(wire.element, depth + 1, max_items)
        size = max_items if depth < 2 else 1
        return st.lists(element, max_size=size)
    assert wire.struct is not None
    return _struct(wire.struct, depth + 1, max_items)
