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
from kcompat.rules.lint.adapters import FieldCheck, field_check
from kcompat.rules.lint.scopes import each_field
from kcompat.rules.registry import Rule, Subject
from kcompat.spec.model import Message
from kcompat.spec.specfile import SpecFile


def lint_findings(rules: Sequence[Rule], specs: Sequence[SpecFile]) -> list[Finding]:
    """The raw findings of lint ``rules`` (none of them set rules) on ``specs``."""
    documents = [r for r in rules if r.subject is Subject.DOCUMENT]
    messages = [r for r in rules if r.subject is Subject.MESSAGE]
    fields = [(r, field_check(r)) for r in rules if r.subject is Subject.FIELD]
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
                walk_fields(fields, spec.message, report)
    return found


def walk_fields(
    checks: Sequence[tuple[Rule, FieldCheck]], message: Message, report: Reporter
) -> None:
    """Every field written in ``message`` to every field rule's check, in one walk."""
    for scope, field, node in each_field(message):
        report.field_path = scope.field_path(field)
        for rule, check in checks:
            report.rule = rule
            check(scope, field, node, report)


def spec_name(spec: SpecFile) -> str:
    return spec.message.name if spec.message is not None else ""
