"""Every field where it is used: a common struct's fields under each field of its type,
an inline struct's under its own field, a struct inside itself not expanded again, and
each field with the versions its enclosing structs are written in."""

from __future__ import annotations

import json
from typing import Any

from kcompat.spec.model import Message
from kcompat.spec.placed import declares_fields, placed_fields, struct_fields
from kcompat.spec.specfile import read_spec
from kcompat.spec.versions import Versions


def message(document: dict[str, Any]) -> Message:
    found = read_spec("ThingRequest.json", json.dumps(document).encode()).message
    assert found is not None
    return found


THING = {
    "apiKey": 900,
    "type": "request",
    "name": "ThingRequest",
    "validVersions": "0-4",
    "flexibleVersions": "none",
    "fields": [
        {"name": "Id", "type": "int32", "versions": "0+"},
        {"name": "Owner", "type": "Person", "versions": "1+"},
        {
            "name": "Parts",
            "type": "[]Part",
            "versions": "2+",
            "fields": [
                {"name": "Size", "type": "int64", "versions": "3+"},
                {"name": "Maker", "type": "Person", "versions": "2+"},
            ],
        },
        {"name": "Empty", "type": "Nothing", "versions": "0+", "fields": []},
        {"name": "Lost", "type": "Undefined", "versions": "0+"},
    ],
    "commonStructs": [
        {
            "name": "Person",
            "versions": "0+",
            "fields": [
                {"name": "Name", "type": "string", "versions": "0+"},
                {"name": "Boss", "type": "Person", "versions": "0+"},
            ],
        }
    ],
}


def test_fields_come_where_they_are_used_depth_first() -> None:
    placed = [
        (p.path, p.depth, p.common, p.within, p.recursive) for p in placed_fields(message(THING))
    ]
    assert placed == [
        ("Id", 0, "", "", False),
        ("Owner", 0, "Person", "", False),
        ("Owner.Name", 1, "", "Person", False),
        ("Owner.Boss", 1, "", "Person", True),  # Person inside Person: not expanded again
        ("Parts", 0, "", "", False),
        ("Parts.Size", 1, "", "", False),
        ("Parts.Maker", 1, "Person", "", False),
        ("Parts.Maker.Name", 2, "", "Person", False),
        ("Parts.Maker.Boss", 2, "", "Person", True),
        ("Empty", 0, "", "", False),
        ("Lost", 0, "", "", False),
    ]


def test_a_field_carries_the_versions_its_structs_are_written_in() -> None:
    around = {p.path: p.around for p in placed_fields(message(THING))}
    assert around["Id"] == Versions.of(0, 4)
    assert around["Owner.Name"] == Versions.of(1, 4)  # inside Owner (1+)
    assert around["Parts.Maker.Name"] == Versions.of(2, 4)  # inside Parts (2+) and Maker (2+)


def test_a_struct_field_declares_its_fields_or_names_a_struct() -> None:
    thing = message(THING)
    by_name = {f.name: f for f in thing.fields}
    assert declares_fields(by_name["Parts"]) and declares_fields(by_name["Empty"])
    assert not declares_fields(by_name["Owner"])
    assert [f.name for f in struct_fields(thing, by_name["Owner"])] == ["Name", "Boss"]
    assert struct_fields(thing, by_name["Empty"]) == ()  # "fields": [] is its own, empty
    assert struct_fields(thing, by_name["Lost"]) == ()  # a struct no one defines
