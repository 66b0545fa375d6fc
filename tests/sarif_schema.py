"""The official SARIF 2.1.0 JSON schema, for validating ``--format sarif`` output.

No PyPI package ships the schema. Microsoft's SARIF SDK multitool on npm embeds it in
its executable, so :func:`sarif_schema` looks, in order, at:

1. the file named by ``KCOMPAT_SARIF_SCHEMA``;
2. the cache ``~/.cache/kcompat-tests/sarif-schema-2.1.0.json``;
3. ``npm pack @microsoft/sarif-multitool-linux@5.7.0`` into a temporary directory,
   pulling the schema object out of ``package/Sarif.Multitool`` (the package also
   carries it as ``package/sarif-2.1.0.json``, used if the scan finds nothing), and
   caching it.

If none of these works (no npm, no registry), the calling test is skipped with the
reason.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tarfile
import tempfile
from pathlib import Path
from typing import Any

import pytest

PACKAGE = "@microsoft/sarif-multitool-linux@5.7.0"
TITLE = "Static Analysis Results Format (SARIF) Version 2.1.0 JSON Schema"
CACHE = Path.home() / ".cache" / "kcompat-tests" / "sarif-schema-2.1.0.json"
NPM_TIMEOUT = 180


def _is_schema(value: object) -> bool:
    return isinstance(value, dict) and value.get("title") == TITLE and "properties" in value


def extract_schema(blob: bytes) -> dict[str, Any] | None:
    """The JSON object around the schema's title inside ``blob`` (an executable).

    From each occurrence of the title, scan back to every opening brace before it until
    one decodes (``raw_decode`` stops at the end of that object, ignoring what follows).
    """
    title = TITLE.encode()
    decoder = json.JSONDecoder()
    at = blob.find(title)
    while at >= 0:
        brace = blob.rfind(b"{", 0, at)
        while brace >= 0 and at - brace < 4096:
            chunk = blob[brace : brace + 4_000_000].decode("utf-8", errors="replace")
            try:
                value, _end = decoder.raw_decode(chunk)
            except json.JSONDecodeError:
                value = None
            if _is_schema(value):
                assert isinstance(value, dict)
                return value
            brace = blob.rfind(b"{", 0, brace)
        at = blob.find(title, at + 1)
    return None


def _from_npm() -> dict[str, Any]:
    npm = shutil.which("npm")
    if npm is None:
        pytest.skip(f"the SARIF schema needs npm (to fetch {PACKAGE}); set KCOMPAT_SARIF_SCHEMA")
    with tempfile.TemporaryDirectory(prefix="kcompat-sarif-") as temp:
        try:
            done = subprocess.run(
                [npm, "pack", PACKAGE, "--silent"],
                cwd=temp,
                capture_output=True,
                text=True,
                timeout=NPM_TIMEOUT,
                check=False,
            )
        except subprocess.TimeoutExpired:
            pytest.skip(f"npm pack {PACKAGE} took more than {NPM_TIMEOUT} s")
        tarballs = sorted(Path(temp).glob("*.tgz"))
        if done.returncode != 0 or not tarballs:
            reason = (done.stderr.strip().splitlines() or ["no tarball"])[-1]
            pytest.skip(f"npm pack {PACKAGE} failed (offline?): {reason}")
        with tarfile.open(tarballs[0]) as archive:
            names = archive.getnames()
            for member in ("package/Sarif.Multitool", "package/sarif-2.1.0.json"):
                if member not in names:
                    continue
                handle = archive.extractfile(member)
                if handle is None:
                    continue
                schema = extract_schema(handle.read())
                if schema is not None:
                    return schema
    pytest.skip(f"{PACKAGE} does not embed the SARIF 2.1.0 schema any more")


def sarif_schema() -> dict[str, Any]:
    """The SARIF 2.1.0 schema as a dict (skips the test if it cannot be had)."""
    explicit = os.environ.get("KCOMPAT_SARIF_SCHEMA")
    if explicit:
        loaded = json.loads(Path(explicit).read_text(encoding="utf-8"))
        assert _is_schema(loaded), f"{explicit} is not the SARIF 2.1.0 schema"
        return dict(loaded)
    if CACHE.is_file():
        try:
            cached = json.loads(CACHE.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError):
            cached = None
        if _is_schema(cached):
            return dict(cached)
    schema = _from_npm()
    try:
        CACHE.parent.mkdir(parents=True, exist_ok=True)
        partial = CACHE.with_suffix(f".{os.getpid()}.tmp")  # parallel workers: one each
        partial.write_text(json.dumps(schema), encoding="utf-8")
        partial.replace(CACHE)
    except OSError:
        pass  # a read-only home: fetch again next time
    return schema
