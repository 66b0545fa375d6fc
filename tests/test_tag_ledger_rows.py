"""The tag ledger as plain data (issue 34.4): what ``kcompat history`` ships to Spark
executors is the ledger ``kcompat diff`` checks against, row for row."""

from __future__ import annotations

import json

from kcompat.spec.ledger import Binding, TagLedger
from kcompat.spec.specfile import read_spec


def spec(fields: list[dict[str, object]]) -> bytes:
    document = {
        "apiKey": 7,
        "type": "request",
        "name": "ShelfRequest",
        "validVersions": "0-1",
        "flexibleVersions": "1+",
        "fields": fields,
    }
    return json.dumps(document).encode()


def tagged(name: str, kind: str, tag: int) -> dict[str, object]:
    return {"name": name, "type": kind, "versions": "1+", "taggedVersions": "1+", "tag": tag}


def test_a_ledger_travels_as_rows_and_comes_back_whole() -> None:
    first = read_spec("ShelfRequest.json", spec([tagged("Label", "string", 0)])).message
    second = read_spec("ShelfRequest.json", spec([tagged("Color", "int32", 0)])).message
    assert first is not None and second is not None
    ledger = TagLedger.empty()
    ledger.add(first, "1.0.0")
    ledger.add(second, "2.0.0")
    rows = ledger.to_rows()
    assert rows == (
        ("ShelfRequest", "", 0, (("Label", "string", "1.0.0"), ("Color", "int32", "2.0.0"))),
    )
    again = TagLedger.from_rows(rows)
    assert again == ledger
    assert again.meanings("ShelfRequest", "", 0) == [
        Binding("Label", "string", "1.0.0"),
        Binding("Color", "int32", "2.0.0"),
    ]
    text = TagLedger.rows_to_json(rows)
    assert (
        text
        == '[["ShelfRequest", "", 0, [["Label", "string", "1.0.0"], ["Color", "int32", "2.0.0"]]]]'
    )
    assert TagLedger.rows_from_json(text) == rows
