"""The messages each release of a repository shipped, for comparing a copy with every
release (``kcompat drift``: which release a vendored copy is closest to).

Releases are the repository's releases (release tags that hold specs:
:func:`~kcompat.sources.release_source.repository_releases`), oldest first. Only files a
caller wants are parsed (drift: those that may hold one of the copy's messages, judged
from their text), and each blob once, however many releases ship it."""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence

from kcompat.sources.git import GitRepo
from kcompat.sources.release_source import repository_releases
from kcompat.spec.model import Message
from kcompat.spec.specfile import read_spec

#: A spec file's API key, as its text writes it (the first one: the top level's).
API_KEY = re.compile(rb'"apiKey"\s*:\s*(-?\d+)')


def release_messages(
    repo: GitRepo,
    pattern: str,
    pathspecs: Sequence[str] = (),
    wanted: Callable[[bytes], bool] = lambda _data: True,
) -> list[tuple[str, tuple[Message, ...]]]:
    """(release, its messages) for every release tag matching ``pattern``, oldest first
    (none: no release)."""
    releases = repository_releases(repo, pattern, None, pathspecs)
    if releases is None:
        return []
    parsed: dict[str, Message | None] = {}
    out = []
    for tag in releases.releases:  # their .json files listed at once (release_files.py)
        messages = []
        for path in sorted(releases.files(tag)):
            blob = releases.blob(tag, path)
            if blob is None:
                continue
            if blob not in parsed:
                data = repo.read_blob(blob, path)
                keep = data is not None and wanted(data)
                parsed[blob] = read_spec(path, data).message if data is not None and keep else None
            message = parsed[blob]
            if message is not None and message.name:
                messages.append(message)
        out.append((tag.name, tuple(messages)))
    return out


def may_hold(api_keys: Collection[int], names: Collection[str]) -> Callable[[bytes], bool]:
    """Whether a text may hold a message with one of ``api_keys``, or named one of
    ``names`` (a cheap look at the text before parsing it)."""
    keys = set(api_keys)
    spelled = [name.encode("utf-8") for name in names]

    def wanted(data: bytes) -> bool:
        found = API_KEY.search(data)
        if found is not None and int(found.group(1)) in keys:
            return True
        return any(name in data for name in spelled)

    return wanted
