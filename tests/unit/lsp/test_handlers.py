"""The language server's requests as functions of a snapshot: no server, no process.

Each handler of :mod:`kcompat.lsp.handlers` is called with a
:class:`~kcompat.lsp.snapshot.Snapshot` made here from text and the request's
parameters, and must answer exactly what an editor gets over stdio
(``tests/test_lsp.py`` drives the same answers through a real server).
"""

from __future__ import annotations

import pytest

pytest.importorskip("pygls", reason="pygls is not installed (the lsp extra)")

from lsprotocol import types

from kcompat.lsp import handlers
from kcompat.lsp.documents import parse
from kcompat.lsp.shipped import Shipping
from kcompat.lsp.snapshot import Snapshot
from kcompat.spec.specfile import read_spec
from tests.lsp_specs import FOO_REQUEST

BAR_REQUEST = """\
{
  "apiKey": 91,
  "type": "request",
  "name": "BarRequest",
  "validVersions": "0-3",
  "flexibleVersions": "2+",
  "fields": [
    { "name": "Who", "type": "Principal", "versions": "0+", "about": "Who." }
  ]
}
"""
FOO, BAR = "/specs/FooRequest.json", "/specs/BarRequest.json"
FOO_URI, BAR_URI = "file:///specs/FooRequest.json", "file:///specs/BarRequest.json"
DOCUMENT = types.TextDocumentIdentifier(uri=FOO_URI)


def snapshot(text: str = FOO_REQUEST, *, folder: bool = False) -> Snapshot:
    parsed = parse(FOO, text)
    siblings = (parsed, parse(BAR, BAR_REQUEST)) if folder else ()
    readable = parsed if parsed.message is not None else None
    return Snapshot(FOO_URI, parsed, readable, True, siblings)


def within(text: str, context: str, token: str) -> types.Range:
    """The range of ``token`` inside the first occurrence of ``context``."""
    start = text.index(context) + context.index(token)
    line = text.count("\n", 0, start)
    column = start - (text.rfind("\n", 0, start) + 1)
    return types.Range(
        start=types.Position(line=line, character=column),
        end=types.Position(line=line, character=column + len(token)),
    )


def at(where: types.Range, shift: int = 0) -> types.Position:
    return types.Position(line=where.start.line, character=where.start.character + shift)


def hover_at(where: types.Range, shift: int, shipping: Shipping = handlers.UNKNOWN) -> types.Hover:
    params = types.HoverParams(text_document=DOCUMENT, position=at(where, shift))
    got = handlers.hover(snapshot(), params, shipping)
    assert got is not None and isinstance(got.contents, types.MarkupContent)
    return got


def test_hover_on_a_field_its_wire_form_and_attributes() -> None:
    extra = within(FOO_REQUEST, '"name": "Extra"', '"Extra"')
    got = hover_at(extra, 3)
    assert got.range == extra and isinstance(got.contents, types.MarkupContent)
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


def test_hover_on_a_version_string_and_the_message() -> None:
    flexible = within(FOO_REQUEST, '"flexibleVersions": "2+"', '"2+"')
    got = hover_at(flexible, 0)
    assert got.range == flexible and isinstance(got.contents, types.MarkupContent)
    assert got.contents.value.splitlines() == [
        "`2+`: version 2 and every later one",
        "",
        "of `FooRequest`'s valid versions `0-3`: `2-3` (2 versions)",
    ]
    name = within(FOO_REQUEST, '"FooRequest"', '"FooRequest"')
    assert isinstance(hover_at(name, 1).contents, types.MarkupContent)
    assert hover_at(name, 1).contents.value.splitlines()[:1] == [  # type: ignore[union-attr]
        "**`FooRequest`** · request · apiKey 90"
    ]


def test_a_hover_asks_for_releases_only_where_it_shows_them() -> None:
    def wanted(where: types.Range, shift: int) -> str | None:
        params = types.HoverParams(text_document=DOCUMENT, position=at(where, shift))
        return handlers.releases_wanted(snapshot(), params)

    assert wanted(within(FOO_REQUEST, '"name": "Extra"', '"Extra"'), 1) == "FooRequest"
    assert wanted(within(FOO_REQUEST, '"FooRequest"', '"FooRequest"'), 1) == "FooRequest"
    assert wanted(within(FOO_REQUEST, '"flexibleVersions": "2+"', '"2+"'), 0) is None


def test_a_hover_names_the_releases_it_is_given() -> None:
    message = read_spec(FOO, FOO_REQUEST.encode()).message
    assert message is not None
    released = Shipping((("1.0.0", message),), known=True)
    got = hover_at(within(FOO_REQUEST, '"name": "Name"', '"Name"'), 1, released)
    assert isinstance(got.contents, types.MarkupContent)
    assert "1.0.0" in got.contents.value


def test_definition_and_references_across_the_folder() -> None:
    use = within(FOO_REQUEST, '"type": "Principal"', '"Principal"')
    definition = within(FOO_REQUEST, '"name": "Principal"', '"Principal"')
    got = handlers.definition(
        snapshot(folder=True), types.DefinitionParams(text_document=DOCUMENT, position=at(use, 4))
    )
    assert got == [types.Location(uri=FOO_URI, range=definition)]
    refs = handlers.find_references(
        snapshot(folder=True),
        types.ReferenceParams(
            text_document=DOCUMENT,
            position=at(definition),
            context=types.ReferenceContext(include_declaration=True),
        ),
    )
    assert refs == [
        types.Location(uri=FOO_URI, range=definition),
        types.Location(uri=FOO_URI, range=use),
        types.Location(uri=BAR_URI, range=within(BAR_REQUEST, '"Principal"', '"Principal"')),
    ]


def test_completion_of_a_key_replaces_what_is_typed() -> None:
    anchor = '"about": "Something extra." }'
    typed = FOO_REQUEST.replace(anchor, anchor + ',\n      { "name": "More", "ty')
    line = typed[: typed.index('"More"')].count("\n")
    column = typed.split("\n")[line].index('"ty')
    params = types.CompletionParams(
        text_document=DOCUMENT, position=types.Position(line=line, character=column + 3)
    )
    found = handlers.completion(snapshot(typed), params)
    assert found is not None
    labels = [item.label for item in found.items]
    assert "type" in labels and "name" not in labels and "fields" in labels


def test_symbols_outline_a_spec_and_nothing_else() -> None:
    params = types.DocumentSymbolParams(text_document=DOCUMENT)
    found = handlers.symbols(snapshot(), params)
    assert found is not None and [s.name for s in found] == ["FooRequest"]
    assert [c.name for c in found[0].children or []] == ["Topics", "Owner", "Principal"]
    other = parse("/specs/package.json", '{"name": "x"}')
    assert handlers.symbols(Snapshot(FOO_URI, other, None, False), params) is None


def test_nothing_to_say_is_none_not_an_error() -> None:
    broken = snapshot('{ "name": ')
    params = types.HoverParams(text_document=DOCUMENT, position=types.Position(line=0, character=4))
    assert handlers.hover(broken, params) is None
    assert handlers.releases_wanted(broken, params) is None
