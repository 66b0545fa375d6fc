"""The position-tracking loader: values, positions, recoverable notes and precise errors."""

from __future__ import annotations

import tracemalloc
from pathlib import Path

import json5
import pytest

from kcompat.lint.check import lint_specs
from kcompat.sources.files import read_file
from kcompat.spec.load import (
    MAX_BYTES,
    MAX_DEPTH,
    JArray,
    JObject,
    LoadError,
    load_bytes,
    parse_document,
)
from kcompat.spec.specfile import read_spec

EXAMPLES = Path(__file__).resolve().parents[3] / "specs" / "examples"

SPEC = """\
// A licence header, as in every Kafka file.
/* A block comment
   over three lines */ {
  "name": "FooRequest", /* inline */ "type":
     "request",
  "fields": [ { "name": "A", "versions": "0+" },
    /* a comment
       between items */ { "name": "B" } ]
}
"""


def load_error(text: str) -> LoadError:
    with pytest.raises(LoadError) as caught:
        parse_document(text)
    return caught.value


# -- values and positions ---------------------------------------------------------------


def test_values_are_plain_json() -> None:
    root = parse_document(SPEC).root
    assert root == json5.loads(SPEC)
    assert isinstance(root, JObject) and isinstance(root["fields"], JArray)


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.json")), ids=lambda p: p.name)
def test_examples_read_as_json5_reads_them(path: Path) -> None:
    data = path.read_bytes()
    document = load_bytes(data, path.name)
    assert document.root == json5.loads(data.decode("utf-8"))
    assert document.notes == ()


def test_object_position_after_block_comments() -> None:
    root = parse_document(SPEC).root
    assert root.pos == (3, 24)  # the '{' after the three-line comment


def test_key_and_value_positions() -> None:
    root = parse_document(SPEC).root
    assert root.key_pos["name"] == (4, 3)
    assert root.value_pos["name"] == (4, 11)
    assert root.key_pos["type"] == (4, 38)  # after an inline block comment
    assert root.value_pos["type"] == (5, 6)  # value on the next line
    assert root.where("fields") == (6, 3)
    assert root.where_value("fields") == (6, 13)
    assert root.where("missing") == root.pos
    assert root.where_value("missing") == root.pos


def test_array_item_positions_after_a_multi_line_comment() -> None:
    fields = parse_document(SPEC).root["fields"]
    assert fields.pos == (6, 13)
    assert fields.item_pos == [(6, 15), (8, 25)]
    assert fields[1].pos == (8, 25)
    assert fields[1].key_pos["name"] == (8, 27)
    assert fields[0].value_pos["versions"] == (6, 42)


def test_scalars_and_escapes() -> None:
    text = '{"s": "a\\"b\\u00e9\\n", "i": -12, "f": 1.5e3, "t": true, "n": null, "z": 0}'
    assert parse_document(text).root == {
        "s": 'a"b\u00e9\n',
        "i": -12,
        "f": 1500.0,
        "t": True,
        "n": None,
        "z": 0,
    }


def test_crlf_line_endings_and_bom() -> None:
    document = load_bytes(b'\xef\xbb\xbf{\r\n  "a": 1,\r\n  "b": 2\r\n}\r\n', "x.json")
    assert document.root == {"a": 1, "b": 2}
    assert document.root.key_pos["b"] == (3, 3)


def test_document_keeps_path_and_text() -> None:
    document = parse_document('{"a": 1}', "dir/A.json")
    assert document.path == "dir/A.json"
    assert document.text == '{"a": 1}'
    assert document.notes == ()


# -- recoverable problems: notes -----------------------------------------------------------


def test_duplicate_key_is_a_note_and_the_last_value_wins() -> None:
    document = parse_document('{\n  "a": 1,\n  "a": 2\n}')
    assert document.root == {"a": 2}  # what Kafka's Jackson keeps
    (note,) = document.notes
    assert note.kind == "duplicate-key"
    assert note.pos == (3, 3)
    assert "first at line 2" in note.message


@pytest.mark.parametrize(
    ("text", "pos"),
    [('{"a": 1,\n}', (1, 8)), ('{"a": [1, 2,  ]}', (1, 12)), ('[{"a": 1},]', (1, 10))],
)
def test_trailing_comma_is_a_note_at_the_comma(text: str, pos: tuple[int, int]) -> None:
    document = parse_document(text)
    assert [note.kind for note in document.notes] == ["trailing-comma"]
    assert document.notes[0].pos == pos


@pytest.mark.parametrize(
    ("text", "pos", "shown"),
    [
        ('{"a": 1}\n]', (2, 1), "']'"),
        ('{"a": 1} x', (1, 10), "'x'"),
        ('{"a": 1}\n\n  {"b": 2}', (3, 3), "'{'"),
        ("{\"a\": 1}\n  'q'", (2, 3), '"\'"'),
    ],
)
def test_trailing_content_is_a_note(text: str, pos: tuple[int, int], shown: str) -> None:
    document = parse_document(text)
    assert document.root == {"a": 1}
    (note,) = document.notes
    assert note.kind == "trailing-content"
    assert note.pos == pos
    assert shown in note.message


def test_trailing_comments_and_whitespace_are_fine() -> None:
    assert parse_document('{"a": 1}\n// the end\n/* really */\n\n').notes == ()


# -- unreadable input: LoadError with a position and a useful message ------------------------


@pytest.mark.parametrize("text", ["", "   \n\t", "// only a comment\n", "/* nothing */"])
def test_empty_file(text: str) -> None:
    err = load_error(text)
    assert err.pos == (1, 1)
    assert "empty" in err.message


def test_non_object_top_level_loads_but_builds_no_message() -> None:
    spec = read_spec("dir/A.json", b"[1, 2]")
    assert spec.error is None and spec.document is not None
    assert spec.message is None and not spec.ok
    findings = lint_specs([spec])
    assert [(f.rule, f.location.line, f.location.column) for f in findings] == [
        ("not-an-object", 1, 1)
    ]
    assert "an array" in findings[0].message


def test_invalid_utf8_names_the_byte_and_its_offset() -> None:
    data = b'{\n  "name": "ok",\n  "about": "caf\xe9"\n}'
    with pytest.raises(LoadError) as caught:
        load_bytes(data, "x.json")
    offset = data.index(b"\xe9")
    assert f"offset {offset}" in caught.value.message
    assert "0xe9" in caught.value.message
    assert caught.value.pos == (3, 16)


def test_a_50_mb_input_fails_without_reading_it() -> None:
    data = b"{" + b" " * (50 * 1024 * 1024) + b"}"
    tracemalloc.start()
    try:
        with pytest.raises(LoadError, match="MiB limit"):
            load_bytes(data, "big.json")
        spec = read_spec("big.json", data)  # the public entry point returns the error
    finally:
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    assert spec.error is not None and "MiB limit" in spec.error.message
    assert peak < 1024 * 1024  # nothing was decoded or copied


def test_read_spec_reports_oversize_input_as_an_error_value() -> None:
    spec = read_spec("big.json", b" " * (MAX_BYTES + 1))
    assert spec.error is not None and "MiB limit" in spec.error.message


def test_a_50_mb_file_is_read_with_bounded_memory(tmp_path: Path) -> None:
    path = tmp_path / "Big.json"
    with path.open("wb") as handle:  # sparse: 50 MB on paper, nothing on disk
        handle.truncate(50 * 1024 * 1024)
    tracemalloc.start()
    try:
        spec = read_file(path)
    finally:
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    assert spec.error is not None and "MiB limit" in spec.error.message
    assert peak < 2 * MAX_BYTES  # at most the limit plus one byte was read


def test_a_huge_string_is_refused_too() -> None:
    with pytest.raises(LoadError, match="limit"):
        parse_document('"' + "x" * (MAX_BYTES + 10) + '"')


@pytest.mark.parametrize(
    "text",
    [
        "[" * 10_000 + "]" * 10_000,
        '{"a": ' * 10_000 + "1" + "}" * 10_000,
        '{"fields": [' * 5_000,
    ],
)
def test_deep_nesting_is_a_load_error_not_a_recursion_error(text: str) -> None:
    err = load_error(text)
    assert f"deeper than {MAX_DEPTH}" in err.message
    assert err.pos[0] == 1 and err.pos[1] > MAX_DEPTH


def test_nesting_up_to_the_limit_is_fine() -> None:
    depth = MAX_DEPTH
    assert parse_document("[" * depth + "]" * depth).root is not None


@pytest.mark.parametrize(
    ("text", "pos", "words"),
    [
        ('{\n  "name": "Foo\n}', (2, 11), "unterminated string"),
        ('{\n  "about": "no end', (2, 12), "unterminated string"),
        ('{"a": 1}\n/* never closed', None, None),  # trailing: a note, see below
        ('{\n  "a": 1 /* never closed\n}', (2, 10), "unterminated /* comment"),
        ("{\n  'name': 'Foo'\n}", (2, 3), "single-quoted"),
        ("{\n  \"name\": 'Foo'\n}", (2, 11), "double quotes"),
        ('{\n  "default": 0x10\n}', (2, 14), 'hex defaults as strings, e.g. "0x10"'),
        ('{"tag": 007}', (1, 9), "leading zeros"),
        ('{"tag": +1}', (1, 9), "leading +"),
        ('{"a": True}', (1, 7), "write true"),
        ('{"a": None}', (1, 7), "write null"),
        ('{"a": NaN}', (1, 7), "not JSON"),
        ("{name: 1}", (1, 2), "double-quoted"),
        ('{"a" 1}', (1, 6), "expected ':'"),
        ('{"a": 1 "b": 2}', (1, 9), "missing comma"),
        ('{"a": [1 2]}', (1, 10), "missing comma"),
        ('{"a": 1]', (1, 8), "expected '}'"),
        ('{"a": [1}', (1, 9), "expected ']'"),
        ('{"a": ,}', (1, 7), "value is missing"),
        ('{\n  "a": [1,\n', (3, 1), "missing ']' for the array opened at line 2, column 8"),
        ('{"a": "x\ty"}', (1, 9), "control character"),
        ('{"a": "a\\qb"}', (1, 7), "invalid escape"),
        ('{"a": "a\\u12"}', (1, 7), "invalid escape"),
        ('{"a": 1' + "2" * 600 + "}", (1, 7), "too long"),
        ("{ / }", (1, 3), "comments start with"),
        ("{ # }", (1, 3), "unexpected character"),
    ],
)
def test_syntax_errors_have_position_and_help(
    text: str, pos: tuple[int, int] | None, words: str | None
) -> None:
    if pos is None:
        (note,) = parse_document(text).notes
        assert note.kind == "trailing-content"
        return
    err = load_error(text)
    assert err.pos == pos, err.message
    assert words is not None and words in err.message


def test_load_error_is_an_exception_with_message_and_position() -> None:
    err = LoadError("boom", (3, 4))
    assert str(err) == "boom" and err.pos == (3, 4)
    assert LoadError("x").pos == (1, 1)


# -- kcompat comments ------------------------------------------------------------------------


def test_kcompat_comments_are_captured_with_line_and_placement() -> None:
    text = """\
// kcompat: ignore-file[file-name-mismatch] the name is historical
{
  "name": "A", // kcompat: ignore[invalid-message-name] reason
  /* a block comment about kcompat */
  // kcompat: ignore[unknown-key]
  "extra": 1,
  // an ordinary comment
  "b": 2
}
"""
    comments = parse_document(text).comments
    assert [(c.line, c.own_line) for c in comments] == [(1, True), (3, False), (4, True), (5, True)]
    assert comments[1].text == "// kcompat: ignore[invalid-message-name] reason"
    assert comments[2].text.startswith("/*")


def test_no_comments_kept_when_kcompat_is_not_mentioned() -> None:
    assert parse_document('// hello\n{"a": 1} // bye').comments == ()


def test_kcompat_comment_lines_are_right_after_multi_line_comments() -> None:
    text = '/* one\n two\n three */ {\n  "a": 1 // kcompat: ignore[x]\n}'
    (comment,) = parse_document(text).comments
    assert comment.line == 4 and not comment.own_line
