"""Finding one message among spec files: by name, loosely by name, or by API key.

Explaining one message must not cost parsing a whole tree, so files named after the
query (``MetadataResponse.json``, and ``Metadata{Request,Response}.json`` for
``Metadata``) are read first, and everything else only when they do not answer. A query
matches, in order of preference: the exact name, the name ignoring case, the name plus
``Request``/``Response`` (``--type`` picks one, else both), or an API key number (requests
and responses with that key; other kinds only if no request or response has it).
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Protocol

from kcompat.errors import UsageError
from kcompat.spec.model import Message
from kcompat.spec.specfile import SpecFile

if TYPE_CHECKING:
    from kcompat.sources.source import SpecSource
    from kcompat.sources.spec_paths import SpecPaths

#: Kinds a bare name or an API key means when ``--type`` is not given.
API_KINDS = ("request", "response")


class Source(Protocol):
    """Somewhere spec files can be listed and read."""

    @property
    def label(self) -> str: ...

    def keys(self) -> list[str]:
        """Every candidate *.json, as keys :meth:`load` accepts."""
        ...

    def load(self, key: str) -> SpecFile:
        """The file's spec (with no message and no error when it is no spec at all)."""
        ...

    def side_of(self, key: str) -> tuple[SpecSource, str]:
        """The side a key is on, and its path there."""
        ...

    def parsed(self, key: str) -> SpecFile:
        """The file as it parses, spec or not (a file named after the message asked for is
        that message's spec, whatever its text: say why it does not parse)."""
        ...


class SideSource:
    """The spec files of one or more sides (:class:`~kcompat.sources.source.SpecSource`),
    read as every command reads them; a file is keyed by how the user names it there
    (``REV:path`` for revisions, the path for files)."""

    def __init__(
        self,
        side: SpecSource | None = None,
        pathspecs: Sequence[str] = (),
        spec_paths: SpecPaths | None = None,
    ) -> None:
        self.pathspecs = pathspecs
        self.spec_paths = spec_paths
        self._sides: list[SpecSource] | None = [side] if side is not None else None
        self._where: dict[str, tuple[SpecSource, str]] = {}
        self._cache: dict[str, SpecFile] = {}

    @property
    def sides(self) -> list[SpecSource]:
        if self._sides is None:
            self._sides = self.opened()
        return self._sides

    def opened(self) -> list[SpecSource]:
        """The sides, when they are made on first use."""
        return []

    @property
    def side(self) -> SpecSource:
        return self.sides[0]

    @property
    def label(self) -> str:
        return ", ".join(side.label for side in self.sides)

    def keys(self) -> list[str]:
        if not self._where:
            for side in self.sides:
                for path in side.paths(self.pathspecs):
                    self._where.setdefault(side.reference(path), (side, path))
        return list(self._where)

    def side_of(self, key: str) -> tuple[SpecSource, str]:
        if not self._where:
            self.keys()
        return self._where[key]

    def load(self, key: str) -> SpecFile:
        if key not in self._cache:
            from kcompat.sources.reading import configured_on, is_spec

            side, path = self.side_of(key)
            spec = self.parsed(key)
            inside = configured_on(side, self.spec_paths) if self.spec_paths else None
            configured = inside is not None and inside(path)
            if not is_spec(spec, configured=configured, named=not side.whole):
                spec = SpecFile(key)  # not a spec: no message, nothing to report
            self._cache[key] = spec
        return self._cache[key]

    def parsed(self, key: str) -> SpecFile:
        from kcompat.spec.specfile import read_spec

        side, path = self.side_of(key)
        data = side.read(path)
        return read_spec(key, data if data is not None else b"")


class FileSource(SideSource):
    """Files and directory trees named as paths (the working tree, or ``--specs``): each a
    side as :func:`kcompat.sources.sides.path_side` reads it."""

    def __init__(self, roots: Sequence[str], spec_paths: SpecPaths | None = None) -> None:
        super().__init__(spec_paths=spec_paths)
        self.roots = roots

    def opened(self) -> list[SpecSource]:
        from kcompat.sources.sides import path_side

        return [path_side(root) for root in self.roots]

    @property
    def label(self) -> str:
        return ", ".join(self.roots)


@dataclass(frozen=True)
class Found:
    """A message and where it came from."""

    message: Message
    label: str  # as shown to users
    key: str  # the source's key


def find_messages(source: Source, query: str, kind: str | None = None) -> list[Found]:
    """The message(s) ``query`` names; a :class:`UsageError` with a did-you-mean if none."""
    query = query.strip()
    if not query:
        raise UsageError("give a message name or an API key number")
    keys = source.keys()
    if not keys:
        raise UsageError(f"no spec files found in {source.label}")
    if query.isdigit():
        return _by_api_key(source, keys, int(query), kind)
    wanted = {name.lower() for name in _candidates(query, kind)}
    quick = [k for k in keys if PurePosixPath(k).stem.lower() in wanted]
    named = {key: source.load(key) for key in quick}
    broken = _unreadable(source.parsed(key) for key in quick)
    if broken:  # a file named after the query: the message is surely in it
        raise UsageError(f"cannot explain {query!r}: {broken}")
    found = _match(_found(named), query, kind)
    if not found:
        everything = _loaded(source, keys)
        found = _match(everything, query, kind)
        if not found:
            broken = _unreadable(source.load(k) for k in keys)
            unknown = _unknown(everything, query, kind, source.label)
            raise UsageError(f"{unknown} ({broken})" if broken else unknown)
    return found


def _unreadable(specs: Iterable[SpecFile]) -> str:
    """The first spec file that does not parse, as ``FILE:LINE:COL does not parse:
    WHY`` (a message in it cannot be found: say so rather than "no message named")."""
    for spec in specs:
        if spec.error is not None:
            line, column = spec.error.pos
            return f"{spec.path}:{line}:{column} does not parse: {spec.error.message}"
    return ""


def find_exact(source: Source, name: str, prefer: str = "") -> Found | None:
    """The message called exactly ``name`` (``prefer``: a path on its side to try first),
    or None."""
    keys = source.keys()
    first = [k for k in keys if source.side_of(k)[1] == prefer]
    tried = set(first)
    order = first + [k for k in keys if k not in tried and PurePosixPath(k).stem == name]
    for group in (order, keys):
        for item in _loaded(source, group):
            if item.message.name == name:
                return item
    return None


def _candidates(query: str, kind: str | None) -> list[str]:
    kinds = [kind] if kind else list(API_KINDS)
    return [query, *(query + k.capitalize() for k in kinds if k in API_KINDS)]


def _loaded(source: Source, keys: Sequence[str]) -> list[Found]:
    return _found({key: source.load(key) for key in keys})


def _found(specs: dict[str, SpecFile]) -> list[Found]:
    """The named messages of loaded spec files (by source key)."""
    return [
        Found(spec.message, spec.path, key)
        for key, spec in specs.items()
        if spec.message is not None and spec.message.name
    ]


def _match(items: Sequence[Found], query: str, kind: str | None) -> list[Found]:
    """The best tier of matches: exact, then ignoring case, then with a kind suffix."""

    def allowed(item: Found) -> bool:
        return kind is None or item.message.kind == kind

    exact = [f for f in items if f.message.name == query and allowed(f)]
    if exact:
        return _unique(exact)
    lowered = query.lower()
    folded = [f for f in items if f.message.name.lower() == lowered and allowed(f)]
    if folded:
        return _unique(folded)
    kinds = [kind] if kind else list(API_KINDS)
    suffixed = {lowered + k: k for k in kinds if k in API_KINDS}  # metadatarequest -> request
    return _unique([f for f in items if suffixed.get(f.message.name.lower()) == f.message.kind])


def _unique(items: Sequence[Found]) -> list[Found]:
    """One per message name (the first file wins), requests before responses."""
    seen: dict[str, Found] = {}
    for item in items:
        seen.setdefault(item.message.name, item)
    order = {k: i for i, k in enumerate(API_KINDS)}
    return sorted(seen.values(), key=lambda f: (order.get(f.message.kind, 9), f.message.name))


def _by_api_key(source: Source, keys: Sequence[str], api_key: int, kind: str | None) -> list[Found]:
    items = [f for f in _loaded(source, keys) if f.message.api_key == api_key]
    if kind:
        items = [f for f in items if f.message.kind == kind]
    else:
        preferred = [f for f in items if f.message.kind in API_KINDS]
        items = preferred or items
    if not items:
        what = f"{kind}" if kind else "message"
        raise UsageError(f"no {what} with apiKey {api_key} in {source.label}")
    return _unique(items)


def _unknown(items: Sequence[Found], query: str, kind: str | None, where: str) -> str:
    names = sorted({f.message.name for f in items if kind is None or f.message.kind == kind})
    what = kind or "message"
    if not items:
        return f"no spec files found in {where}"
    if not names:
        return f"no {what} named {query!r} in {where} (no {what}s there at all)"
    shown = did_you_mean(query, names)
    hint = "; did you mean " + " or ".join(repr(n) for n in shown) + "?" if shown else ""
    return f"no {what} named {query!r} in {where}{hint}"


def did_you_mean(query: str, names: Sequence[str], limit: int = 3) -> list[str]:
    """Close names, best first: ``Metdata`` finds ``MetadataRequest``, ``Widget`` finds
    ``WidgetRequestHeader``; a shared ``Response`` suffix alone does not make names close."""
    lowered = query.lower()
    q_stem, q_suffix = _split(lowered)
    scored = []
    for name in names:
        n_stem, n_suffix = _split(name.lower())
        if q_suffix:  # compare what precedes the suffixes
            score = _ratio(q_stem, n_stem) - (0.1 if q_suffix != n_suffix else 0.0)
        else:
            score = max(_ratio(lowered, name.lower()), _ratio(lowered, n_stem))
        if name.lower().startswith(lowered):
            score = max(score, 0.8)
        if score >= 0.75:
            scored.append((-score, name))
    return [name for _score, name in sorted(scored)[:limit]]


def _split(name: str) -> tuple[str, str]:
    for suffix in ("request", "response"):
        if name.endswith(suffix) and len(name) > len(suffix):
            return name[: -len(suffix)], suffix
    return name, ""


def _ratio(a: str, b: str) -> float:
    return difflib.SequenceMatcher(None, a, b).ratio()
