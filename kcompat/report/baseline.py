"""``--baseline``: accept known findings by fingerprint (a previous ``--format json``)."""

from __future__ import annotations

import json
from pathlib import Path

from kcompat.errors import UsageError


def read_baseline(path: Path) -> frozenset[str]:
    """Fingerprints from a kcompat JSON report (or a plain JSON list of fingerprints)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UsageError(f"{path}: baseline not found (create it with --write-baseline)") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise UsageError(f"{path}: not a kcompat JSON report ({err})") from None
    if isinstance(data, dict) and isinstance(data.get("findings"), list):
        return frozenset(
            str(f["fingerprint"])
            for f in data["findings"]
            if isinstance(f, dict) and isinstance(f.get("fingerprint"), str)
        )
    if isinstance(data, list) and all(isinstance(x, str) for x in data):
        return frozenset(data)
    raise UsageError(f"{path}: not a kcompat JSON report (no 'findings' list)")
