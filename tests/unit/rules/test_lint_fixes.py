"""Regression tests for lint rule fixes: exact rule IDs, positions, messages and hints."""

from __future__ import annotations

import pytest

from tests.rule_docs import lint_example


def _data(fields: str, extra: str = "", head: str = "") -> str:
    return (
        "{\n"
        f'  {head}"type": "data", "name": "Probe", "validVersions": "0-3",\n'
        '  "flexibleVersions": "1+",\n'
        f'  "fields": [\n{fields}\n  ]{extra}\n'
        "}\n"
    )


def findings(text: str, name: str = "Probe.json") -> list[tuple[str, int, int, str, str]]:
    run = lint_example([(name, text)])
    return [(f.rule, f.location.line, f.location.column, f.message, f.hint) for f in run.findings]


def rules(text: str) -> list[str]:
    return [rule for rule, *_ in findings(text)]


def test_not_an_object_points_at_the_array_after_comments() -> None:
    assert [f[:3] for f in findings("// header\n// more\n  [1]\n")] == [("not-an-object", 3, 3)]


@pytest.mark.parametrize(
    ("first", "second", "expected"),
    [
        ("TopicId", "topicId", "both get the generated accessor topicId()"),
        ("TopicId", "TopicID", "both get the generated schema name topic_id"),
        ("Topicid", "TopicId", None),  # topicid/topicId and topicid/topic_id: no clash
    ],
)
def test_case_clash_only_when_generated_names_collide(
    first: str, second: str, expected: str | None
) -> None:
    text = _data(
        f'    {{ "name": "{first}", "type": "int32", "versions": "0+" }},\n'
        f'    {{ "name": "{second}", "type": "int32", "versions": "0+" }}'
    )
    clashes = [f for f in findings(text) if f[0] == "field-name-case-clash"]
    if expected is None:
        assert clashes == []
    else:
        assert [(line, message) for _rule, line, _col, message, _hint in clashes] == [
            (6, f"field {second!r} differs from {first!r} only in case; {expected}")
        ]


def test_tag_duplicate_suggests_a_tag_no_field_uses() -> None:
    tagged = '"versions": "1+", "taggedVersions": "1+"'
    text = _data(
        f'    {{ "name": "A", "type": "int32", "tag": 0, {tagged} }},\n'
        f'    {{ "name": "B", "type": "int32", "tag": 0, {tagged} }},\n'
        f'    {{ "name": "C", "type": "int32", "tag": 1, {tagged} }}'
    )
    assert findings(text) == [
        ("tag-duplicate", 6, 44, "tag 0 of B is already used by A", "use tag 2, the next free one")
    ]


def test_flexible_versions_ignored_without_valid_versions() -> None:
    text = '{ "type": "data", "name": "Probe", "validVersions": "none",\n'
    assert rules(text + '  "flexibleVersions": "1-2", "fields": [] }\n') == []


def test_numbers_in_string_keys_are_coerced_and_read_as_text() -> None:
    text = _data('    { "name": "A", "type": "int32", "versions": 2, "about": "x" }')
    assert findings(text) == [
        (
            "coerced-value",
            5,
            49,
            "'versions': 2 is read as the string '2' by Kafka's parser; stricter tools reject it",
            'write "versions": "2"',
        )
    ]
    reversed_range = _data('    { "name": "A", "type": "int32", "versions": 40000 }')
    assert "invalid-versions" in rules(reversed_range)


def test_items_of_fields_must_be_objects() -> None:
    text = _data('    "Name", null,\n    { "name": "A", "type": "int32", "versions": "0+" }')
    assert [f[:3] for f in findings(text)] == [
        ("wrong-value-type", 5, 5),
        ("wrong-value-type", 5, 13),
    ]
    assert (
        findings(text)[1][3] == "item 1 of 'fields' in message 'Probe' must be an object, not null"
    )


@pytest.mark.parametrize(
    ("value", "hint"),
    [
        (
            "70000",
            "70000 does not fit the Java type Kafka reads it into; use a value from 0 to 32767",
        ),
        ("-3", "API keys are never negative; use a value from 0 to 32767"),
    ],
)
def test_api_key_out_of_range(value: str, hint: str) -> None:
    text = _data("", head=f'"apiKey": {value}, ')
    assert findings(text) == [
        (
            "wrong-value-type",
            2,
            13,
            f"'apiKey' of message 'Probe' must be an integer from 0 to 32767, not {value}",
            hint,
        )
    ]


def test_unpaired_names_the_partner_with_another_api_key() -> None:
    request = '{ "apiKey": 500, "type": "request", "name": "PingRequest", "validVersions": "0",'
    response = '{ "apiKey": 501, "type": "response", "name": "PingResponse", "validVersions": "0",'
    tail = ' "flexibleVersions": "0+", "fields": [] }\n'
    run = lint_example(
        [("PingRequest.json", request + tail), ("PingResponse.json", response + tail)]
    )
    assert [(run.file_of(f), f.message, f.hint) for f in run.findings] == [
        (
            "PingRequest.json",
            "request PingRequest (apiKey 500) has no response: PingResponse has apiKey 501",
            "give PingResponse apiKey 500, or correct this one's apiKey",
        ),
        (
            "PingResponse.json",
            "response PingResponse (apiKey 501) has no request: PingRequest has apiKey 500",
            "give PingRequest apiKey 501, or correct this one's apiKey",
        ),
    ]


def test_undefined_struct_hints() -> None:
    text = _data(
        '    { "name": "A", "type": "Boolean", "versions": "0+" },\n'
        '    { "name": "B", "type": "[]Endpoint", "versions": "0+" }',
        extra=',\n  "commonStructs": [ { "name": "endpoint", "versions": "0+", "fields": [] } ]',
    )
    hints = {(rule, line): hint for rule, line, _col, _message, hint in findings(text)}
    assert hints == {
        ("undefined-struct", 5): "did you mean 'bool'? Kafka reads 'Boolean' as a struct name",
        ("undefined-struct", 6): "common struct 'endpoint' differs only in case; struct names "
        "start with a capital letter, so rename it to 'Endpoint'",
        ("common-struct-lowercase", 8): "rename it to 'Endpoint'",
    }


def test_common_struct_field_outside_valid_versions() -> None:
    text = _data(
        '    { "name": "A", "type": "[]Entry", "versions": "0+" }',
        extra=',\n  "commonStructs": [ { "name": "Entry", "versions": "0+", "fields": [\n'
        '    { "name": "K", "type": "int32", "versions": "5+" } ] } ]',
    )
    assert findings(text) == [
        (
            "versions-outside-parent",
            8,
            49,
            "field Entry.K has versions 5+, outside common struct Entry's versions within "
            "validVersions (0-3): it is never on the wire",
            "fix the range, or delete the field if its versions are gone",
        )
    ]


@pytest.mark.parametrize(
    ("encoding", "rule", "message"),
    [
        ("32", "encoding-unknown-name", "unknown encoding 32 for N; did you mean 'fixed32'?"),
        ("{}", "encoding-coverage", "encoding of N (versions 0+): versions 0+ have no encoding"),
    ],
)
def test_encodings_that_name_nothing(encoding: str, rule: str, message: str) -> None:
    text = _data(
        f'    {{ "name": "N", "type": "int64", "versions": "0+", "encoding": {encoding} }}'
    )
    assert [(f[0], f[3]) for f in findings(text)] == [(rule, message)]


def test_request_named_like_a_response() -> None:
    text = '{ "apiKey": 7, "type": "request", "name": "PingResponse", "validVersions": "0",\n'
    text += '  "flexibleVersions": "0+", "fields": [] }\n'
    hints = {rule: hint for rule, *_rest, hint in findings(text, "PingResponse.json")}
    assert hints["message-name-suffix"] == (
        'if this is the response, set "type": "response"; otherwise rename it to \'PingRequest\''
    )


def test_syntax_notes_carry_a_hint() -> None:
    text = '{ "type": "data", "name": "Probe", "type": "data", "validVersions": "0",\n'
    text += '  "flexibleVersions": "0+", "fields": [], }\n} trailing'
    assert [(rule, message, hint) for rule, _l, _c, message, hint in findings(text)] == [
        (
            "duplicate-key",
            "duplicate key 'type' (first at line 1); Kafka keeps only the last one",
            "keep the value you mean and delete the other key",
        ),
        (
            "trailing-comma",
            "trailing comma before '}'; JSON and Kafka's parser reject it",
            "delete the comma",
        ),
        (
            "trailing-content",
            "unexpected '}' after the end of the top-level object; older Kafka ignores it, "
            "newer Kafka rejects the file",
            "delete everything after the closing brace (comments may stay)",
        ),
    ]


def test_reversed_range_hint_gives_the_range_the_right_way_round() -> None:
    text = _data('    { "name": "A", "type": "int32", "versions": "3-1" }')
    assert [(rule, hint) for rule, *_rest, hint in findings(text)] == [
        ("invalid-versions", 'write "1-3"')
    ]


def test_draft_syntax_without_a_second_flexible_versions_warning() -> None:
    text = '{ "type": "data", "name": "Probe", "validVersions": "0-1",\n'
    text += '  "versionsWithOptional": "1+", "fields": [] }\n'
    assert rules(text) == ["draft-syntax"]
