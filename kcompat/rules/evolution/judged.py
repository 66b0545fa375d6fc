"""Changes to released versions that BASE had already changed from every release.

See :class:`~kcompat.rules.evolution.pairing.Judged`: the change is compared as made and
against the latest release that shipped those versions. A finding of both comparisons
(same rule, same field) breaks that release and stays what it is, with a note; one only
the change has touches nothing any release shipped (a tagged field added on trunk after
the release, then retyped) and becomes an ``unreleased-change`` info. What only the
release comparison finds was already so in BASE: it is not this change's doing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from kcompat.findings import Finding, Severity
from kcompat.rules.evolution.pairing import Judged, MessagePair
from kcompat.spec.versions import Versions

UNRELEASED = "unreleased-change"


def judge(judged: Judged, run: Callable[[MessagePair], list[Finding]]) -> list[Finding]:
    """The findings of one judged change, each kept, annotated or downgraded."""
    against = run(judged.shipped)
    judged_versions = judged.change.released
    out = []
    for finding in run(judged.change):
        versions = finding.versions
        if versions is None or not (versions - judged_versions).empty:
            continue  # message-wide, or about other versions: the pair itself reports it
        if finding.severity is Severity.INFO:
            out.append(finding)
        elif any(_same_break(finding, other) for other in against):
            note = (
                f"judged against these versions as released in {judged.release}: BASE "
                "already differed from that release"
            )
            out.append(replace(finding, notes=(*finding.notes, note)))
        else:
            out.append(_unreleased(finding, judged.release))
    return out


def _same_break(finding: Finding, other: Finding) -> bool:
    if finding.rule != other.rule or other.severity is Severity.INFO:
        return False
    mine, theirs = finding.field_path, other.field_path
    related = (
        mine == theirs
        or mine.startswith(theirs + ".")
        or theirs.startswith(mine + ".")
        or mine in other.explains
        or theirs in finding.explains
    )
    return related and _overlap(finding.versions, other.versions)


def _overlap(a: Versions | None, b: Versions | None) -> bool:
    return a is None or b is None or not (a & b).empty


def _unreleased(finding: Finding, release: str) -> Finding:
    said = finding.followed_by(
        f"; this part is not in any release (against the layout released in {release} "
        "nothing breaks)"
    )
    return replace(said, rule=UNRELEASED, severity=Severity.INFO, hint="")


def kept_versions(findings: Sequence[Finding]) -> Versions:
    """The versions of the findings that still break a release (where bytes are proven)."""
    versions = Versions.none()
    for finding in findings:
        parsed = finding.versions
        if finding.severity is Severity.ERROR and parsed is not None:
            versions = versions | parsed
    return versions
