"""What evolution rules may need beyond one message pair."""

from __future__ import annotations

from dataclasses import dataclass, field

from kcompat.findings import Finding
from kcompat.rules.evolution.pairing import Pairing
from kcompat.spec.ledger import TagLedger
from kcompat.spec.released import Releases
from kcompat.spec.specfile import SpecFile


@dataclass(frozen=True)
class DiffContext:
    """The whole pairing, the tag ledger, HEAD files that do not parse, and the policy."""

    pairing: Pairing
    ledger: TagLedger
    unreadable: tuple[SpecFile, ...] = ()
    releases: Releases = field(default_factory=Releases)
    # Specs whose wire layout would be a guess, with the lint finding that says why, and
    # the side they are on ("BASE" or "HEAD"): they are not compared.
    invalid: tuple[tuple[SpecFile, str, Finding], ...] = ()
