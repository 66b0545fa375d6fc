"""Run the evolution rules over paired revisions and merge per-version findings.

Rules report per released version with ``{versions}`` in their message; the engine merges
identical findings across versions and writes the merged range in, so a field broken in
versions 0 to 7 is one finding that says "0-7", not eight.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import PurePosixPath

from kcompat.config import Config
from kcompat.diff.ledger import TagLedger
from kcompat.diff.match import Pairing, ReleasedFor, pair_messages
from kcompat.rules.engine import Finding, Reporter, all_rules, with_severity
from kcompat.rules.suppress import apply_suppressions
from kcompat.spec.specfile import SpecFile
from kcompat.spec.versions import Versions


@dataclass(frozen=True)
class DiffContext:
    """What rules may need beyond a message pair: the whole pairing and the tag ledger."""

    pairing: Pairing
    ledger: TagLedger
    unreadable: tuple[SpecFile, ...] = ()  # HEAD spec files that do not parse
    released_for: ReleasedFor = field(default_factory=ReleasedFor)


def diff_specs(
    base_specs: Sequence[SpecFile],
    head_specs: Sequence[SpecFile],
    *,
    config: Config | None = None,
    released_for: ReleasedFor | None = None,
    ledger: TagLedger | None = None,
) -> list[Finding]:
    """Every evolution finding between two sets of spec files (pure)."""
    config = config if config is not None else Config()
    unreadable = tuple(s for s in head_specs if s.message is None)
    base_kept = _without_unreadable(base_specs, unreadable)
    policy = released_for or ReleasedFor()
    pairing = pair_messages(base_kept, list(head_specs), policy)
    context = DiffContext(pairing, ledger or TagLedger.empty(), unreadable, policy)
    findings: list[Finding] = []
    for diff_rule in all_rules("diff"):
        if diff_rule.id in config.disabled or diff_rule.scope == "proof":
            continue
        if diff_rule.scope == "set":
            diff_rule.check(context, Reporter(diff_rule, "", findings))
            continue
        for pair in pairing.pairs:
            reporter = Reporter(
                diff_rule,
                pair.head_spec.path,
                findings,
                message_name=pair.head.name,
                base_path=pair.base_spec.path,
            )
            diff_rule.check(pair, reporter, context)
    merged = [_with_reason(f, pairing, released_for) for f in merge_versions(findings)]
    comments = {s.path: s.document.comments for s in head_specs if s.document is not None}
    kept = apply_suppressions(merged, comments)
    return sorted(with_severity(kept, dict(config.severities)), key=Finding.sort_key)


def _without_unreadable(
    base_specs: Sequence[SpecFile], unreadable: Sequence[SpecFile]
) -> list[SpecFile]:
    """BASE specs minus those whose file no longer parses in HEAD: that is reported as
    spec-unreadable, not as a removed message."""
    if not unreadable:
        return list(base_specs)
    paths = {s.path for s in unreadable}
    names = {PurePosixPath(s.path).name for s in unreadable}
    exact = [s for s in base_specs if s.path in paths]
    if exact:
        return [s for s in base_specs if s.path not in paths]
    return [s for s in base_specs if PurePosixPath(s.path).name not in names]


def _with_reason(finding: Finding, pairing: Pairing, released_for: ReleasedFor | None) -> Finding:
    """Say why a finding's versions count as released: the base, or the release tag."""
    if not finding.versions:
        return finding
    names = {p.head.name: p for p in pairing.pairs}
    pair = names.get(finding.message_name)
    # A removed message has no pair; its BASE name is the finding's message name.
    base_name = pair.base.name if pair is not None else finding.message_name
    explain = getattr(released_for, "explain", None)
    versions = Versions.try_parse(finding.versions)
    if explain is not None and versions is not None:
        reason = explain(base_name, versions)
    elif pair is not None and pair.released_by != "base":
        reason = pair.released_by
    else:
        reason = "in BASE's validVersions"
    return replace(finding, released_by=reason)


def merge_versions(findings: list[Finding]) -> list[Finding]:
    """One finding per (rule, place, message) with the union of its versions."""
    groups: dict[tuple[object, ...], tuple[Finding, Versions]] = {}
    order: list[tuple[object, ...]] = []
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
            order.append(key)
    out = []
    for group in order:
        finding, versions = groups[group]
        text = str(versions) if not versions.empty else finding.versions
        message = finding.message.replace("{versions}", _versions_phrase(versions))
        out.append(replace(finding, message=message, versions=text))
    return out


def _versions_phrase(versions: Versions) -> str:
    if versions.empty:
        return "its released versions"
    if len(versions.ranges) == 1 and versions.ranges[0][0] == versions.ranges[0][1]:
        return f"released version {versions}"
    return f"released versions {versions}"
