"""The round-trip proof of a drift pair: at every version both sides lay out alike,
samples written by each side are read by the other (:func:`kcompat.codec.proof.prove`).

A version whose two layouts have one codec (the same wire, names and defaults) needs no
samples; one that differs only in names, or in the defaults of tagged fields, is proven
with bytes: a tagged field's default decides what a reader makes of a tag the writer left
out, so two copies that agree on every layout can still misread each other.
"""

from __future__ import annotations

from dataclasses import replace

from kcompat.codec.compiler import CodeStore
from kcompat.codec.proof import prove
from kcompat.rules.drift.pairing import DriftPair, Proof
from kcompat.spec.shape import version_signature
from kcompat.spec.versions import Versions


def proven(pair: DriftPair, samples: int = 20, code_cache: CodeStore | None = None) -> DriftPair:
    """``pair`` with its :class:`Proof` (no samples: the versions that need them are
    counted, none is proven)."""
    alike = [
        v for v in pair.matching if _signature(pair, v, "upstream") == _signature(pair, v, "local")
    ]
    rest = pair.matching - Versions.from_ranges((v, v) for v in alike)
    evidence: tuple[object, ...] = ()
    if samples > 0 and not rest.empty:
        evidence = tuple(
            prove(pair.upstream, pair.local, rest, samples=samples, code_cache=code_cache)
        )
    proof = Proof(
        Versions.from_ranges((v, v) for v in alike),
        rest if samples > 0 else Versions.none(),
        samples,
        evidence,
    )
    return replace(pair, proof=proof)


def _signature(pair: DriftPair, version: int, side: str) -> tuple[object, ...]:
    message = pair.upstream if side == "upstream" else pair.local
    return version_signature(message, version)
