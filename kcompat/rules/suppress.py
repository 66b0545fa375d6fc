"""Inline suppression: ``// kcompat: ignore[rule-id, ...] reason``.

A comment silences the listed rules on its own line and on the line below it, so it can
sit at the end of the offending line or on its own line above it. ``ignore-file[...]``
anywhere silences the rules for the whole file.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from kcompat.rules.engine import Finding
from kcompat.spec.load import Comment

_DIRECTIVE = re.compile(r"kcompat:\s*(ignore|ignore-file)\[([^\]]*)\]")


@dataclass(frozen=True)
class Suppressions:
    """The suppressed (line, rule) pairs and file-wide rules of one file."""

    by_line: frozenset[tuple[int, str]]
    whole_file: frozenset[str]

    def covers(self, finding: Finding) -> bool:
        rule = finding.rule
        if rule in self.whole_file:
            return True
        return (finding.location.line, rule) in self.by_line


def parse_suppressions(comments: Sequence[Comment]) -> Suppressions:
    by_line: set[tuple[int, str]] = set()
    whole: set[str] = set()
    for comment in comments:
        for match in _DIRECTIVE.finditer(comment.text):
            rules = [r.strip() for r in match.group(2).split(",") if r.strip()]
            if match.group(1) == "ignore-file":
                whole.update(rules)
                continue
            last_line = comment.line + comment.text.count("\n")
            for rule in rules:
                by_line.add((last_line, rule))
                by_line.add((last_line + 1, rule))
                by_line.add((comment.line, rule))
    return Suppressions(frozenset(by_line), frozenset(whole))


def apply_suppressions(
    findings: Iterable[Finding], comments_by_path: Mapping[str, Sequence[Comment]]
) -> list[Finding]:
    """Drop findings silenced by a comment in the file they point at."""
    cache: dict[str, Suppressions] = {}
    kept = []
    for finding in findings:
        path = finding.location.path
        comments = comments_by_path.get(path)
        if comments:
            if path not in cache:
                cache[path] = parse_suppressions(comments)
            if cache[path].covers(finding):
                continue
        kept.append(finding)
    return kept
