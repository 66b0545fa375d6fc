"""The loader's fast path for plain object members (``"key": scalar,`` or ``"key": [``
in one match).

Every member the fast path reads must come out exactly as the token path would have read
it (values, key and value positions, duplicate-key notes, the trailing comma's place),
and every member it cannot read the same way (comments, escapes, floats, long numbers,
line ends after the key, errors) must fall back to the token path, with that path's
notes and errors. Each test compares the loader with the fast path against the same
loader with it switched off.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kcompat.spec import load
from kcompat.spec.load import JArray, JObject, LoadError, parse_document

NEVER = re.compile(r"(?!)")


@contextmanager
def token_path_only() -> Iterator[None]:
    """The loader without its fast path: every member goes through the tokenizer."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(load, "_MEMBER", NEVER)
        yield


class CountingPattern:
    """``_MEMBER`` that counts the members it matched."""

    def __init__(self) -> None:
        self.matched = 0

    def match(self, text: str, pos: int) -> re.Match[str] | None:
        found = PLAIN.match(text, pos)
        self.matched += found is not None
        return found


PLAIN = load._MEMBER


def reading(text: str) -> Any:
    """Everything the loader says about ``text``: the tree with each position, the notes
    and comments; or the error and its position."""
    try:
        document = parse_document(text)
    except LoadError as err:
        return ("error", err.message, err.pos)
    return (tree(document.root), document.notes, document.comments)


def tree(value: Any) -> Any:
    if isinstance(value, JObject):
        return (
            "object",
            value.pos,
            [(k, value.key_pos[k], value.value_pos[k], tree(v)) for k, v in value.items()],
        )
    if isinstance(value, JArray):
        items = zip(value.item_pos, value, strict=True)
        return ("array", value.pos, [(where, tree(item)) for where, item in items])
    return (type(value).__name__, value)


def same_as_token_path(text: str) -> Any:
    found = reading(text)
    with token_path_only():
        assert reading(text) == found, text
    return found


SPEC = """\
{
  "apiKey": 1, "type": "request",
  "name": "FooRequest", "validVersions": "0-2", "latestVersionUnstable": false,
  "flexibleVersions": "none", "deprecated": null,
  "fields": [
    { "name": "A", "type": "int32", "versions": "0+", "default": -1 },
    { "name": "B", "type": "[]int8",\t"versions": "1+" , "tag": 0, "ignorable": true,},
    { "name": "A", "about": "", "name": "C" }
  ]
}
"""


def test_plain_members_are_read_in_one_match_each() -> None:
    counting = CountingPattern()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(load, "_MEMBER", counting)
        document = parse_document(SPEC)
    # the 19 members with a scalar value, and "fields" (which opens an array)
    assert sum(1 for _ in re.finditer(r'"\w+": *\t*[-"\w\[]', SPEC)) == 20
    assert counting.matched == 20
    fields = document.root["fields"]
    assert fields[1].key_pos["versions"] == (7, 38) and fields[1].value_pos["versions"] == (7, 50)
    assert dict(fields[2]) == {"name": "C", "about": ""}


def test_plain_members_read_as_the_token_path_reads_them() -> None:
    _, notes, _ = same_as_token_path(SPEC)
    assert [(note.kind, note.pos) for note in notes] == [
        ("trailing-comma", (7, 84)),
        ("duplicate-key", (8, 33)),
    ]


#: Members that are plain (read in one match) and members that are not, with why.
PLAIN_MEMBERS = [
    '"k": "v"',
    '"k":"v",',
    '"k" :\t"v" ,',
    '\r\n  "k": 0',
    '\r  "k": -12',
    '"k": 999999999999999999',
    '"k": true',
    '"k": false,',
    '"k": null',
    '"": ""',
    '"é": "\u2028"',
    '"k": [1]',
    '"k": {}',
    '"k":[',
    '"k": {"a": 1}',
]
NOT_PLAIN = {
    '"k": "a\\"b"': "an escape in the value",
    '"k\\u0041": 1': "an escape in the key",
    '"k": 1.5': "a float",
    '"k": 1e5': "an exponent",
    '"k": 9999999999999999999': "19 digits",
    '"k": 01': "a leading zero",
    '"k": +1': "a plus",
    '"k": truex': "a literal run on",
    '"k": True': "not a JSON literal",
    '"k"\n: 1': "a line end after the key",
    '"k":\n1': "a line end before the value",
    '"k": /* c */ 1': "a comment",
    '/* c */ "k": 1': "a comment before the key",
    '"k": "a\tb"': "a control character in the string",
    '"k": "open': "an unterminated string",
    "'k': 1": "a single-quoted key",
    '"k" 1': "no colon",
    '"k": ,': "no value",
    '"k":: 1': "two colons",
    '"k": \x0c1': "a form feed",
}


@pytest.mark.parametrize("member", PLAIN_MEMBERS)
def test_a_plain_member_is_one_match(member: str) -> None:
    assert PLAIN.match(member, 0) is not None
    same_as_token_path("{" + member + "}")
    same_as_token_path('{"first": 1,' + member + ', "last": 2}')


@pytest.mark.parametrize("member", sorted(NOT_PLAIN), ids=lambda m: NOT_PLAIN[m])
def test_any_other_member_falls_back_to_the_token_path(member: str) -> None:
    assert PLAIN.match(member, 0) is None
    for text in ("{" + member + "}", '{"a": [{"first": 1,\n ' + member + ',"x": 1}]}'):
        same_as_token_path(text)


@pytest.mark.parametrize("depth", [load.MAX_DEPTH - 1, load.MAX_DEPTH, load.MAX_DEPTH + 1])
@pytest.mark.parametrize("opener", ["{", "["])
def test_containers_opened_by_plain_members_count_towards_the_depth_limit(
    depth: int, opener: str
) -> None:
    closer = "}" if opener == "{" else "]"
    text = '{"a": ' * (depth - 1) + opener + closer + "}" * (depth - 1)
    found = same_as_token_path(text)
    assert (found[0] == "error") == (depth > load.MAX_DEPTH)
    if depth > load.MAX_DEPTH:
        assert found[2] == (1, 6 * load.MAX_DEPTH + 1)  # where the 65th container opens


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ('{"a": 1, "k": 01}', ("invalid number '01'", (1, 15))),
        ('{"a": 1,\n  "k": "x\ty"}', ("control character", (2, 10))),
        ('{"a": 1, "k": 1 "b": 2}', ("missing comma", (1, 17))),
        ('{"a": 1,, "b": 2}', ("a value is missing", (1, 9))),
        ('{"a": 1, "b": 2]', ("expected '}'", (1, 16))),
        ('{"a": 1,\r "b": 2,\r', ("missing '}' for the object opened at line 1", (3, 1))),
    ],
)
def test_errors_after_plain_members_are_the_token_paths(
    text: str, error: tuple[str, tuple[int, int]]
) -> None:
    kind, message, pos = same_as_token_path(text)
    assert kind == "error" and error[0] in message and pos == error[1]


#: The pieces of JSON-ish members: keys, values, gaps, and what may follow a member.
PIECES = st.sampled_from(
    [
        *('"k"', '"name"', '"a\\"b"', "'k'", "k", '"x'),
        *('"v"', '""', '"a\\nb"', "0", "-0", "7", "-12", "01", "1.5", "1e5", "9" * 19),
        *("true", "false", "null", "truex", "nul", "{", "}", "[", "]", ":", ",", ",,"),
        *(" ", "\t", "\n", "\r", "\r\n", "/* c */", "// c\n", "// c\r", "\x0c", "\x00"),
        "// kcompat: ignore[x]\n",
    ]
)


@settings(max_examples=400, deadline=None)
@given(st.lists(PIECES, max_size=30).map("".join))
def test_member_soup_reads_as_the_token_path_reads_it(members: str) -> None:
    same_as_token_path('{"a": 1, ' + members)
    same_as_token_path('[{"name": "x",' + members + "}]")
