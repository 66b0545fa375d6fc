"""What opens every versioned JSON document kcompat writes (findings, changelog, matrix):
which schema and version it follows, the tool that wrote it, and the command that ran.

Each schema keeps its own version (``data/*.schema.json``): a consumer checks ``schema``
and ``version`` before reading on, so every document names them the same way.
"""

from __future__ import annotations

from typing import Any

from kcompat import __version__


def json_head(schema: str, version: int, command: str) -> dict[str, Any]:
    """The keys before a document's own: ``schema`` (``kcompat-findings``), its
    ``version``, ``tool`` (name and version) and ``command``."""
    return {
        "schema": schema,
        "version": version,
        "tool": {"name": "kcompat", "version": __version__},
        "command": command,
    }
