"""``kcompat rules``'s documents: the list of registered rules, or one rule's page (its
``rules/ID.md``, shipped as package data, and where its check is: read here, at the
edge, so the rules themselves stay pure)."""

from __future__ import annotations

import difflib
import re
from importlib import resources

from kcompat.errors import UsageError
from kcompat.report.tables import TableDocument
from kcompat.rules.registry import Rule, all_rules, get_rule, implementation


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


#: an example block's opening fence: ``json fail-base Foo.json`` (role and file name are
#: for the test suite, which runs every example; a reader needs only which side it is)
_EXAMPLE_FENCE = re.compile(
    r"^(```+)(\w+)[ \t]+(?:pass|fail)(?:-(base|head|release))?(?:[ \t]+(\S+))?[ \t]*$",
    re.MULTILINE,
)
_SIDES = {"base": "BASE", "head": "HEAD", "release": "The release"}
#: the fence of the finding lines a page's failing example prints (``text finding``; the
#: page introduces it in words, the marker is for the tests that compare it)
_FINDING_FENCE = re.compile(r"^(```+)(\w+)[ \t]+finding[ \t]*$", re.MULTILINE)


def readable_page(text: str) -> str:
    """The page with each example's test markers turned into a label a reader needs."""

    def label(match: re.Match[str]) -> str:
        fence, language, side, filename = match.groups()
        parts = [part for part in (_SIDES.get(side or ""), filename and f"`{filename}`") if part]
        return (f"{', '.join(parts)}:\n\n" if parts else "") + fence + language

    return _FINDING_FENCE.sub(r"\1\2", _EXAMPLE_FENCE.sub(label, text))


def implemented_in(found: Rule) -> str:
    """``kcompat/rules/lint/tags.py:42``: the rule's check, or the stage reporting it."""
    import inspect
    from pathlib import Path

    import kcompat

    target = implementation(found)
    source = inspect.getsourcefile(target)
    line = inspect.getsourcelines(target)[1]
    if source is None:
        return target.__module__
    root = Path(kcompat.__file__).resolve().parent.parent
    path = Path(source).resolve()
    shown = path.relative_to(root) if path.is_relative_to(root) else path
    return f"{shown.as_posix()}:{line}"


def _page(found: Rule) -> str:
    text = rule_doc(found.id) or (
        f"# {found.id}\n\n{found.summary}\n\n(kind {found.kind}, category {found.category}, "
        f"default severity {found.severity.label})\n"
    )
    target = implementation(found)
    stage = " (its findings come from there)" if found.origin else ""
    where = f"Implemented in `{implemented_in(found)}` ({target.__module__}){stage}.\n"
    first_section = text.find("\n## ")
    if first_section < 0:
        return text.rstrip("\n") + "\n\n" + where
    return text[: first_section + 1] + where + text[first_section:]


def rule_page_document(rule_id: str) -> TableDocument:
    """A rule's page (as Markdown; ``json``: its fields and the page)."""
    found = _lookup(rule_id)
    page = readable_page(_page(found))
    data = {
        "id": found.id,
        "kind": found.kind,
        "category": found.category,
        "severity": found.severity.label,
        "summary": found.summary,
        "implemented_in": implemented_in(found),
        "page": page,
    }
    return TableDocument(data, title=found.id, page=page, ascii_json=True)


def rule_list_document(
    *, kind: str | None = None, category: str | None = None, severity: str | None = None
) -> TableDocument:
    """The rules chosen, one row each (Markdown: each ID linked to its page)."""
    chosen = [
        r
        for r in all_rules(kind)
        if (category is None or r.category == category)
        and (severity is None or r.severity.label == severity)
    ]
    data = [
        {
            "id": r.id,
            "kind": r.kind,
            "category": r.category,
            "severity": r.severity.label,
            "summary": r.summary,
        }
        for r in chosen
    ]
    header = ("rule", "kind", "category", "severity", "summary")
    rows = [(r.id, r.kind, r.category, r.severity.label, r.summary) for r in chosen]
    markdown = ["| rule | kind | category | severity | summary |", "|---|---|---|---|---|"]
    markdown += [
        f"| [`{r.id}`](rules/{r.id}.md) | {r.kind} | {r.category} | "
        f"{r.severity.label} | {r.summary.replace('|', '/')} |"
        for r in chosen
    ]
    return TableDocument(
        data,
        tables=(("", header, rows),),
        markdown="\n".join(markdown),
        footer=f"{len(chosen)} rules. `kcompat rules ID` explains one.",
        ascii_json=True,
    )
