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


def accepting(config: Config, finding: Finding) -> Acceptance | None:
    """The first ``[[ignore]]`` entry that accepts ``finding``, if any."""
    return next(
        (
            entry
            for entry in config.ignore
            if entry.matches(finding.rule, finding.message_name, finding.location.path)
        ),
        None,
    )


def unused_acceptances(
    config: Config,
    findings: Sequence[Finding],
    kinds: Collection[str],
    subjects: Sequence[tuple[str, str]],
) -> list[Finding]:
    """An ``unused-ignore`` finding for each entry that accepted none of ``findings`` and
    could have in this run (it names a rule of one of ``kinds``, or no rule at all)."""
    used = {entry.number for f in findings if (entry := accepting(config, f)) is not None}
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
