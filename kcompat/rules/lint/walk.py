"""Running lint rules over spec files, one file at a time: its document rules, its
message rules, then its field rules in one walk of the message, every field handed to
every field rule in turn (as buf's lint hands each element to all its pair handlers).

One reporter serves a whole file, bound to the rule at hand (and, in the walk, pointed at
the field at hand): a check reports through it at once and keeps nothing, so no call
builds a reporter, and a finding is made only when a rule reports. The findings of one
rule on one file come in the same order whichever way the loops nest, and the runner
sorts them once at the end (:func:`kcompat.rules.runner.finish`).
"""

from __future__ import annotations

from collections.abc import Sequence

from kcompat.findings import Finding, Reporter
from kcompat.rules.lint.scopes import each_field
from kcompat.rules.registry import Rule, Subject
from kcompat.spec.specfile import SpecFile


def lint_findings(rules: Sequence[Rule], specs: Sequence[SpecFile]) -> list[Finding]:
    """The raw findings of lint ``rules`` (none of them set rules) on ``specs``."""
    documents = [r for r in rules if r.subject is Subject.DOCUMENT]
    messages = [r for r in rules if r.subject is Subject.MESSAGE]
    fields = [r for r in rules if r.subject is Subject.FIELD]
    found: list[Finding] = []
    if not rules:
        return found
    for spec in specs:
        # bound to each rule in turn below; the first one only to have one to start with
        report = Reporter(rules[0], spec.path, found, message_name=spec_name(spec))
        for rule in documents:
            report.rule = rule
            rule.run(spec, report, None)
        if spec.message is not None:
            for rule in messages:
                report.rule = rule
                rule.run(spec.message, report, None)
            if fields:
                walk_fields(fields, spec, report)
    return found


def walk_fields(rules: Sequence[Rule], spec: SpecFile, report: Reporter) -> None:
    """Every field written in ``spec`` to every field rule, in one walk."""
    message = spec.message
    if message is None:
        return
    for subject in each_field(message):  # (scope, field, node): what a field rule is given
        scope, field, _node = subject
        report.field_path = scope.field_path(field)
        for rule in rules:
            report.rule = rule
            rule.run(subject, report, None)


def spec_name(spec: SpecFile) -> str:
    return spec.message.name if spec.message is not None else ""
