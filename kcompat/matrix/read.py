"""The APIs of each release, read from git: every request spec of a revision, each
distinct text parsed once (most releases ship most files unchanged)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from kcompat.negotiation.apis import ApiSpec, ReleaseApis, api_spec
from kcompat.spec.specfile import looks_like_spec, read_spec

#: Bytes every request spec holds; a text without them is no request (and is not parsed).
_MARKS = (b'"request"', b'"apiKey"')


class Readable(Protocol):
    """What the reader asks of a side: its spec paths and their texts (a
    :class:`~kcompat.sources.source.SpecSource`, or a release of a listing)."""

    def paths(self, pathspecs: Sequence[str] = ()) -> list[str]: ...

    def read(self, path: str) -> bytes | None: ...


def looks_like_request(data: bytes) -> bool:
    """Whether a text may be a request spec (it holds what every one holds): only those
    are parsed."""
    return all(mark in data for mark in _MARKS)


@dataclass
class ApiReader:
    """Reads the APIs of revisions and working trees, parsing each distinct text once."""

    pathspecs: Sequence[str] = ()
    is_fixture: Callable[[str], bool] = lambda _path: False
    unreadable: list[str] = field(default_factory=list)  # "path at release": left out
    _parsed: dict[bytes, ApiSpec | None] = field(default_factory=dict, repr=False)

    def release(self, name: str, source: Readable, head: bool = False) -> ReleaseApis:
        """The APIs of ``source`` (a tag's revision, HEAD or the working tree) as release
        ``name``; where two files declare one key, the first path wins."""
        specs = []
        for path in source.paths(self.pathspecs):
            if self.is_fixture(path):
                continue
            data = source.read(path)
            if data is None:
                continue
            spec = self._api(data, path, name)
            if spec is not None:
                specs.append(spec)
        return ReleaseApis.of(name, specs, head)

    def _api(self, data: bytes, path: str, release: str) -> ApiSpec | None:
        if data in self._parsed:
            return self._parsed[data]
        found = None
        if looks_like_request(data):
            spec = read_spec(path, data)
            if spec.message is not None:
                found = api_spec(spec.message)
            elif spec.error is not None and looks_like_spec(spec):
                # a broken spec (its text names validVersions); a template is none
                self.unreadable.append(f"{path} at {release}")
        self._parsed[data] = found
        return found
