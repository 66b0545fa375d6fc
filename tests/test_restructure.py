"""Flattening a nested struct: the same bytes only where the struct is written inline."""

from __future__ import annotations

from kcompat.diff.check import CheckOptions, check, pair_specs
from kcompat.spec.specfile import read_spec

GROUPED = """{
  "type": "data", "name": "AuditData", "validVersions": "0-1", "flexibleVersions": "%s",
  "fields": [
    { "name": "Header", "type": "AuditHeader", "versions": "0+", "about": "h", "fields": [
      { "name": "AuditorId", "type": "int32", "versions": "0+", "about": "a" },
      { "name": "AuditedAtMs", "type": "int64", "versions": "0+", "about": "b" }
    ]},
    { "name": "ErrorCode", "type": "int16", "versions": "0+", "about": "c" }
  ]
}"""
FLAT = """{
  "type": "data", "name": "AuditData", "validVersions": "0-1", "flexibleVersions": "%s",
  "fields": [
    { "name": "AuditorId", "type": "int32", "versions": "0+", "about": "a" },
    { "name": "AuditedAtMs", "type": "int64", "versions": "0+", "about": "b" },
    { "name": "ErrorCode", "type": "int16", "versions": "0+", "about": "c" }
  ]
}"""


def findings(flexible: str) -> tuple[set[str], set[str]]:
    base = [read_spec("AuditData.json", (GROUPED % flexible).encode())]
    head = [read_spec("AuditData.json", (FLAT % flexible).encode())]
    rules = {f.rule for f in check(pair_specs(base, head)).findings}
    proved = check(pair_specs(base, head), CheckOptions(proof=True, samples=10)).findings
    proof = {f.field_path for f in proved if f.evidence is not None}
    return rules, proof


def test_flattening_an_inline_struct_keeps_the_bytes() -> None:
    rules, proof = findings("none")
    assert rules == {"fields-restructured"}
    assert proof == set()  # the proof agrees: every value survives in both directions


def test_flattening_a_struct_with_a_tagged_section_breaks_the_wire() -> None:
    # In flexible versions the nested struct ends with its own tagged-field section.
    rules, proof = findings("0+")
    assert {"field-added", "field-removed"} <= rules
    assert "fields-restructured" not in rules
    assert proof  # and the bytes show it
