"""What each release shipped, read from git: release tags (and optionally release branches).

A version of a message is released when some release ships it: the release's spec has it
in ``validVersions``, less an unstable latest version (a response follows its request).
Kafka tags releases on release branches (``3.7`` -> ``3.7.0``) that are never merged back
into trunk, so every release tag in the repository counts, wherever it sits; a trunk
commit usually reaches none of them. Optionally, the tips of release branches count as
about to ship. The result is a :class:`~kcompat.rules.evolution.released.Releases` policy:
plain data the rules apply without git.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import PurePosixPath
from types import MappingProxyType
from typing import TYPE_CHECKING, Protocol, TypeVar

from kcompat.naming import release_order, request_name_for
from kcompat.patterns import matching
from kcompat.rules.evolution.released import TAGS, Releases, Shipped
from kcompat.sources.git import GitRepo, Tag
from kcompat.sources.release_texts import ReleaseText, ReleaseTexts
from kcompat.sources.sides import Side
from kcompat.spec.model import Message
from kcompat.spec.shape import signature_digest, version_signature
from kcompat.spec.specfile import read_spec
from kcompat.spec.versions import Versions

if TYPE_CHECKING:
    from kcompat.cache import Cache


class _Named(Protocol):
    @property
    def name(self) -> str: ...


_Found = TypeVar("_Found", bound=_Named)


def release_tags(repo: GitRepo, pattern: str) -> list[Tag]:
    """Tags that look like releases (``1.2.3``, ``v1.2.3`` by default; no ``-rc``), oldest
    release first."""
    chosen = matching(pattern, repo.tags(), _name, "release-tags")
    return sorted(chosen, key=lambda t: release_order(t.name))


def release_branches(repo: GitRepo, pattern: str) -> list[Tag]:
    """Tips of branches (local or remote-tracking) whose short name matches ``pattern``,
    as releases about to ship (named ``3.9 (branch)``), oldest first."""
    tips: dict[str, Tag] = {}
    for branch in matching(pattern, repo.branches(), _name, "release-branches"):
        tips.setdefault(branch.name, Tag(f"{branch.name} (branch)", branch.sha, branch.ref))
    return sorted(tips.values(), key=lambda t: release_order(t.name))


#: What releases shipped of one message: versions, first releases, first deprecations,
#: and the (release, text) pairs behind each version.
_Releases = tuple[
    Versions,
    tuple[tuple[int, str], ...],
    tuple[tuple[int, str], ...],
    dict[int, tuple[tuple[str, ReleaseText], ...]],
]


@dataclass
class TagReleases:
    """What each release shipped, read lazily and cached per blob (one per repository)."""

    repo: GitRepo
    tags: list[Tag]
    pathspecs: tuple[str, ...] = ()
    _trees: dict[str, dict[str, str]] = field(default_factory=dict)
    _by_basename: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    _messages: dict[bytes, Message | None] = field(default_factory=dict)
    _texts: ReleaseTexts = field(default_factory=ReleaseTexts)
    _at: dict[tuple[str, str, str], tuple[ReleaseText, Versions] | None] = field(
        default_factory=dict
    )
    _by_message: dict[tuple[str, str, tuple[Tag, ...]], _Releases] = field(default_factory=dict)

    def counted(self, base: Side, head: Side) -> tuple[Tag, ...]:
        """The releases a comparison is judged against: all of them, less those that
        already contain the change (made after it, they cannot be broken by it)."""
        if base.kind != "rev" or head.kind != "rev" or base.sha is None or head.sha is None:
            return tuple(self.tags)
        if base.sha == head.sha:
            return tuple(self.tags)
        later = self.repo.refs_with(base.sha, head.sha)
        return tuple(t for t in self.tags if t.ref not in later)

    def message_at(self, tag: Tag, path: str, name: str) -> Message | None:
        """The message called ``name`` at a release: in the file at ``path`` (whatever it
        was called then: a file keeps its message), or in a same-named file elsewhere."""
        return self._found_at(tag, path, name, self._message)

    def text_at(self, tag: Tag, path: str, name: str) -> ReleaseText | None:
        """What the ledger needs of :meth:`message_at` (kept between runs)."""
        return self._found_at(tag, path, name, self._texts.text)

    def _found_at(
        self, tag: Tag, path: str, name: str, read: Callable[[bytes, str], _Found | None]
    ) -> _Found | None:
        data = self.repo.read_at(tag.sha, path)
        if data is not None:
            found = read(data, path)
            if found is not None:
                return found
        self._tree(tag)
        for candidate in self._by_basename[tag.sha].get(PurePosixPath(path).name, []):
            if candidate == path:
                continue
            data = self.repo.read_at(tag.sha, candidate)
            found = read(data, candidate) if data is not None else None
            if found is not None and found.name == name:
                return found
        return None

    def released_at(self, tag: Tag, path: str, name: str) -> tuple[ReleaseText, Versions] | None:
        """The message a release shipped (its text) and the versions it shipped of it."""
        key = (tag.sha, path, name)
        if key not in self._at:
            self._at[key] = self._released_at(tag, path, name)
        return self._at[key]

    def _released_at(self, tag: Tag, path: str, name: str) -> tuple[ReleaseText, Versions] | None:
        shipped = self.text_at(tag, path, name)
        if shipped is None:
            return None
        versions = shipped.released_versions
        request_name = request_name_for(shipped.name)
        if shipped.kind == "response" and request_name is not None:
            request_path = str(PurePosixPath(path).with_name(request_name + ".json"))
            request = self.text_at(tag, request_path, request_name)
            if request is not None and request.latest_version_unstable and request.valid_versions:
                top = request.valid_versions.highest
                versions = versions - Versions.of(top, top)
        return shipped, versions

    def shipped(
        self, path: str, name: str, tags: Sequence[Tag], changed: Versions | None = None
    ) -> Shipped:
        """What ``tags`` shipped of the message in ``path`` (named ``name``): the versions
        and the first release of each, and the layouts of the ``changed`` versions (all
        of them when not given; a comparison only asks about the versions it changes)."""
        versions, first, deprecated, carriers = self._releases_of(path, name, tuple(tags))
        layouts: dict[tuple[int, str], str] = {}
        wanted = versions if changed is None else versions & changed
        for version in wanted.clip(4096):
            for release, text in carriers.get(version, ()):
                layouts.setdefault((version, self._texts.digest(text, version)), release)
        return Shipped(
            versions,
            first,
            tuple((v, d, r) for (v, d), r in sorted(layouts.items())),
            deprecated=deprecated,
        )

    def _releases_of(self, path: str, name: str, tags: tuple[Tag, ...]) -> _Releases:
        """The versions ``tags`` shipped of a message, each one's first release and first
        deprecation, and the (release, message) pairs that shipped each version (memoised:
        an audit asks about one message and one set of releases in many comparisons)."""
        key = (path, name, tags)
        found = self._by_message.get(key)
        if found is not None:
            return found
        versions = Versions.none()
        first: dict[int, str] = {}
        deprecated: dict[int, str] = {}
        carriers: dict[int, list[tuple[str, ReleaseText]]] = {}
        for tag in tags:
            at_tag = self.released_at(tag, path, name)
            if at_tag is None:
                continue
            text, shipped = at_tag
            for version in shipped.clip(4096):
                first.setdefault(version, tag.name)
                carriers.setdefault(version, []).append((tag.name, text))
            for version in (text.deprecated_versions & text.valid_versions).clip(4096):
                deprecated.setdefault(version, tag.name)
            versions = versions | shipped
        found = (
            versions,
            tuple(sorted(first.items())),
            tuple(sorted(deprecated.items())),
            {v: tuple(c) for v, c in carriers.items()},
        )
        self._by_message[key] = found
        return found

    def _with_references(
        self, shipped: Shipped, path: str, base: Message, tags: Sequence[Tag], changed: Versions
    ) -> Shipped:
        """``shipped`` plus the release texts that BASE's diverged versions are judged by
        (only the ``changed`` ones can need it)."""
        references: list[tuple[int, str]] = []
        for version in shipped.versions & base.valid_versions & changed:
            # BASE's message is not cached here: its id may be reused, so no _digest memo
            if signature_digest(version_signature(base, version)) in shipped.digests(version):
                continue
            release = shipped.latest_release(version)
            if release is not None:
                references.append((version, release))
        if not references:
            return shipped
        texts = []
        by_name = {t.name: t for t in tags}
        for release in sorted({r for _, r in references}, key=release_order):
            found = self.released_at(by_name[release], path, base.name)
            if found is not None:
                text = found[0]
                texts.append((release, text.path, text.data.decode("utf-8", "replace")))
        return replace(shipped, references=tuple(references), texts=tuple(texts))

    def _tree(self, tag: Tag) -> dict[str, str]:
        tree = self._trees.get(tag.sha)
        if tree is None:
            tree = {
                p: b
                for p, b in self.repo.list_files(tag.sha, self.pathspecs).items()
                if p.endswith(".json")
            }
            self._trees[tag.sha] = tree
            names: dict[str, list[str]] = {}
            for file in tree:
                names.setdefault(PurePosixPath(file).name, []).append(file)
            self._by_basename[tag.sha] = names
        return tree

    def _message(self, data: bytes, path: str) -> Message | None:
        # Parsed once per distinct text: most releases ship a file unchanged.
        if data not in self._messages:
            self._messages[data] = read_spec(path, data).message
        return self._messages[data]

    def policy(
        self,
        messages: Iterable[tuple[str, Message, Message | None]],
        tags: Sequence[Tag],
    ) -> Releases:
        """The ``tags`` policy for BASE messages, given as (repository path, message, its
        HEAD counterpart or None)."""
        shipped = {}
        for path, base, head in messages:
            changed = changed_versions(base, head)
            found = self.shipped(path, base.name, tags, changed)
            shipped[base.name] = self._with_references(found, path, base, tags, changed)
        self._texts.save()
        later = len(self.tags) - len(tags)
        return Releases(
            TAGS, MappingProxyType(shipped), tags=tuple(t.name for t in tags), later=later
        )


def changed_versions(base: Message, head: Message | None) -> Versions:
    """The versions both revisions have whose layouts differ (names included)."""
    if head is None:
        return Versions.none()
    numbers = [
        v
        for v in (base.valid_versions & head.valid_versions).clip(4096)
        if version_signature(base, v) != version_signature(head, v)
    ]
    return Versions.from_ranges((v, v) for v in numbers)


def releases_for(
    repo: GitRepo,
    pattern: str,
    branch_pattern: str | None = None,
    pathspecs: Sequence[str] = (),
    cache: Cache | None = None,
) -> TagReleases | None:
    """The releases of a repository, or None when it has none matching the patterns
    (what their texts say is kept between runs in ``cache``, when a command gives one)."""
    tags = release_tags(repo, pattern)
    if branch_pattern:
        tags = sorted([*tags, *release_branches(repo, branch_pattern)], key=_tag_order)
    if not tags:
        return None
    return TagReleases(repo, tags, tuple(pathspecs), _texts=ReleaseTexts(cache))


def _name(tag: Tag) -> str:
    return tag.name


def _tag_order(tag: Tag) -> tuple[tuple[int, ...], str]:
    return release_order(tag.name)
