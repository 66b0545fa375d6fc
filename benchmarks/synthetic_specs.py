"""Large generated message specs for `diff_bench.py --synthetic`: many fields over many
versions, the shapes that once made `kcompat diff` grow with fields squared times versions.

Each case is a BASE and a HEAD text of one message. HEAD adds a version with a new field
(compatible) and retypes its second field from int32 to int64 (a break in every released
version), so the rules and the proof have something to find in each.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

TYPES = ("int32", "string", "int64", "bool", "int16", "string", "uuid", "float64")


@dataclass(frozen=True)
class Case:
    """One generated message: its name, field count, highest version and range scheme."""

    name: str
    fields: int
    highest: int  # BASE's validVersions are 0..highest; HEAD adds highest + 1
    scheme: str  # "ranges", "boundaries" or "flat"
    about: str


CASES: tuple[Case, ...] = (
    Case("SynthRangesData", 1600, 199, "ranges", "1,600 fields x 200 versions"),
    Case(
        "SynthBoundariesData",
        2000,
        32765,
        "boundaries",
        "2,000 fields x 0-32766 (HEAD), 20 boundaries",
    ),
    Case("SynthFlatData", 2000, 32765, "flat", "2,000 fields x 0-32766 (HEAD), all 0+"),
)


def _boundaries(highest: int) -> list[int]:
    """About 20 distinct version boundaries spread over 0..highest."""
    step = max(1, highest // 20)
    return sorted({0, *range(step, highest, step)})[:20]


def _versions(case: Case, i: int) -> tuple[str, int]:
    """Field ``i``'s versions (text) and its lowest version."""
    if case.scheme == "flat":
        return "0+", 0
    if case.scheme == "ranges":
        start = (i * 37) % (case.highest + 1)
        if i % 4 == 0:
            return f"{start}+", start
        end = min(case.highest, start + (i * 11) % 150)
        return f"{start}-{end}", start
    marks = _boundaries(case.highest)
    low = marks[i % len(marks)]
    if i % 3 == 0:
        return f"{low}+", low
    later = [m for m in marks if m > low]
    end = later[(i // 3) % len(later)] - 1 if later else case.highest
    return f"{low}-{end}", low


def _field(case: Case, i: int, flexible_from: int) -> dict[str, object]:
    versions, low = _versions(case, i)
    kind = TYPES[i % len(TYPES)]
    entry: dict[str, object] = {"name": f"F{i}", "type": kind, "versions": versions}
    if kind == "string" and i % 5 == 1:
        entry["nullableVersions"] = f"{low}+"
    if i % 97 == 0 and case.scheme != "flat":  # a tagged field in flexible versions
        entry.update(
            versions=f"{flexible_from}+",
            taggedVersions=f"{flexible_from}+",
            tag=i // 97,
        )
    entry["about"] = f"Field {i}."
    return entry


def message(case: Case, *, head: bool) -> dict[str, object]:
    """The BASE (or HEAD) document of ``case``."""
    flexible_from = (case.highest + 1) // 2
    top = case.highest + 1 if head else case.highest
    leads = [
        {"name": "Lead1", "type": "int32", "versions": "0+", "about": "First."},
        {"name": "Lead2", "type": "int64" if head else "int32", "versions": "0+"},
    ]
    fields = [*leads, *(_field(case, i, flexible_from) for i in range(case.fields))]
    if head:
        fields.append({"name": "Extra", "type": "int32", "versions": f"{top}+", "about": "New."})
    return {
        "type": "data",
        "name": case.name,
        "validVersions": f"0-{top}",
        "flexibleVersions": f"{flexible_from}+",
        "fields": fields,
    }


def write_cases(root: Path, cases: tuple[Case, ...] = CASES) -> dict[str, tuple[Path, Path]]:
    """Write each case's BASE and HEAD into their own directories under ``root``."""
    out = {}
    for case in cases:
        base, head = root / case.name / "base", root / case.name / "head"
        for directory, is_head in ((base, False), (head, True)):
            directory.mkdir(parents=True, exist_ok=True)
            text = json.dumps(message(case, head=is_head), indent=1)
            (directory / f"{case.name}.json").write_text(text + "\n", encoding="utf-8")
        out[case.name] = (base, head)
    return out
