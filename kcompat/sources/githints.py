"""What to tell a user whom git cannot help: the command that fixes it.

A repository git refuses (another user's), a revision that is not there (a branch only a
remote has, a tag not fetched, a shallow clone): each is one line naming the command to
run, never a traceback or git's own words alone.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from kcompat.naming import release_order

SHALLOW_HINT = "this is a shallow clone: git fetch --unshallow (or fetch-depth: 0 in CI)"
_KINDS = {"refs/heads/": "a branch", "refs/remotes/": "a remote branch", "refs/tags/": "a tag"}


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


#: Characters a typing hand or eye confuses (``3.7.O`` for ``3.7.0``): read as their
#: twins when ranking close spellings.
_CONFUSABLE = str.maketrans({"O": "0", "o": "0", "l": "1", "I": "1", "S": "5"})


def _closeness(typed: str, name: str) -> tuple[float, float]:
    """How close ``name`` is to what was typed: look-alike characters first (``3.7.0``
    before ``3.7.1`` for ``3.7.O``), then the plain spelling."""
    alike = difflib.SequenceMatcher(
        None, typed.translate(_CONFUSABLE), name.translate(_CONFUSABLE)
    ).ratio()
    return alike, difflib.SequenceMatcher(None, typed, name).ratio()


def near_misses(rev: str, refs: Iterable[str]) -> tuple[str, bool]:
    """Refs (full names) the user probably meant by ``rev``, and whether they surely did:
    ``origin/3.7`` and tag ``3.7.0`` for ``3.7`` (a branch only a remote has, the first
    release tag of that line), else close spellings (which may instead be a ref not
    fetched yet)."""
    named: dict[str, str] = {}
    for ref in refs:
        for prefix, kind in _KINDS.items():
            if ref.startswith(prefix) and not ref.endswith("/HEAD"):
                named.setdefault(ref.removeprefix(prefix), kind)
    exact = [
        n for n, kind in named.items() if kind == "a remote branch" and n.split("/", 1)[-1] == rev
    ]
    line = sorted(
        (n for n, kind in named.items() if kind == "a tag" and n.startswith(f"{rev}.")),
        key=release_order,
    )[:1]
    sure = exact + line
    close = difflib.get_close_matches(rev, list(named), n=3, cutoff=0.75)
    chosen = sure or sorted(close, key=lambda name: _closeness(rev, name), reverse=True)
    return " or ".join(f"{name} ({named[name]})" for name in chosen), bool(sure)


def missing_remote_branch(
    remote: str, branch: str, tracked: Sequence[str], default: str | None
) -> str:
    """What to say of ``REMOTE/BRANCH`` when this clone fetches every branch of
    ``remote`` and had none of that name at its last fetch (``origin/main`` in a clone
    of a repository whose default branch is trunk): the branches it does have that come
    close, or the remote's default branch, and the fetch only in case it is new."""
    close = difflib.get_close_matches(branch, list(tracked), n=2, cutoff=0.75)
    if default and default != branch and default not in close:
        close.append(default)
    names = [
        f"{remote}/{name} ({remote}'s default branch)" if name == default else f"{remote}/{name}"
        for name in close
    ]
    told = f"{remote} had no branch {branch!r} at the last fetch"
    fetch = f"(if it is new there: git fetch {remote} {branch})"
    if names:
        return f"{told}; did you mean {' or '.join(names)}? {fetch}"
    return f"{told} {fetch}"


@dataclass(frozen=True)
class RemoteFacts:
    """What a clone knows of its remotes, asked as needed (git runs behind the calls)."""

    remotes: Sequence[str]  # as configured
    refs: Sequence[str]  # every branch, remote branch and tag (full names)
    fetches_all: Callable[[str], bool]  # a remote's fetch brings all its branches
    default_branch: Callable[[str], str | None]  # what REMOTE/HEAD points at
    shallow: Callable[[], bool]


def missing_revision(
    rev: str, facts: RemoteFacts, *, maybe_folder: bool = False, folder: bool = False
) -> str:
    """What to do about a revision that is not here: the refs it comes close to, a
    remote's branch that is not there (and its default branch), or the fetch (only in
    case it is a revision, when ``rev`` may as well be a mistyped folder; ``folder``: a
    folder spelled close to it was found, the likelier meaning)."""
    remote, _, branch = rev.partition("/")
    if branch and remote in facts.remotes and facts.fetches_all(remote):
        prefix = f"refs/remotes/{remote}/"
        tracked = [
            ref.removeprefix(prefix)
            for ref in facts.refs
            if ref.startswith(prefix) and ref != f"{prefix}HEAD"
        ]
        if tracked:  # fetched at least once: it knows every branch the remote had
            return missing_remote_branch(remote, branch, tracked, facts.default_branch(remote))
    near, sure = near_misses(rev, facts.refs)
    if near and sure:
        return f"did you mean {near}?"
    ordered = sorted(facts.remotes, key=lambda name: (name != "origin", name))
    remote_had = no_remote_had(rev, ordered, facts.refs, facts.fetches_all)
    if remote_had is not None:
        default = facts.default_branch(remote_had)
        local = f"refs/heads/{default}" in facts.refs
        return missing_branch(remote_had, rev, near, default, local, brief=folder)
    hint = fetch_hint(rev, facts.remotes, facts.shallow(), maybe=maybe_folder)
    if near:
        return (
            f"did you mean {near}? ({hint})"
            if maybe_folder
            else (f"did you mean {near}? (if not, {hint})")
        )
    return hint


def no_remote_had(
    name: str, remotes: Sequence[str], refs: Sequence[str], fetches_all: Callable[[str], bool]
) -> str | None:
    """The remote (the first of ``remotes``) to speak of when a bare ``name`` (``main``)
    was a branch of none of them at their last fetch, each fetching all its branches and
    fetched (``refs``: the clone's refs); None otherwise (a tag's number, a single-branch
    clone, a remote never fetched, no remote)."""
    if "/" in name or re.fullmatch(r"v?\d+(\.\d+)*", name) or not remotes:
        return None
    for remote in remotes:
        prefix = f"refs/remotes/{remote}/"
        tracked = [ref for ref in refs if ref.startswith(prefix) and ref != f"{prefix}HEAD"]
        if not tracked or f"{prefix}{name}" in tracked or not fetches_all(remote):
            return None
    return remotes[0]


def missing_branch(
    remote: str, name: str, near: str, default: str | None, local: bool, *, brief: bool = False
) -> str:
    """What to say of a bare ``NAME`` that ``remote`` (fetching every branch) had no
    branch of at its last fetch (``main`` in a clone of a trunk repository): the close
    spellings here or the remote's default branch (as this clone names it: ``trunk``,
    else ``origin/trunk``), and the fetch only in case it is new there; a fetch makes
    ``REMOTE/NAME``, never ``NAME``. ``brief``: only that, beside a likelier meaning."""
    told = f"{remote} had no branch {name!r} at the last fetch"
    if brief:
        return told
    fetch = f"(if it is new there: git fetch {remote} {name}, then name it {remote}/{name})"
    if not near and default and default != name:
        near = f"{default if local else f'{remote}/{default}'} ({remote}'s default branch)"
    return f"{told}; did you mean {near}? {fetch}" if near else f"{told} {fetch}"


def fetch_hint(rev: str, remotes: Sequence[str], shallow: bool, *, maybe: bool = False) -> str:
    """The exact command that would make ``rev`` available; ``maybe``: ``rev`` may as
    well be a mistyped folder, so the fetch is only in case it is a revision."""
    fetch, tag = (
        ("if it is a branch not fetched yet:", "if it is a tag not fetched yet:")
        if maybe
        else ("fetch it first:", "fetch the tag first:")
    )
    if "/" in rev:
        remote, _, branch = rev.partition("/")
        if remote in remotes:
            return f"{fetch} git fetch {remote} {branch}"
    if re.fullmatch(r"v?\d+(\.\d+)*", rev):
        return f"{tag} git fetch {remotes[0] if remotes else 'origin'} tag {rev}"
    if shallow:
        return f"if it is a revision: {SHALLOW_HINT}" if maybe else SHALLOW_HINT
    if remotes:
        named, _, _ = rev.partition("/")
        if named != rev and named not in remotes:  # upstream/trunk, with no remote upstream
            return (
                f"no remote is named {named!r} (remotes: {', '.join(remotes)}): add it with "
                f"git remote add {named} URL && git fetch {named}; "
                f"{'if it is a branch not fetched yet:' if maybe else 'or fetch the branch:'} "
                f"git fetch {remotes[0]} {rev}"
            )
        return f"{fetch} git fetch {remotes[0]} {rev}"
    return "check the name with: git log --oneline --all"
