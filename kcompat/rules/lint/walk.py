"""Running lint rules over spec files: document and message rules once per file, and the
field rules in one walk of each message, every field handed to every field rule in turn
(as buf's lint hands each element to all its pair handlers), through one reporter that
names the field and the rule at hand."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from kcompat.findings import Finding, Reporter
from kcompat.rules.lint.scopes import scopes
from kcompat.rules.registry import Rule, Subject
from kcompat.rules.runner import Call, run_rules
from kcompat.spec.specfile import SpecFile


def lint_findings(rules: Sequence[Rule], specs: Sequence[SpecFile]) -> list[Finding]:
    """The raw findings of lint ``rules`` (none of them set rules) on ``specs``."""

    def calls(rule: Rule) -> Iterator[Call]:
        for spec in specs:
            yield from one_spec_call(rule, spec)

    found = run_rules([r for r in rules if r.subject is not Subject.FIELD], calls)
    field_rules = [r for r in rules if r.subject is Subject.FIELD]
    if field_rules:
        for spec in specs:
            walk_fields(field_rules, spec, found)
    return found


def walk_fields(rules: Sequence[Rule], spec: SpecFile, sink: list[Finding]) -> None:
    """Every field written in ``spec`` to every field rule, in one walk."""
    message = spec.message
    if message is None:
        return
    # One reporter for the whole walk, pointed at each field and bound to each rule in
    # turn: a check reports through it at once (nothing keeps it), so the walk builds no
    # reporter per field or per rule; a finding is made only when a rule reports.
    report = Reporter(rules[0], spec.path, sink, message_name=message.name)
    for scope in scopes(message):
        for field in scope.fields:
            node = field.node
            if node is None:
                continue
            report.field_path = scope.field_path(field)
            subject = (scope, field, node)
            for rule in rules:
                report.rule = rule
                rule.run(subject, report, None)


def one_spec_call(rule: Rule, spec: SpecFile) -> Iterator[Call]:
    """The call a document or message rule makes on one spec file (if any)."""
    if rule.subject is Subject.DOCUMENT:
        yield Call(spec, spec.path, spec_name(spec))
    elif rule.subject is Subject.MESSAGE and spec.message is not None:
        yield Call(spec.message, spec.path, spec.message.name)


def spec_name(spec: SpecFile) -> str:
    return spec.message.name if spec.message is not None else ""
