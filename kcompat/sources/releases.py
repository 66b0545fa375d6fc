"""What each release shipped, read from a :class:`~kcompat.sources.release_source.ReleaseSource`
(a repository's release tags, and optionally its release branches).

A version of a message is released when some release ships it: the release's spec has it
in ``validVersions``, less an unstable latest version (a response follows its request).
Kafka tags releases on release branches (``3.7`` -> ``3.7.0``) that are never merged back
into trunk, so every release tag in the repository counts, wherever it sits; a trunk
commit usually reaches none of them. Optionally, the tips of release branches count as
about to ship. The result is a :class:`~kcompat.rules.evolution.released.Releases` policy:
plain data the rules apply without git.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import PurePosixPath
from types import MappingProxyType
from typing import TYPE_CHECKING, Protocol, TypeVar

from kcompat.naming import release_order, request_name_for
from kcompat.rules.evolution.released import TAGS, Releases, Shipped
from kcompat.sources.git import GitRepo
from kcompat.sources.gitrefs import Tag
from kcompat.sources.release_source import GitReleases, git_releases
from kcompat.sources.release_texts import ReleaseText, ReleaseTexts
from kcompat.sources.source import SpecSource
from kcompat.spec.model import Message
from kcompat.spec.shape import signature_digest, wire_changes, wire_signature
from kcompat.spec.specfile import read_spec
from kcompat.spec.versions import Versions

if TYPE_CHECKING:
    from kcompat.cache import Cache


class _Named(Protocol):
    @property
    def name(self) -> str: ...


_Found = TypeVar("_Found", bound=_Named)


#: What releases shipped of one message: versions, first releases, first deprecations,
#: the (release, text) pairs behind each version, and what each release offers of it.
_Releases = tuple[
    Versions,
    tuple[tuple[int, str], ...],
    tuple[tuple[int, str], ...],
    dict[int, tuple[tuple[str, ReleaseText], ...]],
    tuple[tuple[str, str], ...],
]


@dataclass
class TagReleases:
    """What each release shipped, read lazily and cached per blob (one per repository)."""

    source: GitReleases  # the releases, and how their texts are read
    _trees: dict[str, dict[str, str]] = field(default_factory=dict)
    _by_basename: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    _messages: dict[bytes, Message | None] = field(default_factory=dict)
    _texts: ReleaseTexts = field(default_factory=ReleaseTexts)
    _at: dict[tuple[str, str, str], tuple[ReleaseText, Versions] | None] = field(
        default_factory=dict
    )
    _by_message: dict[tuple[str, str, tuple[Tag, ...]], _Releases] = field(default_factory=dict)
    # What the lineage search needs (see _renamed_at): the paths the compared revision
    # has, and the (type, apiKey) of its messages by name.
    _present_at: str | None = None  # the compared revision (its paths: _present)
    _present: dict[str, frozenset[str]] = field(default_factory=dict)
    _identity: dict[str, tuple[str, int]] = field(default_factory=dict)
    _roots: dict[str, str | None] = field(default_factory=dict)  # tag sha -> its root commit
    _containing: dict[str, set[str]] = field(default_factory=dict)  # commit -> refs with it

    @property
    def repo(self) -> GitRepo:
        return self.source.repo

    @property
    def tags(self) -> Sequence[Tag]:
        """The releases, oldest first."""
        return self.source.releases

    @property
    def pathspecs(self) -> tuple[str, ...]:
        return self.source.pathspecs

    def counted(
        self,
        base: SpecSource,
        head: SpecSource,
        messages: Sequence[tuple[str, Message, Message | None]] = (),
    ) -> tuple[Tag, ...]:
        """The releases a comparison is judged against: all of them, less those that
        already contain the change. A release contains it by ancestry (cut after it) or by
        content: it ships HEAD's layout of every version the change alters (a patch
        backported to 3.6.1 is in 3.7.0 too, which no commit of 3.6.1 is). HEAD itself,
        when it is a release, contains it."""
        self._present_at = base.commit
        tags = [t for t in self.tags if head.commit is None or t.sha != head.commit]
        if base.commit and head.commit and base.commit != head.commit:
            later = self.source.containing(base.commit, head.commit)
            tags = [t for t in tags if t.ref not in later]
        self.know(messages)
        changes = [
            (path, after, versions)
            for path, before, after in messages
            if after is not None
            and not (versions := _change_of(before, after)).empty
            and self._shipped_as(path, before, versions & before.valid_versions)
        ]
        if changes:
            tags = [t for t in tags if not self._contains(t, changes)]
        return tuple(tags)

    def _shipped_as(self, path: str, base: Message, versions: Versions) -> bool:
        """Whether some release shipped BASE's layout of every one of ``versions``. When
        BASE's layout never shipped (a trunk that had broken it), a release with HEAD's
        layout is the one HEAD restores, not one that contains the change."""
        for version in versions.clip(4096):
            own = signature_digest(wire_signature(base, version))
            if all(
                (found := self.released_at(tag, path, base.name)) is None
                or version not in found[0].valid_versions
                or self._texts.digest(found[0], version) != own
                for tag in self.tags
            ):
                return False
        return True

    def paths_at(self, sha: str) -> frozenset[str]:
        """The spec paths a revision has (under the releases' pathspecs)."""
        return frozenset(
            p for p in self.repo.list_files(sha, self.pathspecs) if p.endswith(".json")
        )

    def know(self, messages: Sequence[tuple[str, Message, Message | None]]) -> None:
        """Remember the (type, apiKey) of the compared messages (to follow renames)."""
        for _path, message, _head in messages:
            if message.api_key is not None:
                self._identity[message.name] = (message.kind, message.api_key)

    def _contains(self, tag: Tag, changes: Sequence[tuple[str, Message, Versions]]) -> bool:
        for path, head, versions in changes:
            found = self.released_at(tag, path, head.name)
            if found is None or not found[0].valid_versions.contains(versions):
                return False
            for version in versions.clip(4096):
                wanted = signature_digest(wire_signature(head, version))
                if self._texts.digest(found[0], version) != wanted:
                    return False
        return True

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
        data = self.source.read(tag, path)
        if data is not None:
            found = read(data, path)
            if found is not None:
                return found
        self._tree(tag)
        for candidate in self._by_basename[tag.sha].get(PurePosixPath(path).name, []):
            if candidate == path:
                continue
            data = self.source.read(tag, candidate)
            found = read(data, candidate) if data is not None else None
            if found is not None and found.name == name:
                return found
        return self._renamed_at(tag, path, name, read)

    def _renamed_at(
        self, tag: Tag, path: str, name: str, read: Callable[[bytes, str], _Found | None]
    ) -> _Found | None:
        """The message in a file the release had under another name (QuorumStateData
        shipped in 2.7.0 as ``QuorumState.json``): among the release's files that the
        compared revision no longer has, the one holding a message of that name, or of
        the same type and apiKey (an RPC renamed with its file)."""
        if self._present_at is None:
            return None
        present = self._present.get(self._present_at)
        if present is None:
            present = self._present[self._present_at] = self.paths_at(self._present_at)
        identity = self._identity.get(name)
        quoted = f'"{name}"'.encode()
        key_text = re.compile(rb'"apiKey"\s*:\s*%d\b' % identity[1]) if identity else None
        for candidate in sorted(self._tree(tag)):
            if candidate == path or candidate in present:
                continue
            data = self.source.read(tag, candidate)
            if data is None or not (
                quoted in data or (key_text is not None and key_text.search(data))
            ):
                continue
            found = read(data, candidate)
            if found is None:
                continue
            if found.name == name:
                return found
            message = self._message(data, candidate)
            if message is not None and identity == (message.kind, message.api_key):
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
        self,
        path: str,
        name: str,
        tags: Sequence[Tag],
        changed: Versions | None = None,
        base: Message | None = None,
    ) -> Shipped:
        """What ``tags`` shipped of the message in ``path`` (named ``name``): the versions
        and the first release of each, the layouts of the ``changed`` versions (all of
        them when not given; a comparison only asks about the versions it changes) and,
        given BASE's message, the first release that shipped BASE's layout of each."""
        versions, first, deprecated, carriers, offers = self._releases_of(path, name, tuple(tags))
        layouts: dict[tuple[int, str], str] = {}
        base_first: dict[int, str] = {}
        base_last: dict[int, str] = {}
        wanted = versions if changed is None else versions & changed
        for version in wanted.clip(4096):
            own = None
            if base is not None and version in base.valid_versions:
                own = signature_digest(wire_signature(base, version))
            for release, text in carriers.get(version, ()):
                digest = self._texts.digest(text, version)
                layouts.setdefault((version, digest), release)
                if digest == own:
                    base_first.setdefault(version, release)
                    base_last[version] = release
        return Shipped(
            versions,
            self._since(path, name, first),
            tuple((v, d, r) for (v, d), r in sorted(layouts.items())),
            deprecated=deprecated,
            base_first=self._since(path, name, tuple(sorted(base_first.items()))),
            last=tuple(
                (v, releases[-1][0]) for v, releases in sorted(carriers.items()) if releases
            ),
            base_last=tuple(sorted(base_last.items())),
            offers=offers,
        )

    def _since(
        self, path: str, name: str, firsts: tuple[tuple[int, str], ...]
    ) -> tuple[tuple[int, str], ...]:
        """``firsts`` with ``≤`` before the oldest release where the repository's history
        starts with the version already there (Kafka's history starts at 2.2; JoinGroup
        v0 dates from 0.9): an older release may have shipped it first."""
        if not self.tags or all(r != self.tags[0].name for _v, r in firsts):
            return firsts
        oldest = self.tags[0]
        root = self._roots.get(oldest.sha, "")
        if root == "":
            root = self._roots[oldest.sha] = self.source.root(oldest)
        at_root = self.text_at(Tag("(start of history)", root), path, name) if root else None
        there = at_root.valid_versions if at_root is not None else Versions.none()
        return tuple((v, f"≤ {r}" if r == oldest.name and v in there else r) for v, r in firsts)

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
        offers: list[tuple[str, str]] = []
        for tag in tags:
            at_tag = self.released_at(tag, path, name)
            if at_tag is None:
                continue
            text, shipped = at_tag
            offers.append((tag.name, str(shipped)))
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
            tuple(offers),
        )
        self._by_message[key] = found
        return found

    def _with_references(
        self, shipped: Shipped, path: str, base: Message, tags: Sequence[Tag], changed: Versions
    ) -> Shipped:
        """``shipped`` plus the release texts that BASE's diverged versions are judged by:
        for a version whose BASE layout no release shipped, the latest release *before*
        BASE that shipped it (a release cut after BASE, from a line that contains it,
        shipped another version under that number, which this change cannot break)."""
        wanted = [
            version
            for version in shipped.versions & base.valid_versions & changed
            if signature_digest(wire_signature(base, version)) not in shipped.digests(version)
        ]
        if not wanted:
            return shipped
        after = self._after_base()
        before = {t.name for t in tags if t.ref not in after}
        carriers = self._releases_of(path, base.name, tuple(tags))[3]
        references: list[tuple[int, str]] = []
        texts: dict[str, tuple[str, str, str]] = {}
        for version in wanted:
            earlier = [(r, text) for r, text in carriers.get(version, ()) if r in before]
            if earlier:
                release, text = earlier[-1]  # tags are in release order
                references.append((version, release))
                texts[release] = (release, text.path, text.data.decode("utf-8", "replace"))
        ordered = tuple(texts[r] for r in sorted(texts, key=release_order))
        return replace(shipped, references=tuple(references), texts=ordered)

    def _after_base(self) -> set[str]:
        """The refs that contain BASE (releases cut after it), when BASE is a commit."""
        if self._present_at is None:
            return set()
        found = self._containing.get(self._present_at)
        if found is None:
            found = self._containing[self._present_at] = self.repo.refs_containing(
                [self._present_at]
            )
        return found

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
        present_at: str | None = None,
    ) -> Releases:
        """The ``tags`` policy for BASE messages, given as (repository path, message, its
        HEAD counterpart or None); ``present_at``: BASE's commit, whose spec paths a
        release's file must not have to hold one of them under an old name."""
        self._present_at = present_at
        messages = list(messages)
        self.know(messages)
        shipped = {}
        for path, base, head in messages:
            changed = changed_versions(base, head)
            if head is not None:  # removed versions: whether BASE's layout shipped matters
                changed = changed | (base.valid_versions - head.valid_versions)
            found = self.shipped(path, base.name, tags, changed, base)
            shipped[base.name] = self._with_references(found, path, base, tags, changed)
        self._texts.save()
        later = len(self.tags) - len(tags)
        return Releases(
            TAGS, MappingProxyType(shipped), tags=tuple(t.name for t in tags), later=later
        )


def changed_versions(base: Message, head: Message | None) -> Versions:
    """The versions both revisions have whose layouts differ on the wire (names
    included; see :func:`~kcompat.spec.shape.wire_signature`)."""
    if head is None:
        return Versions.none()
    return wire_changes(base, head)  # once per pair of messages: counted, then policy


def _change_of(base: Message, head: Message) -> Versions:
    """The versions a change makes what they are: those it alters and those it adds."""
    added = head.valid_versions - base.valid_versions
    return changed_versions(base, head) | (added & Versions.of(0, 4095))


def releases_for(
    repo: GitRepo,
    pattern: str,
    branch_pattern: str | None = None,
    pathspecs: Sequence[str] = (),
    cache: Cache | None = None,
) -> TagReleases | None:
    """The releases of a repository, or None when it has none matching the patterns
    (what their texts say is kept between runs in ``cache``, when a command gives one)."""
    found = git_releases(repo, pattern, branch_pattern, pathspecs)
    if found is None:
        return None
    return TagReleases(found, _texts=ReleaseTexts(cache))
