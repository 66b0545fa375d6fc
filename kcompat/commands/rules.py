"""``kcompat rules``: list the rules or explain one."""

from __future__ import annotations

from typing import Annotated

import typer

from kcompat.app import Color, ColorOption, app, choice_option
from kcompat.commands.table_format import TableFormatOption
from kcompat.completion import rule_ids
from kcompat.report.tables import TableFormat
from kcompat.rules.registry import Category, RuleKind
from kcompat.verdict import Level


@app.command(short_help="List the rules, or explain one.")
def rules(
    rule_id: Annotated[
        str | None,
        typer.Argument(metavar="RULE", help="Explain one rule.", autocompletion=rule_ids),
    ] = None,
    kind: Annotated[
        RuleKind | None,
        choice_option(
            RuleKind,
            "--kind",
            metavar="KIND",
            help="Only rules of this kind: lint, diff, drift or corpus.",
        ),
    ] = None,
    category: Annotated[
        Category | None,
        choice_option(Category, "--category", metavar="NAME", help="Only this category."),
    ] = None,
    severity: Annotated[
        Level | None,
        choice_option(Level, "--severity", metavar="SEVERITY", help="Only this default severity."),
    ] = None,
    fmt: TableFormatOption = TableFormat.text,
    color: ColorOption = Color.auto,
) -> None:
    """List the rules, or explain one (why it matters, how to fix, examples)."""
    from kcompat.commands.catalog import rule_list_document, rule_page_document
    from kcompat.terminal import show_document

    if rule_id is not None:
        show_document(rule_page_document(rule_id), fmt, color)
        return
    document = rule_list_document(
        kind=kind.value if kind else None,
        category=category.value if category else None,
        severity=severity.value if severity else None,
    )
    show_document(document, fmt, color)
