"""``kcompat drift`` says what differs in the words of the specs: the fields at each place,
their types as specs write them, the line of the changed field, the side that lacks what."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.diff_runner import run_cli

HEAD = """\
{
  "apiKey": 600,
  "type": "request",
  "name": "PlaceRequest",
  "validVersions": "0-1",
  "flexibleVersions": "1+",
  "fields": [
"""
A = '    { "name": "ShelfId", "type": "int32", "versions": "0+", "about": "x" }'
B = '    { "name": "State", "type": "int8", "versions": "0+", "about": "x" }'
C = '    { "name": "Epoch", "type": "int32", "versions": "0+", "about": "x" }'
D = '    { "name": "Label", "type": "string", "versions": "0+", "about": "x" }'
D_NULLABLE = (
    '    { "name": "Label", "type": "string", "versions": "0+", "nullableVersions": "0+",'
    ' "about": "x" }'
)
TOPICS = (
    '    { "name": "Topics", "type": "[]Topic", "versions": "0+", "about": "x", "fields": [\n'
    '      { "name": "Name", "type": "string", "versions": "0+", "about": "x" } ] }'
)


def spec(*fields: str) -> str:
    return HEAD + ",\n".join(fields) + "\n  ]\n}\n"


def drift(tmp_path: Path, upstream: str, local: str) -> list[dict[str, Any]]:
    for side, text in (("up", upstream), ("local", local)):
        (tmp_path / side).mkdir(exist_ok=True)
        (tmp_path / side / "PlaceRequest.json").write_text(text)
    done = run_cli(["drift", "up", "local", "--format", "json"], tmp_path)
    findings = json.loads(done.stdout)["findings"]
    assert isinstance(findings, list)
    return [f for f in findings if f["rule"] == "drift-wire-mismatch"]


def test_fields_compared_at_a_position_are_named(tmp_path: Path) -> None:
    (found,) = drift(tmp_path, spec(A, B), spec(A, C))
    assert found["message"] == (
        "PlaceRequest versions 0-1: field 2 is Epoch (int32) locally but State (int8) upstream"
    )
    # the changed field's line on each side, not the message's
    assert (found["line"], found["base_line"]) == (9, 9)


def test_types_read_as_in_specs(tmp_path: Path) -> None:
    (found,) = drift(tmp_path, spec(A, TOPICS), spec(A, C))
    assert "field 2 is Epoch (int32) locally but Topics ([]Topic) upstream" in found["message"]
    assert "COMPACT" not in found["message"] and "STRUCT" not in found["message"]
    (nullable,) = drift(tmp_path, spec(A, D_NULLABLE), spec(A, D))
    assert "Label is string locally but string, nullable upstream" in nullable["message"]


@pytest.mark.parametrize(
    ("upstream", "local", "expected"),
    [
        (
            spec(A),
            spec(A, C),
            "the local copy writes Epoch (int32) as field 2; upstream has none",
        ),
        (
            spec(A, C),
            spec(A),
            "upstream writes Epoch (int32) as field 2; the local copy has none",
        ),
    ],
)
def test_a_field_only_one_side_writes_says_which(
    upstream: str, local: str, expected: str, tmp_path: Path
) -> None:
    (found,) = drift(tmp_path, upstream, local)
    assert found["message"].endswith(expected)
    assert "absent" not in found["message"]


def test_a_missing_message_says_which_side_lacks_it(tmp_path: Path) -> None:
    (tmp_path / "up").mkdir()
    (tmp_path / "local").mkdir()
    (tmp_path / "up" / "PlaceRequest.json").write_text(spec(A))
    (tmp_path / "local" / "PlaceRequest.json").write_text(spec(A))
    (tmp_path / "up" / "OnlyUp.json").write_text(spec(A).replace("PlaceRequest", "OnlyUpRequest"))
    (tmp_path / "local" / "OnlyLocal.json").write_text(
        spec(A).replace("PlaceRequest", "OnlyLocalRequest").replace("600", "601")
    )
    done = run_cli(["drift", "up", "local", "--color", "never"], tmp_path)
    assert "request OnlyUpRequest exists upstream; the local copy lacks it" in done.stdout
    assert "request OnlyLocalRequest exists in the local copy; upstream lacks it" in done.stdout


@pytest.mark.corpus
def test_kafka_3_8_against_3_7_names_the_fields(kafka_repo: Path) -> None:
    """Seen by a new user: "Error is absent locally but absent upstream"; now each
    direction names the field one side writes, at the line that holds it."""
    done = run_cli(["drift", "3.8.0", "3.7.0", "--level", "error", "--color", "never"], kafka_repo)
    assert done.code == 1
    assert "absent" not in done.stdout and "COMPACT_ARRAY" not in done.stdout
    assert (
        "ConsumerGroupDescribeResponse.json:91:9: error [drift-wire-mismatch] "
        "ConsumerGroupDescribeResponse versions 0: the local copy writes "
        "Groups.Members.Assignment.Error (int8) as field 2 of Groups.Members.Assignment; "
        "upstream has none" in done.stdout
    )
    assert "field 1 is Epoch (int32) locally but Topics ([]TopicMetadata) upstream" in done.stdout
