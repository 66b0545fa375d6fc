"""Code actions: the fixes lint's hints spell out, and accepting a finding on the record.

Lint already says how to fix many findings: ``did you mean 'versions'?`` for a misspelt
key or type, ``use tag 3, the next free one`` for a reused tag. Those hints travel with
each diagnostic (its ``data``), and here become edits. A field without an ``about`` gets
one. Any finding can be accepted where it is: an ignore comment on the line above it,
with a reason to fill in (kcompat shows the reason with every run).
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator, Sequence

from lsprotocol import types

from kcompat.escaping import shown
from kcompat.lsp.diagnostics import SOURCE, text_range
from kcompat.lsp.documents import Parsed

#: What the inserted ignore comment says until the author writes why.
REASON_PLACEHOLDER = "REASON: say why this is accepted"
_DID_YOU_MEAN = re.compile(r"did you mean ('(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\")\?")
_NEXT_TAG = re.compile(r"use tag (\d+), the next free one")


def code_actions(
    parsed: Parsed, uri: str, diagnostics: Sequence[types.Diagnostic], start: int
) -> list[types.CodeAction]:
    """The actions for the diagnostics the editor passes and the cursor at ``start``."""
    actions: list[types.CodeAction] = []
    for found in diagnostics:
        if found.source != SOURCE or not isinstance(found.code, str):
            continue
        fix = _hinted_fix(parsed, found)
        if fix is not None:
            actions.append(_action(fix[0], uri, [fix[1]], found, preferred=True))
        title, edits = _accept(parsed, found)
        actions.append(_action(title, uri, edits, found))
    actions.extend(_missing_about(parsed, uri, start))
    return actions


def _action(
    title: str,
    uri: str,
    edits: list[types.TextEdit],
    found: types.Diagnostic | None = None,
    preferred: bool = False,
) -> types.CodeAction:
    return types.CodeAction(
        title=title,
        kind=types.CodeActionKind.QuickFix,
        diagnostics=[found] if found is not None else None,
        is_preferred=preferred or None,
        edit=types.WorkspaceEdit(changes={uri: edits}),
    )


def _hinted_fix(parsed: Parsed, found: types.Diagnostic) -> tuple[str, types.TextEdit] | None:
    """The edit a diagnostic's hint describes, when it names the replacement."""
    data = found.data if isinstance(found.data, dict) else {}
    hint = str(data.get("hint", ""))
    current = _text_in(parsed, found.range)
    guess = _DID_YOU_MEAN.search(hint)
    if guess is not None and current.startswith('"'):
        try:
            value = ast.literal_eval(guess.group(1))
        except (ValueError, SyntaxError):
            return None
        new = json.dumps(value, ensure_ascii=False)
        return f"Change to {shown(new)}", types.TextEdit(range=found.range, new_text=new)
    tag = _NEXT_TAG.search(hint)
    if tag is not None and current.strip().lstrip("-").isdigit():
        return f"Use tag {tag.group(1)}", types.TextEdit(range=found.range, new_text=tag.group(1))
    return None


def _text_in(parsed: Parsed, where: types.Range) -> str:
    index = parsed.index
    start = index.offset_at(where.start.line, where.start.character)
    end = index.offset_at(where.end.line, where.end.character)
    return parsed.text[start:end]


def _accept(parsed: Parsed, found: types.Diagnostic) -> tuple[str, list[types.TextEdit]]:
    """An ``ignore`` comment for the finding's rule, on its own line above it."""
    line = found.range.start.line
    current = parsed.index.line_text(line) if line < len(parsed.index.starts) else ""
    indent = current[: len(current) - len(current.lstrip(" \t"))]
    comment = f"{indent}// kcompat: ignore[{found.code}] {REASON_PLACEHOLDER}\n"
    at = types.Position(line=line, character=0)
    edit = types.TextEdit(range=types.Range(start=at, end=at), new_text=comment)
    return f"Accept {found.code} here (an ignore comment with a reason)", [edit]


def _missing_about(parsed: Parsed, uri: str, offset: int) -> Iterator[types.CodeAction]:
    """An ``about`` for the innermost field around the cursor that has none."""
    inner = None
    for kind, obj, _path in parsed.objects:
        start, end = parsed.span(obj.pos, whole=True)
        if kind == "field" and start <= offset < end:
            inner = obj  # objects come outermost first: the last one is innermost
    if inner is None or "about" in inner or not isinstance(inner.get("name"), str):
        return
    after = next((k for k in ("versions", "type", "name") if isinstance(inner.get(k), str)), "")
    _start, end = parsed.span(inner.value_pos[after])
    place = text_range(parsed, end, end)
    name = json.dumps(inner["name"], ensure_ascii=False)
    edit = types.TextEdit(range=place, new_text=', "about": ""')
    yield _action(f'Add an "about" to field {shown(name)}', uri, [edit])
