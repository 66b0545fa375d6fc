"""How lint walks a spec: each object validated against the schema once, however many
schema rules read the errors, and findings of rules that go through every field naming
the field they are about."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from kcompat.lint.check import lint_specs
from kcompat.rules.lint.flat_schema import FlatSchema
from kcompat.rules.lint.scopes import written_objects
from kcompat.spec.load import JObject
from kcompat.spec.specfile import read_spec
from tests.conftest import EXAMPLES

#: A request whose objects break several schema rules at once (an unknown key, a value
#: of the wrong type, a coerced one, an enum outside its set, a missing key).
SCHEMA_BROKEN = """{
  "apiKey": 900, "type": "request", "listeners": ["broker"],
  "name": "BrokenRequest", "validVersions": "0-2", "flexibleVersions": "1+",
  "fields": [
    { "name": "Topic", "type": "string", "versions": "0+", "colour": "red" },
    { "name": "Count", "type": "int32", "versions": 0 },
    { "name": "Broker", "type": "int32", "versions": "0+", "entityType": "broker" },
    { "name": "Missing", "versions": "0+" },
    { "name": "Odd", "type": "int64", "versions": "0+", "about": ["a list"] }
  ]
}
"""

#: Findings of rules that check each field against its siblings or its message, each
#: about one field at its dotted path.
FIELD_FINDINGS = """{
  "apiKey": 901, "type": "request", "listeners": ["broker"],
  "name": "FieldsRequest", "validVersions": "0-3", "flexibleVersions": "2+",
  "fields": [
    { "name": "Topics", "type": "[]Topic", "versions": "0+", "fields": [
      { "name": "Name", "type": "string", "versions": "0+" },
      { "name": "Name", "type": "string", "versions": "0+" },
      { "name": "PartitionId", "type": "int32", "versions": "0+" },
      { "name": "partitionId", "type": "int32", "versions": "0+" },
      { "name": "Late", "type": "int32", "versions": "7+" },
      { "name": "Shared", "type": "Common", "versions": "0+", "fields": [
        { "name": "X", "type": "int8", "versions": "0+" }
      ]}
    ]},
    { "name": "Extra", "type": "Nowhere", "versions": "0+" },
    { "name": "Early", "type": "int32", "versions": "0+", "taggedVersions": "0+", "tag": 0 },
    { "name": "Other", "type": "int32", "versions": "2+", "taggedVersions": "2+", "tag": 0 },
    { "name": "Client", "type": "string", "versions": "0+", "flexibleVersions": "0+" }
  ],
  "commonStructs": [
    { "name": "Common", "versions": "0+", "fields": [
      { "name": "Y", "type": "int8", "versions": "0+" }
    ]}
  ]
}
"""


def test_each_object_is_validated_once_for_all_the_schema_rules(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    validated: Counter[int] = Counter()
    errors = FlatSchema.errors

    def counted(self: FlatSchema, obj: JObject) -> list[Any]:
        validated[id(obj)] += 1
        return errors(self, obj)

    monkeypatch.setattr(FlatSchema, "errors", counted)
    specs = [read_spec("BrokenRequest.json", SCHEMA_BROKEN.encode())]
    specs += [read_spec(p.name, p.read_bytes()) for p in sorted(EXAMPLES.glob("*.json"))]
    findings = lint_specs(specs)
    rules = {f.rule for f in findings if f.location.path == "BrokenRequest.json"}
    assert {
        "unknown-key",
        "wrong-value-type",
        "coerced-value",
        "invalid-enum-value",
        "missing-key",
    } <= rules
    every_object = {id(obj) for spec in specs for _kind, obj in written_objects(spec)}
    assert validated == Counter(dict.fromkeys(every_object, 1))


def test_rules_that_walk_every_field_name_the_field(tmp_path: Path) -> None:
    (tmp_path / "FieldsRequest.json").write_text(FIELD_FINDINGS, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "kcompat", "lint", "--format", "json", "."],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1, done.stderr
    found = {(f["rule"], f["field_path"]) for f in json.loads(done.stdout)["findings"]}
    assert {
        ("duplicate-field-name", "Topics.Name"),
        ("field-name-case-clash", "Topics.partitionId"),
        ("versions-outside-parent", "Topics.Late"),
        ("common-struct-inline", "Topics.Shared"),
        ("undefined-struct", "Extra"),
        ("tagged-versions-not-flexible", "Early"),
        ("tag-duplicate", "Other"),
        ("flexible-override-wider", "Client"),
    } <= found
