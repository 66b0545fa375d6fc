"""How lint rules are declared: one typed decorator per subject.

A field rule is only its check on one field: lint walks every field written in the spec
once (the top level, inline structs, common structs; fields with no JSON node skipped) and
hands each to every field rule, with a reporter that already names the field's path
(:mod:`kcompat.rules.lint.walk`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import cast

from kcompat.findings import Reporter
from kcompat.rules.lint.scopes import Scope
from kcompat.rules.registry import Rule, RuleKind, Runner, Subject, decorator
from kcompat.spec.load import JObject
from kcompat.spec.model import Field, Message
from kcompat.spec.specfile import SpecFile

DocumentCheck = Callable[[SpecFile, Reporter], None]
MessageCheck = Callable[[Message, Reporter], None]
FieldCheck = Callable[[Scope, Field, JObject, Reporter], None]
SetCheck = Callable[[Sequence[Message], Reporter], None]
#: What one call of a field rule is given (its reporter names the field's path).
FieldSubject = tuple[Scope, Field, JObject]


def _on_document(check: DocumentCheck) -> Runner:
    return lambda subject, report, _context: check(cast(SpecFile, subject), report)


def _on_message(check: MessageCheck) -> Runner:
    return lambda subject, report, _context: check(cast(Message, subject), report)


def _on_set(check: SetCheck) -> Runner:
    return lambda subject, report, _context: check(cast(Sequence[Message], subject), report)


def field_check(rule: Rule) -> FieldCheck:
    """A field rule's check as written, called by the field walk itself: the walk hands
    every field to every field rule (41,040 calls on Kafka's client specs), so it skips
    the uniform runner's packing of (scope, field, node) into one subject and out again."""
    if rule.subject is not Subject.FIELD or rule.source is None:
        raise ValueError(f"{rule.id} is not a field rule")
    return cast(FieldCheck, rule.source)


def _on_field(check: FieldCheck) -> Runner:
    def run(subject: object, report: Reporter, _context: object) -> None:
        scope, field, node = cast(FieldSubject, subject)
        check(scope, field, node, report)

    return run


#: A rule on one spec file as parsed (it runs whether or not a message came of it).
document_rule = decorator(RuleKind.LINT, Subject.DOCUMENT, _on_document)
#: A rule on one message model as a whole.
message_rule = decorator(RuleKind.LINT, Subject.MESSAGE, _on_message)
#: A rule on one field written in the spec, with its JSON node and its struct scope.
field_rule = decorator(RuleKind.LINT, Subject.FIELD, _on_field)
#: A rule across the messages of one spec directory (names, API keys, pairs).
set_rule = decorator(RuleKind.LINT, Subject.SET, _on_set)
