"""``kcompat rules``: list the registered rules, or explain one from its ``rules/ID.md``."""

from __future__ import annotations

import difflib
import json
from importlib import resources
from typing import Any

from kcompat.errors import UsageError
from kcompat.rules.engine import Rule, all_rules, get_rule


def rule_doc(rule_id: str) -> str | None:
    """The Markdown page of a rule, shipped as package data (the repo's ``rules/``)."""
    doc = resources.files("kcompat").joinpath(f"data/rules/{rule_id}.md")
    try:
        return doc.read_text(encoding="utf-8")
    except (FileNotFoundError, NotADirectoryError):
        return None


def _lookup(rule_id: str) -> Rule:
    found = get_rule(rule_id)
    if found is None:
        known = [r.id for r in all_rules()]
        guess = difflib.get_close_matches(rule_id, known, n=1)
        hint = f"; did you mean {guess[0]!r}?" if guess else "; run `kcompat rules` for the list"
        raise UsageError(f"unknown rule {rule_id!r}{hint}")
    return found


def explain_rule(rule_id: str, console: Any, *, raw: bool = False) -> None:
    found = _lookup(rule_id)
    text = rule_doc(found.id) or (
        f"# {found.id}\n\n{found.summary}\n\n(kind {found.kind}, category {found.category}, "
        f"default severity {found.severity.label})\n"
    )
    if raw or not console.is_terminal:
        console.print(text, markup=False, highlight=False)
        return
    from rich.markdown import Markdown

    console.print(Markdown(text))


def list_rules(
    console: Any,
    *,
    kind: str | None = None,
    category: str | None = None,
    severity: str | None = None,
    fmt: str = "text",
) -> None:
    chosen = [
        r
        for r in all_rules(kind)
        if (category is None or r.category == category)
        and (severity is None or r.severity.label == severity)
    ]
    if fmt == "json":
        rows = [
            {
                "id": r.id,
                "kind": r.kind,
                "category": r.category,
                "severity": r.severity.label,
                "summary": r.summary,
            }
            for r in chosen
        ]
        console.print(json.dumps(rows, indent=2), markup=False, highlight=False)
        return
    if fmt == "markdown":
        lines = ["| rule | kind | category | severity | summary |", "|---|---|---|---|---|"]
        lines += [
            f"| [`{r.id}`](rules/{r.id}.md) | {r.kind} | {r.category} | "
            f"{r.severity.label} | {r.summary.replace('|', '/')} |"
            for r in chosen
        ]
        console.print("\n".join(lines), markup=False, highlight=False)
        return
    if not console.is_terminal:
        width = max((len(r.id) for r in chosen), default=4)
        for r in chosen:
            console.print(
                f"{r.id:<{width}}  {r.kind:<4}  {r.category:<10}  {r.severity.label:<7}  "
                f"{r.summary}",
                markup=False,
                highlight=False,
            )
        return
    from rich.table import Table

    table = Table(box=None, pad_edge=False, header_style="bold")
    for column in ("rule", "kind", "category", "severity", "summary"):
        table.add_column(column, overflow="fold")
    for r in chosen:
        table.add_row(r.id, r.kind, r.category, r.severity.label, r.summary)
    console.print(table)
    console.print(f"{len(chosen)} rules. `kcompat rules ID` explains one.", markup=False)
