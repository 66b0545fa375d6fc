"""``kcompat explain`` piped at 80 columns (issue 35, point 17): the header breaks only
between its facts (a list of listeners is never cut in two), and the grammar's type column
wraps a long type between its words instead of cutting it (``COMPACT_ARRAY[STRUCT
MetadataRe~``). Run as a user runs it: a child process whose stdout is a pipe, with
``COLUMNS=80``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.diff_runner import run_process

LISTENERS = ["zkBroker", "broker", "controller"]
STRUCT = "WidgetInventoryResponseWarehouse"


def _specs(where: Path) -> Path:
    where.mkdir()
    request = {
        "apiKey": 71, "type": "request", "name": "WidgetInventoryRequest",
        "validVersions": "0-17", "flexibleVersions": "12+", "deprecatedVersions": "0-3",
        "listeners": LISTENERS,
        "fields": [{"name": "Id", "type": "int32", "versions": "0+", "about": "x"}],
    }  # fmt: skip
    response = {
        "apiKey": 71, "type": "response", "name": "WidgetInventoryResponse",
        "validVersions": "0-17", "flexibleVersions": "12+",
        "fields": [
            {"name": "ThrottleTimeMs", "type": "int32", "versions": "0+", "about": "x"},
            {"name": "Warehouses", "type": f"[]{STRUCT}", "versions": "0+", "about": "x",
             "fields": [
                 {"name": "Rack", "type": "string", "versions": "0+", "nullableVersions": "0+",
                  "default": "null", "about": "x"},
                 {"name": "AuthorizedOperations", "type": "int32",
                  "versions": "0+", "default": "-2147483648", "about": "x"}]},
        ],
    }  # fmt: skip
    for spec in (request, response):
        (where / f"{spec['name']}.json").write_text(json.dumps(spec, indent=2))
    return where


def _piped(args: list[str], cwd: Path) -> list[str]:
    done = run_process(args, cwd, env={"COLUMNS": "80"})
    assert done.code == 0, done.stderr
    lines = done.stdout.splitlines()
    assert all(len(line) <= 80 for line in lines), [line for line in lines if len(line) > 80]
    return lines


def test_the_header_breaks_between_facts(tmp_path: Path) -> None:
    _specs(tmp_path / "specs")
    lines = _piped(["explain", "WidgetInventoryRequest", "--specs", "specs"], tmp_path)
    at = lines.index("valid 0-17 · flexible 12+ · deprecated 0-3")
    assert lines[at + 1] == "listeners zkBroker, broker, controller"  # whole, on its own line


def test_a_long_type_wraps_between_its_words(tmp_path: Path) -> None:
    specs = _specs(tmp_path / "specs")
    args = ["explain", "WidgetInventoryResponse", "--version", "12", "--specs", str(specs)]
    lines = _piped(args, tmp_path)
    table = lines[next(i for i, line in enumerate(lines) if line.startswith("field ")) :]
    assert not any("~" in line for line in table), table  # nothing cut
    at = next(i for i, line in enumerate(table) if line.startswith("warehouses "))
    assert table[at].split()[1:] == ["COMPACT_ARRAY[STRUCT", "var"]
    assert table[at + 1].strip() == f"{STRUCT}]"  # the rest of the type, under it
    at = next(i for i, line in enumerate(table) if line.startswith("  authorized_operations "))
    assert table[at].endswith(" default") and table[at + 1].strip() == "-2147483648"  # beside


def test_a_very_long_field_name_puts_the_notes_under_the_type(tmp_path: Path) -> None:
    """41 columns of field name: the type keeps its longest word's width and the notes go
    on the next line under it; nothing is cut, nothing passes 80 columns."""
    specs = _specs(tmp_path / "specs")
    path = specs / "WidgetInventoryResponse.json"
    path.write_text(path.read_text().replace("AuthorizedOperations", "AuthorizedOperationsOfThe"
                                             "Warehouse"))  # fmt: skip
    args = ["explain", "WidgetInventoryResponse", "--version", "12", "--specs", str(specs)]
    lines = _piped(args, tmp_path)
    text = "\n".join(lines)
    assert "~" not in text and "default -2147483648" in text and "default null" in text
    assert f"{STRUCT}]" in text.replace("\n", "").replace(" ", "")


@pytest.mark.corpus
def test_kafka_s_messages_at_80_columns(kafka_repo: Path) -> None:
    """The issue's two commands, on Kafka's specs as of trunk."""
    fetch = _piped(["explain", "FetchRequest"], kafka_repo)
    assert "listeners zkBroker, broker, controller" in fetch[:5], fetch[:5]
    metadata = _piped(["explain", "MetadataResponse", "--version", "12"], kafka_repo)
    text = "\n".join(metadata)
    assert "~" not in text
    for struct in ("MetadataResponseBroker]", "MetadataResponseTopic]"):
        assert struct in text
