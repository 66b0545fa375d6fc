"""A HEAD spec file that no longer parses: a finding for that revision, not a crash."""

from __future__ import annotations

from kcompat.findings import Reporter, Severity
from kcompat.rules.evolution.adapters import set_rule
from kcompat.rules.evolution.context import DiffContext
from kcompat.rules.registry import Category


@set_rule("spec-unreadable", Category.MESSAGES, Severity.ERROR)
def spec_unreadable(context: DiffContext, report: Reporter) -> None:
    """A HEAD spec file does not parse, so its message cannot be compared."""
    for spec in context.unreadable:
        if spec.link is not None and spec.error is not None:  # git holds a link there
            report(
                spec.error.pos,
                spec.error.message,
                path=spec.path,
                hint="replace the link with the spec's own text; its message was not compared",
            )
        elif spec.error is not None:
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


@set_rule("spec-invalid", Category.MESSAGES, Severity.ERROR)
def spec_invalid(context: DiffContext, report: Reporter) -> None:
    """A spec whose wire layout would be a guess (it does not lint): not compared."""
    for spec, side, why in context.invalid:
        name = spec.message.name if spec.message is not None else spec.path
        report(
            (why.location.line, why.location.column),
            f"{side}'s {name} cannot be compared: {why.message} ({why.rule})",
            path=spec.path,
            message_name=name,
            severity=Severity.ERROR if side == "HEAD" else Severity.WARNING,
            hint=f"fix it first (`kcompat lint {spec.path}` shows every problem, "
            f"`kcompat rules {why.rule}` explains this one); nothing of it was compared",
        )
