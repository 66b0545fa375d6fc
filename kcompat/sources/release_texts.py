"""What a release's spec text says, as the release ledger needs it, kept between runs.

The ledger of a cold ``kcompat diff --staged`` reads the changed message as every release
tag shipped it: for one of Kafka's messages, 16 distinct texts parsed and their layouts
digested, 18 ms of the hook's 0.2 s, the same every time (releases do not change). A
:class:`ReleaseText` holds a text's header facts, :class:`ReleaseTexts` the layout
digests worked out so far; when the command hands it the user's cache
(:class:`kcompat.cache.Cache`), both are kept there too, one small sealed entry per text.

An entry is found by the text's bytes *and* by kcompat's own code (the cache's key rule
for :data:`kcompat.cache.RELEASE`): a digest is only comparable with digests the same code
computed, so an upgraded or edited kcompat never reads an older entry. Like every entry,
it is read only from a directory and a file of the user's own and only when its seal
verifies; one that is not, or that does not hold what an entry holds, is worked out again
(a planted ``valid: none`` would turn a break into a note).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from kcompat.cache.entries import RELEASE
from kcompat.spec.model import Message, releasable
from kcompat.spec.shape import release_layout
from kcompat.spec.specfile import read_spec
from kcompat.spec.versions import Versions

if TYPE_CHECKING:
    from kcompat.cache import Cache


@dataclass(frozen=True)
class ReleaseText:
    """One text of a message that a release shipped: its header facts, and its bytes (to
    parse when a layout digest is asked for the first time)."""

    key: str  # the bytes, hashed
    path: str
    data: bytes = field(repr=False, compare=False)
    name: str
    kind: str
    valid_versions: Versions
    deprecated_versions: Versions
    latest_version_unstable: bool
    api_key: int | None = None

    @property
    def released_versions(self) -> Versions:
        """Valid versions less an unstable latest one (as for :class:`Message`)."""
        return releasable(self.valid_versions, self.latest_version_unstable)


class ReleaseTexts:
    """Release texts by their bytes and their layout digests by version, read from the
    disk cache or worked out, for one ledger."""

    def __init__(self, cache: Cache | None = None) -> None:
        self.cache = cache
        self._texts: dict[bytes, ReleaseText | None] = {}
        # by text key, then version ("3"; "3-": less tagged fields)
        self._digests: dict[str, dict[str, str]] = {}
        self._messages: dict[str, Message] = {}  # parsed in this process, by key
        self._changed: set[str] = set()  # keys whose facts or digests are not stored

    def text(self, data: bytes, path: str) -> ReleaseText | None:
        """The facts of ``data`` (None when it holds no message)."""
        if data not in self._texts:
            self._texts[data] = self._read(data, path)
        return self._texts[data]

    def digest(self, text: ReleaseText, version: int, *, tagged: bool = True) -> str:
        """The layout digest of ``version`` of ``text`` (parsed only when not known): its
        :func:`~kcompat.spec.shape.release_layout`, so releases are told apart by what
        reaches the wire, never by names (without ``tagged``: less its tagged fields)."""
        known = self._digests.setdefault(text.key, {})
        entry = str(version) if tagged else f"{version}-"
        found = known.get(entry)
        if found is None:
            message = self._messages.get(text.key)
            if message is None:
                message = read_spec(text.path, text.data).message
                assert message is not None  # it had one when its facts were read
                self._messages[text.key] = message
            found = release_layout(message, version, tagged=tagged)
            known[entry] = found
            self._changed.add(text.key)
        return found

    def save(self) -> None:
        """Store the texts whose facts or digests are new (when there is a cache)."""
        if self.cache is None or not self._changed:
            return
        for text in self._texts.values():
            if text is not None and text.key in self._changed:
                self.cache.write(RELEASE, text.data, _entry(text, self._digests.get(text.key, {})))
        self._changed.clear()

    def _read(self, data: bytes, path: str) -> ReleaseText | None:
        key = hashlib.blake2b(data, digest_size=20).hexdigest()
        payload = self.cache.read(RELEASE, data) if self.cache is not None else None
        stored = _facts(payload, key, path, data) if payload is not None else None
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
            message.api_key,
        )


def _facts(
    payload: bytes, key: str, path: str, data: bytes
) -> tuple[ReleaseText, dict[str, str]] | None:
    """A stored entry: the text's facts and its digests (None: not what an entry holds)."""
    try:
        entry = json.loads(payload)
        text = ReleaseText(
            key,
            path,
            data,
            _string(entry["name"]),
            _string(entry["kind"]),
            Versions.parse(_string(entry["valid"])),
            Versions.parse(_string(entry["deprecated"])),
            _boolean(entry["unstable"]),
            _key(entry.get("api_key")),
        )
        digests = {_entry_key(v): _string(d) for v, d in entry["digests"].items()}
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError):
        return None
    return text, digests


def _string(value: object) -> str:
    if not isinstance(value, str):
        raise TypeError("not a string")
    return value


def _entry_key(value: str) -> str:
    if not value.removesuffix("-").isdigit():
        raise ValueError("not a version")
    return value


def _key(value: object) -> int | None:
    if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
        raise TypeError("not an apiKey")
    return value


def _boolean(value: object) -> bool:
    if not isinstance(value, bool):
        raise TypeError("not a boolean")
    return value


def _entry(text: ReleaseText, digests: dict[str, str]) -> bytes:
    entry = {
        "name": text.name,
        "kind": text.kind,
        "valid": str(text.valid_versions),
        "deprecated": str(text.deprecated_versions),
        "unstable": text.latest_version_unstable,
        "api_key": text.api_key,
        "digests": dict(sorted(digests.items())),
    }
    return json.dumps(entry).encode("utf-8")
