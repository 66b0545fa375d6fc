"""Call rules on their subjects, then finish every command's findings once.

``diff`` (its evolution rules and the round-trip proof), ``drift`` and lint's set rules
are called here, each command saying only which rules look at which subjects
(:class:`Call`); lint's rules of one file run in one walk of it
(:mod:`kcompat.rules.lint.walk`). Every command's findings, lint's too, are finished here,
so they agree on what a configuration, an inline ``ignore`` comment or a baseline does;
the finishing step runs in this order:

1. drop rules the configuration disables (a finding of a rule that is off explains no
   bytes), and merge per-version findings of one change into one (versions ``0-7``, not
   eight), the uses of one definition into one, and a consequence into its cause's
   finding;
2. attach the proof's counterexamples to the findings that explain them
   (:mod:`kcompat.rules.evidence`); unexplained ones stay ``roundtrip-mismatch``;
3. say why the versions count as released;
4. drop findings an inline comment silences
   (their evidence goes with them, and the comment's reason with each), and report
   ignore comments that name no rule (or, when asked, silence nothing). In a
   comparison (``diff``), a comment accepts only the change that adds it: one BASE's
   file already has is old, and a finding it covers is reported with a note naming it;
   one the change adds lists what it covers as accepted in this change;
5. apply configured severities, then ``preview`` (a message in early access breaks
   with a warning), then the configuration's ``[[ignore]]`` entries (accepted on the
   record: still shown, never failing; when asked, entries that accept nothing are
   reported; in a comparison, an entry BASE's configuration already has accepts no
   finding of it, which then says so), then (diff) ``fixtures`` (test specs: at most
   info), then the baseline;
6. sort.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from kcompat.config import Acceptance, Config
from kcompat.findings import Finding, Location, Reporter, Severity
from kcompat.rules.acceptances import accepting, stale_note, unused_acceptances
from kcompat.rules.evidence import attach_evidence, one_per_edit
from kcompat.rules.registry import Rule, all_rules, get_rule
from kcompat.rules.suppress import (
    NO_REASON,
    Directive,
    DirectiveKey,
    covering,
    parse_directives,
)
from kcompat.spec.load import Comment
from kcompat.spec.specfile import SpecFile
from kcompat.spec.versions import Versions

#: How a finding's ``weakened_by`` names an ignore comment the change adds:
#: ``ignore comment WidgetRequest.json:27``.
BY_COMMENT = "ignore comment "


@dataclass(frozen=True)
class Call:
    """One rule call: its subject (see :class:`~kcompat.rules.registry.Subject`), where its
    findings point by default, and the run's context (given to rules that declare it)."""

    subject: object
    path: str = ""
    message_name: str = ""
    base_path: str = ""
    context: object = None


def run_rules(rules: Iterable[Rule], calls: Callable[[Rule], Iterable[Call]]) -> list[Finding]:
    """Every finding of ``rules``, each called on the subjects ``calls`` gives it."""
    findings: list[Finding] = []
    for checked in rules:
        for call in calls(checked):
            reporter = Reporter(
                checked,
                call.path,
                findings,
                message_name=call.message_name,
                base_path=call.base_path,
            )
            checked.run(call.subject, reporter, call.context)
    return findings


@dataclass(frozen=True)
class Finishing:
    """How to finish one run's findings (see the module docstring for the order)."""

    config: Config = field(default_factory=Config)
    comments: Mapping[str, Sequence[Comment]] = field(default_factory=dict)
    baseline: frozenset[str] = frozenset()
    released_by: Callable[[Finding], str] | None = None
    # the latest release that shipped what a finding breaks (``preview`` entries' until)
    latest: Callable[[Finding], str | None] | None = None
    kinds: frozenset[str] = frozenset()  # the rule kinds this run checks (unused ignores)
    # (path, message name) of every spec compared: what an unused [[ignore]] entry's
    # patterns are matched against for a did-you-mean
    subjects: tuple[tuple[str, str], ...] = ()
    # diff: for each HEAD file, the ignore comments (by their text) BASE's version of it
    # already holds: old, they accept no finding of the comparison. None (lint, drift:
    # no BASE): every comment silences what it covers
    settled: Mapping[str, frozenset[DirectiveKey]] | None = None
    # diff: the [[ignore]] entries BASE's configuration already holds: old, they accept
    # no finding of the comparison. None: no BASE configuration (directories): every
    # entry accepts what it matches
    settled_entries: frozenset[Acceptance] | None = None


@dataclass(frozen=True)
class Outcome:
    """What a run found, and what it set aside (each kind counted in every format)."""

    findings: tuple[Finding, ...]
    suppressed: tuple[Finding, ...] = ()  # silenced by an inline ignore comment
    baselined: tuple[Finding, ...] = ()  # accepted by --baseline
    fixtures: int = 0  # findings about test specs (configuration ``fixtures``): at most info

    @property
    def accepted(self) -> tuple[Finding, ...]:
        """Findings the configuration's ``[[ignore]]`` entries accept (shown, not failing)."""
        return tuple(f for f in self.findings if f.accepted)


def compared(specs: Iterable[SpecFile]) -> tuple[tuple[str, str], ...]:
    """(path, message name) of each spec: :attr:`Finishing.subjects`."""
    return tuple((s.path, s.message.name if s.message is not None else "") for s in specs)


def finish(raw: Sequence[Finding], how: Finishing, evidence: Sequence[Finding] = ()) -> Outcome:
    """Merge, explain, silence, weigh and sort one run's findings (steps 1-6 above)."""
    enabled = _explained(raw, how, evidence)
    kept, suppressed = _silenced(enabled, how)
    weighed, fixtures = _weighed(kept, how)
    accepted = [f for f in weighed if f.fingerprint in how.baseline]
    final = [f for f in weighed if f.fingerprint not in how.baseline]
    return Outcome(
        tuple(sorted(final, key=_order)),
        tuple(suppressed),
        tuple(accepted),
        fixtures,
    )


def _explained(
    raw: Sequence[Finding], how: Finishing, evidence: Sequence[Finding]
) -> list[Finding]:
    """Steps 1-3: the enabled rules' findings merged, the proof's bytes attached, and why
    their versions count as released."""
    off = how.config.disabled
    # rules turned off before the proof's bytes attach: a finding of a rule that is off
    # explains nothing, so its bytes stay the proof's own (unless that is off too)
    merged = one_per_edit(merge_versions([f for f in raw if f.rule not in off]))
    enabled = attach_evidence(merged, [e for e in evidence if e.rule not in off])
    if how.released_by is not None:
        enabled = [_with_reason(f, how.released_by) for f in enabled]
    return enabled


def _silenced(enabled: list[Finding], how: Finishing) -> tuple[list[Finding], list[Finding]]:
    """Step 4: (what no ignore comment silences, with the comments' own findings; what
    they silence)."""
    directives = [
        directive
        for path, comments in how.comments.items()
        if comments
        for directive in parse_directives(path, comments)
    ]
    kept, suppressed, used = _suppress(enabled, directives, how.settled)
    return kept + _directive_findings(directives, used, how), suppressed


def _weighed(kept: list[Finding], how: Finishing) -> tuple[list[Finding], int]:
    """Step 5 but the baseline: (the findings with the configuration's severities,
    previews, acceptances and fixtures applied; how many are about test fixtures)."""
    config = how.config
    weighed = [
        _weigh(f, config, how.latest, how.settled_entries)
        for f in kept
        if f.rule not in config.disabled
    ]
    fixtures = 0
    if "diff" in how.kinds:  # test specs never ship: what changes in them breaks no one
        fixtures = sum(1 for f in weighed if config.is_fixture(f.location.path))
        weighed = [_as_fixture(f) if config.is_fixture(f.location.path) else f for f in weighed]
    if config.report_unused_ignores and config.ignore:
        weighed += unused_acceptances(config, weighed, how.kinds, how.subjects, how.settled_entries)
    return weighed, fixtures


def _as_fixture(finding: Finding) -> Finding:
    """A finding about a test spec (configuration ``fixtures``): at most an info."""
    if finding.severity <= Severity.INFO:
        return finding
    note = (
        f"a test fixture (configuration 'fixtures'), which no release ships: "
        f"an info, not {'an' if finding.severity is Severity.ERROR else 'a'} "
        f"{finding.severity.label}"
    )
    return replace(finding, severity=Severity.INFO, notes=(*finding.notes, note))


def _order(finding: Finding) -> tuple[object, ...]:
    return (*finding.sort_key(), bool(finding.accepted))


def _weigh(
    finding: Finding,
    config: Config,
    latest: Callable[[Finding], str | None] | None = None,
    settled: frozenset[Acceptance] | None = None,
) -> Finding:
    """Configured severity, then preview (early access: breaks are warnings; with
    ``until``, breaks of what only releases up to it shipped), then the ``[[ignore]]``
    entry that accepts it, if any (none of ``settled``, BASE's own: a note names the
    first of them that would have)."""
    if finding.rule in config.severities:
        finding = replace(finding, severity=config.severities[finding.rule])
    if finding.severity is Severity.ERROR:
        shipped = latest(finding) if latest is not None else None
        preview = next(
            (p for p in config.preview if p.matches(finding.message_name) and p.admits(shipped)),
            None,
        )
        if preview is not None:
            bound = f" until {preview.until}" if preview.until else ""
            note = (
                f"{preview.pattern}: {preview.reason} (preview{bound}), so a warning, not an error"
            )
            finding = replace(finding, severity=Severity.WARNING, notes=(*finding.notes, note))
    if finding.accepted:  # an ignore comment of this change accepts it
        return finding
    acceptance = accepting(config, finding, settled)
    if acceptance is not None:
        return replace(finding, accepted=acceptance.reason)
    note = stale_note(config, finding, settled)
    return replace(finding, notes=(*finding.notes, note)) if note else finding


def _with_reason(finding: Finding, released_by: Callable[[Finding], str]) -> Finding:
    if finding.versions is None or finding.released_by:
        return finding
    return replace(finding, released_by=released_by(finding))


def _suppress(
    findings: Sequence[Finding],
    directives: Sequence[Directive],
    settled: Mapping[str, frozenset[DirectiveKey]] | None = None,
) -> tuple[list[Finding], list[Finding], set[tuple[Directive, str]]]:
    """Split findings into kept and silenced; and which (directive, rule) covered some.

    With ``settled`` (a comparison), nothing is silenced: a finding an old directive
    covers is kept with a note naming it, one a directive of the change covers is kept
    as accepted in this change (shown with the comment's reason, never failing)."""
    kept: list[Finding] = []
    silenced: list[Finding] = []
    used: set[tuple[Directive, str]] = set()
    for finding in findings:
        found = covering(directives, finding)
        if found is None:
            kept.append(finding)
            continue
        used.add((found, finding.rule))
        reason = found.reason or NO_REASON
        if settled is None:
            silenced.append(replace(finding, suppressed=reason))
        elif found.key in settled.get(found.path, frozenset()):
            note = (
                f"{found.named} was already in BASE: it accepted an earlier change, not "
                "this one; to accept this break, give the comment a reason of this change "
                "(a comment BASE does not have)"
            )
            kept.append(replace(finding, notes=(*finding.notes, note)))
        else:
            where = f"{BY_COMMENT}{found.path}:{found.line}"
            kept.append(replace(finding, accepted=reason, weakened_by=where))
    return kept, silenced, used


def _directive_findings(
    directives: Sequence[Directive], used: set[tuple[Directive, str]], how: Finishing
) -> list[Finding]:
    """Ignore comments that name no rule (a typo silences nothing), and, when asked for,
    ones that silenced nothing in this run."""
    if not directives:  # the usual case: no need to load every kind of rule
        return []
    out = []
    known = sorted(r.id for r in all_rules())
    unknown_rule, unused_rule = get_rule("ignore-unknown-rule"), get_rule("unused-ignore")
    assert unknown_rule is not None and unused_rule is not None
    for directive in directives:
        where = Location(directive.path, directive.line, directive.column)
        for rule_id in directive.rules:
            meta = get_rule(rule_id)
            if meta is None:
                guess = difflib.get_close_matches(rule_id, known, n=1)
                out.append(
                    Finding(
                        unknown_rule.id,
                        unknown_rule.severity,
                        f"ignore comment names {rule_id!r}, which is no kcompat rule, so it "
                        "silences nothing",
                        where,
                        hint=f"did you mean {guess[0]!r}?" if guess else "see `kcompat rules`",
                    )
                )
            elif (
                how.config.report_unused_ignores
                and meta.kind in how.kinds
                and (directive, rule_id) not in used
            ):
                out.append(
                    Finding(
                        unused_rule.id,
                        unused_rule.severity,
                        f"ignore comment for {rule_id!r} silences nothing here",
                        where,
                        hint="remove it (or the rule name from it); the finding it accepted "
                        "is gone",
                    )
                )
    return out


def merge_versions(findings: Sequence[Finding]) -> list[Finding]:
    """One finding per (rule, place, message) with the union of its versions.

    Rules report per run of versions, their message saying those versions (its
    :class:`~kcompat.findings.Wording`); the merged finding says the union, so a field
    broken in versions 0 to 7 is one finding that says "0-7".
    """
    groups: dict[tuple[object, ...], tuple[Finding, Versions]] = {}
    for finding in findings:
        key = (
            finding.rule,
            finding.message_name,
            finding.field_path,
            finding.wording or finding.message,
            finding.location,
            finding.base_location,
            finding.severity,
        )
        versions = finding.versions
        if key in groups:
            first, known = groups[key]
            groups[key] = (first, known | versions if versions is not None else known)
        else:
            groups[key] = (finding, versions if versions is not None else Versions.none())
    out = []
    for finding, versions in groups.values():
        merged = versions if not versions.empty else finding.versions
        said = finding.wording.said(versions) if finding.wording is not None else finding.message
        out.append(replace(finding, message=said, versions=merged))
    return out
