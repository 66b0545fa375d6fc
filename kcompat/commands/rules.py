"""``kcompat rules``: list the rules or explain one."""

from __future__ import annotations

from typing import Annotated

import typer

from kcompat.app import Color, ColorOption, FailOn, app, console_for
from kcompat.commands.table_format import TableFormatOption, check_table_format
from kcompat.completion import rule_ids
from kcompat.rules.registry import RuleKind


@app.command(short_help="List the rules, or explain one.")
def rules(
    rule_id: Annotated[
        str | None,
        typer.Argument(metavar="RULE", help="Explain one rule.", autocompletion=rule_ids),
    ] = None,
    kind: Annotated[
        RuleKind | None,
        typer.Option(
            "--kind", metavar="KIND", help="Only rules of this kind: lint, diff, drift or corpus."
        ),
    ] = None,
    category: Annotated[
        str | None, typer.Option("--category", metavar="NAME", help="Only this category.")
    ] = None,
    severity: Annotated[
        FailOn | None,
        typer.Option("--severity", metavar="SEVERITY", help="Only this default severity."),
    ] = None,
    fmt: TableFormatOption = "text",
    color: ColorOption = Color.auto,
) -> None:
    """List the rules, or explain one (why it matters, how to fix, examples)."""
    from kcompat.rules.catalog import explain_rule, list_rules

    check_table_format(fmt)
    console = console_for(color)
    if rule_id is not None:
        explain_rule(rule_id, console, fmt=fmt)
        return
    list_rules(
        console,
        kind=kind.value if kind else None,
        category=category,
        severity=severity.value if severity else None,
        fmt=fmt,
    )
