"""Which findings a configuration hides, and the findings that say so.

One comparison finished twice (:meth:`kcompat.diff.check.Unfinished.finish`),
under BASE's configuration and under another, gives two lists of findings; a finding of
the first is *hidden* by the second when the second drops it, accepts it (BASE did not)
or reports it at a lower severity. :mod:`kcompat.diff.weakened` runs the finishes; this
module matches their findings, lists the hidden ones as "accepted in this change" and
words the ``config-weakened`` finding of each weakening setting.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from kcompat.findings import Finding, Location
from kcompat.modes import FailOn
from kcompat.rules.config_change import CONFIG_WEAKENED, SettingChange
from kcompat.rules.registry import get_rule

HINT = (
    "a change may accept its own breaks, but in the open: the findings this setting "
    "hides are listed as accepted in this change; keep it only if reviewers agree"
)


def _key(finding: Finding) -> tuple[object, ...]:
    return (finding.rule, finding.message_name, finding.field_path, finding.location)


def partners(reference: Sequence[Finding], other: Sequence[Finding]) -> list[int | None]:
    """For each reference finding, the index of the same finding in ``other`` (the same
    rule, message, field and place; the same fingerprint first), or None."""
    groups: dict[tuple[object, ...], list[int]] = {}
    for index, finding in enumerate(other):
        groups.setdefault(_key(finding), []).append(index)
    taken: set[int] = set()
    found: list[int | None] = [None] * len(reference)
    for exact in (True, False):
        for index, finding in enumerate(reference):
            if found[index] is not None:
                continue
            for candidate in groups.get(_key(finding), ()):
                same = other[candidate].fingerprint == finding.fingerprint
                if candidate not in taken and (same or not exact):
                    found[index] = candidate
                    taken.add(candidate)
                    break
    return found


def weaker(before: Finding, after: Finding | None) -> bool:
    """Whether ``after`` hides ``before``: gone, accepted where it was not, or lower."""
    if after is None:
        return True
    if after.accepted and not before.accepted:
        return True
    return after.severity < before.severity


def hidden(reference: Sequence[Finding], other: Sequence[Finding]) -> set[int]:
    """The indexes of the reference findings ``other`` hides."""
    matched = partners(reference, other)
    return {
        index
        for index, (before, partner) in enumerate(zip(reference, matched, strict=True))
        if weaker(before, other[partner] if partner is not None else None)
    }


def no_longer_failing(findings: Sequence[Finding], before: FailOn, after: FailOn) -> set[int]:
    """The findings that fail at the threshold ``before`` and not at ``after``."""
    return {
        index
        for index, finding in enumerate(findings)
        if not finding.accepted and before.threshold <= finding.severity < after.threshold
    }


@dataclass(frozen=True)
class Blame:
    """What hides each reference finding: the changes whose finish alone hides it."""

    reference: tuple[Finding, ...]
    by_index: Mapping[int, tuple[SettingChange, ...]]
    fail_on: SettingChange | None = None  # a raised fail-on, with both thresholds
    thresholds: tuple[FailOn, FailOn] = (FailOn.error, FailOn.error)


def listed(shown: Sequence[Finding], also: Sequence[Finding], blame: Blame) -> list[Finding]:
    """``shown`` with what the change's configuration hides made visible: a finding it
    drops comes back accepted in this change (never failing), one it accepts or lowers
    says which setting did. ``also`` holds findings set aside (the baseline): matched,
    never changed."""
    out = list(shown)
    everything = [*shown, *also]
    matched = partners(blame.reference, everything)
    for index, before in enumerate(blame.reference):
        changes = blame.by_index.get(index)
        position = matched[index]
        after = everything[position] if position is not None else None
        if not changes or not weaker(before, after):
            continue
        names = ", ".join(change.setting for change in changes)
        said = "; ".join(change.said for change in changes)
        if after is None:
            out.append(replace(before, accepted=said, weakened_by=names))
        elif position is not None and position < len(shown):
            note = f"{before.severity.label} under BASE's configuration; {said}"
            notes = after.notes if after.accepted else (*after.notes, note)
            out[position] = replace(after, weakened_by=names, notes=notes)
    if blame.fail_on is not None:
        low, high = blame.thresholds
        for position in no_longer_failing(out, low, high):
            finding = out[position]
            if not finding.weakened_by:
                note = f"fails under BASE's configuration; {blame.fail_on.said}"
                out[position] = replace(
                    finding, weakened_by=blame.fail_on.setting, notes=(*finding.notes, note)
                )
    return out


def weakening_finding(change: SettingChange, hides: int | None, where: Location) -> Finding:
    """The ``config-weakened`` finding of one setting: its old and new value, and how many
    findings of this comparison it hides (None: that could not be worked out)."""
    rule = get_rule(CONFIG_WEAKENED)
    assert rule is not None
    if hides is None:
        effect = "what it hides here could not be worked out"
    elif change.key == "fail-on":
        stop = "stops" if hides in (0, 1) else "stop"
        effect = f"{_count(hides)} of this comparison {stop} failing"
    else:
        effect = f"it hides or lowers {_count(hides)} of this comparison"
    return Finding(
        rule.id,
        rule.severity,
        f"{change.said}: {effect}",
        where,
        hint=HINT,
        field_path=change.key,
    )


def _count(number: int) -> str:
    return f"{number} finding{'' if number == 1 else 's'}" if number else "no finding"
