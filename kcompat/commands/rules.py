"""``kcompat rules``: list the rules or explain one."""

from __future__ import annotations

from typing import Annotated

import typer

from kcompat.app import Color, ColorOption, app
from kcompat.commands.table_format import TableFormatOption, table_format
from kcompat.completion import rule_ids
from kcompat.rules.registry import RuleKind
from kcompat.verdict import FailOn


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
    from kcompat.commands.catalog import rule_list_document, rule_page_document
    from kcompat.terminal import show_document

    chosen = table_format(fmt)
    if rule_id is not None:
        show_document(rule_page_document(rule_id), chosen, color)
        return
    document = rule_list_document(
        kind=kind.value if kind else None,
        category=category,
        severity=severity.value if severity else None,
    )
    show_document(document, chosen, color)
