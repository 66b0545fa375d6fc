"""The findings model: severities, locations, findings, and the reporter a rule's check
reports through.

A leaf of the package (it knows spec positions and version sets, nothing else of
kcompat), so every layer that makes, filters or renders findings can import it. A rule (see
:mod:`kcompat.rules.registry`) never raises for bad specs and returns nothing: it calls a
:class:`Reporter` bound to its ID, and findings are data collected by the runner.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field, replace
from enum import IntEnum
from typing import Any, Protocol

from kcompat.spec.load import JArray, JObject, Position
from kcompat.spec.versions import Versions, released_phrase


class Severity(IntEnum):
    INFO = 1
    WARNING = 2
    ERROR = 3

    @property
    def label(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Severity:
        try:
            return cls[text.strip().upper()]
        except KeyError:
            raise ValueError(f"unknown severity {text!r}: use error, warning or info") from None


@dataclass(frozen=True, slots=True, order=True)
class Location:
    path: str
    line: int = 1
    column: int = 1

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}"


@dataclass(frozen=True)
class Wording:
    """A message that says its versions between two texts: ``before`` + ``released
    versions 0-7`` + ``after``. A finding keeps it so that its message can be said again
    for other versions (the runs of versions of one change merged, the uses of one
    definition merged) without a template to fill in."""

    before: str
    after: str = ""

    def said(self, versions: Versions) -> str:
        return f"{self.before}{released_phrase(versions)}{self.after}"

    def __add__(self, text: str) -> Wording:
        return Wording(self.before, self.after + text)

    def __radd__(self, text: str) -> Wording:
        return Wording(text + self.before, self.after)


@dataclass(frozen=True)
class Finding:
    """One problem found by one rule, with everything a report or a baseline needs."""

    rule: str
    severity: Severity
    message: str
    location: Location
    hint: str = ""
    message_name: str = ""
    field_path: str = ""
    versions: Versions | None = None  # the versions it is about (None: not about versions)
    base_location: Location | None = None
    evidence: Any = None  # a codec counterexample (kcompat.codec.evidence.Evidence)
    released_by: str = ""  # why the versions count as released (base / tag name)
    notes: tuple[str, ...] = ()  # consequences of the same edit, and further evidence
    # Other field paths whose byte-level evidence this finding explains (a reorder names
    # one field but moves several; a reused tag's old field): matching only, not output.
    explains: tuple[str, ...] = field(default=(), compare=False, repr=False)
    # why it is accepted (an [[ignore]] entry's reason; in a diff, that of an ignore
    # comment the change writes): shown, not failing
    accepted: str = ""
    # the reason of the inline ignore comment that silences it ("no reason given" when it
    # has none): set on the findings a run sets aside as suppressed (lint, drift)
    suppressed: str = ""
    # what the change itself adds that hides it or lowers it (diff): settings of its own
    # configuration (``disable``, ``[[ignore]] #2``...) or an ignore comment BASE's file
    # does not hold (``ignore comment FILE:LINE``); "" when BASE judges it alike
    weakened_by: str = ""
    # how its message says its versions, when it does (what :meth:`about` says again)
    wording: Wording | None = field(default=None, compare=False, repr=False)

    def about(self, versions: Versions | None) -> Finding:
        """The finding about ``versions`` instead, its message saying them (if it says any)."""
        if self.wording is None:
            return replace(self, versions=versions)
        said = self.wording.said(versions if versions is not None else Versions.none())
        return replace(self, versions=versions, message=said)

    def followed_by(self, text: str) -> Finding:
        """The finding with ``text`` added to the end of its message."""
        wording = self.wording + text if self.wording is not None else None
        return replace(self, message=self.message + text, wording=wording)

    @property
    def fingerprint(self) -> str:
        """Stable across line moves and file renames: what is wrong, and where in the model."""
        anchor = self.message_name or self.location.path
        text = _LINE_REFS.sub("", self.message)
        versions = "" if self.versions is None else str(self.versions)
        raw = "\x1f".join((self.rule, anchor, self.field_path, versions, text))
        return hashlib.sha256(raw.encode("utf-8", "surrogatepass")).hexdigest()[:16]

    def sort_key(self) -> tuple[str, int, int, str, str]:
        loc = self.location
        return (loc.path, loc.line, loc.column, self.rule, self.message)


_LINE_REFS = re.compile(
    r"\s*\((?:first |was |see )?(?:at )?line \d+[^)]*\)|line \d+(?:, column \d+)?"
)


Where = Position | JObject | JArray | None


class RuleIdentity(Protocol):
    """What a reporter needs of its rule: the ID its findings carry and their severity."""

    @property
    def id(self) -> str: ...

    @property
    def severity(self) -> Severity: ...


class Reporter:
    """Collects findings for one rule on one subject; rules call it like a function."""

    def __init__(
        self,
        rule_: RuleIdentity,
        path: str,
        sink: list[Finding],
        *,
        message_name: str = "",
        base_path: str = "",
        field_path: str = "",
        versions: Versions | None = None,
    ) -> None:
        self.rule = rule_
        self.path = path
        self.base_path = base_path
        self.message_name = message_name
        self.field_path = field_path
        self.versions = versions
        self.sink = sink

    def about(self, field_path: str, versions: Versions | None = None) -> Reporter:
        """The same reporter, its findings naming ``field_path`` (and ``versions``) unless
        told otherwise: what a field or field-pair adapter fixes for its rules."""
        return Reporter(
            self.rule,
            self.path,
            self.sink,
            message_name=self.message_name,
            base_path=self.base_path,
            field_path=field_path,
            versions=versions,
        )

    def __call__(
        self,
        where: Where,
        message: str | Wording,
        *,
        key: str | None = None,
        hint: str = "",
        field_path: str = "",
        versions: Versions | None = None,
        severity: Severity | None = None,
        base: Where = None,
        base_key: str | None = None,
        path: str | None = None,
        message_name: str | None = None,
        evidence: Any = None,
        notes: tuple[str, ...] = (),
        explains: tuple[str, ...] = (),
    ) -> None:
        line, column = position_of(where, key)
        base_location = None
        if base is not None:
            base_line, base_column = position_of(base, base_key if base_key else key)
            base_location = Location(self.base_path or self.path, base_line, base_column)
        about = versions if versions is not None else self.versions
        wording = message if isinstance(message, Wording) else None
        said = (
            wording.said(about if about is not None else Versions.none())
            if wording is not None
            else str(message)
        )
        self.sink.append(
            Finding(
                rule=self.rule.id,
                severity=severity if severity is not None else self.rule.severity,
                message=said,
                location=Location(path or self.path, line, column),
                hint=hint,
                message_name=self.message_name if message_name is None else message_name,
                field_path=field_path or self.field_path,
                versions=about,
                base_location=base_location,
                evidence=evidence,
                notes=notes,
                explains=explains,
                wording=wording,
            )
        )

    def changed(
        self,
        head: Where,
        base: Where,
        key: str,
        message: str | Wording,
        *,
        hint: str = "",
        field_path: str = "",
        versions: Versions | None = None,
        explains: tuple[str, ...] = (),
    ) -> None:
        """A changed attribute: the finding at ``key`` of the head node, and the base node's
        same key as where it was before (what most BASE/HEAD pair rules report)."""
        self(
            head,
            message,
            key=key,
            base=base,
            base_key=key,
            hint=hint,
            field_path=field_path,
            versions=versions,
            explains=explains,
        )


def position_of(where: Where, key: str | None = None) -> Position:
    """The (line, column) of a node, or of one of its keys."""
    if where is None:
        return (1, 1)
    if isinstance(where, JObject):
        return where.where(key)
    if isinstance(where, JArray):
        return where.pos
    return where
