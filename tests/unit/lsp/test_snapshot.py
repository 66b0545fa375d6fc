"""What the answering thread takes a snapshot from: the texts the loop collected and the
parses the session already had (:func:`kcompat.lsp.snapshot.take`), no server."""

from __future__ import annotations

import pytest

pytest.importorskip("pygls", reason="pygls is not installed (the lsp extra)")

from kcompat.lsp.documents import Parsed, parse
from kcompat.lsp.snapshot import Opened, Wanted, is_spec, remembered, take
from kcompat.spec.specfile import read_spec
from tests.lsp_specs import FOO_REQUEST
from tests.unit.lsp.test_handlers import BAR, BAR_REQUEST, BAR_URI, FOO, FOO_URI

EDITED = FOO_REQUEST.replace('"0-3"', '"0-4"', 1)
OTHER = "/specs/Other.json"


def test_a_known_parse_of_the_same_text_is_used_and_not_reported_as_new() -> None:
    known = parse(FOO, FOO_REQUEST)
    snapshot, made = take(Wanted(Opened(FOO_URI, FOO, FOO_REQUEST, known), "utf-16"))
    assert snapshot.parsed is known
    assert snapshot.readable is known
    assert made == {}


def test_a_stale_parse_is_replaced_by_a_parse_of_the_current_text() -> None:
    stale = parse(FOO, FOO_REQUEST)
    snapshot, made = take(Wanted(Opened(FOO_URI, FOO, EDITED, stale), "utf-16"))
    assert snapshot.parsed is not stale
    assert snapshot.parsed.text == EDITED
    assert made == {FOO_URI: snapshot.parsed}
    assert snapshot.parsed.message is not None and stale.message is not None
    assert str(snapshot.parsed.message.valid_versions) != str(stale.message.valid_versions)


def test_a_parse_in_another_encoding_is_not_reused() -> None:
    known = parse(FOO, FOO_REQUEST, "utf-16")
    snapshot, made = take(Wanted(Opened(FOO_URI, FOO, FOO_REQUEST, known), "utf-8"))
    assert snapshot.parsed is not known
    assert snapshot.parsed.encoding == "utf-8"
    assert made == {FOO_URI: snapshot.parsed}


def test_a_recent_parse_made_for_an_earlier_request_is_reused() -> None:
    """A second request sent before the first was answered does not parse again."""
    recent = parse(FOO, EDITED)
    snapshot, made = take(
        Wanted(Opened(FOO_URI, FOO, EDITED, None), "utf-16"), recent={FOO_URI: recent}
    )
    assert snapshot.parsed is recent
    assert made == {FOO_URI: recent}  # the session has not kept it yet


def test_completion_keeps_the_last_readable_parse_while_the_text_does_not_parse() -> None:
    readable = parse(FOO, FOO_REQUEST)
    broken = FOO_REQUEST[:-5]
    wanted = Wanted(Opened(FOO_URI, FOO, broken, readable), "utf-16", readable)
    snapshot, made = take(wanted)
    assert snapshot.parsed.message is None
    assert snapshot.readable is readable
    assert snapshot.spec
    assert list(made) == [FOO_URI]


def test_navigation_takes_open_documents_as_edited_and_the_rest_from_disk() -> None:
    on_disk_foo = read_spec(FOO, b'{"apiKey": 1, "type": "request", "name": "Stale"}')
    on_disk_bar = read_spec(BAR, BAR_REQUEST.encode())
    baz = "/specs/BazRequest.json"
    on_disk_baz = read_spec(baz, BAR_REQUEST.replace("BarRequest", "BazRequest").encode())
    opened = (Opened(FOO_URI, FOO, FOO_REQUEST), Opened(BAR_URI, BAR, BAR_REQUEST))
    wanted = Wanted(opened[0], "utf-16", folder=opened)
    snapshot, made = take(wanted, [on_disk_foo, on_disk_bar, on_disk_baz])
    assert [p.path for p in snapshot.folder] == [FOO, BAR, baz]
    assert snapshot.folder[0] is snapshot.parsed  # one parse of the document, not two
    assert snapshot.folder[1].text == BAR_REQUEST
    assert set(made) == {FOO_URI, BAR_URI}


def test_navigation_in_an_unsaved_buffer_sees_the_buffer_alone() -> None:
    wanted = Wanted(Opened("untitled:1", "untitled:1", FOO_REQUEST), "utf-16", folder=())
    snapshot, _made = take(wanted)
    assert snapshot.folder == (snapshot.parsed,)


def test_what_is_a_spec() -> None:
    assert is_spec(parse(FOO, FOO_REQUEST), None)
    assert not is_spec(parse(OTHER, '{"editor.tabSize": 2}'), None)
    assert is_spec(parse(OTHER, '{"apiKey": 1, '), None)  # becoming one: a key says so
    assert is_spec(parse(FOO, "{"), None)  # its name says so


def test_recent_parses_are_bounded_newest_last() -> None:
    recent: dict[str, Parsed] = {}
    parses = {f"file:///{n}.json": parse(f"/{n}.json", "{}") for n in range(6)}
    remembered(parses, recent, 4)
    assert list(recent) == [f"file:///{n}.json" for n in range(2, 6)]
    remembered({"file:///3.json": parses["file:///3.json"]}, recent, 4)
    assert list(recent)[-1] == "file:///3.json"
