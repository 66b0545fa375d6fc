"""Inline suppression: ``// kcompat: ignore[rule-id, ...] reason``.

A directive silences the listed rules on its own line and on the line below it, so it
can sit at the end of the offending line or on its own line above it; inside a ``/* */``
block its own line is the line it is written on, so an ignore at the top of a long
comment never reaches past the comment's end (a pull request's diff would show only the
``*/``). Lines end as Jackson ends them (LF, CR, CR LF). ``ignore-file[...]`` anywhere
silences the rules for the whole file. A silenced finding takes its evidence with it:
accepting a break accepts the bytes that prove it.

In a comparison (``diff``) a directive accepts the change that adds it, and no later
one: a directive is known by its text (:attr:`Directive.key`: ``ignore`` or
``ignore-file``, its rules, its reason), and one whose text BASE's version of the file
already holds is *old*: it was written for a break BASE already had, while every finding
of a comparison is a difference between BASE and HEAD, so new. The runner
(:mod:`kcompat.rules.runner`) reports a finding an old directive covers, naming it, and
lists one a new directive covers as accepted in this change.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from kcompat.findings import Finding
from kcompat.spec.jackson import line_and_column
from kcompat.spec.load import Comment

#: What a suppressed finding's reason says when its comment gives none.
NO_REASON = "no reason given"

_DIRECTIVE = re.compile(r"kcompat:\s*(ignore|ignore-file)\[([^\]]*)\][ \t]*([^\r\n]*)")


#: A directive's text: whole file or not, its rules, its reason.
DirectiveKey = tuple[bool, tuple[str, ...], str]


@dataclass(frozen=True)
class Directive:
    """One ``ignore[...]`` or ``ignore-file[...]`` comment."""

    path: str
    line: int  # where the comment starts
    rules: tuple[str, ...]
    whole_file: bool
    lines: frozenset[int]  # the lines it covers (its own, and the one below it)
    reason: str = ""
    column: int = 1  # where the comment starts on its line

    @property
    def key(self) -> DirectiveKey:
        """What the directive says (its kind, rules and reason), wherever it stands: how
        a comparison tells one BASE already had from one the change writes."""
        return (self.whole_file, self.rules, self.reason)

    @property
    def named(self) -> str:
        """How findings name it: ``the ignore comment at WidgetRequest.json:27 ("KIP-1")``."""
        said = f' ("{self.reason}")' if self.reason else " (no reason given)"
        return f"the ignore comment at {self.path}:{self.line}{said}"

    def covers(self, finding: Finding) -> bool:
        if finding.rule not in self.rules or finding.location.path != self.path:
            return False
        return self.whole_file or finding.location.line in self.lines


def parse_directives(path: str, comments: Sequence[Comment]) -> list[Directive]:
    """Every ignore directive in one file's comments."""
    directives = []
    for comment in comments:
        for match in _DIRECTIVE.finditer(comment.text):
            rules = tuple(r.strip() for r in match.group(2).split(",") if r.strip())
            line, column = _where(comment, match.start())
            reason = match.group(3).strip().removesuffix("*/").strip()
            directives.append(
                Directive(
                    path,
                    line,
                    rules,
                    match.group(1) == "ignore-file",
                    frozenset({line, line + 1}),
                    reason,
                    column,
                )
            )
    return directives


def _where(comment: Comment, offset: int) -> tuple[int, int]:
    """The line of ``offset`` in the comment's text, and the column the directive is
    reported at: the comment's own on its first line, the directive's on a later one."""
    line, column = line_and_column(comment.text, offset)
    return comment.line + line - 1, comment.column if line == 1 else column


def covering(directives: Sequence[Directive], finding: Finding) -> Directive | None:
    """The first directive that silences ``finding``, if any."""
    return next((d for d in directives if d.covers(finding)), None)


def directive_keys(path: str, comments: Sequence[Comment]) -> frozenset[DirectiveKey]:
    """The texts of every directive in one file's comments."""
    return frozenset(directive.key for directive in parse_directives(path, comments))
