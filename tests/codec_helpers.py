"""Small helpers for the codec tests: inline specs and loading spec directories."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from kcompat.spec.model import Message
from kcompat.spec.specfile import read_spec

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "specs" / "examples"


def message(
    fields: list[dict[str, Any]],
    *,
    valid: str = "0",
    flexible: str = "0+",
    name: str = "TestMessage",
    kind: str = "data",
    common: list[dict[str, Any]] | None = None,
) -> Message:
    """A message built from an inline spec (through kcompat's own loader)."""
    document: dict[str, Any] = {
        "name": name,
        "type": kind,
        "validVersions": valid,
        "flexibleVersions": flexible,
        "fields": fields,
    }
    if common:
        document["commonStructs"] = common
    spec = read_spec(f"{name}.json", json.dumps(document).encode())
    assert spec.message is not None, spec.error
    return spec.message


def field(name: str, kind: str, versions: str = "0+", **extra: Any) -> dict[str, Any]:
    return {"name": name, "type": kind, "versions": versions, **extra}


def load_dir(directory: Path) -> list[Message]:
    """Every spec in a directory tree that kcompat can build a message from."""
    found = []
    for path in sorted(directory.rglob("*.json")):
        spec = read_spec(str(path), path.read_bytes())
        if spec.message is not None and spec.message.name and spec.document is not None:
            root = spec.document.root
            if isinstance(root, dict) and "validVersions" in root:
                found.append(spec.message)
    return found


def hexbytes(text: str) -> bytes:
    """Hex with spaces for readability: ``"0003 616263"``."""
    return bytes.fromhex(text)
