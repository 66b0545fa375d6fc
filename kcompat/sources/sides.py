"""The two sides of a comparison, and loading only the spec files that differ.

A side is a :class:`~kcompat.sources.source.SpecSource`: a git revision, the index, the
working tree, a directory, or ``REV:path`` (a folder at a revision). When both sides
live in one repository, git itself lists the files that differ, so a pre-commit run
reads one or two files, not the whole tree; identical files cannot produce findings.
Other combinations compare every spec file.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from kcompat.errors import UsageError
from kcompat.naming import request_name_for
from kcompat.sources import directory, revision
from kcompat.sources.git import GitRepo
from kcompat.sources.source import SpecSource
from kcompat.spec.specfile import SpecFile, looks_like_spec, read_spec

#: What a command-line side can be, asked in order (the first that claims the text
#: wins): a file or folder that exists, then ``REV:path`` or a revision. A new kind of
#: source is one module with a :class:`SpecSource` and a parser, and its entry here.
PARSERS: tuple[Callable[[str, GitRepo | None], SpecSource | None], ...] = (
    lambda text, repo: directory.parse(text) if _on_disk(text, repo) else None,
    revision.parse,
)


def side_for(text: str, repo: GitRepo | None) -> SpecSource:
    """Interpret a command-line side: a directory or file, ``REV:path``, or a revision.

    A name that is both an existing path and a revision (a file called ``HEAD``) is
    neither: one line says how to choose (``./name`` or ``name^{commit}``). Files of a
    bare repository's own git directory (its ``HEAD``) are no user's paths.
    """
    on_disk = _on_disk(text, repo)
    if on_disk and repo is not None and repo.is_revision(text):
        raise UsageError(
            f"{text!r} is both a path and a revision: write ./{text} for the path or "
            f"{text}^{{commit}} for the revision"
        )
    if not on_disk and repo is not None and _folder_or_revision(text, repo):
        raise UsageError(_neither(text, repo))
    for parse in PARSERS:
        found = parse(text, repo)
        if found is not None:
            return found
    raise UsageError(
        f"{text}: not a directory, and not in a git repository to read a "
        "revision from (use --repo DIR)"
    )


def _folder_or_revision(text: str, repo: GitRepo) -> bool:
    """Whether ``text``, which names no file or folder, could have meant either: not
    ``REV:path``, not a remote's branch (``origin/main``: a revision for sure), not a
    revision here."""
    if text.startswith("-") or any(c in text for c in ":\n\x00"):
        return False  # REV:path, or no revision at all (refused as such)
    if "/" in text and text.split("/", 1)[0] in repo.remotes():
        return False
    return not repo.is_revision(text)


def _neither(text: str, repo: GitRepo) -> str:
    """A side that names nothing: a mistyped folder as much as a revision not fetched. A
    name written as a path (``./specs2``, ``../specs``, ``specs2/``, ``/abs``) is told
    about folders only; another (``specs2``, ``3.7.O``, ``feature/x``) also about
    revisions."""
    said = f"{text!r} is neither a directory nor a revision"
    folder = _close_folder(text)
    if text.startswith(("./", "../", "/", "~")) or text.endswith("/"):
        return f"{said}; did you mean {folder!r}?" if folder else f"{said}; check the path"
    hint = repo.missing(text, maybe_folder=True)
    if folder:
        return f"{said} in {repo.root}; did you mean the directory {folder!r}? ({hint})"
    return f"{said} in {repo.root}; {hint}"


def _close_folder(text: str) -> str | None:
    """The existing folder spelled most like ``text`` beside where it would be, written
    as the user wrote it (``./specs`` for ``./specs2``), or None."""
    import difflib

    trailing = "/" if text.endswith("/") else ""
    path = Path(text.rstrip("/") or "/")
    parent = path.parent
    try:
        names = sorted(
            p.name for p in parent.iterdir() if p.is_dir() and not p.name.startswith(".")
        )
    except OSError:
        return None
    close = difflib.get_close_matches(path.name, names, n=1, cutoff=0.6)
    if not close:
        return None
    written = text.rstrip("/")
    return written[: len(written) - len(path.name)] + close[0] + trailing


def _on_disk(text: str, repo: GitRepo | None) -> bool:
    path = Path(text)
    return path.exists() and not (repo is not None and repo.internal(path))


@dataclass(frozen=True)
class Loaded:
    """The spec files to compare: only those that can differ, on each side."""

    base: list[SpecFile]
    head: list[SpecFile]
    compared: int  # spec files compared, counted once per side (for the summary)


def load_sides(base: SpecSource, head: SpecSource, pathspecs: Sequence[str] = ()) -> Loaded:
    """Read the spec files that differ between two sides (all of them across sources)."""
    changed = (
        head.changed_since(base.commit, pathspecs)
        if base.commit is not None and base.whole and head.whole and head.repo is base.repo
        else None
    )
    if changed is not None:  # git lists what differs: only those files are read
        candidates = [p for p in changed if p.endswith(".json")]
        return _load_pairs(base, head, candidates, candidates)
    return _load_pairs(
        base, head, base.paths(pathspecs), head.paths(pathspecs), skip_identical=True
    )


def _load_pairs(
    base: SpecSource,
    head: SpecSource,
    base_paths: list[str],
    head_paths: list[str],
    skip_identical: bool = False,
) -> Loaded:
    """Both sides' candidate files, parsed; with ``skip_identical`` (sides that git cannot
    compare, so every file is a candidate) files whose bytes did not change are left out."""
    base_bytes = {p: base.read(p) for p in base_paths}
    head_bytes = {p: head.read(p) for p in head_paths}
    identical = _identical_paths(base_bytes, head_bytes) if skip_identical else set()
    base_specs = _specs_read(base, base_bytes, identical)
    head_specs = _specs_read(head, head_bytes, identical)
    return Loaded(base_specs, head_specs, _compared_count(base, head, base_specs, head_specs))


def _identical_paths(
    base_bytes: dict[str, bytes | None], head_bytes: dict[str, bytes | None]
) -> set[str]:
    """Same bytes under the same relative name: no finding can come from that pair."""
    base_digest = {_digest(d): p for p, d in base_bytes.items() if d is not None}
    return {
        path
        for path, data in head_bytes.items()
        if data is not None and base_digest.get(_digest(data)) == path
    }


def _specs_read(side: SpecSource, files: dict[str, bytes | None], skip: set[str]) -> list[SpecFile]:
    """The files of one side that exist, are not in ``skip`` and look like spec files,
    parsed (in ``files`` order)."""
    specs = []
    for path, data in files.items():
        if data is not None and path not in skip:
            spec = read_spec(side.shown(path), data)
            if looks_like_spec(spec):
                specs.append(spec)
    return specs


def _compared_count(
    base: SpecSource, head: SpecSource, base_specs: list[SpecFile], head_specs: list[SpecFile]
) -> int:
    """Spec files compared, for the summary: in one repository the same file has one name
    on both sides, so the names are counted once; otherwise the larger side counts."""
    base_names, head_names = {s.path for s in base_specs}, {s.path for s in head_specs}
    if base.repo is not None and base.repo is head.repo:
        return len(base_names | head_names)
    return max(len(base_names), len(head_names))


def _digest(data: bytes) -> str:
    return hashlib.sha1(data, usedforsecurity=False).hexdigest()


def companion_requests(side: SpecSource, specs: Sequence[SpecFile]) -> list[SpecFile]:
    """The requests of responses in ``specs`` that ``specs`` lacks, read from ``side``.

    A response's released versions depend on its request's latestVersionUnstable, and a
    change that touches only the response does not load the request otherwise.
    """
    names = {s.message.name for s in specs if s.message is not None}
    extra: list[SpecFile] = []
    for spec in specs:
        message = spec.message
        request = request_name_for(message.name) if message is not None else None
        if message is None or message.kind != "response" or request is None:
            continue
        if request in names:
            continue
        path = side.path_of(spec.path)
        if path is None:
            continue
        sibling = str(PurePosixPath(path).with_name(request + ".json"))
        data = side.read(sibling)
        if data is not None:
            found = read_spec(side.shown(sibling), data)
            if found.message is not None and found.message.name == request:
                extra.append(found)
                names.add(request)
    return extra


def load_all(side: SpecSource, pathspecs: Sequence[str] = ()) -> list[SpecFile]:
    """Every spec file on one side (for drift and explain, which need all of them)."""
    specs = []
    for path in side.paths(pathspecs):
        data = side.read(path)
        if data is not None:
            spec = read_spec(side.shown(path), data)
            if looks_like_spec(spec):
                specs.append(spec)
    return specs
