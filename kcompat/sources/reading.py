"""Reading spec files from a :class:`~kcompat.sources.source.SpecSource`: the one way.

Every command reads its specs here, whatever the side (a directory, a file, a revision,
the index, the working tree, or a source added later): ``lint`` its paths, ``diff``,
``changelog`` and ``history`` the files that differ between two sides, ``drift``,
``explain`` and ``corpus`` whole sides, and the language server a folder. So what counts
as a spec is decided once, the same for all of them:

- a file whose text parses says what it is: a spec when its top level has
  ``validVersions`` (a file named on the command line: when it has any key only specs
  have, so a new spec that lacks one is reported, not skipped);
- a file whose text does not parse is a spec when its text names ``validVersions`` (on
  either side of a comparison: a spec broken in HEAD was one in BASE), or when it sits
  under a configured spec path (:class:`~kcompat.sources.spec_paths.SpecPaths`);
- any other ``.json`` file never held a spec (an API-doc template with
  ``{{placeholders}}``, ``package.json``): it is left out, and the files left out that
  do not parse are named, once, so nothing is dropped without a word;
- a symbolic link git holds (:class:`~kcompat.sources.links.LinkText`) is never parsed
  nor followed: where a spec is expected it is an error naming the link, elsewhere a
  link left out, named as one.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from kcompat.errors import UsageError
from kcompat.sources.directory import DirectorySource
from kcompat.sources.links import LinkText
from kcompat.sources.source import SpecSource
from kcompat.sources.spec_paths import SpecPaths, under
from kcompat.spec.specfile import (
    SpecFile,
    linked_spec,
    looks_like_spec,
    named_spec,
    read_spec,
)

#: No configured spec paths: a file's own text says whether it is a spec.
ANYWHERE = SpecPaths()
#: How a text becomes a :class:`SpecFile` (a caller may keep its own memo of it).
Parse = Callable[[str, bytes], SpecFile]


def is_spec(spec: SpecFile, *, configured: bool = False, named: bool = False) -> bool:
    """Whether a file read is a spec (see the module's rules): its text decides, and under
    a configured spec path a file that does not parse is one."""
    if configured and spec.error is not None:
        return True
    return named_spec(spec) if named else looks_like_spec(spec)


def not_json(spec: SpecFile) -> bool:
    """A file left out that is worth a word: it does not parse (a template), so it is
    not obviously some other JSON file (those are left out silently); a link has its own
    word (:func:`link_left_out`)."""
    return spec.error is not None and spec.link is None


def parsed(name: str, data: bytes, parse: Parse = read_spec) -> SpecFile:
    """A file as read: its text parsed, or, for a symbolic link git holds, the link
    (its text is a path: never parsed, its target never read)."""
    if isinstance(data, LinkText):
        return linked_spec(name, data)
    return parse(name, data)


def link_left_out(spec: SpecFile, shown: str) -> str | None:
    """How a link left out is named in the note (None for any other file): plainly a
    link, so no one looks for a template."""
    if spec.link is None:
        return None
    return f"{shown} is a symbolic link (to {spec.link})"


@dataclass(frozen=True)
class Specs:
    """The spec files read from one side (each with its path on the side and its bytes),
    and the files left out that do not parse."""

    files: list[tuple[str, bytes, SpecFile]] = field(default_factory=list)
    skipped: tuple[str, ...] = ()  # as the side shows them
    links: tuple[str, ...] = ()  # links left out, each as :func:`link_left_out` words it

    @property
    def specs(self) -> list[SpecFile]:
        return [spec for _path, _data, spec in self.files]


def configured_on(side: SpecSource, spec_paths: SpecPaths) -> Callable[[str], bool]:
    """Whether a path of ``side`` sits under the configured spec paths (a repository's
    paths compared as strings: no file system call per file)."""
    if not spec_paths:
        return _nowhere
    repo = side.repo
    if repo is not None:
        inside = spec_paths.in_repository(repo)
        return lambda path: under(path, inside)
    return lambda path: spec_paths.holds_on(side, path)


def _nowhere(_path: str) -> bool:
    return False


def read_side(
    side: SpecSource,
    pathspecs: Sequence[str] = (),
    *,
    spec_paths: SpecPaths = ANYWHERE,
    named: bool = False,
    name: Callable[[str], str] | None = None,
    parse: Parse = read_spec,
) -> Specs:
    """Every spec file of a side (under ``pathspecs`` for git sides), in the side's order.

    ``name`` says how a file is named in findings (default: as the side shows it);
    ``parse`` may be a memo of :func:`read_spec`.
    """
    configured = configured_on(side, spec_paths)
    files: list[tuple[str, bytes, SpecFile]] = []
    skipped: list[str] = []
    links: list[str] = []
    for path in side.paths(pathspecs):
        data = side.read(path)
        if data is None:
            continue
        spec = parsed(name(path) if name is not None else side.shown(path), data, parse)
        link = link_left_out(spec, side.shown(path))
        if is_spec(spec, configured=configured(path), named=named):
            files.append((path, data, spec))
        elif link is not None:
            links.append(link)
        elif not_json(spec):
            skipped.append(side.shown(path))
    return Specs(files, tuple(skipped), tuple(links))


def skipped_note(skipped: Sequence[str], most: int = 3, links: Sequence[str] = ()) -> str:
    """One line naming the ``.json`` files left out because they are not specs, and the
    links left out (never followed)."""
    return "; ".join(part for part in (_templates_note(skipped, most), _links_note(links)) if part)


def _links_note(links: Sequence[str], most: int = 3) -> str:
    """The links left out, each with the path it names."""
    if not links:
        return ""
    names = sorted(links)
    rest = f" and {len(names) - most} more" if len(names) > most else ""
    shown = "; ".join(names[:most]) + rest
    return f"{shown}, left out: links are not followed; commit the spec itself"


def _templates_note(skipped: Sequence[str], most: int) -> str:
    if not skipped:
        return ""
    names = sorted(skipped)
    rest = f" and {len(names) - most} more" if len(names) > most else ""
    shown = ", ".join(names[:most]) + rest
    what = (
        "file that does not parse and never names"
        if len(names) == 1
        else "files that do not parse and never name"
    )
    return (
        f"left out {len(names)} .json {what} validVersions (not specs: templates?): "
        f"{shown}; list their folder in kcompat.toml's paths to check them as specs"
    )


# -- two sides ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Loaded:
    """The spec files to compare: only those that can differ, on each side."""

    base: list[SpecFile]
    head: list[SpecFile]
    compared: int  # spec files compared, counted once per side (for the summary)
    skipped: tuple[str, ...] = ()  # files on either side that are not specs and do not parse
    links: tuple[str, ...] = ()  # links on either side left out (see :func:`link_left_out`)


def load_sides(
    base: SpecSource,
    head: SpecSource,
    pathspecs: Sequence[str] = (),
    spec_paths: SpecPaths = ANYWHERE,
) -> Loaded:
    """Read the spec files that differ between two sides (all of them across sources)."""
    changed = (
        head.changed_since(base.commit, pathspecs)
        if base.commit is not None and base.whole and head.whole and head.repo is base.repo
        else None
    )
    if changed is not None:  # git lists what differs: only those files are read
        candidates = [p for p in changed if p.endswith(".json")]
        return _load_pairs(base, head, candidates, candidates, spec_paths)
    return _load_pairs(
        base, head, base.paths(pathspecs), head.paths(pathspecs), spec_paths, skip_identical=True
    )


def _load_pairs(
    base: SpecSource,
    head: SpecSource,
    base_paths: list[str],
    head_paths: list[str],
    spec_paths: SpecPaths,
    skip_identical: bool = False,
) -> Loaded:
    """Both sides' candidate files, parsed and judged together (a path is a spec when
    either side's text says so, or it is configured); with ``skip_identical`` (sides that
    git cannot compare, so every file is a candidate) files whose bytes did not change are
    left out."""
    base_bytes = {p: base.read(p) for p in base_paths}
    head_bytes = {p: head.read(p) for p in head_paths}
    identical = _identical_paths(base_bytes, head_bytes) if skip_identical else set()
    base_read = _parsed(base, base_bytes, identical)
    head_read = _parsed(head, head_bytes, identical)
    base_in, head_in = configured_on(base, spec_paths), configured_on(head, spec_paths)
    specs = {
        path
        for path in base_read.keys() | head_read.keys()
        if any(
            is_spec(read[path], configured=inside(path))
            for read, inside in ((base_read, base_in), (head_read, head_in))
            if path in read
        )
    }
    base_specs = [spec for path, spec in base_read.items() if path in specs]
    head_specs = [spec for path, spec in head_read.items() if path in specs]
    left_out = sorted(
        {
            side.shown(path)
            for side, read in ((head, head_read), (base, base_read))
            for path, spec in read.items()
            if path not in specs and not_json(spec)
        }
    )
    links = sorted(
        {
            link
            for side, read in ((head, head_read), (base, base_read))
            for path, spec in read.items()
            if path not in specs and (link := link_left_out(spec, side.shown(path)))
        }
    )
    compared = _compared_count(base, head, base_specs, head_specs)
    return Loaded(base_specs, head_specs, compared, tuple(left_out), tuple(links))


def read_sides(
    first: SpecSource, second: SpecSource, spec_paths: SpecPaths = ANYWHERE
) -> tuple[Specs, Specs]:
    """Two whole sides (``drift``'s upstream and local copy), each file judged with the
    file of the same path on the other side when there is one (a copy that keeps
    upstream's layout: a broken local spec is still one)."""
    sides = (first, second)
    texts = [{p: side.read(p) for p in side.paths()} for side in sides]
    parsed = [_parsed(side, text, set()) for side, text in zip(sides, texts, strict=True)]
    inside = [configured_on(side, spec_paths) for side in sides]
    specs = {
        path
        for path in parsed[0].keys() | parsed[1].keys()
        if any(
            is_spec(read[path], configured=where(path))
            for read, where in zip(parsed, inside, strict=True)
            if path in read
        )
    }
    out = []
    for side, text, read in zip(sides, texts, parsed, strict=True):
        files = [(p, data, read[p]) for p, data in text.items() if data is not None and p in specs]
        left_out = tuple(
            side.shown(p) for p, spec in read.items() if p not in specs and not_json(spec)
        )
        links = tuple(
            link
            for p, spec in read.items()
            if p not in specs and (link := link_left_out(spec, side.shown(p)))
        )
        out.append(Specs(files, left_out, links))
    return out[0], out[1]


def _parsed(
    side: SpecSource, files: dict[str, bytes | None], skip: set[str]
) -> dict[str, SpecFile]:
    """The files of one side that exist and are not in ``skip``, parsed (in ``files``
    order)."""
    return {
        path: parsed(side.shown(path), data)
        for path, data in files.items()
        if data is not None and path not in skip
    }


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


# -- files and folders named on the command line (lint) -------------------------------------
@dataclass(frozen=True)
class Targets:
    """What ``lint`` checks (``targets``), what its cross-file rules read beside them
    (``context``: the other specs of a named file's folder), and the files left out."""

    targets: list[SpecFile]
    context: list[SpecFile]
    skipped: tuple[str, ...] = ()
    links: tuple[str, ...] = ()


def read_targets(sides: Iterable[SpecSource], spec_paths: SpecPaths = ANYWHERE) -> Targets:
    """Every spec of each side named on the command line; for a side that is one file, its
    folder's other specs as context.

    Cross-file lint rules need a file's neighbours (its response, other API keys), so a
    pre-commit run on one changed file still sees the rest of its folder. A named file
    that is some other JSON (``package.json``, a template) is left out: a hook names
    every change.
    """
    targets: dict[str, SpecFile] = {}
    skipped: list[str] = []
    links: list[str] = []
    folders: dict[str, SpecSource] = {}
    for side in sides:
        read = read_side(side, spec_paths=spec_paths, named=not side.whole)
        skipped += read.skipped
        links += read.links
        for spec in read.specs:
            targets.setdefault(spec.path, spec)
            around = None if side.whole else _folder_around(side)
            if around is not None:
                folders.setdefault(around.label, around)
    context: list[SpecFile] = []
    for _label, folder in sorted(folders.items()):
        context += [s for s in _neighbours(folder, spec_paths) if s.path not in targets]
    return Targets(list(targets.values()), context, tuple(skipped), tuple(links))


def _folder_around(side: SpecSource) -> SpecSource | None:
    """The folder of a side that is one file on disk, its own files only."""
    if isinstance(side, DirectorySource) and side.only:
        parent = str(PurePosixPath(side.only).parent)
        folder = side.directory if parent == "." else side.directory / parent
        return DirectorySource(str(folder), folder, flat=True)
    return None


def _neighbours(folder: SpecSource, spec_paths: SpecPaths) -> list[SpecFile]:
    """The specs of a named file's folder; one that cannot be read is context only: it
    must not end the run."""
    configured = configured_on(folder, spec_paths)
    out = []
    for path in folder.paths():
        try:
            data = folder.read(path)
        except UsageError:
            continue
        if data is None:
            continue
        spec = parsed(folder.shown(path), data)
        if is_spec(spec, configured=configured(path)):
            out.append(spec)
    return out
