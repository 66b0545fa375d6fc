"""``[[ignore]]`` entries at work: which one accepts a finding, and which accepted nothing.

An entry whose ``message`` or ``path`` is misspelt (``message = "FetchReqest"``) accepts
nothing, so the break it meant to accept fails the build while the file reads as if it
were accepted; one left behind after its break landed would accept the next, unrelated
break on that message. With ``--report-unused-ignores`` each such entry is an
``unused-ignore`` finding on its line of the configuration, with a did-you-mean against
the messages and paths the run compared, as an unused inline comment is.
"""

from __future__ import annotations

import difflib
from collections.abc import Collection, Sequence
from pathlib import PurePosixPath

from kcompat.config import Acceptance, Config, glob_matches
from kcompat.findings import Finding, Location
from kcompat.rules.registry import get_rule


def accepting(
    config: Config, finding: Finding, settled: frozenset[Acceptance] | None = None
) -> Acceptance | None:
    """The first ``[[ignore]]`` entry that accepts ``finding``, if any; none of
    ``settled`` (in a comparison, the entries BASE's configuration already has: written
    for breaks BASE had, while every finding of a comparison is new)."""
    return next(
        (
            entry
            for entry in config.ignore
            if entry.matches(finding.rule, finding.message_name, finding.location.path)
            and (settled is None or entry not in settled)
        ),
        None,
    )


def stale_note(config: Config, finding: Finding, settled: frozenset[Acceptance] | None) -> str:
    """The note of a finding that an entry of BASE's configuration would have accepted
    ("" when none would): which entry, and how to accept this break instead."""
    if not settled:
        return ""
    entry = next(
        (
            entry
            for entry in config.ignore
            if entry in settled
            and entry.matches(finding.rule, finding.message_name, finding.location.path)
        ),
        None,
    )
    if entry is None:
        return ""
    return (
        f'{entry.named} ("{entry.reason}") was already in BASE\'s configuration: it '
        "accepted earlier breaks, not this one; to accept this break, write an entry (or "
        "a reason) of this change"
    )


def unused_acceptances(
    config: Config,
    findings: Sequence[Finding],
    kinds: Collection[str],
    subjects: Sequence[tuple[str, str]],
    settled: frozenset[Acceptance] | None = None,
) -> list[Finding]:
    """An ``unused-ignore`` finding for each entry that accepted none of ``findings`` and
    could have in this run (it names a rule of one of ``kinds``, or no rule at all); an
    entry of BASE's (``settled``) that matched a finding is not unused: the finding's note
    names it."""
    used = {
        entry.number
        for f in findings
        for entry in (accepting(config, f), accepting(config, f, settled))
        if entry is not None
    }
    unused_rule = get_rule("unused-ignore")
    assert unused_rule is not None
    out = []
    for entry in config.ignore:
        if entry.number in used or not _applies(entry, kinds):
            continue
        problem, guess = _why_unused(entry, subjects)
        out.append(
            Finding(
                unused_rule.id,
                unused_rule.severity,
                f"{entry.named} ({_described(entry)}) accepts nothing here{problem}",
                Location(config.label or config.source, config.line_of(f"ignore#{entry.number}")),
                hint=guess or "remove it once the break it accepted has landed",
            )
        )
    return out


def _applies(entry: Acceptance, kinds: Collection[str]) -> bool:
    if not entry.rules:
        return True
    found = (get_rule(rule_id) for rule_id in entry.rules)
    return any(rule is not None and rule.kind in kinds for rule in found)


def _described(entry: Acceptance) -> str:
    parts = []
    for key, values in (("rule", entry.rules), ("message", entry.messages)):
        parts += [f"{key} {value!r}" for value in values]
    parts += [f"path {value!r}" for value in entry.paths]
    return ", ".join(parts)


def _why_unused(entry: Acceptance, subjects: Sequence[tuple[str, str]]) -> tuple[str, str]:
    """What in the entry matches nothing compared (``: message 'X' matches no message
    compared``), and a did-you-mean for it ("" when every pattern matches something)."""
    names = sorted({name for _path, name in subjects if name})
    paths = sorted({path for path, _name in subjects})
    files = sorted({PurePosixPath(path).name for path in paths})
    missing = []
    guesses = []
    for key, patterns, candidates in (
        ("message", entry.messages, names),
        ("path", entry.paths, [*paths, *files]),
    ):
        for pattern in patterns:
            if any(glob_matches(pattern, candidate) for candidate in candidates):
                continue
            missing.append(f"{key} {pattern!r} matches no {key} compared")
            close = difflib.get_close_matches(pattern, candidates, n=1, cutoff=0.7)
            if close:
                guesses.append(f"did you mean {key} = {close[0]!r}?")
    if not missing:
        return "", ""
    return ": " + "; ".join(missing), " ".join(guesses)
