"""One spec file as every command sees it: its text parsed and its message built."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from contextlib import AbstractContextManager
from dataclasses import dataclass

from kcompat.memo import Lru, RunCache
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
    link: str | None = None  # a symbolic link git holds: the path it names (not followed)

    @property
    def ok(self) -> bool:
        return self.message is not None


def read_spec(path: str, data: bytes, size: int | None = None) -> SpecFile:
    """Parse and build one file; unreadable input becomes ``error``, never an exception.

    A pure function of (path, bytes): in a process that keeps parses
    (:func:`enable_parse_cache`: a history audit reads the same blobs again and again)
    or inside :func:`parsed_once`, each text is parsed once.
    """
    if size is not None or not (_LASTING[0] or _PARSED.active):
        return _read_spec(path, data, size)
    raw = bytes(data)
    key = (path, len(raw), hashlib.blake2b(raw, digest_size=16).digest())
    memo = _KEPT if _LASTING[0] else _PARSED
    return memo.get(key, lambda: _read_spec(path, raw, None))


def _read_spec(path: str, data: bytes, size: int | None) -> SpecFile:
    try:
        document = load_bytes(data, path, size)
    except LoadError as err:
        return SpecFile(path, error=err, raw=data)
    return SpecFile(path, document, build_message(document))


#: Characters of a link's target shown in a message (a target may be a page long).
_TARGET_SHOWN = 120


def linked_spec(path: str, target: bytes) -> SpecFile:
    """A file git holds as a symbolic link to ``target``: an error naming the link, never
    a parse of its text nor a read of what it points at (a pull request can point one at
    a runner's credentials; the checkout, which follows it, may hold another spec)."""
    text = target.decode("utf-8", "backslashreplace")
    if len(text) > _TARGET_SHOWN:
        text = text[: _TARGET_SHOWN - 3] + "..."
    error = LoadError(
        f"the file is a symbolic link (to {text}): links are not followed; commit the spec itself"
    )
    return SpecFile(path, error=error, raw=bytes(target), link=text)


ParseKey = tuple[str, int, bytes]  # path, size and digest of the text
#: Parses kept for the process, once it asks (:func:`enable_parse_cache`).
_KEPT: Lru[ParseKey, SpecFile] = Lru("parsed specs", 4096)
_LASTING = [False]
#: Parses kept for one run (:func:`parsed_once`).
_PARSED: RunCache[ParseKey, SpecFile] = RunCache("parsed specs")


def enable_parse_cache(limit: int = 4096) -> None:
    """Keep :func:`read_spec`'s parses for the rest of this process (the ``limit`` last
    used, keyed by path and content digest).

    For processes kcompat owns (Spark's Python workers, preparation workers): SpecFiles are
    frozen and what later code attaches to messages is itself a pure memo, so sharing them
    changes no result.
    """
    _KEPT.resize(limit)
    _LASTING[0] = True


def parsed_once() -> AbstractContextManager[None]:
    """Keep :func:`read_spec`'s parses while the block runs (one ``kcompat diff``: its two
    sides are parsed when read from git and again when checked, and what is worked out on
    their messages, layouts and signatures, serves both); they go at the end, unless this
    process keeps parses anyway (:func:`enable_parse_cache`). The run is this thread's
    (or asyncio task's) alone."""
    return _PARSED.run()


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
