"""What the user typed, as a side: a :class:`~kcompat.sources.source.SpecSource`.

A side is a git revision, the index, the working tree, a directory or file, or
``REV:path`` (a folder at a revision); each kind is a module with a parser, asked in turn
(:data:`PARSERS`). How a side's specs are read (only the files that differ, for two
sides of one repository) is :mod:`kcompat.sources.reading`'s.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from kcompat.bounded import read_or_explain
from kcompat.errors import UsageError
from kcompat.naming import companion_name_for, file_names_of, request_name_for
from kcompat.sources import directory
from kcompat.sources.confine import confine
from kcompat.sources.files import display_path
from kcompat.sources.reading import read_side
from kcompat.sources.source import SpecSource
from kcompat.spec.model import Message
from kcompat.spec.specfile import SpecFile, read_spec

if TYPE_CHECKING:  # git is imported when a revision is asked for (lint never asks)
    from kcompat.sources.git import GitRepo


def _revision(text: str, repo: GitRepo | None) -> SpecSource | None:
    """``REV:path`` or a revision of ``repo`` (:func:`kcompat.sources.revision.parse`)."""
    if repo is None:
        return None
    from kcompat.sources import revision

    return revision.parse(text, repo)


#: What a command-line side can be, asked in order (the first that claims the text
#: wins): a file or folder that exists, then ``REV:path`` or a revision. A new kind of
#: source is one module with a :class:`SpecSource` and a parser, and its entry here.
PARSERS: tuple[Callable[[str, GitRepo | None], SpecSource | None], ...] = (
    lambda text, repo: directory.parse(text) if _on_disk(text, repo) else None,
    _revision,
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


def path_side(text: str) -> SpecSource:
    """A side named where revisions are not meant (``lint``'s paths, ``explain --specs``):
    a file or folder, or any source whose parser claims the word without git. A path no
    parser claims is one line: missing, or why it cannot be read (a FIFO, a device)."""
    for parse in PARSERS:
        found = parse(text, None)
        if found is not None:
            return found
    path = Path(text)
    if path.is_symlink() or path.exists():
        confine(path, display_path(path))  # a link out of its repository is read nowhere
        read_or_explain(path, 0, display_path(path))  # raises: not a regular file
    raise UsageError(f"{display_path(path)}: no such file or directory")


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


def companions(side: SpecSource, specs: Sequence[SpecFile]) -> dict[str, Message]:
    """The other half of each request and response in ``specs`` (FooRequest's FooResponse
    and back), by the name of the message it completes: from ``specs`` when there, else
    read beside it from ``side``. A version of an API is its request and its response
    together (a client of a release sends the one and reads the other)."""
    by_name = {s.message.name: s.message for s in specs if s.message is not None}
    found: dict[str, Message] = {}
    for spec in specs:
        message = spec.message
        other = companion_name_for(message.name, message.kind) if message is not None else None
        if message is None or other is None:
            continue
        if other in by_name:
            found[message.name] = by_name[other]
            continue
        path = side.path_of(spec.path)
        if path is None:
            continue
        for name in file_names_of(other):
            sibling = str(PurePosixPath(path).with_name(name))
            data = side.read(sibling)
            read = read_spec(side.shown(sibling), data).message if data is not None else None
            if read is not None and read.name == other:
                found[message.name] = by_name[other] = read
                break
    return found


def load_all(side: SpecSource, pathspecs: Sequence[str] = ()) -> list[SpecFile]:
    """Every spec file on one side (:func:`kcompat.sources.reading.read_side`'s specs)."""
    return read_side(side, pathspecs).specs
