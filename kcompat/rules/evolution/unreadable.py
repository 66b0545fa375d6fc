"""A HEAD spec file that no longer parses: a finding for that revision, not a crash."""

from __future__ import annotations

from kcompat.rules.engine import Reporter, Severity, rule
from kcompat.rules.evolution.context import DiffContext


@rule(
    "spec-unreadable",
    kind="diff",
    category="messages",
    severity=Severity.ERROR,
    summary="A HEAD spec file does not parse, so its message cannot be compared.",
    scope="set",
)
def spec_unreadable(context: DiffContext, report: Reporter) -> None:
    for spec in context.unreadable:
        if spec.error is not None:
            report(
                spec.error.pos,
                f"the spec does not parse: {spec.error.message}",
                path=spec.path,
                hint="fix the file (kcompat lint shows every problem); its "
                "message was not compared",
            )
        else:
            report(
                (1, 1),
                "the spec's top-level value is not a JSON object",
                path=spec.path,
                hint="fix the file; its message was not compared",
            )
