"""The changelog as JSON (schema: ``kcompat/data/changelog.schema.json``).

One object: what was compared, the counts, and a ``changes`` list in the order the text
shows them, each with its message, kind, versions and the field or setting it concerns,
and the details its kind has (empty ones left out). Real values are kept, the characters
a terminal acts on written as ``\\u`` escapes (:func:`~kcompat.escaping.json_safe`).
"""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Any

from kcompat.changelog.model import Change, Changelog, MessageChanges, summary_line
from kcompat.changelog.phrases import phrase, plain
from kcompat.escaping import json_safe
from kcompat.report.json_head import json_head

SCHEMA_VERSION = 1


def change_dict(group: MessageChanges, change: Change) -> dict[str, Any]:
    """One change as the schema's ``change`` object."""
    out: dict[str, Any] = {
        "message": change.message,
        "message_type": group.message_type or None,
        "api_key": group.api_key,
        "kind": change.kind.value,
        "versions": str(change.versions) if not change.versions.empty else "",
        "existing": change.existing,
        "released": change.released,
    }
    for key, value in asdict(change).items():
        if key in out or key == "versions" or value in ("", (), None):
            continue
        out[key] = list(value) if isinstance(value, tuple) else value
    out["text"] = plain(phrase(change))
    return out


def changelog_dict(changelog: Changelog) -> dict[str, Any]:
    counts = changelog.counts
    return {
        **json_head("kcompat-changelog", SCHEMA_VERSION, "changelog"),
        "base": changelog.base,
        "head": changelog.head,
        "released": changelog.released,
        "diff_command": changelog.diff_command,
        "summary": {**counts._asdict(), "text": summary_line(changelog)},
        "changes": [change_dict(g, c) for g in changelog.groups for c in g.changes],
    }


def render_json(changelog: Changelog) -> str:
    document = changelog_dict(changelog)
    return json_safe(json.dumps(document, indent=2, ensure_ascii=False))
