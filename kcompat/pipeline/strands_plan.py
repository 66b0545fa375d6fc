"""The driver's plan of ``kcompat strands``: every commit of a line (trunk) that
changed a request spec, what request specs each one holds, their distinct texts, and the
client releases to judge against each commit.

Git is asked twice for the whole line, not once per commit: ``git log --first-parent
--raw`` lists what each commit changed, applied in order to the state before the range
(``git ls-tree`` of its start), so a line of ten thousand commits costs two processes and
one read of each distinct text (``git cat-file --batch``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from kcompat.errors import UsageError
from kcompat.matrix.read import ApiReader, looks_like_request
from kcompat.matrix.releases import ReleaseSide, Span, spec_releases
from kcompat.negotiation.apis import ReleaseApis
from kcompat.sources.git import GitRepo
from kcompat.sources.gitwalk import first_parent_changes, subjects

#: A commit's request specs: (path, text digest), by path.
Tree = tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class TrunkPlan:
    """What the Spark stages need, as plain data (it travels in their closures)."""

    commits: tuple[str, ...]  # SHAs, oldest first: each changed some request spec
    subjects: tuple[str, ...]  # each commit's subject line
    trees: tuple[Tree, ...]  # per commit, its request specs
    texts: dict[str, bytes]  # digest -> text, each distinct text once
    clients: tuple[ReleaseApis, ...]  # the client releases, oldest first
    notes: tuple[str, ...] = ()

    def labels(self) -> tuple[str, ...]:
        return tuple(sha[:12] for sha in self.commits)


def digest_of(text: bytes) -> str:
    return hashlib.blake2b(text, digest_size=16).hexdigest()


def plan_trunk(
    repo: GitRepo,
    revision_range: str | None,
    pathspecs: Sequence[str],
    is_fixture: Callable[[str], bool],
    tags_pattern: str,
    clients_span: Span | None,
) -> TrunkPlan:
    """The plan, or a :class:`UsageError` (no release to judge, no commit to judge)."""
    clients, notes = client_releases(repo, tags_pattern, clients_span, pathspecs, is_fixture)
    start, rev_args = _range(repo, revision_range)
    state: dict[str, str] = {}  # path -> blob, request candidates only
    if start is not None:
        state = {
            path: blob
            for path, blob in repo.list_files(start, pathspecs).items()
            if _candidate(path, is_fixture)
        }
    texts: dict[str, bytes] = {}
    digests: dict[str, str | None] = {}  # blob -> digest (None: no request)
    commits: list[str] = []
    trees: list[Tree] = []
    for commit, changes in first_parent_changes(repo, rev_args, pathspecs):
        touched = False
        for path, blob in changes:
            if not _candidate(path, is_fixture):
                continue
            touched = True
            if blob is None:
                state.pop(path, None)
            else:
                state[path] = blob
        if not touched:
            continue
        tree = []
        for path, blob in sorted(state.items()):
            if blob not in digests:
                data = repo.read_at(commit, path)
                digest = None
                if data is not None and looks_like_request(data):
                    digest = digest_of(data)
                    texts.setdefault(digest, data)
                digests[blob] = digest
            found = digests[blob]
            if found is not None:
                tree.append((path, found))
        commits.append(commit)
        trees.append(tuple(tree))
    if not commits:
        raise UsageError(
            f"{revision_range or 'HEAD'}: no commit on its first-parent line changes a spec "
            f"({', '.join(pathspecs) or 'the whole tree'}); give a wider --range"
        )
    said = subjects(repo, commits)
    return TrunkPlan(
        tuple(commits),
        tuple(said.get(c, "") for c in commits),
        tuple(trees),
        texts,
        clients,
        tuple(notes),
    )


def client_releases(
    repo: GitRepo,
    pattern: str,
    span: Span | None,
    pathspecs: Sequence[str],
    is_fixture: Callable[[str], bool],
) -> tuple[tuple[ReleaseApis, ...], list[str]]:
    """The release tags that hold request specs (within ``span``), read as clients."""
    releases = spec_releases(repo, pattern, pathspecs)
    if not releases.tagged:
        raise UsageError(
            f"{repo.root}: no release tags (none matches release-tags {pattern!r}): tag "
            "the releases, or set release-tags in kcompat.toml (or --tags)"
        )
    tags = releases.releases
    wanted = set(span.chosen([t.name for t in tags])) if span is not None and tags else None
    reader = ApiReader(pathspecs, is_fixture)
    found = []
    for tag in tags:
        if wanted is None or tag.name in wanted:
            assert releases.source is not None  # there are releases
            release = reader.release(tag.name, ReleaseSide(releases.source, tag))
            if release.apis:
                found.append(release)
    if not found:
        raise UsageError(
            f"{repo.root}: none of the {len(releases.tagged)} release tags holds a request "
            "spec with an apiKey; set paths in kcompat.toml"
        )
    return tuple(found), [f"{path}: not readable, left out" for path in reader.unreadable]


def _range(repo: GitRepo, revision_range: str | None) -> tuple[str | None, list[str]]:
    """(the commit before the range, or None from the root; git's revision arguments)."""
    spec = revision_range or "HEAD"
    if ".." not in spec:
        return None, [repo.resolve(spec)]
    first, _, last = spec.partition("..")
    end = repo.resolve(last or "HEAD")
    if not first:
        return None, [end]
    start = repo.resolve(first)
    return start, [f"{start}..{end}"]


def _candidate(path: str, is_fixture: Callable[[str], bool]) -> bool:
    return path.endswith(".json") and not is_fixture(path)
