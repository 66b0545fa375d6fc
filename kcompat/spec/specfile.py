"""One spec file as every command sees it: its text parsed and its message built."""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from kcompat.spec.build import build_message
from kcompat.spec.load import Comment, Document, LoadError, load_bytes
from kcompat.spec.model import Message


@dataclass(frozen=True)
class SpecFile:
    """A file's document and message, or the reason it could not be read."""

    path: str
    document: Document | None = None
    message: Message | None = None
    error: LoadError | None = None
    raw: bytes | None = None  # the bytes of a file that could not be read as a document

    @property
    def ok(self) -> bool:
        return self.message is not None


def read_spec(path: str, data: bytes, size: int | None = None) -> SpecFile:
    """Parse and build one file; unreadable input becomes ``error``, never an exception.

    A pure function of (path, bytes): with :func:`enable_parse_cache` a process that reads
    the same blobs again and again (a history audit) parses each one once.
    """
    cache = _parse_cache
    if cache is None or size is not None:
        return _read_spec(path, data, size)
    raw = bytes(data)
    key = (path, len(raw), hashlib.blake2b(raw, digest_size=16).digest())
    found = cache.get(key)
    if found is None:
        found = _read_spec(path, raw, None)
        cache[key] = found
        if len(cache) > _parse_cache_limit[0]:
            cache.popitem(last=False)
    else:
        cache.move_to_end(key)
    return found


def _read_spec(path: str, data: bytes, size: int | None) -> SpecFile:
    try:
        document = load_bytes(data, path, size)
    except LoadError as err:
        return SpecFile(path, error=err, raw=data)
    return SpecFile(path, document, build_message(document))


_parse_cache: OrderedDict[tuple[str, int, bytes], SpecFile] | None = None
_parse_cache_limit = [4096]


def enable_parse_cache(limit: int = 4096) -> None:
    """Memoise :func:`read_spec` in this process (an LRU keyed by path and content digest).

    For processes kcompat owns (Spark's Python workers, preparation workers): SpecFiles are
    frozen and what later code attaches to messages is itself a pure memo, so sharing them
    changes no result.
    """
    global _parse_cache
    _parse_cache_limit[0] = limit
    if _parse_cache is None:
        _parse_cache = OrderedDict()


@contextmanager
def parsed_once() -> Iterator[None]:
    """Memoise :func:`read_spec` while the block runs (one ``kcompat diff``: its two sides
    are parsed when read from git and again when checked, and what is worked out on their
    messages, layouts and signatures, serves both); the memo goes at the end, unless this
    process keeps one anyway (:func:`enable_parse_cache`)."""
    global _parse_cache
    if _parse_cache is not None:
        yield
        return
    memo: OrderedDict[tuple[str, int, bytes], SpecFile] = OrderedDict()
    _parse_cache = memo
    try:
        yield
    finally:
        if _parse_cache is memo:  # not if the block turned on a lasting one meanwhile
            _parse_cache = None


#: Top-level keys only message specs have: a named file with none of them is some other
#: JSON file (package.json, a VS Code settings file), not a spec with a mistake.
SPEC_KEYS = frozenset({"validVersions", "apiKey", "fields", "commonStructs", "flexibleVersions"})
#: What a spec's text always names: a file that does not parse is a spec (broken) when its
#: text has this, else some other ``.json`` file (a template with ``{{placeholders}}``).
SPEC_MARK = b"validVersions"


def names_spec(spec: SpecFile) -> bool:
    """Whether a file's text does not parse but names ``validVersions``: a broken spec, to
    report, unlike a template or other non-JSON ``.json`` file, which never held one."""
    return spec.error is not None and SPEC_MARK in (spec.raw or b"")


def named_spec(spec: SpecFile) -> bool:
    """Whether a file named on the command line (a pre-commit hook names changed files)
    is to be linted: everything but a well-formed object with keys, none of which only
    specs have (``package.json``, ``tsconfig.json``). A file that does not parse is
    reported when its text names ``validVersions`` (:func:`names_spec`): a broken spec
    must never be skipped, and a template is no spec."""
    if spec.error is not None or spec.document is None:
        return names_spec(spec)
    root = spec.document.root
    return not isinstance(root, dict) or not root or not SPEC_KEYS.isdisjoint(root)


def looks_like_spec(spec: SpecFile) -> bool:
    """A message spec (not some other JSON): its top-level object has ``validVersions``.

    A file that does not parse counts when its text names ``validVersions``
    (:func:`names_spec`), so a broken spec is reported rather than skipped, and a
    template with ``{{placeholders}}`` is not taken for one.
    """
    if spec.error is not None:
        return names_spec(spec)
    root = spec.document.root if spec.document is not None else None
    return isinstance(root, dict) and "validVersions" in root


def comments_of(specs: Iterable[SpecFile]) -> dict[str, tuple[Comment, ...]]:
    """Each file's comments by path (what ignore comments are read from when findings are
    finished), for the files that parsed."""
    return {s.path: s.document.comments for s in specs if s.document is not None}
