"""The one rule runner: call rules on their subjects, then finish the findings once.

``lint``, ``diff`` (its evolution rules and the round-trip proof) and ``drift`` all run
here, so they agree on what a configuration, an inline ``ignore`` comment or a baseline
does. Each command says only which rules look at which subjects (:class:`Call`); the
finishing step is the same for all of them and runs in this order:

1. merge per-version findings of one change into one (versions ``0-7``, not eight);
2. attach the proof's counterexamples to the findings that explain them
   (:mod:`kcompat.rules.evidence`); unexplained ones stay ``roundtrip-mismatch``;
3. say why the versions count as released;
4. drop rules the configuration disables, then findings an inline comment silences
   (their evidence goes with them);
5. apply configured severities, then the baseline;
6. sort.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from kcompat.rules.engine import Finding, Reporter, Rule, Severity
from kcompat.rules.evidence import attach_evidence
from kcompat.rules.suppress import parse_suppressions
from kcompat.spec.load import Comment
from kcompat.spec.versions import Versions


@dataclass(frozen=True)
class Call:
    """One rule call's subject: the check's arguments (``args``, the reporter, then
    ``context``) and where its findings point by default."""

    args: tuple[object, ...]
    path: str = ""
    message_name: str = ""
    base_path: str = ""
    context: tuple[object, ...] = ()


def run_rules(rules: Iterable[Rule], calls: Callable[[Rule], Iterable[Call]]) -> list[Finding]:
    """Every finding of ``rules``, each called on the subjects ``calls`` gives it."""
    findings: list[Finding] = []
    for rule in rules:
        for call in calls(rule):
            reporter = Reporter(
                rule,
                call.path,
                findings,
                message_name=call.message_name,
                base_path=call.base_path,
            )
            rule.check(*call.args, reporter, *call.context)
    return findings


@dataclass(frozen=True)
class Finishing:
    """How to finish one run's findings (see the module docstring for the order)."""

    disabled: frozenset[str] = frozenset()
    severities: Mapping[str, Severity] = field(default_factory=dict)
    comments: Mapping[str, Sequence[Comment]] = field(default_factory=dict)
    baseline: frozenset[str] = frozenset()
    released_by: Callable[[Finding], str] | None = None


@dataclass(frozen=True)
class Outcome:
    """What a run found, and what it set aside (each kind counted in every format)."""

    findings: tuple[Finding, ...]
    suppressed: tuple[Finding, ...] = ()  # silenced by an inline ignore comment
    baselined: tuple[Finding, ...] = ()  # accepted by --baseline


def finish(raw: Sequence[Finding], how: Finishing, evidence: Sequence[Finding] = ()) -> Outcome:
    """Merge, explain, silence, weigh and sort one run's findings."""
    merged = merge_versions(raw)
    explained = attach_evidence(merged, evidence)
    if how.released_by is not None:
        explained = [_with_reason(f, how.released_by) for f in explained]
    enabled = [f for f in explained if f.rule not in how.disabled]
    kept, suppressed = _suppress(enabled, how.comments)
    weighed = [
        replace(f, severity=how.severities[f.rule]) if f.rule in how.severities else f for f in kept
    ]
    accepted = [f for f in weighed if f.fingerprint in how.baseline]
    final = [f for f in weighed if f.fingerprint not in how.baseline]
    return Outcome(
        tuple(sorted(final, key=Finding.sort_key)),
        tuple(suppressed),
        tuple(accepted),
    )


def _with_reason(finding: Finding, released_by: Callable[[Finding], str]) -> Finding:
    if not finding.versions or finding.released_by:
        return finding
    return replace(finding, released_by=released_by(finding))


def _suppress(
    findings: Sequence[Finding], comments_by_path: Mapping[str, Sequence[Comment]]
) -> tuple[list[Finding], list[Finding]]:
    """Split findings into kept and silenced by a comment in the file they point at."""
    parsed = {path: parse_suppressions(c) for path, c in comments_by_path.items() if c}
    kept: list[Finding] = []
    silenced: list[Finding] = []
    for finding in findings:
        found = parsed.get(finding.location.path)
        (silenced if found is not None and found.covers(finding) else kept).append(finding)
    return kept, silenced


def merge_versions(findings: Sequence[Finding]) -> list[Finding]:
    """One finding per (rule, place, message) with the union of its versions.

    Rules report per version with ``{versions}`` in their message; the merged range is
    written in, so a field broken in versions 0 to 7 is one finding that says "0-7".
    """
    groups: dict[tuple[object, ...], tuple[Finding, Versions]] = {}
    for finding in findings:
        key = (
            finding.rule,
            finding.message_name,
            finding.field_path,
            finding.message,
            finding.location,
            finding.base_location,
            finding.severity,
        )
        versions = Versions.try_parse(finding.versions) if finding.versions else None
        if key in groups:
            first, known = groups[key]
            groups[key] = (first, known | versions if versions is not None else known)
        else:
            groups[key] = (finding, versions if versions is not None else Versions.none())
    out = []
    for finding, versions in groups.values():
        text = str(versions) if not versions.empty else finding.versions
        message = finding.message.replace("{versions}", versions_phrase(versions))
        out.append(replace(finding, message=message, versions=text))
    return out


def versions_phrase(versions: Versions) -> str:
    """ "released version 2", "released versions 0-3", or "its released versions"."""
    if versions.empty:
        return "its released versions"
    single = len(versions.ranges) == 1 and versions.ranges[0][0] == versions.ranges[0][1]
    return f"released version{'' if single else 's'} {versions}"
