"""Specs the language server's tests open: the server over stdio (``tests/test_lsp.py``)
and its handlers called on a snapshot (``tests/unit/lsp/``) read the same texts, so both
tiers answer about the same fields and lines."""

from __future__ import annotations

FOO_REQUEST = """\
// The Foo API, for the language server's tests.
{
  "apiKey": 90,
  "type": "request",
  "name": "FooRequest",
  "validVersions": "0-3",
  "flexibleVersions": "2+",
  "fields": [
    { "name": "Topics", "type": "[]Topic", "versions": "0+",
      "about": "The topics.", "fields": [
      { "name": "Name", "type": "string", "versions": "0+", "about": "The name." },
      { "name": "Extra", "type": "int32", "versions": "2+", "taggedVersions": "2+",
        "tag": 0, "about": "Something extra." }
    ]},
    { "name": "Owner", "type": "Principal", "versions": "1+", "about": "Who." }
  ],
  "commonStructs": [
    { "name": "Principal", "versions": "0+", "fields": [
      { "name": "User", "type": "string", "versions": "0+", "about": "The user." }
    ]}
  ]
}
"""
