"""What each release shipped, read from a :class:`~kcompat.sources.release_source.ReleaseSource`
(a repository's release tags, and optionally its release branches).

A version of a message is released when some release ships it: the release's spec has it
in ``validVersions``, less an unstable latest version (a response follows its request).
Kafka tags releases on release branches (``3.7`` -> ``3.7.0``) that are never merged back
into trunk, so every release tag in the repository counts, wherever it sits; a trunk
commit usually reaches none of them. Optionally, the tips of release branches count as
about to ship. The result is a :class:`~kcompat.spec.released.Releases` policy:
plain data the rules apply without git.

Which message of a release is the one compared (its :class:`Lineage`): the one of BASE's
or HEAD's name, found at the same path, under the same file name elsewhere, or in a file
the compared revision no longer has (a file renamed); for a request or a response, also
the one of the same apiKey (an API is its apiKey: ``ListOffsetRequest`` is today's
``ListOffsetsRequest``). A record renamed is another record (2.8.0's QuotaRecord is no
release of ClientQuotaRecord). Lineage only proposes: whether a release is broken is
decided by layouts (:func:`~kcompat.spec.shape.release_layout`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from types import MappingProxyType
from typing import TYPE_CHECKING, TypeVar

from kcompat.naming import companion_name_for, file_names_of
from kcompat.sources.compared import (
    Compared,
    Lineage,
    Named,
    api_layout,
    change_of,
    changed_versions,
)
from kcompat.sources.git import GitRepo
from kcompat.sources.gitrefs import Tag
from kcompat.sources.release_source import GitReleases, repository_releases
from kcompat.sources.release_texts import ReleaseText, ReleaseTexts
from kcompat.sources.source import SpecSource
from kcompat.spec.model import Message
from kcompat.spec.released import TAGS, Releases, Shipped
from kcompat.spec.specfile import read_spec
from kcompat.spec.versions import Versions

if TYPE_CHECKING:
    from kcompat.cache import Cache


_Found = TypeVar("_Found", bound=Named)


@dataclass(frozen=True)
class _Carrier:
    """A text that releases shipped of a message: the first release that shipped it (its
    other half is read from there), and the last (its position in release order, name)."""

    text: ReleaseText
    tag: Tag
    first: str
    until: tuple[int, str]


@dataclass
class _Group:
    """Releases that shipped one text of a message (being gathered): the text, the
    versions they shipped of it, and the first and last of them in release order."""

    text: ReleaseText
    shipped: Versions
    low: int
    high: int


#: What releases shipped of one message: versions, first releases, first deprecations,
#: the texts behind each version, and what each release offers of it (release, versions).
_Releases = tuple[
    Versions,
    tuple[tuple[int, str], ...],
    tuple[tuple[int, str], ...],
    dict[int, tuple[_Carrier, ...]],
    tuple[tuple[str, str], ...],
]


@dataclass
class TagReleases:
    """What each release shipped, read lazily and cached per blob (one per repository)."""

    source: GitReleases  # the releases, and how their texts are read
    _trees: dict[str, tuple[str, ...]] = field(default_factory=dict)
    _by_basename: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    _messages: dict[bytes, Message | None] = field(default_factory=dict)
    _texts: ReleaseTexts = field(default_factory=ReleaseTexts)
    _at: dict[tuple[object, str, Lineage], tuple[ReleaseText, Versions] | None] = field(
        default_factory=dict
    )
    _by_message: dict[tuple[str, Lineage, tuple[Tag, ...]], _Releases] = field(default_factory=dict)
    # What the lineage search needs (see _renamed_at): the paths the compared revision has.
    _present_at: str | None = None  # the compared revision (its paths: _present)
    _present: dict[str, frozenset[str]] = field(default_factory=dict)
    _roots: dict[str, str | None] = field(default_factory=dict)  # tag sha -> its root commit
    _companions: dict[tuple[str, str], ReleaseText | None] = field(default_factory=dict)
    _blob_texts: dict[str, ReleaseText | None] = field(default_factory=dict)
    _places: dict[tuple[str, str, str], tuple[str, ...]] = field(default_factory=dict)
    _digests: dict[tuple[str, str, int], str] = field(default_factory=dict)

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
        self, base: SpecSource, head: SpecSource, messages: Sequence[Compared] = ()
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
        changes = [
            (asked, versions)
            for asked in messages
            if asked.head is not None
            and not (versions := change_of(asked)).empty
            and self._shipped_as(asked, versions & asked.base.valid_versions)
        ]
        if changes:
            tags = [t for t in tags if not self._contains(t, changes)]
        return tuple(tags)

    def _shipped_as(self, asked: Compared, versions: Versions) -> bool:
        """Whether some release shipped BASE's layout of every one of ``versions``. When
        BASE's layout never shipped (a trunk that had broken it), a release with HEAD's
        layout is the one HEAD restores, not one that contains the change."""
        for version in versions.clip(4096):
            own = api_layout(asked.base, asked.base_companion, version)
            if all(
                (found := self.released_at(tag, asked.path, asked.lineage)) is None
                or version not in found[0].valid_versions
                or self._digest(tag, found[0], version) != own
                for tag in self.tags
            ):
                return False
        return True

    def paths_at(self, sha: str) -> frozenset[str]:
        """The spec paths a revision has (under the releases' pathspecs)."""
        return frozenset(
            p for p in self.repo.list_files(sha, self.pathspecs) if p.endswith(".json")
        )

    def _contains(self, tag: Tag, changes: Sequence[tuple[Compared, Versions]]) -> bool:
        for asked, versions in changes:
            assert asked.head is not None
            found = self.released_at(tag, asked.path, asked.lineage)
            if found is None or not found[0].valid_versions.contains(versions):
                return False
            for version in versions.clip(4096):
                wanted = api_layout(asked.head, asked.head_companion, version)
                if self._digest(tag, found[0], version) != wanted:
                    return False
        return True

    def _digest(self, tag: Tag, text: ReleaseText, version: int) -> str:
        """:func:`api_layout` of a version as ``tag`` shipped it (its other half read from
        the same release)."""
        companion = self._companion_at(tag, text)
        key = (text.key, companion.key if companion is not None else "", version)
        found = self._digests.get(key)
        if found is None:
            found = self._texts.digest(text, version)
            if companion is not None and version in companion.valid_versions:
                found = f"{found}+{self._texts.digest(companion, version, tagged=False)}"
            self._digests[key] = found
        return found

    def _companion_at(self, tag: Tag, text: ReleaseText) -> ReleaseText | None:
        """The other half of a release's request or response (beside it under Kafka's
        or a snake_case file name, else found by name or apiKey)."""
        key = (tag.sha, text.key)
        if key in self._companions:
            return self._companions[key]
        found = None
        other = companion_name_for(text.name, text.kind)
        if other is not None:
            kind = "response" if text.kind == "request" else "request"
            lineage = Lineage((other,), (kind, text.api_key) if text.api_key is not None else None)
            names = file_names_of(other)
            beside = [str(PurePosixPath(text.path).with_name(n)) for n in names]
            found = next(
                (t for p in beside[1:] if (t := self._at_path(tag, p, lineage)) is not None),
                None,
            ) or self.text_at(tag, beside[0], lineage)
        self._companions[key] = found
        return found

    def _at_path(self, tag: Tag, path: str, lineage: Lineage) -> ReleaseText | None:
        """The text at exactly ``path`` in a release, if it holds ``lineage``'s message."""
        data = self.source.read(tag, path)
        found = self._texts.text(data, path) if data is not None else None
        return found if found is not None and lineage.holds(found) else None

    def message_at(self, tag: Tag, path: str, lineage: Lineage) -> Message | None:
        """The message of ``lineage`` at a release: in the file at ``path``, under the
        same file name elsewhere, or in a file the compared revision no longer has."""
        return self._found_at(tag, path, lineage, self._message)

    def text_at(self, tag: Tag, path: str, lineage: Lineage) -> ReleaseText | None:
        """What the ledger needs of :meth:`message_at` (kept between runs)."""
        return self._found_at(tag, path, lineage, self._texts.text)

    def _found_at(
        self, tag: Tag, path: str, lineage: Lineage, read: Callable[[bytes, str], _Found | None]
    ) -> _Found | None:
        data = self.source.read(tag, path)
        if data is not None:
            found = read(data, path)
            if found is not None and lineage.holds(found):
                return found
        self._tree(tag)
        for candidate in self._by_basename[tag.sha].get(PurePosixPath(path).name, []):
            if candidate == path:
                continue
            data = self.source.read(tag, candidate)
            found = read(data, candidate) if data is not None else None
            if found is not None and lineage.holds(found):
                return found
        return self._renamed_at(tag, path, lineage, read)

    def _renamed_at(
        self, tag: Tag, path: str, lineage: Lineage, read: Callable[[bytes, str], _Found | None]
    ) -> _Found | None:
        """The message in a file the release had under another name (QuorumStateData
        shipped in 2.7.0 as ``QuorumState.json``): among the release's files that the
        compared revision no longer has, the one holding a message of the lineage (an RPC
        renamed with its file keeps its apiKey)."""
        if self._present_at is None:
            return None
        present = self._present.get(self._present_at)
        if present is None:
            present = self._present[self._present_at] = self.paths_at(self._present_at)
        quoted = [f'"{name}"'.encode() for name in lineage.names]
        api = lineage.api
        key_text = re.compile(rb'"apiKey"\s*:\s*%d\b' % api[1]) if api is not None else None
        for candidate in sorted(self._tree(tag)):
            if candidate == path or candidate in present:
                continue
            data = self.source.read(tag, candidate)
            if data is None or not (
                any(q in data for q in quoted) or (key_text is not None and key_text.search(data))
            ):
                continue
            found = read(data, candidate)
            if found is not None and lineage.holds(found):
                return found
        return None

    def released_at(
        self, tag: Tag, path: str, lineage: Lineage
    ) -> tuple[ReleaseText, Versions] | None:
        """The message a release shipped (its text) and the versions it shipped of it."""
        key = (self._content(tag, path, lineage), path, lineage)
        if key not in self._at:
            self._at[key] = self._released_at(tag, path, lineage)
        return self._at[key]

    def _content(self, tag: Tag, path: str, lineage: Lineage) -> object:
        """What decides what ``tag`` shipped of ``lineage``'s message, as a key: the blob at
        ``path`` and those beside it where its other half goes, when the message is there
        (most releases ship most files unchanged: each distinct one is read once); else
        the release itself."""
        blob = self.source.blob(tag, path)
        if not isinstance(blob, str):
            return tag.sha
        text = self._blob_text(blob, path)
        if text is None or not lineage.holds(text):
            return tag.sha
        places = self._beside(path, text)
        if not places:
            return (blob,)
        beside = tuple(self.source.blob(tag, place) for place in places)
        return (blob, *beside) if any(isinstance(b, str) for b in beside) else tag.sha

    def _beside(self, path: str, text: ReleaseText) -> tuple[str, ...]:
        """Where the other half of ``text``'s API goes beside ``path`` (Kafka's file name,
        then snake_case); none for a record (worked out once per path and name)."""
        key = (path, text.name, text.kind)
        found = self._places.get(key)
        if found is None:
            other = companion_name_for(text.name, text.kind)
            names = file_names_of(other) if other is not None else ()
            found = tuple(str(PurePosixPath(path).with_name(name)) for name in names)
            self._places[key] = found
        return found

    def _blob_text(self, blob: str, path: str) -> ReleaseText | None:
        if blob not in self._blob_texts:
            data = self.repo.read_blob(blob, path)
            self._blob_texts[blob] = self._texts.text(data, path) if data is not None else None
        return self._blob_texts[blob]

    def _released_at(
        self, tag: Tag, path: str, lineage: Lineage
    ) -> tuple[ReleaseText, Versions] | None:
        shipped = self.text_at(tag, path, lineage)
        if shipped is None:
            return None
        versions = shipped.released_versions
        if shipped.kind == "response":
            request = self._companion_at(tag, shipped)
            if request is not None and request.latest_version_unstable and request.valid_versions:
                top = request.valid_versions.highest
                versions = versions - Versions.of(top, top)
        return shipped, versions

    def shipped(
        self, asked: Compared, tags: Sequence[Tag], changed: Versions | None = None
    ) -> Shipped:
        """What ``tags`` shipped of a compared message: the versions and the first release
        of each, the layouts of the ``changed`` versions (all of them when not given; a
        comparison only asks about the versions it changes), and the first release that
        shipped BASE's layout of each, and HEAD's."""
        path, lineage, base, head = asked.path, asked.lineage, asked.base, asked.head
        versions, first, deprecated, carriers, offers = self._releases_of(
            path, lineage, tuple(tags)
        )
        layouts: dict[tuple[int, str], str] = {}
        base_first: dict[int, str] = {}
        base_last: dict[int, tuple[int, str]] = {}
        head_first: dict[int, str] = {}
        wanted = versions if changed is None else versions & changed
        for version in wanted.clip(4096):
            own = theirs = None
            if version in base.valid_versions:
                own = api_layout(base, asked.base_companion, version)
            if head is not None and version in head.valid_versions:
                theirs = api_layout(head, asked.head_companion, version)
            for carrier in carriers.get(version, ()):  # in the order of their first release
                digest = self._digest(carrier.tag, carrier.text, version)
                layouts.setdefault((version, digest), carrier.first)
                if digest == own:
                    base_first.setdefault(version, carrier.first)
                    if carrier.until[0] > base_last.get(version, (-1, ""))[0]:
                        base_last[version] = carrier.until
                if digest == theirs:
                    head_first.setdefault(version, carrier.first)
        last = {
            v: max((c.until for c in found), key=lambda until: until[0])[1]
            for v, found in carriers.items()
            if found
        }
        return Shipped(
            versions,
            self._since(path, lineage, first),
            tuple((v, d, r) for (v, d), r in sorted(layouts.items())),
            deprecated=deprecated,
            base_first=self._since(path, lineage, tuple(sorted(base_first.items()))),
            last=tuple(sorted(last.items())),
            base_last=tuple((v, until[1]) for v, until in sorted(base_last.items())),
            head_first=tuple(sorted(head_first.items())),
            offers=offers,
        )

    def _since(
        self, path: str, lineage: Lineage, firsts: tuple[tuple[int, str], ...]
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
        at_root = self.text_at(Tag("(start of history)", root), path, lineage) if root else None
        there = at_root.valid_versions if at_root is not None else Versions.none()
        return tuple((v, f"≤ {r}" if r == oldest.name and v in there else r) for v, r in firsts)

    def _releases_of(self, path: str, lineage: Lineage, tags: tuple[Tag, ...]) -> _Releases:
        """The versions ``tags`` (in release order) shipped of a message, each one's first
        release and first deprecation, and the texts that shipped each version, each once
        with the first and last release that shipped it (memoised: an audit asks about one
        message and one set of releases in many comparisons)."""
        key = (path, lineage, tags)
        found = self._by_message.get(key)
        if found is not None:
            return found
        groups: dict[object, _Group | None] = {}  # by content, in order of first release
        offered: list[tuple[str, _Group]] = []  # each release that has the message
        for index, tag in enumerate(tags):
            content = self._content(tag, path, lineage)
            if content in groups:
                group = groups[content]
                if group is not None:
                    group.high = index
            else:
                at_tag = self.released_at(tag, path, lineage)
                group = groups[content] = _Group(*at_tag, index, index) if at_tag else None
            if group is not None:
                offered.append((tag.name, group))
        said = {id(g): str(g.shipped) for g in groups.values() if g is not None}
        offers = [(release, said[id(group)]) for release, group in offered]
        versions = Versions.none()
        first: dict[int, str] = {}
        deprecated: dict[int, str] = {}
        carriers: dict[int, list[_Carrier]] = {}
        for group in groups.values():
            if group is None:
                continue
            text, shipped, low, high = group.text, group.shipped, group.low, group.high
            carrier = _Carrier(text, tags[low], tags[low].name, (high, tags[high].name))
            for version in shipped.clip(4096):
                first.setdefault(version, carrier.first)
                carriers.setdefault(version, []).append(carrier)
            for version in (text.deprecated_versions & text.valid_versions).clip(4096):
                deprecated.setdefault(version, carrier.first)
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

    def _tree(self, tag: Tag) -> Sequence[str]:
        """The ``.json`` paths of a release (and by file name), listed once."""
        tree = self._trees.get(tag.sha)
        if tree is None:
            tree = self._trees[tag.sha] = tuple(self.source.files(tag))
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
        self, messages: Iterable[Compared], tags: Sequence[Tag], present_at: str | None = None
    ) -> Releases:
        """The ``tags`` policy for the compared BASE messages; ``present_at``: BASE's
        commit, whose spec paths a release's file must not have to hold one of them under
        an old name."""
        self._present_at = present_at
        shipped = {}
        for asked in messages:
            changed = changed_versions(asked.base, asked.head)
            shipped[asked.base.name] = self.shipped(asked, tags, changed)
        self._texts.save()
        later = len(self.tags) - len(tags)
        return Releases(
            TAGS, MappingProxyType(shipped), tags=tuple(t.name for t in tags), later=later
        )


def releases_for(
    repo: GitRepo,
    pattern: str,
    branch_pattern: str | None = None,
    pathspecs: Sequence[str] = (),
    cache: Cache | None = None,
    probes: Sequence[str] = (),
) -> TagReleases | None:
    """The releases of a repository, or None when it has none matching the patterns
    (what their texts say is kept between runs in ``cache``, when a command gives one;
    ``probes``: the paths a comparison reads, where releases most likely hold specs)."""
    found = repository_releases(repo, pattern, branch_pattern, pathspecs, probes)
    if found is None:
        return None
    return TagReleases(found, _texts=ReleaseTexts(cache))
