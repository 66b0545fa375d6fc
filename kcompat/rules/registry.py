"""The rule registry: what each rule is (ID, kind, category, severity, purpose), what one
call of its check is given, and the function that runs it.

Rules register through the typed decorators of their family (``rules.lint.adapters``,
``rules.evolution.adapters``, ``rules.drift.adapters``), which fix the check's signature per
subject and wrap it into one uniform :data:`Runner`. A rule whose findings come from
another stage (the byte proof, ignore comments, the corpus verifier) is declared with
:func:`elsewhere` (one table per module), naming that stage, instead of as a function
that does nothing.
"""

from __future__ import annotations

import importlib
import inspect
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import NamedTuple, TypeVar

from kcompat.findings import Reporter, Severity
from kcompat.modes import Choice


class RuleKind(Choice):
    """The command whose runs a rule belongs to."""

    LINT = "lint"
    DIFF = "diff"
    DRIFT = "drift"
    CORPUS = "corpus"


class Category(Choice):
    """What a rule is about: ``disable = ["category:tags"]`` turns off a whole family."""

    SYNTAX = "syntax"
    SCHEMA = "schema"
    MESSAGES = "messages"
    NAMES = "names"
    FIELDS = "fields"
    TYPES = "types"
    VERSIONS = "versions"
    TAGS = "tags"
    STRUCTS = "structs"
    ENCODING = "encoding"
    DOCS = "docs"
    SUPPRESSION = "suppression"
    PROOF = "proof"
    DRIFT = "drift"


class Subject(StrEnum):
    """What one call of a rule's check is given (the adapter turns it into the check's
    own arguments: one field, one matched field pair, ...)."""

    DOCUMENT = "document"  # one spec file as parsed, whatever its content
    MESSAGE = "message"  # one message model
    FIELD = "field"  # one field written in a spec (lint: every field rule in one walk)
    PAIR = "pair"  # one BASE/HEAD (or upstream/local) message pair
    SET = "set"  # everything at once: a spec directory, the whole pairing, the drift set
    ELSEWHERE = "elsewhere"  # findings come from another stage (see ``Rule.origin``)


#: What the runner calls: the subject, the reporter bound to the rule, and the run's
#: context (``None`` where the command has none); adapters unpack them for the check.
Runner = Callable[[object, Reporter, object], None]


@dataclass(frozen=True)
class Rule:
    """A registered rule: what it is, what it is given, and how to run it."""

    id: str
    kind: RuleKind
    category: Category
    severity: Severity
    summary: str
    subject: Subject
    run: Runner = field(repr=False, compare=False)
    source: Callable[..., object] | None = field(default=None, repr=False, compare=False)
    origin: str = ""  # ELSEWHERE: "module:function" that reports its findings


_REGISTRY: dict[str, Rule] = {}
_KEBAB = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


def register(
    rule_id: str,
    *,
    kind: RuleKind,
    category: Category,
    severity: Severity,
    summary: str,
    subject: Subject,
    run: Runner,
    source: Callable[..., object] | None = None,
    origin: str = "",
) -> Rule:
    """Add a rule; IDs are kebab-case and unique across every kind."""
    if not _KEBAB.fullmatch(rule_id):
        raise ValueError(f"rule ID {rule_id!r} is not kebab-case")
    if rule_id in _REGISTRY:
        raise ValueError(f"rule {rule_id!r} registered twice")
    found = Rule(rule_id, kind, category, severity, summary, subject, run, source, origin)
    _REGISTRY[rule_id] = found
    return found


Check = TypeVar("Check", bound=Callable[..., None])


def declaring(
    rule_id: str,
    *,
    kind: RuleKind,
    category: Category,
    severity: Severity,
    subject: Subject,
    adapt: Callable[[Check], Runner],
) -> Callable[[Check], Check]:
    """A decorator registering its check, run through ``adapt`` (the family's adapter).

    The check's docstring is the rule's purpose: its first paragraph is the one-line
    summary ``kcompat rules`` shows, so the words live next to the code they describe.
    """

    def declare(check: Check) -> Check:
        register(
            rule_id,
            kind=kind,
            category=category,
            severity=severity,
            summary=purpose(rule_id, check),
            subject=subject,
            run=adapt(check),
            source=check,
        )
        return check

    return declare


def decorator(
    kind: RuleKind, subject: Subject, adapt: Callable[[Check], Runner]
) -> Callable[[str, Category, Severity], Callable[[Check], Check]]:
    """A family's rule decorator: ``@field_rule("tag-negative", Category.TAGS, ERROR)``.

    ``adapt`` turns the family's typed check into the runner's uniform call, so the check's
    signature is fixed per subject and the walking lives in one place.
    """

    def for_rule(rule_id: str, category: Category, severity: Severity) -> Callable[[Check], Check]:
        return declaring(
            rule_id,
            kind=kind,
            category=category,
            severity=severity,
            subject=subject,
            adapt=adapt,
        )

    return for_rule


def purpose(rule_id: str, check: Callable[..., object]) -> str:
    """The first paragraph of the check's docstring, on one line."""
    doc = inspect.getdoc(check)
    if not doc:
        raise ValueError(f"rule {rule_id!r}: its check needs a docstring saying its purpose")
    return " ".join(doc.split("\n\n")[0].split())


def _nothing(_subject: object, _report: Reporter, _context: object) -> None:
    """ELSEWHERE rules are never called: their stage reports under their ID."""


class Elsewhere(NamedTuple):
    """A rule whose findings another stage reports: its ID, category, default severity, and
    that stage ("module:function", what ``kcompat rules ID`` points to)."""

    rule_id: str
    category: Category
    severity: Severity
    origin: str


def elsewhere(kind: RuleKind, *rules: tuple[Elsewhere, str]) -> tuple[str, ...]:
    """Declare a module's rules of ``kind`` whose findings come from elsewhere, each with its
    one-line summary; their IDs back, in order."""
    for declared, summary in rules:
        register(
            declared.rule_id,
            kind=kind,
            category=declared.category,
            severity=declared.severity,
            summary=summary,
            subject=Subject.ELSEWHERE,
            run=_nothing,
            origin=declared.origin,
        )
    return tuple(declared.rule_id for declared, _summary in rules)


#: Where each kind of rule is defined (importing a module registers its rules).
RULE_MODULES: dict[RuleKind, tuple[str, ...]] = {
    RuleKind.LINT: ("kcompat.rules.lint",),
    RuleKind.DIFF: ("kcompat.rules.evolution", "kcompat.rules.config_change"),
    RuleKind.DRIFT: ("kcompat.rules.drift",),
    RuleKind.CORPUS: ("kcompat.rules.corpus",),
}


def all_rules(kind: RuleKind | str | None = None) -> list[Rule]:
    """Every registered rule (of one kind), sorted by kind then ID."""
    wanted = RuleKind(kind) if kind is not None else None
    _load_rule_modules(wanted)
    rules = [r for r in _REGISTRY.values() if wanted is None or r.kind is wanted]
    return sorted(rules, key=lambda r: (r.kind.value, r.id))


def get_rule(rule_id: str) -> Rule | None:
    found = _REGISTRY.get(rule_id)
    if found is None:
        _load_rule_modules(None)
        found = _REGISTRY.get(rule_id)
    return found


def implementation(found: Rule) -> Callable[..., object]:
    """The function a reader should open: the check as written, or the reporting stage."""
    if found.source is not None:
        return found.source
    module, _, name = found.origin.partition(":")
    target: Callable[..., object] = getattr(importlib.import_module(module), name)
    return target


def _load_rule_modules(kind: RuleKind | None) -> None:
    # Only what is asked for: `kcompat lint` need not import the diff engine or the codec.
    modules = RULE_MODULES.get(kind, ()) if kind else sum(RULE_MODULES.values(), ())
    for module in modules:
        importlib.import_module(module)


def rule_categories() -> dict[str, str]:
    """Every rule ID and its category, in :func:`all_rules` order: what a configuration
    may name (``disable = ["category:tags"]``), handed to :mod:`kcompat.config`."""
    return {r.id: str(r.category) for r in all_rules()}
