"""``--baseline``: accept known findings by fingerprint (a previous ``--format json``)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from kcompat.errors import UsageError
from kcompat.rules.engine import Finding


def read_baseline(path: Path) -> set[str]:
    """Fingerprints from a kcompat JSON report (or a plain JSON list of fingerprints)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UsageError(f"{path}: baseline not found (create it with --write-baseline)") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise UsageError(f"{path}: not a kcompat JSON report ({err})") from None
    if isinstance(data, dict) and isinstance(data.get("findings"), list):
        return {
            str(f["fingerprint"])
            for f in data["findings"]
            if isinstance(f, dict) and isinstance(f.get("fingerprint"), str)
        }
    if isinstance(data, list) and all(isinstance(x, str) for x in data):
        return set(data)
    raise UsageError(f"{path}: not a kcompat JSON report (no 'findings' list)")


def without_baseline(findings: Sequence[Finding], accepted: set[str]) -> list[Finding]:
    return [f for f in findings if f.fingerprint not in accepted]
