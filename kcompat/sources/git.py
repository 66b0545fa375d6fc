"""Spec texts from git, read-only: revisions, the index and the working tree.

git runs without a shell (:mod:`kcompat.sources.gitrun`); revisions are resolved to
commit SHAs first (with ``--end-of-options``), so a ref name can never be read as an
option or reach a shell. Nothing is checked out and neither the index nor the working
tree is written: blobs come from git's object store through one persistent
``git cat-file --batch`` process.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import IO

from kcompat.bounded import read_if_present
from kcompat.errors import UsageError
from kcompat.naming import release_order
from kcompat.sources.gitrun import (
    BatchReader,
    GitFailed,
    Location,
    git_env,
    locate,
    refused_at,
    run_git_in,
)
from kcompat.spec.load import MAX_BYTES

#: What a comparison's HEAD side can be.
HEAD_KINDS = ("rev", "index", "worktree")


def access_problem(root: Path, stderr: str) -> str:
    """What git's refusal to open ``root`` means, and the command that fixes it."""
    if "dubious ownership" in stderr:
        command = re.search(r"git config --global --add safe\.directory \S.*", stderr)
        fix = (
            command.group().strip(" '\"")
            if command
            else (f"git config --global --add safe.directory {root}")
        )
        return (
            f"{root}: git refuses to read this repository because another user owns it; "
            f"if you trust it: {fix}"
        )
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    detail = lines[-1].removeprefix("stderr: ").strip(" '") if lines else "unknown error"
    return f"{root}: git cannot read this repository: {detail}"


class NotARepository(UsageError):
    """No git repository there (commands that also compare directories go on without)."""


@dataclass(frozen=True)
class Tag:
    """A release: a tag (or a branch tip about to ship), the commit it points at."""

    name: str
    sha: str  # the commit it points at
    ref: str = ""  # its full ref name (refs/tags/3.7.0, refs/remotes/origin/3.7)


@dataclass
class GitRepo:
    """A repository opened read-only."""

    root: Path
    where: Location = field(repr=False)
    objects: BatchReader = field(repr=False)  # the persistent ``git cat-file --batch``
    _blob_cache: dict[str, bytes | None] = field(default_factory=dict, repr=False)
    _commits: dict[str, str | None] = field(default_factory=dict, repr=False)

    @staticmethod
    def open(path: str | Path = ".") -> GitRepo:
        """Open the repository containing ``path``; exit 2 with a clear line if there is none,
        or if git refuses it (one owned by another user: git's safe.directory)."""
        start = Path(path)
        if not start.exists():
            raise UsageError(f"{path}: no such directory")
        try:
            where = locate(start)
        except GitFailed as err:
            if "not a git repository" in err.stderr:
                raise NotARepository(
                    f"{path}: not inside a git repository (use --repo DIR, or compare directories)"
                ) from None
            root = refused_at(err.stderr) or Path(os.path.abspath(start))
            raise UsageError(access_problem(root, err.stderr or str(err))) from None
        # Reading never takes git's optional locks (nor refreshes an index: the user's
        # own or a submodule's): nothing under .git changes because kcompat ran.
        opened = GitRepo(where.root, where, BatchReader(where.root, git_env()))
        opened._commits["HEAD"] = where.head
        return opened

    @staticmethod
    def around(repo_dir: Path | None, *, required: bool = False) -> GitRepo | None:
        """The repository of ``--repo DIR``, else the one around the working directory.

        ``None`` only when no repository was asked for and there is none (directories can
        be compared without git); a ``--repo`` that is not one is the user's error.
        """
        try:
            return GitRepo.open(repo_dir or Path("."))
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
        paths = [line.removeprefix("worktree ") for line in out.splitlines()]
        listed = [p for line, p in zip(out.splitlines(), paths, strict=True) if line != p]
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
            return run_git_in(self.root, args, stdin)
        except GitFailed as err:
            raise UsageError(f"git {args[0]} failed: {err.last_line()}") from None

    def _commit(self, rev: str) -> str | None:
        """The commit SHA ``rev`` names, or None (asked once per revision)."""
        if rev not in self._commits:
            verify = ["rev-parse", "--verify", "--quiet", "--end-of-options", f"{rev}^{{commit}}"]
            try:
                self._commits[rev] = run_git_in(self.root, verify).strip()
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
        if not re.fullmatch(r"[0-9a-f]{40,64}", sha):
            near, sure = self.near_misses(rev)
            if near and sure:
                raise UsageError(f"unknown revision {rev!r} in {self.root}; did you mean {near}?")
            if near:
                raise UsageError(
                    f"unknown revision {rev!r} in {self.root}; did you mean {near}? "
                    f"(if not, {self.fetch_hint(rev)})"
                )
            raise UsageError(f"unknown revision {rev!r} in {self.root}; {self.fetch_hint(rev)}")
        return sha

    def is_revision(self, text: str) -> bool:
        """Whether ``text`` names a commit here (no error when it does not)."""
        if not text or text.startswith("-") or "\n" in text or "\x00" in text:
            return False
        return self._commit(text) is not None

    def near_misses(self, rev: str) -> tuple[str, bool]:
        """Refs the user probably meant, and whether they surely did: ``origin/3.7`` and tag
        ``3.7.0`` for ``3.7`` (a branch only a remote has, the first release tag of that
        line), else close spellings (which may instead be a ref not fetched yet)."""
        import difflib

        out = self.run_git(
            "for-each-ref", "--format=%(refname)", "refs/heads", "refs/remotes", "refs/tags"
        )
        kinds = {
            "refs/heads/": "a branch",
            "refs/remotes/": "a remote branch",
            "refs/tags/": "a tag",
        }
        named: dict[str, str] = {}
        for ref in out.splitlines():
            for prefix, kind in kinds.items():
                if ref.startswith(prefix) and not ref.endswith("/HEAD"):
                    named.setdefault(ref.removeprefix(prefix), kind)
        exact = [
            n
            for n, kind in named.items()
            if kind == "a remote branch" and n.split("/", 1)[-1] == rev
        ]
        line = sorted(
            (n for n, kind in named.items() if kind == "a tag" and n.startswith(f"{rev}.")),
            key=release_order,
        )[:1]
        sure = exact + line
        chosen = sure or difflib.get_close_matches(rev, list(named), n=3, cutoff=0.75)
        return " or ".join(f"{name} ({named[name]})" for name in chosen), bool(sure)

    def fetch_hint(self, rev: str) -> str:
        """The exact command that would make ``rev`` available."""
        remotes = self._remote_names
        if "/" in rev:
            remote, _, branch = rev.partition("/")
            if remote in remotes:
                return f"fetch it first: git fetch {remote} {branch}"
        if re.fullmatch(r"v?\d+(\.\d+)*", rev):
            return f"fetch the tag first: git fetch {remotes[0] if remotes else 'origin'} tag {rev}"
        if self.shallow:
            return "this is a shallow clone: git fetch --unshallow (or fetch-depth: 0 in CI)"
        if remotes:
            return f"fetch it first: git fetch {remotes[0]} {rev}"
        return "check the name with: git log --oneline --all"

    def remotes(self) -> list[str]:
        """The names of the repository's remotes (``origin`` first if there is one)."""
        return sorted(self._remote_names, key=lambda n: (n != "origin", n))

    @cached_property
    def _remote_names(self) -> list[str]:
        """The remotes as configured (``git remote``: the order of the configuration)."""
        return [line for line in self.run_git("remote").splitlines() if line]

    def merge_base(self, a: str, b: str) -> str:
        try:
            out = run_git_in(self.root, ["merge-base", a, b])
        except GitFailed:
            out = ""
        sha = out.strip().splitlines()[0] if out.strip() else ""
        if not sha:
            hint = (
                "this is a shallow clone: git fetch --unshallow (or fetch-depth: 0 in CI)"
                if self.shallow
                else "the two revisions share no history"
            )
            raise UsageError(f"no merge base of {a[:12]} and {b[:12]}; {hint}")
        return sha

    def has_commits(self) -> bool:
        """False in a repository whose HEAD is unborn (before its first commit)."""
        return self._commit("HEAD") is not None

    def head_sha(self) -> str:
        return self.resolve("HEAD")

    def tags(self) -> list[Tag]:
        """Every tag that points (directly or through an annotated tag) at a commit."""
        out = self.run_git(
            "for-each-ref",
            "--format=%(refname:strip=2)%00%(*objectname)%00%(objectname)",
            "refs/tags",
        )
        tags = []
        for line in out.splitlines():
            name, peeled, direct = [*line.split("\x00"), "", "", ""][:3]
            tags.append(Tag(name, peeled or direct, f"refs/tags/{name}"))
        return tags

    def branches(self) -> list[Tag]:
        """Local branches and remote-tracking ones, named without their remote
        (``origin/3.7`` is ``3.7``); local ones first."""
        out = self.run_git(
            "for-each-ref",
            "--format=%(refname)%00%(objectname)",
            "refs/heads",
            "refs/remotes",
        )
        found = []
        for line in out.splitlines():
            ref, _, sha = line.partition("\x00")
            if ref.startswith("refs/heads/"):
                found.append(Tag(ref.removeprefix("refs/heads/"), sha, ref))
            elif ref.startswith("refs/remotes/") and not ref.endswith("/HEAD"):
                short = ref.removeprefix("refs/remotes/").partition("/")[2]
                found.append(Tag(short, sha, ref))
        return found

    def range_roots(self, base: str, head: str) -> list[str]:
        """The first commits of ``base..head``: those whose parents are all outside it.

        Any commit that contains some commit of the range contains one of these, so they
        decide which refs already include a change (see :meth:`refs_containing`).
        """
        out = self.run_git("rev-list", "--parents", f"{base}..{head}", "--")
        rows = [line.split() for line in out.splitlines() if line.strip()]
        inside = {row[0] for row in rows}
        return [row[0] for row in rows if not any(p in inside for p in row[1:])]

    def refs_with(self, base: str, head: str) -> set[str]:
        """Full names of the refs that already contain some commit of ``base..head``
        (a release cut after a change cannot be broken by it): two git calls."""
        return self.refs_containing(self.range_roots(base, head))

    def refs_containing(self, commits: Sequence[str]) -> set[str]:
        """Full names of the tags and branches that contain any of ``commits`` (one call)."""
        if not commits:
            return set()
        args = [f"--contains={c}" for c in commits]
        out = self.run_git(
            "for-each-ref", *args, "--format=%(refname)", "refs/tags", "refs/heads", "refs/remotes"
        )
        return {line for line in out.splitlines() if line}

    # -- files ----------------------------------------------------------------------
    def list_files(self, sha: str, pathspecs: Sequence[str] = ()) -> dict[str, str]:
        """path -> blob SHA of every file at a commit (under ``pathspecs`` if given)."""
        out = self.run_git("ls-tree", "-r", "-z", "--full-tree", sha, "--", *pathspecs)
        files = {}
        for entry in out.split("\x00"):
            if not entry:
                continue
            meta, _, path = entry.partition("\t")
            parts = meta.split()
            if len(parts) == 3 and parts[1] == "blob":
                files[path] = parts[2]
        return files

    def changed_paths(
        self, base: str, head_kind: str, head: str | None = None, pathspecs: Sequence[str] = ()
    ) -> list[str]:
        """Files that differ between commit ``base`` and the HEAD side (a commit, the
        index, or the working tree, untracked files included)."""
        specs = list(pathspecs) or ["."]
        # Submodules are other repositories, never spec files of this one: not looked
        # into (a submodule's status would refresh, and rewrite, its index).
        quiet = ("--name-only", "-z", "--no-renames", "--ignore-submodules")
        if head_kind == "rev":
            assert head is not None
            out = self.run_git("diff", *quiet, base, head, "--", *specs)
        elif head_kind == "index":
            out = self.run_git("diff", "--cached", *quiet, base, "--", *specs)
        else:
            # diff-index, not diff: `git diff` refreshes and rewrites .git/index as a side
            # effect; a stat-dirty but unchanged file only costs a read here.
            out = self.run_git("diff-index", *quiet, base, "--", *specs)
            out += "\x00" + self.run_git(
                "ls-files", "--others", "--exclude-standard", "-z", "--", *specs
            )
        return sorted({p for p in out.split("\x00") if p})

    def read_at(self, sha: str, path: str) -> bytes | None:
        """A file's bytes at a commit, or None if it does not exist there."""
        return self._object(f"{sha}:{path}")

    def read_index(self, path: str) -> bytes | None:
        """A file's staged bytes, or None if it is not in the index; a file with an
        unresolved merge conflict (only its conflict stages staged) is one line saying
        so, not a file removed."""
        data = self._object(f":{path}")
        if data is None and any(self._object(f":{stage}:{path}") is not None for stage in "23"):
            raise UsageError(
                f"{display(path, self)}: unresolved merge conflict in the index; resolve it, "
                f"then git add {display(path, self)}"
            )
        return data

    def read_worktree(self, path: str) -> bytes | None:
        """A working-tree file's first bytes (at most the spec size limit and one more), or
        None if it is not there; a FIFO or a device (a committed symlink) is refused."""
        return read_if_present(self.root / path, MAX_BYTES, path)

    def _object(self, name: str) -> bytes | None:
        if name in self._blob_cache:
            return self._blob_cache[name]
        # The first bytes only, the rest skipped in chunks: a huge blob costs no memory.
        found = self.objects.read(name, MAX_BYTES)
        result = found[1] if found is not None and found[0] == "blob" else None
        self._blob_cache[name] = result
        return result

    def file_history(self, sha: str, path: str, limit: int = 2000) -> list[tuple[str, str]]:
        """(commit, path at that commit) for every commit reachable from ``sha`` that touched
        the file, newest first, following renames."""
        out = self.run_git(
            "log",
            f"--max-count={limit}",
            "--format=%x01%H",
            "--name-only",
            "--follow",
            sha,
            "--",
            path,
        )
        history = []
        for chunk in out.split("\x01"):
            lines = [line for line in chunk.splitlines() if line.strip()]
            if len(lines) >= 2:
                history.append((lines[0], lines[-1]))
        return history

    def relative(self, path: str | Path) -> str:
        """A path relative to the repository root (for files named on the command line)."""
        full = Path(path).resolve()
        try:
            return full.relative_to(self.root.resolve()).as_posix()
        except ValueError:
            raise UsageError(f"{path} is outside the repository {self.root}") from None

    def close(self) -> None:
        self.objects.close()


def display(path: str, repo: GitRepo) -> str:
    """A repo-relative path as shown to users: relative to the working directory if inside."""
    full = repo.root / path
    try:
        return os.path.relpath(full)
    except ValueError:
        return path
