"""A repository opened read-only: revisions, refs, and spec texts at a commit, in the
index and in the working tree.

Every git command goes through :mod:`kcompat.sources.gitcmd` (GitPython, hardened).
Revisions are resolved to commit SHAs first, and every revision on a command line
follows ``--end-of-options``, so a ref name is never read as an option. Nothing is
checked out and neither the index nor the working tree is written.

Files are read by object id wherever a listing gave one (``-z`` listings with ``--raw``:
a path may hold any byte but NUL, a newline included), else by ``REV:path``; blobs come
from GitPython's persistent ``git cat-file --batch``, read only up to the spec size
limit. Answers prefetched for many comparisons (:class:`GitTables`) are asked first.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import IO, TYPE_CHECKING

from kcompat.bounded import read_if_present
from kcompat.errors import UsageError
from kcompat.sources import gitenv
from kcompat.sources.confine import confine
from kcompat.sources.files import from_here
from kcompat.sources.gitcmd import (
    NO_DRIVERS,
    GitFailed,
    GitStopped,
    Location,
    ObjectReader,
    locate,
    no_filters,
    open_repo,
    refused_at,
    run,
)
from kcompat.sources.githints import (
    SHALLOW_HINT,
    RemoteFacts,
    access_problem,
    missing_revision,
)
from kcompat.sources.gitrefs import Refs
from kcompat.sources.gittables import (
    SHA,
    Change,
    GitTables,
    hash_of,
    log_history,
    raw_changes,
)
from kcompat.sources.links import LinkModes
from kcompat.spec.load import MAX_BYTES

if TYPE_CHECKING:
    import git

#: The key of the index in the table of object ids (commits are keyed by SHA).
INDEX = ":index"
#: Options of every listing of changed files.
CHANGES = ("--raw", "-z", "--no-abbrev", "--no-renames", "--ignore-submodules", *NO_DRIVERS)


class NotARepository(UsageError):
    """No git repository there (commands that also compare directories go on without)."""


@dataclass
class GitRepo(Refs):
    """A repository opened read-only."""

    root: Path
    where: Location = field(repr=False)
    handle: git.Repo = field(repr=False)  # GitPython's Repo
    objects: ObjectReader = field(repr=False)  # its persistent ``git cat-file --batch``
    tables: GitTables = field(default_factory=GitTables, repr=False)
    _blobs: dict[str, bytes | None] = field(default_factory=dict, repr=False)
    _missing: dict[str, bool] = field(default_factory=dict, repr=False)
    _ids: dict[tuple[str, str], str | None] = field(default_factory=dict, repr=False)
    modes: LinkModes = field(default_factory=LinkModes, repr=False)  # which files are links
    _commits: dict[str, str | None] = field(default_factory=dict, repr=False)
    _histories: dict[tuple[str, str, int], list[tuple[str, str]]] = field(
        default_factory=dict, repr=False
    )

    @staticmethod
    def open(
        path: str | Path = ".", *, named: bool = False, tables: GitTables | None = None
    ) -> GitRepo:
        """Open the repository containing ``path``; exit 2 with a clear line if there is
        none, or if git refuses it (one owned by another user: git's safe.directory).

        ``named``: the user named it (``--repo``), so variables inherited from the
        environment that reroute git elsewhere are set aside (:mod:`gitenv`).
        """
        start = Path(path)
        if not start.exists():
            raise UsageError(f"{path}: no such directory")
        inherited = gitenv.cleared_for_repo() if named else {}
        try:
            where = locate(start)
        except GitFailed as err:
            if "not a git repository" in err.stderr:
                raise NotARepository(
                    f"{path}: not inside a git repository (use --repo DIR, or compare directories)"
                ) from None
            root = refused_at(err.stderr) or Path(os.path.abspath(start))
            raise UsageError(access_problem(root, err.stderr or str(err))) from None
        if inherited:
            gitenv.settle(inherited, where.git_dir, str(path))
        handle = open_repo(where)
        opened = GitRepo(where.root, where, handle, ObjectReader(handle), tables or GitTables())
        opened._commits["HEAD"] = where.head
        return opened

    @staticmethod
    def around(repo_dir: Path | None, *, required: bool = False) -> GitRepo | None:
        """The repository of ``--repo DIR``, else the one around the working directory.

        ``None`` only when no repository was asked for and there is none (directories can
        be compared without git); a ``--repo`` that is not one is the user's error.
        """
        try:
            return GitRepo.open(repo_dir or Path("."), named=repo_dir is not None)
        except NotARepository:
            if repo_dir is not None or required:
                raise
            return None

    @property
    def bare(self) -> bool:
        """A repository without a working tree (and without an index to speak of)."""
        return self.where.bare

    def worktrees(self) -> list[str]:
        """The working trees linked to this repository (``git worktree add``)."""
        out = self.run_git("worktree", "list", "--porcelain")
        listed = [e.removeprefix("worktree ") for e in out.splitlines() if e[:9] == "worktree "]
        return [p for p in listed if Path(p).resolve() != self.root.resolve()]

    def internal(self, path: Path) -> bool:
        """Whether ``path`` is inside the repository's own git directory (in a bare
        repository the working directory: its ``HEAD`` file is git's, no user's)."""
        try:
            path.resolve().relative_to(self.where.git_dir.resolve())
        except ValueError:
            return False
        return True

    def run_git(self, *args: str, stdin: IO[bytes] | None = None) -> str:
        """``git ARGS`` in this repository, its output as text; a failure is one line."""
        try:
            return run(self.handle.git, args, stdin)
        except GitFailed as err:
            raise UsageError(f"git {args[0]} failed: {err.last_line()}") from None

    def _commit(self, rev: str) -> str | None:
        """The commit SHA ``rev`` names, or None (asked once per revision)."""
        if rev not in self._commits:
            verify = ["rev-parse", "--verify", "--quiet", "--end-of-options", f"{rev}^{{commit}}"]
            try:
                self._commits[rev] = run(self.handle.git, verify).strip()
            except GitFailed:
                self._commits[rev] = None
        return self._commits[rev]

    # -- revisions ------------------------------------------------------------------
    @cached_property
    def shallow(self) -> bool:
        return self.run_git("rev-parse", "--is-shallow-repository").strip() == "true"

    def resolve(self, rev: str) -> str:
        """The commit SHA a revision names; exit 2 with the ``git fetch`` to run if missing."""
        if not rev or rev.startswith("-") or "\n" in rev or "\x00" in rev:
            raise UsageError(f"invalid revision {rev!r}")
        sha = self._commit(rev) or ""
        if not SHA.match(sha):
            raise UsageError(f"unknown revision {rev!r} in {self.root}; {self.missing(rev)}")
        return sha

    def missing(self, rev: str, *, maybe_folder: bool = False, folder: bool = False) -> str:
        """What to do about a revision that is not here (see :func:`missing_revision`)."""
        facts = RemoteFacts(
            self._remote_names,
            self._ref_names(),
            self._fetches_every_branch,
            self._default_branch,
            lambda: self.shallow,
        )
        return missing_revision(rev, facts, maybe_folder=maybe_folder, folder=folder)

    def _fetches_every_branch(self, remote: str) -> bool:
        """Whether ``git fetch REMOTE`` brings all its branches (a full clone), not one
        (``--single-branch``, a CI checkout of one ref)."""
        try:
            specs = run(self.handle.git, ["config", "--get-all", f"remote.{remote}.fetch"])
        except GitFailed:
            return False
        return any(
            spec.lstrip("+").startswith(f"refs/heads/*:refs/remotes/{remote}/*")
            for spec in specs.split()
        )

    def _default_branch(self, remote: str) -> str | None:
        """The branch ``REMOTE/HEAD`` points at (what ``git clone`` checked out), if set."""
        try:
            ref = run(self.handle.git, ["symbolic-ref", "--quiet", f"refs/remotes/{remote}/HEAD"])
        except GitFailed:
            return None
        return ref.strip().removeprefix(f"refs/remotes/{remote}/") or None

    def is_revision(self, text: str) -> bool:
        """Whether ``text`` names a commit here (no error when it does not)."""
        if not text or text.startswith("-") or "\n" in text or "\x00" in text:
            return False
        return self._commit(text) is not None

    def _ref_names(self) -> list[str]:
        out = self.run_git(
            "for-each-ref", "--format=%(refname)", "refs/heads", "refs/remotes", "refs/tags"
        )
        return out.splitlines()

    def remotes(self) -> list[str]:
        """The names of the repository's remotes (``origin`` first if there is one)."""
        return sorted(self._remote_names, key=lambda n: (n != "origin", n))

    @cached_property
    def _remote_names(self) -> list[str]:
        """The remotes as configured (``git remote``: the order of the configuration)."""
        return [line for line in self.run_git("remote").splitlines() if line]

    def merge_base(self, a: str, b: str) -> str:
        try:
            out = run(self.handle.git, ["merge-base", "--end-of-options", a, b])
        except GitFailed:
            out = ""
        sha = out.strip().splitlines()[0] if out.strip() else ""
        if not sha:
            hint = SHALLOW_HINT if self.shallow else "the two revisions share no history"
            raise UsageError(f"no merge base of {a[:12]} and {b[:12]}; {hint}")
        return sha

    def has_commits(self) -> bool:
        """False in a repository whose HEAD is unborn (before its first commit)."""
        return self._commit("HEAD") is not None

    def head_sha(self) -> str:
        return self.resolve("HEAD")

    # -- listings -------------------------------------------------------------------
    def list_files(self, sha: str, pathspecs: Sequence[str] = ()) -> dict[str, str]:
        """path -> blob SHA of every file at a commit (under ``pathspecs`` if given)."""
        # ls-tree takes its paths after the tree, as they are: after --end-of-options a
        # "--" would be one more path
        out = self.run_git(
            "ls-tree", "-r", "-z", "--full-tree", "--end-of-options", sha, *pathspecs
        )
        files = {}
        for entry in out.split("\x00"):
            meta, _, path = entry.partition("\t")
            parts = meta.split()
            if len(parts) == 3 and parts[1] == "blob":
                files[path] = parts[2]
                self._ids[(sha, path)] = parts[2]
                self.modes.note(sha, path, parts[0])
        return files

    def changed_between(self, base: str, head: str, pathspecs: Sequence[str] = ()) -> list[str]:
        """Files that differ between commits ``base`` and ``head``."""
        found = self.tables.changed.get((base, head, tuple(pathspecs)))
        if found is None:
            out = self.run_git(
                "diff-tree", "-r", *CHANGES, "--end-of-options", base, head, "--",
                *(pathspecs or ["."]),
            )  # fmt: skip
            found = tuple(raw_changes(out.split("\x00")))
        return self._noted(found, base, head)

    def changed_in_index(self, base: str, pathspecs: Sequence[str] = ()) -> list[str]:
        """Files whose staged text differs from commit ``base``'s."""
        out = self.run_git(
            "diff-index", "--cached", *CHANGES, "--end-of-options", base, "--",
            *(pathspecs or ["."]),
        )  # fmt: skip
        return self._noted(raw_changes(out.split("\x00")), base, INDEX)

    def changed_in_worktree(self, base: str, pathspecs: Sequence[str] = ()) -> list[str]:
        """Files of the working tree that differ from commit ``base``'s, untracked ones
        included. diff-index, not diff: ``git diff`` refreshes and rewrites .git/index as a
        side effect; a stat-dirty but unchanged file only costs a read here. That read
        would run the file's clean filter: every filter driver configured is emptied."""
        specs = pathspecs or ["."]
        args = ("diff-index", *CHANGES, "--end-of-options", base, "--", *specs)
        try:
            out = run(self.handle.git, args, settings=no_filters(self.handle.git))
        except GitFailed as err:
            raise UsageError(f"git diff-index failed: {err.last_line()}") from None
        entries = [c for c in raw_changes(out.split("\x00")) if not self._same_bytes(c)]
        changed = self._noted(entries, base, None)
        untracked = self.run_git("ls-files", "--others", "--exclude-standard", "-z", "--", *specs)
        return sorted({*changed, *(p for p in untracked.split("\x00") if p)})

    def _same_bytes(self, change: Change) -> bool:
        """Whether a file diff-index names without a new blob (stat-dirty: touched, or
        written back as it was) still holds its old blob's bytes. git would learn that by
        refreshing .git/index, which kcompat never writes; hashing the file is enough."""
        path, old, new = change.path, change.old, change.new
        if new is not None or old is None:
            return False
        try:
            data = self.read_worktree(path)
        except UsageError:
            return False
        if data is None or len(data) > MAX_BYTES:
            return False
        return hash_of(data, old) == old

    def _noted(self, changes: Iterable[Change], base: str, head: str | None) -> list[str]:
        """The paths of ``changes``, each side's blob noted for reading by id."""
        paths = set()
        for path, old, new, old_link, new_link in changes:
            paths.add(path)
            self._ids[(base, path)] = old
            self.modes.note(base, path, old_link)
            if head is not None and (head != INDEX or new is not None):
                self._ids[(head, path)] = new  # an unmerged entry is read by name
                self.modes.note(head, path, new_link)
        return sorted(paths)

    # -- texts ----------------------------------------------------------------------
    def read_at(self, sha: str, path: str) -> bytes | None:
        """A file's bytes at a commit, or None if it does not exist there; a symbolic
        link's as :class:`LinkText` (the path it names: never followed)."""
        ask = functools.partial(self.list_files, sha, [f":(literal){path}"])
        return self.modes.marked(sha, path, self._read_at(sha, path), ask)

    def _read_at(self, sha: str, path: str) -> bytes | None:
        key = (sha, path)
        if key not in self._ids and "\n" in path:  # cat-file cannot be asked its name
            self.list_files(sha, [f":(literal){path}"])
            self._ids.setdefault(key, None)
        if key in self._ids:
            blob = self._ids[key]
            return self._listed(blob, path) if blob is not None else None
        try:
            data = self._object(f"{sha}:{path}")
        except GitStopped:
            if not self.partial:
                raise
            data = None
        if data is None and self.partial and path in self.list_files(sha, [f":(literal){path}"]):
            return self._listed(self._ids[key] or "", path)
        return data

    def read_blob(self, blob: str, path: str) -> bytes | None:
        """A blob's bytes by its id (a listing named it at ``path``)."""
        return self._listed(blob, path)

    def blob_at(self, sha: str, path: str) -> str | None:
        """The id of the blob ``path`` names at commit ``sha`` (None: no such file), its
        bytes kept for :meth:`read_blob` (through the one ``cat-file --batch``)."""
        key = (sha, path)
        if key in self._ids:
            return self._ids[key]
        try:
            found = None if "\n" in path else self.objects.identified(f"{sha}:{path}", MAX_BYTES)
        except GitStopped:
            if not self.partial:
                raise
            found = None
        blob = found[0] if found is not None and found[1] == "blob" else None
        if found is not None and blob is not None:
            self._blobs.setdefault(blob, found[2])
        self._ids[key] = blob
        return blob

    def read_index(self, path: str) -> bytes | None:
        """A file's staged bytes, or None if it is not in the index; a file with an
        unresolved merge conflict (only its conflict stages staged) is one line saying
        so, not a file removed; a symbolic link's as :class:`LinkText`."""
        return self.modes.marked(INDEX, path, self._read_index(path), self._index_modes)

    def _read_index(self, path: str) -> bytes | None:
        blob = self._ids.get((INDEX, path))
        if blob is not None:
            return self._listed(blob, path)
        if "\n" in path:
            stages = self._index_entries(path)
            found = self._listed(stages["0"], path) if "0" in stages else None
            conflict = "2" in stages or "3" in stages
        else:  # stage 0 named: a path like "1:x" is no stage number
            found = self._object(f":0:{path}")
            conflict = found is None and any(self._object(f":{n}:{path}") for n in "23")
        if conflict:
            shown = from_here(self.root / path)
            raise UsageError(
                f"{shown}: unresolved merge conflict in the index; resolve it, then git add {shown}"
            )
        return found

    def _index_entries(self, path: str) -> dict[str, str]:
        """Stage -> blob of ``path`` in the index (``ls-files -s``: any byte in a name)."""
        out = self.run_git("ls-files", "-s", "-z", "--", f":(literal){path}")
        stages = {}
        for entry in out.split("\x00"):
            meta, _, name = entry.partition("\t")
            parts = meta.split()
            if name == path and len(parts) == 3:
                stages[parts[2]] = parts[1]
                if parts[2] == "0":
                    self.modes.note(INDEX, path, parts[0])
        return stages

    def _index_modes(self) -> None:
        """Which staged files are links, the whole index asked once (``ls-files -s``):
        a staged diff reads unchanged files too (a response's request)."""
        if not self.modes.indexed(INDEX):
            self.modes.note_index(INDEX, self.run_git("ls-files", "-s", "-z"))

    def read_worktree(self, path: str) -> bytes | None:
        """A working-tree file's first bytes (at most the spec size limit and one more), or
        None if it is not there; a FIFO or a device (a committed symlink) is refused, and
        so is a link out of the repository or into its ``.git``."""
        confine(self.root / path, path, self.root)
        return read_if_present(self.root / path, MAX_BYTES, path)

    def _listed(self, blob: str, path: str) -> bytes | None:
        """A blob a listing named: missing from the object store only in a partial clone,
        whose lazy fetch would run what the remote's configuration names (refused: git
        says it is missing, or an older git's cat-file stops)."""
        try:
            data = self._object(blob)
        except GitStopped:
            if not self.partial:
                raise
            data, self._missing[blob] = None, True
        if data is None and self._missing.get(blob, False):
            raise UsageError(
                f"{from_here(self.root / path)}: the text (blob {blob[:12]}) is not in this "
                f"partial clone, and kcompat never fetches; fetch it first: git -C {self.root} "
                f"cat-file -p {blob} > /dev/null (or clone without --filter)"
            )
        return data

    @cached_property
    def partial(self) -> bool:
        """A partial clone (objects may be missing until fetched)."""
        reader = self.handle.config_reader("repository")
        promisors = (
            reader.get_value(section, "promisor", False)
            for section in reader.sections()
            if section.startswith('remote "')
        )
        return bool(reader.get_value("extensions", "partialclone", "")) or any(promisors)

    def _object(self, name: str) -> bytes | None:
        if name in self._blobs:
            return self._blobs[name]
        found = self.objects.read(name, MAX_BYTES)
        result = found[1] if found is not None and found[0] == "blob" else None
        self._blobs[name] = result
        self._missing[name] = found is None
        return result

    # -- history --------------------------------------------------------------------
    def file_history(self, sha: str, path: str, limit: int = 2000) -> list[tuple[str, str]]:
        """(commit, path at that commit) for every commit reachable from ``sha`` that touched
        the file, newest first, following renames (asked once per commit and path: the
        release pairs of an audit share their BASEs, and so their tag ledgers)."""
        key = (sha, path, limit)
        if key not in self._histories:
            out = self.run_git(
                "log", f"--max-count={limit}", "--format=%H", "--raw", "-z", "--no-abbrev",
                "--follow", *NO_DRIVERS, "--end-of-options", sha, "--", f":(literal){path}",
            )  # fmt: skip
            found = log_history(out)
            for commit, at, blob in found:
                self._ids[(commit, at)] = blob
            self._histories[key] = [(commit, at) for commit, at, _ in found]
        return list(self._histories[key])

    def relative(self, path: str | Path) -> str:
        """A path relative to the repository root (for files named on the command line)."""
        full = Path(path).resolve()
        try:
            return full.relative_to(self.root.resolve()).as_posix()
        except ValueError:
            raise UsageError(f"{path} is outside the repository {self.root}") from None

    def close(self) -> None:
        self.objects.close()
