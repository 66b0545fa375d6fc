"""A finding's columns are defined once (kcompat.report.columns): the JSON schema, the
Spark DDL and Arrow schemas of history and corpus findings, and their rows agree."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

import pytest

from kcompat.findings import Finding, Location, Severity
from kcompat.report.columns import FINDING_COLUMNS, finding_dict, finding_row


def _finding_schema() -> dict[str, Any]:
    text = resources.files("kcompat").joinpath("data/findings.schema.json").read_text()
    schema: dict[str, Any] = json.loads(text)["$defs"]["finding"]
    return schema


def _finding() -> Finding:
    return Finding(
        "field-type-changed",
        Severity.ERROR,
        "ItemCount changed type",
        Location("Foo.json", 3, 5),
        hint="leave it",
        base_location=Location("old/Foo.json", 2, 5),
        notes=("also this",),
    )


def test_the_json_schema_lists_exactly_the_columns_in_their_order() -> None:
    schema = _finding_schema()
    assert [c.name for c in FINDING_COLUMNS] == list(schema["properties"])
    assert set(schema["required"]) <= {c.name for c in FINDING_COLUMNS}


def test_table_types_agree_with_the_json_types() -> None:
    properties = _finding_schema()["properties"]
    json_types = {"string": "string", "int": "integer"}
    for column in FINDING_COLUMNS:
        declared = properties[column.name]
        if column.structured:
            assert declared.get("type") in (["object", "null"], "array"), column.name
            continue
        kinds = declared.get("type", "string")  # an enum of strings has no "type"
        kinds = kinds if isinstance(kinds, list) else [kinds]
        assert json_types[column.type] in kinds, column.name


def test_rows_hold_structured_values_as_json_text() -> None:
    finding = _finding()
    row = finding_row(finding)
    assert json.loads(row["notes"]) == ["also this"]
    assert row["evidence"] is None
    assert row["base_file"] == "old/Foo.json"
    assert {k: v for k, v in row.items() if k != "notes"} == {
        k: v for k, v in finding_dict(finding).items() if k != "notes"
    }


@pytest.mark.parametrize(
    "module", ["kcompat.pipeline.history_tasks", "kcompat.pipeline.corpus_tasks"]
)
def test_table_schemas_hold_every_finding_column(module: str) -> None:
    pytest.importorskip("pyarrow")
    import importlib

    from kcompat.report.columns import arrow_schema

    schema = arrow_schema(importlib.import_module(module).FINDING_SCHEMA)
    names = schema.names
    assert [n for n in names if n in {c.name for c in FINDING_COLUMNS}] == [
        c.name for c in FINDING_COLUMNS
    ]
