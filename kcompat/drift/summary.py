"""What a vendor asks of ``kcompat drift``, answered beside the findings.

- At every version both sides have, does the wire match, and how is that known (laid out
  alike, or proven with samples written by each side and read by the other)?
- Which upstream versions does the copy lack?
- What does only the copy have (messages, versions)?
- Which upstream release is it closest to, with the evidence (:mod:`kcompat.drift.vintage`)?
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kcompat.drift.vintage import Vintage
from kcompat.rules.drift.pairing import DriftSet
from kcompat.spec.versions import Versions

#: At most this many names are listed in a line.
MOST_NAMES = 4


@dataclass(frozen=True)
class DriftSummary:
    paired: int  # messages paired
    renamed: tuple[tuple[str, str], ...]  # (local, upstream) names of messages paired by key
    shared: int  # message versions both sides have
    alike: int  # of them, with one codec on both sides
    proven: int  # of them, proven with samples (names or defaults differ)
    samples: int  # per proven version and direction
    parted: int  # of them, laid out differently or misread (errors)
    lacking: tuple[tuple[str, str], ...]  # (message, upstream versions the copy lacks)
    extra: tuple[tuple[str, str], ...]  # (message, versions only the copy has)
    local_only: tuple[str, ...]  # messages only the copy has
    upstream_only: int  # messages only upstream has
    vintage: Vintage | None = None
    releases_known: bool = False  # upstream's releases were read

    @staticmethod
    def of(drift_set: DriftSet, vintage: Vintage | None) -> DriftSummary:
        pairs = drift_set.pairs
        parted = sum(
            len(p.shared - p.matching)
            + len(Versions.from_ranges((e.version, e.version) for e in _evidence(p.proof.evidence)))
            for p in pairs
        )
        return DriftSummary(
            paired=len(pairs),
            renamed=tuple((p.local.name, p.upstream.name) for p in pairs if p.renamed),
            shared=sum(len(p.shared) for p in pairs),
            alike=sum(len(p.proof.alike) for p in pairs),
            proven=sum(len(p.proof.proven) for p in pairs),
            samples=max((p.proof.samples for p in pairs), default=0),
            parted=parted,
            lacking=tuple(
                (p.local.name, str(missing))
                for p in pairs
                if (missing := p.upstream.valid_versions - p.local.valid_versions)
            ),
            extra=tuple(
                (p.local.name, str(extra))
                for p in pairs
                if (extra := p.local.valid_versions - p.upstream.valid_versions)
            ),
            local_only=tuple(s.message.name for s in drift_set.local_only if s.message is not None),
            upstream_only=len(drift_set.upstream_only),
            vintage=vintage,
            releases_known=bool(drift_set.releases),
        )

    def lines(self) -> list[str]:
        """The answers, one line each."""
        return [self._wire(), self._lacking(), self._local(), self._closest()]

    def _wire(self) -> str:
        if not self.shared:
            return "Wire: no version of a message is on both sides."
        how = []
        if self.alike:
            how.append(f"{self.alike} laid out alike")
        if self.proven:
            how.append(
                f"{self.proven} with other names or defaults proven with {self.samples} samples "
                "written by each side and read by the other"
            )
        elif self.shared - self.alike - self.parted > 0:
            how.append(f"{self.shared - self.alike - self.parted} alike but for names (unproven)")
        where = f"{self.shared} versions both sides have ({self.paired} messages)"
        if not self.parted:
            return f"Wire: all {where} match: {', '.join(how)}."
        return (
            f"Wire: {self.parted} of the {where} do not match (errors above); of the others, "
            f"{', '.join(how) or 'none'}."
        )

    def _lacking(self) -> str:
        if not self.lacking:
            return "Missing: the copy lacks no upstream version of the messages it has."
        count = sum(len(Versions.parse(v)) for _name, v in self.lacking)
        shown = _names(f"{name} {versions}" for name, versions in self.lacking)
        return (
            f"Missing: the copy lacks {count} upstream versions of {len(self.lacking)} "
            f"messages: {shown}."
        )

    def _local(self) -> str:
        parts = []
        if self.local_only:
            parts.append(f"{len(self.local_only)} messages ({_names(self.local_only)})")
        if self.extra:
            count = sum(len(Versions.parse(v)) for _name, v in self.extra)
            parts.append(f"{count} versions of {len(self.extra)} messages upstream lacks")
        if self.renamed:
            names = _names(f"{local} (upstream's {up})" for local, up in self.renamed)
            parts.append(f"{len(self.renamed)} messages named otherwise than upstream: {names}")
        return "Local only: " + ("; ".join(parts) if parts else "nothing") + "."

    def _closest(self) -> str:
        found = self.vintage
        if found is None:
            if self.releases_known:
                return "Closest release: none of upstream's releases has the copy's messages."
            return (
                "Closest release: unknown (give UPSTREAM as a revision of a repository with "
                "release tags to compare the copy with each release)."
            )
        best = found.closest
        ships = "ships" if len(found.alike) == 1 else "ship"
        same = f"; {', '.join(found.alike)} {ships} the same layouts" if found.alike else ""
        said = (
            f"Closest release: vendored from about {found.about} ({best.release}{same}): "
            f"{best.release} ships {best.shipped} of the {found.versions} versions of the "
            f"copy's {found.messages} messages laid out alike, and its latest version is "
            f"the copy's for {best.latest} of them"
        )
        around = [s for s in (found.before, found.after) if s is not None]
        if around:
            others = ", ".join(
                f"{s.release} ships {s.shipped} (latest for {s.latest})" for s in around
            )
            said += f". Next to it: {others}"
        return said + "."

    def to_json(self) -> dict[str, Any]:
        return {
            "paired": self.paired,
            "renamed": [{"local": lo, "upstream": up} for lo, up in self.renamed],
            "shared_versions": self.shared,
            "alike": self.alike,
            "proven": self.proven,
            "samples": self.samples,
            "mismatched": self.parted,
            "missing": [{"message": n, "versions": v} for n, v in self.lacking],
            "local_versions": [{"message": n, "versions": v} for n, v in self.extra],
            "local_only": list(self.local_only),
            "upstream_only": self.upstream_only,
            "closest": self.vintage.to_json() if self.vintage is not None else None,
        }


def _evidence(items: tuple[object, ...]) -> list[Any]:
    return [item for item in items if hasattr(item, "version")]


def _names(names: Any, most: int = MOST_NAMES) -> str:
    listed = list(names)
    rest = f" and {len(listed) - most} more" if len(listed) > most else ""
    return ", ".join(listed[:most]) + rest
