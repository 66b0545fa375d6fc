"""What a release's spec text says, as the release ledger needs it, kept between runs.

The ledger of a cold ``kcompat diff --staged`` reads the changed message as every release
tag shipped it: for one of Kafka's messages, 16 distinct texts parsed and their layouts
digested, 18 ms of the hook's 0.2 s, the same every time (releases do not change). A
:class:`ReleaseText` holds a text's header facts, :class:`ReleaseTexts` the layout
digests worked out so far; a command-line process also keeps both in the code cache's
directory (:mod:`kcompat.codecache`: same switch, same trust rules), one small JSON file
per text.

A stored entry is found by the text's bytes *and* by kcompat's own code (the size and
modification time of every module of the package, and the interpreter's version): a
digest is only comparable with digests the same code computed, so an upgraded or edited
kcompat never reads an older entry. An entry that cannot be read is worked out again.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from kcompat import codecache
from kcompat.spec.model import Message, releasable
from kcompat.spec.shape import signature_digest, wire_signature
from kcompat.spec.specfile import read_spec
from kcompat.spec.versions import Versions

#: Bump when an entry's meaning changes (what a digest covers, a new fact). 2: digests
#: of :func:`~kcompat.spec.shape.wire_signature` (untagged fields' defaults left out).
FORMAT = 2
SUFFIX = ".release.json"


@dataclass(frozen=True)
class ReleaseText:
    """One text of a message that a release shipped: its header facts, and its bytes (to
    parse when a layout digest is asked for the first time)."""

    key: str  # the bytes and kcompat's code, hashed
    path: str
    data: bytes = field(repr=False, compare=False)
    name: str
    kind: str
    valid_versions: Versions
    deprecated_versions: Versions
    latest_version_unstable: bool

    @property
    def released_versions(self) -> Versions:
        """Valid versions less an unstable latest one (as for :class:`Message`)."""
        return releasable(self.valid_versions, self.latest_version_unstable)


class ReleaseTexts:
    """Release texts by their bytes and their layout digests by version, read from the
    disk cache or worked out, for one ledger."""

    def __init__(self) -> None:
        self._texts: dict[bytes, ReleaseText | None] = {}
        self._digests: dict[str, dict[int, str]] = {}  # by text key, then version
        self._messages: dict[str, Message] = {}  # parsed in this process, by key
        self._changed: set[str] = set()  # keys whose facts or digests are not stored

    def text(self, data: bytes, path: str) -> ReleaseText | None:
        """The facts of ``data`` (None when it holds no message)."""
        if data not in self._texts:
            self._texts[data] = self._read(data, path)
        return self._texts[data]

    def digest(self, text: ReleaseText, version: int) -> str:
        """The layout digest of ``version`` of ``text`` (parsed only when not known)."""
        known = self._digests.setdefault(text.key, {})
        found = known.get(version)
        if found is None:
            message = self._messages.get(text.key)
            if message is None:
                message = read_spec(text.path, text.data).message
                assert message is not None  # it had one when its facts were read
                self._messages[text.key] = message
            found = signature_digest(wire_signature(message, version))
            known[version] = found
            self._changed.add(text.key)
        return found

    def save(self) -> None:
        """Store the texts whose facts or digests are new (when the cache is on)."""
        directory = codecache.ACTIVE.directory
        if directory is None or not self._changed:
            return
        for text in self._texts.values():
            if text is not None and text.key in self._changed:
                _store(text, self._digests.get(text.key, {}))
        self._changed.clear()

    def _read(self, data: bytes, path: str) -> ReleaseText | None:
        key = _key(data)
        directory = codecache.ACTIVE.directory
        stored = _load(directory, key, path, data) if directory is not None else None
        if stored is not None:
            text, self._digests[key] = stored
            return text
        message = read_spec(path, data).message
        if message is None:
            return None
        self._messages[key] = message
        self._changed.add(key)
        return ReleaseText(
            key,
            path,
            data,
            message.name,
            message.kind,
            message.valid_versions,
            message.deprecated_versions,
            message.latest_version_unstable,
        )


def _key(data: bytes) -> str:
    digest = hashlib.blake2b(_code_version().encode("utf-8"), digest_size=20)
    digest.update(data)
    return digest.hexdigest()


@cache
def _code_version() -> str:
    """kcompat's code as it is on disk: every module's path, size and modification time."""
    parts = [str(FORMAT), sys.version]
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


def _load(
    directory: Path, key: str, path: str, data: bytes
) -> tuple[ReleaseText, dict[int, str]] | None:
    """A stored entry: the text's facts and its digests (None: none, or damaged)."""
    try:
        entry = json.loads((directory / f"{key}{SUFFIX}").read_text(encoding="utf-8"))
        text = ReleaseText(
            key,
            path,
            data,
            str(entry["name"]),
            str(entry["kind"]),
            Versions.parse(entry["valid"]),
            Versions.parse(entry["deprecated"]),
            bool(entry["unstable"]),
        )
        return text, {int(v): str(d) for v, d in entry["digests"].items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):  # damaged: again
        return None


def _store(text: ReleaseText, digests: dict[int, str]) -> None:
    entry = {
        "name": text.name,
        "kind": text.kind,
        "valid": str(text.valid_versions),
        "deprecated": str(text.deprecated_versions),
        "unstable": text.latest_version_unstable,
        "digests": {str(v): d for v, d in sorted(digests.items())},
    }
    codecache.ACTIVE.store_file(f"{text.key}{SUFFIX}", json.dumps(entry).encode("utf-8"))
