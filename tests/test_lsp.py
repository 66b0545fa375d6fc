"""``kcompat lsp`` driven as an editor drives it: a real LSP client over stdio.

Each test starts the server in a temp folder (a plain folder, or a git repository where
the test is about a base revision), opens, edits and saves specs, and checks exactly what
comes back: diagnostics with their codes and ranges, hovers, definitions, completions,
code actions and the outline.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pygls", reason="pygls is not installed (the lsp extra)")

from lsprotocol import types

from tests.conftest import git
from tests.lsp_client import Editor, editing
from tests.lsp_specs import FOO_REQUEST

FOO_RESPONSE = """\
{
  "apiKey": 90,
  "type": "response",
  "name": "FooResponse",
  "validVersions": "0-3",
  "flexibleVersions": "2+",
  "fields": [
    { "name": "ErrorCode", "type": "int16", "versions": "0+", "about": "The error." }
  ]
}
"""


def run(test: Callable[[], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(test())


def line_of(text: str, needle: str, nth: int = 0) -> tuple[int, int]:
    """The 0-based (line, column) of the ``nth`` occurrence of ``needle``."""
    at = -1
    for _ in range(nth + 1):
        at = text.index(needle, at + 1)
    line = text.count("\n", 0, at)
    return line, at - (text.rfind("\n", 0, at) + 1)


def span(text: str, needle: str, nth: int = 0) -> types.Range:
    line, column = line_of(text, needle, nth)
    return types.Range(
        start=types.Position(line=line, character=column),
        end=types.Position(line=line, character=column + len(needle)),
    )


@pytest.fixture()
def folder(tmp_path: Path) -> Path:
    """A plain folder (no git) with a request and its response."""
    where = tmp_path / "message"
    where.mkdir()
    (where / "FooRequest.json").write_text(FOO_REQUEST, encoding="utf-8")
    (where / "FooResponse.json").write_text(FOO_RESPONSE, encoding="utf-8")
    return where


def test_clean_spec_then_a_reused_tag_then_fixed(folder: Path) -> None:
    """didOpen publishes nothing for a clean spec; a reused tag is one error covering the
    tag's value, with the rule as code and its page as link; fixing it clears it."""

    async def session() -> None:
        async with editing(folder) as editor:
            uri = editor.open(folder / "FooRequest.json")
            assert await editor.diagnostics(uri, 1) == []
            broken = FOO_REQUEST.replace(
                '"about": "The name." }',
                '"about": "The name.",\n        "taggedVersions": "2+", "tag": 0 }',
            )
            version = editor.change(uri, broken)
            found = await editor.diagnostics(uri, version)
            assert [d.code for d in found] == ["tag-duplicate"]
            duplicate = found[0]
            assert duplicate.range == span(broken, "0", nth=broken.count("0") - 3)
            assert duplicate.severity == types.DiagnosticSeverity.Error
            assert duplicate.source == "kcompat"
            assert duplicate.code_description is not None
            assert duplicate.code_description.href.endswith("/rules/tag-duplicate.md")
            assert duplicate.message.splitlines() == [
                "tag 0 of Topics.Extra is already used by Topics.Name",
                "hint: use tag 1, the next free one",
            ]
            fixed = editor.change(uri, FOO_REQUEST)
            assert await editor.diagnostics(uri, fixed) == []

    run(session)


def within(text: str, context: str, token: str) -> types.Range:
    """The range of ``token`` inside the first occurrence of ``context``."""
    start = text.index(context) + context.index(token)
    line = text.count("\n", 0, start)
    column = start - (text.rfind("\n", 0, start) + 1)
    return types.Range(
        start=types.Position(line=line, character=column),
        end=types.Position(line=line, character=column + len(token)),
    )


def test_half_typed_json_is_one_diagnostic_and_the_server_stays_up(folder: Path) -> None:
    """Text that does not parse is one invalid-json error at the place it breaks; hover
    and completion still answer; the spec's findings come back once it parses."""

    async def session() -> None:
        async with editing(folder) as editor:
            uri = editor.open(folder / "FooRequest.json")
            await editor.diagnostics(uri, 1)
            cut = FOO_REQUEST.index('{ "name": "Owner"')
            half = FOO_REQUEST[:cut] + '{ "name": "Own'
            version = editor.change(uri, half)
            found = await editor.diagnostics(uri, version)
            assert [d.code for d in found] == ["invalid-json"]
            line = half.count("\n")
            assert found[0].range == types.Range(
                start=types.Position(line=line, character=14),
                end=types.Position(line=line, character=18),
            )
            assert "unterminated string" in found[0].message
            assert await editor.hover(uri, 4, 12) is None
            labels = [i.label for i in await editor.completion(uri, line, 6)]
            assert labels[:3] == ["type", "versions", "about"]  # it has a name already
            version = editor.change(uri, FOO_REQUEST.replace('"1+", "about": "Who."', '"1+"'))
            assert await editor.diagnostics(uri, version) == []

    run(session)


def test_hover_field_message_and_version_string(folder: Path) -> None:
    """Hover shows a field's wire form per version range and its attributes, a message's
    API key and versions, and what a version string covers; ranges are the token's."""
    text = FOO_REQUEST

    async def session() -> None:
        async with editing(folder) as editor:
            uri = editor.open(folder / "FooRequest.json")
            await editor.diagnostics(uri, 1)
            extra = within(text, '"name": "Extra"', '"Extra"')
            got = await editor.hover(uri, extra.start.line, extra.start.character + 3)
            assert got is not None and got.range == extra
            assert isinstance(got.contents, types.MarkupContent)
            assert got.contents.kind == types.MarkupKind.Markdown
            assert got.contents.value.splitlines() == [
                "**`Extra`** · `int32` · field of `FooRequest`",
                "",
                "Something extra.",
                "",
                "| versions | on the wire |",
                "|---|---|",
                "| 0-1 | absent |",
                "| 2-3 | `INT32`, tag 0, 4 bytes |",
                "",
                "- versions `2+`",
                "- tag 0 in `2+`",
                "",
                "added in v2, tagged (tag 0)",
            ]
            owner = within(text, '"type": "Principal"', '"Principal"')
            got = await editor.hover(uri, owner.start.line, owner.start.character + 1)
            assert got is not None and isinstance(got.contents, types.MarkupContent)
            assert "| 1-3 | `STRUCT Principal` |" in got.contents.value
            assert "- struct `Principal`: 1 fields, defined in `commonStructs`" in (
                got.contents.value
            )
            name = within(text, '"FooRequest"', '"FooRequest"')
            got = await editor.hover(uri, name.start.line, name.start.character + 1)
            assert got is not None and isinstance(got.contents, types.MarkupContent)
            assert got.contents.value.splitlines()[:3] == [
                "**`FooRequest`** · request · apiKey 90",
                "",
                "valid `0-3` · flexible `2+` · deprecated `none`",
            ]
            flexible = within(text, '"flexibleVersions": "2+"', '"2+"')
            got = await editor.hover(uri, flexible.start.line, flexible.start.character)
            assert got is not None and isinstance(got.contents, types.MarkupContent)
            assert got.range == flexible
            assert got.contents.value.splitlines() == [
                "`2+`: version 2 and every later one",
                "",
                "of `FooRequest`'s valid versions `0-3`: `2-3` (2 versions)",
            ]

    run(session)


def test_definition_and_references_of_structs(folder: Path) -> None:
    """A struct type goes to its definition (common or inline, or in another spec of the
    folder); references list every field typed with it."""
    (folder / "BarRequest.json").write_text(
        FOO_RESPONSE.replace('"FooResponse"', '"BarRequest"')
        .replace('"response"', '"request"')
        .replace('"apiKey": 90', '"apiKey": 91')
        .replace('"int16"', '"Principal"'),
        encoding="utf-8",
    )
    text = FOO_REQUEST

    async def session() -> None:
        async with editing(folder) as editor:
            uri = editor.open(folder / "FooRequest.json")
            await editor.diagnostics(uri, 1)
            use = within(text, '"type": "Principal"', '"Principal"')
            definition = within(text, '"name": "Principal"', '"Principal"')
            got = await editor.definition(uri, use.start.line, use.start.character + 4)
            assert list(got) == [types.Location(uri=uri, range=definition)]
            topic = within(text, '"type": "[]Topic"', '"[]Topic"')
            got = await editor.definition(uri, topic.start.line, topic.start.character + 4)
            topics = within(text, '"name": "Topics"', '"Topics"')
            assert got == [types.Location(uri=uri, range=topics)]
            bar = editor.uri(folder / "BarRequest.json")
            refs = await editor.references(uri, definition.start.line, definition.start.character)
            bar_text = (folder / "BarRequest.json").read_text(encoding="utf-8")
            assert list(refs) == [
                types.Location(uri=uri, range=definition),
                types.Location(uri=uri, range=use),
                types.Location(uri=bar, range=within(bar_text, '"Principal"', '"Principal"')),
            ]
            editor.open(folder / "BarRequest.json")
            bar_use = within(bar_text, '"Principal"', '"Principal"')
            got = await editor.definition(bar, bar_use.start.line, bar_use.start.character + 2)
            assert list(got) == [types.Location(uri=uri, range=definition)]

    run(session)


def test_completion_of_keys_types_tags_and_versions(folder: Path) -> None:
    """Keys the object may still have; types (primitives, arrays, the spec's structs); the
    next free tag; the version strings the spec uses. Each replaces the typed token."""

    async def session() -> None:
        async with editing(folder) as editor:
            uri = editor.open(folder / "FooRequest.json")
            await editor.diagnostics(uri, 1)
            anchor = '"about": "Something extra." }'
            typed = FOO_REQUEST.replace(anchor, anchor + ',\n      { "name": "More", "ty')
            editor.change(uri, typed)
            line = typed[: typed.index('"More"')].count("\n")
            column = typed.split("\n")[line].index('"ty')
            items = await editor.completion(uri, line, column + 3)
            labels = [i.label for i in items]
            assert "type" in labels and "name" not in labels and "fields" in labels
            key = next(i for i in items if i.label == "type")
            assert isinstance(key.text_edit, types.TextEdit)
            assert key.text_edit.new_text == '"type": '
            assert key.text_edit.range == types.Range(
                start=types.Position(line=line, character=column),
                end=types.Position(line=line, character=column + 3),
            )
            with_type = typed.replace('"More", "ty', '"More", "type": "')
            editor.change(uri, with_type)
            items = await editor.completion(uri, line, len(with_type.split("\n")[line]))
            labels = [i.label for i in items]
            assert {"int32", "string", "[]int32", "Principal", "Topic", "[]Principal"} <= set(
                labels
            )
            tagging = typed.replace(
                '"More", "ty', '"More", "type": "int8", "versions": "3+", "tag": '
            )
            editor.change(uri, tagging)
            items = await editor.completion(uri, line, len(tagging.split("\n")[line]))
            assert [(i.label, i.detail) for i in items] == [("1", "the next free tag")]
            versions = typed.replace('"More", "ty', '"More", "versions": "')
            editor.change(uri, versions)
            items = await editor.completion(uri, line, len(versions.split("\n")[line]))
            assert [i.label for i in items][:3] == ["0-3", "2+", "0+"]

    run(session)


def apply(text: str, edits: list[types.TextEdit]) -> str:
    """The text after an editor applies ``edits`` (one line each, as ours are)."""
    lines = text.split("\n")
    for edit in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character))[::-1]:
        start, end = edit.range.start, edit.range.end
        assert start.line == end.line
        line = lines[start.line]
        lines[start.line] = line[: start.character] + edit.new_text + line[end.character :]
    return "\n".join(lines)


def edits_of(action: types.CodeAction, uri: str) -> list[types.TextEdit]:
    assert action.edit is not None and action.edit.changes is not None
    return list(action.edit.changes[uri])


def test_code_actions_fix_hints_and_accept_findings(folder: Path) -> None:
    """A misspelt key becomes the key lint suggests, a reused tag the next free one, a
    field gets an about; "accept" inserts an ignore comment that silences the finding."""

    async def session() -> None:
        async with editing(folder) as editor:
            uri = editor.open(folder / "FooRequest.json")
            await editor.diagnostics(uri, 1)
            broken = FOO_REQUEST.replace(
                '"versions": "1+", "about": "Who." }',
                '"verions": "1+", "about": "Who." }',
            ).replace('"about": "The name." }', '"tag": 0, "taggedVersions": "2+" }')
            version = editor.change(uri, broken)
            found = await editor.diagnostics(uri, version)
            assert sorted(str(d.code) for d in found) == [
                "missing-key",
                "tag-duplicate",
                "unknown-key",
            ]
            unknown = next(d for d in found if d.code == "unknown-key")
            assert unknown.range == within(broken, '"verions"', '"verions"')
            actions = await editor.code_actions(uri, unknown.range, [unknown])
            assert [a.title for a in actions][:2] == [
                'Change to "versions"',
                "Accept unknown-key here (an ignore comment with a reason)",
            ]
            renamed = apply(broken, edits_of(actions[0], uri))
            assert '"versions": "1+", "about": "Who."' in renamed

            duplicate = next(d for d in found if d.code == "tag-duplicate")
            actions = await editor.code_actions(uri, duplicate.range, [duplicate])
            assert actions[0].title == "Use tag 1"
            assert edits_of(actions[0], uri) == [
                types.TextEdit(range=duplicate.range, new_text="1")
            ]
            accept = actions[1]
            accepted = apply(broken, edits_of(accept, uri))
            line = duplicate.range.start.line
            assert accepted.split("\n")[line] == (
                "        // kcompat: ignore[tag-duplicate] REASON: say why this is accepted"
            )
            version = editor.change(uri, accepted)
            after = await editor.diagnostics(uri, version)
            assert sorted(str(d.code) for d in after) == ["missing-key", "unknown-key"]

            name = within(broken, '"name": "Name"', '"Name"')
            actions = await editor.code_actions(uri, name, [])
            assert [a.title for a in actions] == ['Add an "about" to field "Name"']
            added = apply(accepted, edits_of(actions[0], uri))
            assert '{ "name": "Name", "type": "string", "versions": "0+", "about": "",' in added

    run(session)


def test_document_symbols_outline(folder: Path) -> None:
    """The outline: the message, its fields (nested), its common structs; each symbol
    spans its object and selects its name."""

    async def session() -> None:
        async with editing(folder) as editor:
            uri = editor.open(folder / "FooRequest.json")
            symbols = await editor.symbols(uri)

            def outline(items: list[types.DocumentSymbol]) -> list[object]:
                return [(s.name, s.kind, outline(list(s.children or []))) for s in items]

            kinds = types.SymbolKind
            assert outline(symbols) == [
                (
                    "FooRequest",
                    kinds.Class,
                    [
                        (
                            "Topics",
                            kinds.Field,
                            [("Name", kinds.Field, []), ("Extra", kinds.Field, [])],
                        ),
                        ("Owner", kinds.Field, []),
                        ("Principal", kinds.Struct, [("User", kinds.Field, [])]),
                    ],
                )
            ]
            message = symbols[0]
            lines = FOO_REQUEST.split("\n")
            assert message.range.start == types.Position(line=1, character=0)
            assert message.range.end == types.Position(line=len(lines) - 2, character=1)
            assert message.selection_range == within(FOO_REQUEST, '"FooRequest"', '"FooRequest"')

    run(session)


def test_cross_file_findings_reach_closed_siblings(folder: Path) -> None:
    """A duplicate API key spans files: the open spec and its closed sibling on disk both
    get the finding; a request without its response is flagged; fixing clears both."""
    (folder / "BarRequest.json").write_text(
        FOO_REQUEST.replace('"FooRequest"', '"BarRequest"'), encoding="utf-8"
    )
    (folder / "BarResponse.json").write_text(
        FOO_RESPONSE.replace('"FooResponse"', '"BarResponse"').replace("90", "91"),
        encoding="utf-8",
    )

    async def session() -> None:
        async with editing(folder) as editor:
            uri = editor.open(folder / "FooRequest.json")
            bar = editor.uri(folder / "BarRequest.json")
            mine = await editor.diagnostics(uri, 1)
            assert sorted(str(d.code) for d in mine) == ["duplicate-api-key"]
            theirs = await editor.diagnostics(bar)
            assert [d.code for d in theirs] == ["duplicate-api-key"]
            text = (folder / "BarRequest.json").read_text(encoding="utf-8")
            assert theirs[0].range == within(text, '"apiKey": 90', "90")
            seen = editor.count(bar)
            version = editor.change(uri, FOO_REQUEST.replace('"apiKey": 90', '"apiKey": 92'))
            mine = await editor.diagnostics(uri, version)
            assert [d.code for d in mine] == ["unpaired-request-response"]
            assert await editor.diagnostics(bar, after=seen) == []

    run(session)


def test_configuration_is_honoured(folder: Path) -> None:
    """kcompat.toml's disabled rules and severities apply, as they do for `kcompat lint`."""
    (folder / "kcompat.toml").write_text(
        'disable = ["unpaired-request-response"]\n[severity]\ntag-duplicate = "warning"\n',
        encoding="utf-8",
    )
    (folder / "FooResponse.json").unlink()

    async def session() -> None:
        async with editing(folder) as editor:
            uri = editor.open(folder / "FooRequest.json")
            assert await editor.diagnostics(uri, 1) == []
            broken = FOO_REQUEST.replace(
                '"about": "The name." }', '"tag": 0, "taggedVersions": "2+" }'
            )
            version = editor.change(uri, broken)
            found = await editor.diagnostics(uri, version)
            assert [(d.code, d.severity) for d in found] == [
                ("tag-duplicate", types.DiagnosticSeverity.Warning)
            ]

    run(session)


def test_positions_count_utf16_units_unless_utf32_is_agreed(folder: Path) -> None:
    """A character outside the BMP before a finding counts as two UTF-16 units (the LSP's
    default) and as one when the client offers UTF-32."""
    text = FOO_REQUEST.replace('"about": "Who."', '"about": "Who \U0001f600", "verions": "1+"')

    async def session(encodings: list[str] | None, width: int) -> None:
        async with editing(folder, encodings=encodings) as editor:
            uri = editor.open(folder / "FooRequest.json", text)
            found = await editor.diagnostics(uri, 1)
            unknown = next(d for d in found if d.code == "unknown-key")
            expected = within(text, '"verions"', '"verions"')
            shift = width - 1
            assert unknown.range.start.character == expected.start.character + shift
            assert unknown.range.end.character == expected.end.character + shift
            hover = await editor.hover(uri, expected.start.line, expected.start.character + shift)
            assert hover is None  # an unknown key: nothing to explain, and no error

    asyncio.run(session(None, 2))
    asyncio.run(session(["utf-32"], 1))


def test_not_a_spec_and_unsaved_buffers(folder: Path) -> None:
    """Other JSON in the folder gets no diagnostics; an unsaved buffer is linted alone."""
    (folder / "package.json").write_text('{"name": "x", "version": "1.0.0"}\n', encoding="utf-8")

    async def session() -> None:
        async with editing(folder) as editor:
            other = editor.open(folder / "package.json")
            assert await editor.diagnostics(other, 1) == []
            assert await editor.completion(other, 0, 1) == []
            assert await editor.symbols(other) == []
            buffer = "untitled:Untitled-1"
            editor.versions[buffer] = 1
            editor.client.text_document_did_open(
                types.DidOpenTextDocumentParams(
                    text_document=types.TextDocumentItem(
                        uri=buffer,
                        language_id="jsonc",
                        version=1,
                        text=FOO_REQUEST.replace('"about": "Who."', '"abot": "Who."'),
                    )
                )
            )
            found = await editor.diagnostics(buffer, 1)
            assert "unknown-key" in [d.code for d in found]

    run(session)


def test_a_template_beside_the_specs_is_no_spec(folder: Path) -> None:
    """An API-doc template (a .json file with ``{{placeholders}}``: not JSON, and never a
    spec) gets no diagnostics when opened, and the folder's lint leaves it out; a broken
    spec, whose text names validVersions, is still one."""
    template = '{"title": "{{ title }}", "apiKey": {{ api_key }}}\n'
    (folder / "page.json").write_text(template, encoding="utf-8")

    async def session() -> None:
        async with editing(folder) as editor:
            page = editor.open(folder / "page.json")
            assert await editor.diagnostics(page, 1) == []
            uri = editor.open(folder / "FooRequest.json")
            assert await editor.diagnostics(uri, 1) == []
            broken = editor.change(uri, FOO_REQUEST.replace('"apiKey": 90', '"apiKey": {{ k }}'))
            assert [d.code for d in await editor.diagnostics(uri, broken)] == ["invalid-json"]

    run(session)


@pytest.fixture()
def committed(repo: Path) -> Path:
    """A git repository whose last commit has the Foo request and response."""
    where = repo / "message"
    where.mkdir()
    (where / "FooRequest.json").write_text(FOO_REQUEST, encoding="utf-8")
    (where / "FooResponse.json").write_text(FOO_RESPONSE, encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "the Foo API")
    return repo


def test_saving_diffs_against_the_base_revision(committed: Path) -> None:
    """With diffBase, saving a spec adds the evolution findings against that revision (a
    reordered released field here) to its lint findings, at the field that moved; until
    the save, only lint speaks."""
    path = committed / "message" / "FooRequest.json"
    topics_end = FOO_REQUEST.index('    { "name": "Owner"')
    topics_start = FOO_REQUEST.index('    { "name": "Topics"')
    owner_end = FOO_REQUEST.index('  ],\n  "commonStructs"')
    owner = FOO_REQUEST[topics_end:owner_end].replace('"Who." }', '"Who." },')
    topics = FOO_REQUEST[topics_start:topics_end].rstrip().rstrip(",") + "\n"
    reordered = FOO_REQUEST[:topics_start] + owner + topics + FOO_REQUEST[owner_end:]

    async def session() -> None:
        async with editing(committed, options={"diffBase": "HEAD"}) as editor:
            uri = editor.open(path)
            assert await editor.diagnostics(uri, 1) == []
            version = editor.change(uri, reordered)
            assert await editor.diagnostics(uri, version) == []
            seen = editor.count(uri)
            path.write_text(reordered, encoding="utf-8")
            editor.save(uri)
            found = await editor.diagnostics(uri, version, after=seen)
            assert "fields-reordered" in [d.code for d in found]
            moved = next(d for d in found if d.code == "fields-reordered")
            assert moved.severity == types.DiagnosticSeverity.Error
            # the finding names the field that moved first: its "name" key, as lint would
            assert moved.range == within(reordered, '{ "name": "Owner"', '"name"')
            assert moved.message.splitlines()[0] == (
                "fields of FooRequest were reordered in released versions 1-3: "
                "Topics, Owner became Owner, Topics"
            )
            assert "why: in BASE's validVersions" in moved.message.splitlines()

    run(session)


def test_diff_base_from_the_configuration_and_problems_shown_once(
    committed: Path, folder: Path
) -> None:
    """kcompat.toml's diff-base is used when the editor sets none; a base that does not
    exist, or a folder without git, is one message in the editor, not an error."""
    (committed / "kcompat.toml").write_text('diff-base = "no-such-branch"\n', encoding="utf-8")
    path = committed / "message" / "FooRequest.json"

    async def in_git() -> None:
        async with editing(committed) as editor:
            uri = editor.open(path)
            await editor.diagnostics(uri, 1)
            editor.save(uri)
            said = await editor.message("no-such-branch")
            assert said.startswith("diffBase 'no-such-branch': ")
            assert "\n" not in said

    async def no_git() -> None:
        async with editing(folder, options={"diffBase": "origin/trunk"}) as editor:
            uri = editor.open(folder / "FooRequest.json")
            await editor.diagnostics(uri, 1)
            editor.save(uri)
            said = await editor.message("not in a git repository")
            assert said.startswith("diffBase 'origin/trunk': ")

    run(in_git)
    run(no_git)


def test_hover_names_the_releases_that_shipped_a_field(committed: Path) -> None:
    """With release tags, a field's hover says which releases shipped it; a field added
    since the last release was shipped by none yet."""
    git(committed, "tag", "1.0.0")
    path = committed / "message" / "FooRequest.json"
    added = FOO_REQUEST.replace(
        '"about": "Who." }',
        '"about": "Who." },\n'
        '    { "name": "Later", "type": "int8", "versions": "3+", "about": "New." }',
    )
    path.write_text(added, encoding="utf-8")
    git(committed, "commit", "-q", "-am", "a field after 1.0.0")
    git(committed, "tag", "1.1.0")
    path.write_text(
        added.replace(
            '"about": "New." }',
            '"about": "New." },\n'
            '    { "name": "Newest", "type": "int8", "versions": "3+", "about": "N." }',
        ),
        encoding="utf-8",
    )
    text = path.read_text(encoding="utf-8")

    async def session() -> None:
        async with editing(committed) as editor:
            uri = editor.open(path)
            await editor.diagnostics(uri, 1)

            async def last_line(name: str) -> str:
                where = within(text, f'"name": "{name}"', f'"{name}"')
                got = await editor.hover(uri, where.start.line, where.start.character + 1)
                assert got is not None and isinstance(got.contents, types.MarkupContent)
                return got.contents.value.splitlines()[-1]

            assert await last_line("Owner") == "shipped by `1.0.0`, `1.1.0`"
            assert await last_line("Later") == "shipped by `1.1.0`"
            assert await last_line("Newest") == "shipped by no release yet"

    run(session)


def test_a_file_over_the_size_limit_is_one_diagnostic(folder: Path) -> None:
    """A huge file is refused with one diagnostic; the features answer nothing, fast."""
    huge = FOO_REQUEST.replace('"The name."', '"' + "x" * (5 * 1024 * 1024) + '"')

    async def session() -> None:
        async with editing(folder) as editor:
            uri = editor.open(folder / "FooRequest.json", huge)
            found = await editor.diagnostics(uri, 1)
            assert [d.code for d in found] == ["invalid-json"]
            assert "over the 4 MiB limit" in found[0].message
            assert await editor.completion(uri, 10, 20) == []
            assert await editor.hover(uri, 10, 20) is None
            version = editor.change(uri, FOO_REQUEST)
            assert await editor.diagnostics(uri, version) == []

    run(session)


async def _hover_on_extra(editor: Editor, folder: Path, text: str) -> str:
    """The hover's Markdown on FooRequest's ``Extra`` field, ``text`` open in the editor."""
    uri = editor.open(folder / "FooRequest.json", text)
    await editor.diagnostics(uri, 1)
    extra = within(text, '"name": "Extra"', '"Extra"')
    got = await editor.hover(uri, extra.start.line, extra.start.character + 1)
    assert got is not None and isinstance(got.contents, types.MarkupContent)
    return str(got.contents.value)


def test_hover_shows_spec_text_as_literal_markdown(folder: Path) -> None:
    """An about with an image, a link and HTML renders as the text it is: no image is
    fetched, no link or tag comes of it, no control character reaches the editor."""
    about = "![x](http://example.invalid/x.png) <img src=x> [y](http://example.invalid) \x1b[2J"
    text = FOO_REQUEST.replace('"Something extra."', json.dumps(about))

    async def session() -> None:
        async with editing(folder) as editor:
            value = await _hover_on_extra(editor, folder, text)
            assert value.splitlines()[2] == (
                "\\!\\[x\\](http\u200b://example.invalid/x.png) "
                "\\<img src=x\\> \\[y\\](http\u200b://example.invalid) "
                "\\\\x1b\\[2J"
            )
            cmarkgfm = pytest.importorskip("cmarkgfm", reason="cmark-gfm: the dev extra")
            html = cmarkgfm.github_flavored_markdown_to_html(
                value, options=cmarkgfm.cmark.Options.CMARK_OPT_UNSAFE
            )
            assert "<a " not in html and "<img" not in html, html
            # what a reader sees is what the spec wrote (its escape sequence made visible)
            assert "![x](http\u200b://example.invalid/x.png) &lt;img src=x&gt;" in html

    run(session)


@pytest.mark.parametrize(
    "about",
    [
        "The topic_name, or the id. Version 5 adds it (KIP-890).",
        "1. not a list, *not* emphasis, _nor_ this",
        "# not a heading",
        "- not an item: see www.example.invalid & <b>",
    ],
)
def test_hover_escapes_only_what_markdown_would_act_on(folder: Path, about: str) -> None:
    """Issue 35.18: every ``.`` and ``,`` was escaped, and a client that shows hovers as
    plain text showed the backslashes. Rendered, the hover reads as the spec wrote it;
    as plain text, the punctuation Markdown ignores has no backslash."""
    from html import unescape

    cmarkgfm = pytest.importorskip("cmarkgfm", reason="cmark-gfm: the dev extra")
    text = FOO_REQUEST.replace('"Something extra."', json.dumps(about))

    async def session() -> None:
        async with editing(folder) as editor:
            line = (await _hover_on_extra(editor, folder, text)).splitlines()[2]
            inside = re.sub(r"^\d+\\\.", "", line)  # "1." at the start: a list unless escaped
            assert "\\." not in inside and "\\," not in inside and "\\(" not in inside, line
            html = cmarkgfm.github_flavored_markdown_to_html(
                line, options=cmarkgfm.cmark.Options.CMARK_OPT_UNSAFE
            )
            assert html.startswith("<p>") and html.rstrip().endswith("</p>"), html
            for tag in ("<a ", "<em>", "<strong>", "<h1>", "<li>", "<ol", "<b>"):
                assert tag not in html, html
            assert unescape(html.strip()[3:-4]).replace("\u200b", "") == about

    run(session)


def test_lines_are_counted_as_editors_count_them(folder: Path) -> None:
    """A line separator or U+0085 inside a string ends no line (editors and kcompat
    agree: lines end at newlines), so a finding after one is on the line an editor shows."""
    text = FOO_REQUEST.replace('"Who."', '"Who\u2028is\x85it"').replace(
        '"versions": "0+", "about": "The user."', '"verions": "0+", "about": "The user."'
    )

    async def session() -> None:
        async with editing(folder) as editor:
            uri = editor.open(folder / "FooRequest.json", text)
            found = await editor.diagnostics(uri, 1)
            unknown = next(d for d in found if d.code == "unknown-key")
            assert unknown.range == within(text, '"verions"', '"verions"')
            version = editor.change(uri, text.replace('"verions"', '"versions"'))
            assert await editor.diagnostics(uri, version) == []

    run(session)


def test_a_misspelt_type_is_fixed_as_lint_suggests(folder: Path) -> None:
    """``Int32`` reads as an undefined struct; lint's did-you-mean becomes the fix."""
    text = FOO_REQUEST.replace('"type": "int32"', '"type": "Int32"')

    async def session() -> None:
        async with editing(folder) as editor:
            uri = editor.open(folder / "FooRequest.json", text)
            found = await editor.diagnostics(uri, 1)
            (wrong,) = [d for d in found if d.code == "undefined-struct"]
            assert wrong.range == within(text, '"type": "Int32"', '"Int32"')
            actions = await editor.code_actions(uri, wrong.range, [wrong])
            assert actions[0].title == 'Change to "int32"'
            assert actions[0].is_preferred
            version = editor.change(uri, apply(text, edits_of(actions[0], uri)))
            assert await editor.diagnostics(uri, version) == []

    run(session)
