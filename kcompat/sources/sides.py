"""The two sides of a comparison, and loading only the spec files that differ.

A side is a git revision, the index, the working tree, a directory, or ``REV:path`` (a
folder at a revision). When both sides live in one repository, git itself lists the files
that differ, so a pre-commit run reads one or two files, not the whole tree; identical
files cannot produce findings. Other combinations compare every spec file.
"""

from __future__ import annotations

import hashlib
import os
import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path, PurePosixPath

from kcompat.bounded import read_if_present
from kcompat.errors import UsageError
from kcompat.naming import request_name_for
from kcompat.sources.files import display_path, from_here, json_files
from kcompat.sources.git import GitRepo
from kcompat.spec.load import MAX_BYTES
from kcompat.spec.specfile import SpecFile, looks_like_spec, read_spec


@dataclass(frozen=True)
class Side:
    """Where one side's spec texts come from."""

    label: str  # as the user wrote it
    kind: str  # "rev", "index", "worktree" or "dir"
    repo: GitRepo | None = None
    sha: str | None = None
    directory: Path | None = None
    subpath: str = ""  # REV:path restricts a revision to a folder
    only: str = ""  # a single file (a plain file pair): its name inside ``directory``

    @property
    def in_git(self) -> bool:
        return self.kind in ("rev", "index", "worktree")

    def read(self, path: str) -> bytes | None:
        """A file's bytes on this side (repo-relative path for git sides), None if absent."""
        if self.kind == "dir":
            assert self.directory is not None
            full = self.directory / path
            return read_if_present(full, MAX_BYTES, display_path(full))
        assert self.repo is not None
        if self.kind == "rev":
            assert self.sha is not None
            return self.repo.read_at(self.sha, path)
        if self.kind == "index":
            return self.repo.read_index(path)
        return self.repo.read_worktree(path)

    def changed_since(self, base: str, pathspecs: Sequence[str] = ()) -> list[str]:
        """Files of this git side that differ from commit ``base``."""
        assert self.repo is not None
        if self.kind == "rev":
            assert self.sha is not None
            return self.repo.changed_between(base, self.sha, pathspecs)
        if self.kind == "index":
            return self.repo.changed_in_index(base, pathspecs)
        return self.repo.changed_in_worktree(base, pathspecs)

    def all_json(self, pathspecs: Sequence[str] = ()) -> list[str]:
        """Every *.json path on this side (used when the other side is not the same repo)."""
        if self.kind == "dir":
            assert self.directory is not None
            if self.only:
                return [self.only]
            return [p.relative_to(self.directory).as_posix() for p in json_files(self.directory)]
        assert self.repo is not None
        specs = [self.subpath] if self.subpath else list(pathspecs)
        if self.kind == "rev":
            assert self.sha is not None
            paths = self.repo.list_files(self.sha, specs)
            return sorted(p for p in paths if p.endswith(".json"))
        head = self.repo.head_sha()
        tracked = set(self.repo.list_files(head, specs))
        changed = self.changed_since(head, specs)
        return sorted(p for p in tracked | set(changed) if p.endswith(".json"))


def side_for(text: str, repo: GitRepo | None, *, prefer_dir: bool = True) -> Side:
    """Interpret a command-line side: a directory or file, ``REV:path``, or a revision.

    A name that is both an existing path and a revision (a file called ``HEAD``) is
    neither: one line says how to choose (``./name`` or ``name^{commit}``). Files of a
    bare repository's own git directory (its ``HEAD``) are no user's paths.
    """
    path = Path(text)
    exists = path.exists() and not (repo is not None and repo.internal(path))
    if exists and repo is not None and repo.is_revision(text):
        raise UsageError(
            f"{text!r} is both a path and a revision: write ./{text} for the path or "
            f"{text}^{{commit}} for the revision"
        )
    if exists and prefer_dir and path.is_dir():
        return Side(text, "dir", directory=path)
    if exists and path.is_file():
        return Side(text, "dir", directory=path.parent, only=path.name)
    if repo is not None and ":" in text and not exists:
        return rev_path_side(text, repo)
    if repo is None:
        if exists and path.is_dir():
            return Side(text, "dir", directory=path)
        raise UsageError(
            f"{text}: not a directory, and not in a git repository to read a "
            "revision from (use --repo DIR)"
        )
    return Side(text, "rev", repo, repo.resolve(text))


def rev_path_side(text: str, repo: GitRepo) -> Side:
    """``REV:path``: a folder (or file) at a revision. A path that is not there is an
    error naming the ``git ls-tree`` that shows what is: else a typo compares nothing."""
    rev, _, sub = text.partition(":")
    rev = rev or "HEAD"
    sha = repo.resolve(rev)
    sub = sub.strip("/")
    if sub and not repo.list_files(sha, [sub]):
        parent = PurePosixPath(sub).parent
        inside = "" if parent == PurePosixPath(".") else f" -- {shlex.quote(f'{parent}/')}"
        raise UsageError(
            f"{text}: no {sub!r} at {rev}; see what is there with: "
            f"git ls-tree --name-only {shlex.quote(rev)}{inside}"
        )
    return Side(text, "rev", repo, sha, subpath=sub)


def revision_side(rev: str, repo: GitRepo) -> Side:
    """A side that is a revision, whatever the working directory holds (the implicit
    ``HEAD``: a file or folder of that name does not change it)."""
    return Side(rev, "rev", repo, repo.resolve(rev))


def live_side(kind: str, repo: GitRepo) -> Side:
    """The index or the working tree; a bare repository has neither: one line saying
    what to compare instead."""
    label = "the index" if kind == "index" else "the working tree"
    if repo.bare:
        where = repo.worktrees()
        instead = (
            f"run kcompat in one of its worktrees ({', '.join(where[:3])}), or give BASE "
            "and HEAD revisions"
            if where
            else "give BASE and HEAD revisions (kcompat diff BASE HEAD)"
        )
        lacks = "no index for --staged" if kind == "index" else "no working tree to compare"
        raise UsageError(f"{repo.root} is a bare repository, with {lacks}: {instead}")
    return Side(label, kind, repo)


@dataclass(frozen=True)
class Loaded:
    """The spec files to compare: only those that can differ, on each side."""

    base: list[SpecFile]
    head: list[SpecFile]
    compared: int  # spec files compared, counted once per side (for the summary)


def load_sides(base: Side, head: Side, pathspecs: Sequence[str] = ()) -> Loaded:
    """Read the spec files that differ between two sides (all of them across sources)."""
    if (
        base.in_git
        and head.in_git
        and base.repo is head.repo
        and not base.subpath
        and not head.subpath
    ):
        assert base.repo is not None and base.sha is not None
        changed = head.changed_since(base.sha, pathspecs)
        candidates = [p for p in changed if p.endswith(".json")]
        return _load_pairs(base, head, candidates, candidates)
    return _load_pairs(
        base, head, base.all_json(pathspecs), head.all_json(pathspecs), skip_identical=True
    )


def _load_pairs(
    base: Side,
    head: Side,
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


def _specs_read(side: Side, files: dict[str, bytes | None], skip: set[str]) -> list[SpecFile]:
    """The files of one side that exist, are not in ``skip`` and look like spec files,
    parsed (in ``files`` order)."""
    specs = []
    for path, data in files.items():
        if data is not None and path not in skip:
            spec = read_spec(_label(side, path), data)
            if looks_like_spec(spec):
                specs.append(spec)
    return specs


def _compared_count(
    base: Side, head: Side, base_specs: list[SpecFile], head_specs: list[SpecFile]
) -> int:
    """Spec files compared, for the summary: in one repository the same file has one name
    on both sides, so the names are counted once; otherwise the larger side counts."""
    base_names, head_names = {s.path for s in base_specs}, {s.path for s in head_specs}
    same_tree = base.in_git and head.in_git and base.repo is head.repo
    if same_tree:
        return len(base_names | head_names)
    return max(len(base_names), len(head_names))


def _digest(data: bytes) -> str:
    return hashlib.sha1(data, usedforsecurity=False).hexdigest()


def _label(side: Side, path: str) -> str:
    """How a file is named in findings: as the user would open it."""
    if side.kind == "dir":
        assert side.directory is not None
        return display_path(side.directory / path)
    assert side.repo is not None
    return _repo_label(str(side.repo.root), path, os.getcwd())


@lru_cache(maxsize=65536)
def _repo_label(root: str, path: str, cwd: str) -> str:
    """A repository file as shown from ``cwd`` (memoised: an audit names the same files in
    hundreds of comparisons, and path arithmetic is not free)."""
    shown = from_here(Path(root) / path)
    return shown if not shown.startswith("../../") else str(PurePosixPath(path))


def companion_requests(side: Side, specs: Sequence[SpecFile]) -> list[SpecFile]:
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
        path = source_path(side, spec.path)
        if path is None:
            continue
        sibling = str(PurePosixPath(path).with_name(request + ".json"))
        data = side.read(sibling)
        if data is not None:
            found = read_spec(_label(side, sibling), data)
            if found.message is not None and found.message.name == request:
                extra.append(found)
                names.add(request)
    return extra


def source_path(side: Side, label: str) -> str | None:
    """Back from a display label to the side-relative path."""
    root = side.directory if side.kind == "dir" else (side.repo.root if side.repo else None)
    if root is None:
        return None
    return _relative_to(label, str(root), os.getcwd())


@lru_cache(maxsize=65536)
def _relative_to(label: str, root: str, cwd: str) -> str | None:
    full = Path(label).resolve()
    try:
        return full.relative_to(Path(root).resolve()).as_posix()
    except ValueError:
        return label if not Path(label).is_absolute() else None


def load_all(side: Side, pathspecs: Sequence[str] = ()) -> list[SpecFile]:
    """Every spec file on one side (for drift and explain, which need all of them)."""
    specs = []
    for path in side.all_json(pathspecs):
        data = side.read(path)
        if data is not None:
            spec = read_spec(_label(side, path), data)
            if looks_like_spec(spec):
                specs.append(spec)
    return specs
