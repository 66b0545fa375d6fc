"""``--baseline``: accept known findings by fingerprint (a previous ``--format json``)."""

from __future__ import annotations

from pathlib import Path

from kcompat.bounded import read_capped
from kcompat.errors import UsageError
from kcompat.jsontext import load_json

#: A baseline is a kcompat JSON report; a larger file is refused (about 100,000 findings).
MAX_BASELINE_BYTES = 64 * 1024 * 1024
_HINT = "give a report written by --write-baseline"


def read_baseline(path: Path) -> frozenset[str]:
    """Fingerprints from a kcompat JSON report (or a plain JSON list of fingerprints)."""
    try:
        got = read_capped(path, MAX_BASELINE_BYTES)
    except FileNotFoundError:
        raise UsageError(f"{path}: baseline not found (create it with --write-baseline)") from None
    except OSError as err:
        raise UsageError(f"{path}: cannot read the baseline ({err.strerror or err})") from None
    if got.over:
        raise UsageError(f"{path}: over {MAX_BASELINE_BYTES >> 20} MiB, too large; {_HINT}")
    return fingerprints(got.data, str(path))


def fingerprints(data: bytes, name: str) -> frozenset[str]:
    """The fingerprints a baseline's bytes hold (``name``: how errors name the file)."""
    return _fingerprints(load_json(data, f"{name}: not a kcompat JSON report", _HINT), name)


def _fingerprints(data: object, path: str) -> frozenset[str]:
    if isinstance(data, dict) and isinstance(data.get("findings"), list):
        return frozenset(
            str(f["fingerprint"])
            for f in data["findings"]
            if isinstance(f, dict) and isinstance(f.get("fingerprint"), str)
        )
    if isinstance(data, list) and all(isinstance(x, str) for x in data):
        return frozenset(data)
    raise UsageError(f"{path}: not a kcompat JSON report (no 'findings' list)")
