"""Parse each spec text once per worker process, however many comparisons it is in.

An audit reads the same blobs again and again: neighbouring commits share most files,
every release pair of a transitive audit re-reads two of only a few dozen trees, and the
tag ledger walks each file's history once per comparison. Parsing dominates both the
driver's preparation and the executors' checks, and :func:`kcompat.spec.specfile.
read_spec` is a pure function of (path, bytes), so its result can be shared.

:func:`install` makes every ``kcompat`` module that imported ``read_spec`` use a memoised
one (an LRU keyed by the path and a digest of the bytes). It is only installed in
processes the pipeline owns (preparation workers and Spark's Python workers), never in
the user's process, and it changes no result: a :class:`SpecFile` is frozen, and what
later code attaches to messages (layouts, compiled codecs) is itself a pure memo.
"""

from __future__ import annotations

import hashlib
import sys
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from kcompat.spec import specfile
from kcompat.spec.specfile import SpecFile

#: Parsed files kept per process (a Kafka tree has about 250 specs; history a few thousand).
LIMIT = 4096

_ORIGINAL: Callable[[str, bytes], SpecFile] = specfile.read_spec
_CACHE: OrderedDict[tuple[str, int, bytes], SpecFile] = OrderedDict()
_STATS = {"hits": 0, "misses": 0}


def cached_read_spec(path: str, data: bytes) -> SpecFile:
    """``read_spec(path, data)``, parsed once per (path, bytes) in this process."""
    raw = bytes(data)
    key = (path, len(raw), hashlib.blake2b(raw, digest_size=16).digest())
    found = _CACHE.get(key)
    if found is not None:
        _CACHE.move_to_end(key)
        _STATS["hits"] += 1
        return found
    _STATS["misses"] += 1
    found = _ORIGINAL(path, raw)
    _CACHE[key] = found
    if len(_CACHE) > LIMIT:
        _CACHE.popitem(last=False)
    return found


def install() -> int:
    """Point every loaded ``kcompat`` module's ``read_spec`` at the cached one (idempotent).

    Modules import the function by name, so each importer is patched; the modules a
    comparison needs are imported first. Returns how many modules now use the cache.
    """
    import kcompat.diff.history
    import kcompat.diff.prepared
    import kcompat.diff.tags_released
    import kcompat.sources.sides  # noqa: F401  (the importers of read_spec)

    patched = 0
    for name, module in list(sys.modules.items()):
        if not name.startswith("kcompat.") or module is None:
            continue
        current = getattr(module, "read_spec", None)
        if current is _ORIGINAL or current is cached_read_spec:
            module.read_spec = cached_read_spec  # type: ignore[attr-defined]
            patched += 1
    return patched


def stats() -> dict[str, Any]:
    return {**_STATS, "size": len(_CACHE)}
