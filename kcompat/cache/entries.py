"""What an entry is: its kind, the one rule that names it, and the seal that proves it whole.

**One key rule.** An entry's file name is the SHA-256 of its kind (name and format
version), the interpreter's version, kcompat's own code where the kind depends on it (the
path, size and modification time of every module of the package), and the key its user
gives (a generated source, a release text's bytes), followed by the kind's suffix. So an
entry written by another Python, another kcompat, or for another key is never found.

**The seal.** An entry's bytes are a header, the SHA-256 of its name and payload, and the
payload. A reader verifies the digest before using the payload (before ``marshal.loads``
of compiled code, before believing a release's facts): a file cut short, flipped by a bad
disk, or edited is worked out again, never executed or trusted. The digest is no secret:
who may write the directory could write a matching one, which is why only a directory and
files of the user's own are read (:mod:`kcompat.cache.trust`).
"""

from __future__ import annotations

import hashlib
import os
import sys
from functools import cache
from pathlib import Path
from typing import NamedTuple

#: The first bytes of every entry (the layout of what follows is this module's).
MAGIC = b"kcompat cache entry 1\n"
_DIGEST = hashlib.sha256().digest_size


class Kind(NamedTuple):
    """One kind of entry: its name, format version (bump it when an entry's meaning
    changes), file suffix, whether entries depend on kcompat's own code, and the largest
    entry read (a named tuple: made at every start, cheaper than a dataclass)."""

    name: str
    version: int
    suffix: str
    code_bound: bool
    limit: int = 16 << 20


#: Compiled codec modules (marshalled code objects), found by their generated source.
CODE = Kind("code", 1, ".code", code_bound=False)
#: What a release's spec text says (header facts, layout digests), found by its bytes.
RELEASE = Kind("release", 3, ".release", code_bound=True, limit=1 << 20)
#: Every kind the directory holds, and suffixes of older kcompats' files (pruned alike).
KINDS = (CODE, RELEASE)
PRUNED_SUFFIXES = (*(k.suffix for k in KINDS), ".release.json")


def entry_name(kind: Kind, key: bytes) -> str:
    """The file name of ``kind``'s entry for ``key`` (the one key rule)."""
    digest = hashlib.sha256(f"{kind.name}\0{kind.version}\0{sys.version}\0".encode())
    if kind.code_bound:
        digest.update(code_fingerprint().encode("utf-8", "surrogateescape"))
    digest.update(b"\0")
    digest.update(key)
    return digest.hexdigest() + kind.suffix


def seal(name: str, payload: bytes) -> bytes:
    """The bytes stored for ``payload`` under ``name``."""
    return MAGIC + _digest(name, payload) + payload


def unseal(name: str, data: bytes) -> bytes | None:
    """The payload of stored ``data``, or None when it is not whole (or not an entry)."""
    start = len(MAGIC) + _DIGEST
    if len(data) < start or not data.startswith(MAGIC):
        return None
    payload = data[start:]
    return payload if data[len(MAGIC) : start] == _digest(name, payload) else None


def _digest(name: str, payload: bytes) -> bytes:
    digest = hashlib.sha256(name.encode("ascii"))
    digest.update(b"\0")
    digest.update(payload)
    return digest.digest()


@cache
def code_fingerprint() -> str:
    """kcompat's code as it is on disk: every module's path, size and modification time
    (an edited or upgraded kcompat never reads what an older one worked out)."""
    parts = []
    folders = [Path(__file__).resolve().parent.parent]
    while folders:
        with os.scandir(folders.pop()) as entries:
            for entry in entries:
                if entry.name.endswith(".py"):
                    found = entry.stat()
                    parts.append(f"{entry.path}:{found.st_size}:{found.st_mtime_ns}")
                elif entry.is_dir() and entry.name != "__pycache__":
                    folders.append(Path(entry.path))
    return "\n".join(sorted(parts))
