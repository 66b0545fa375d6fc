"""Released versions from release tags: a version counts once a release has shipped it.

On a trunk, versions are added and reshaped before any release; that breaks nobody. With
``--released tags`` a BASE message version is released only if some release tag reachable
from BASE has it (minus that release's unstable latest version, taken from the request
for responses). Findings then name the first release that shipped the version.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from kcompat.config import Config
from kcompat.diff.match import ReleasedFor
from kcompat.sources.git import GitRepo, Tag
from kcompat.sources.sides import Side, _source_path
from kcompat.spec.model import Message
from kcompat.spec.specfile import read_spec
from kcompat.spec.versions import Versions


def release_tags(repo: GitRepo, pattern: str) -> list[Tag]:
    """Tags that look like releases (``1.2.3``, ``v1.2.3`` by default; no ``-rc``), oldest
    version first."""
    regex = re.compile(pattern)
    chosen = [t for t in repo.tags() if regex.search(t.name)]
    return sorted(chosen, key=lambda t: _version_key(t.name))


def _version_key(name: str) -> tuple[tuple[int, ...], str]:
    numbers = tuple(int(n) for n in re.findall(r"\d+", name))
    return numbers, name


@dataclass
class TagReleases:
    """What each release tag shipped, read lazily and cached per tree and per blob."""

    repo: GitRepo
    tags: list[Tag]
    pathspecs: tuple[str, ...] = ()
    _trees: dict[str, dict[str, str]] = field(default_factory=dict)
    _by_basename: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    _blobs: dict[str, Message | None] = field(default_factory=dict)
    _reachable: dict[str, list[Tag]] = field(default_factory=dict)

    def reachable_from(self, sha: str) -> list[Tag]:
        """Release tags reachable from a commit, oldest release first."""
        if sha not in self._reachable:
            merged = self.repo.tags_merged_into(sha)
            self._reachable[sha] = [t for t in self.tags if t.name in merged]
        return self._reachable[sha]

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
            for path in tree:
                names.setdefault(PurePosixPath(path).name, []).append(path)
            self._by_basename[tag.sha] = names
        return tree

    def message_at(self, tag: Tag, path: str, name: str) -> Message | None:
        """The message called ``name`` at a tag: at ``path``, or in a same-named file."""
        tree = self._tree(tag)
        candidates = [path] if path in tree else []
        candidates += [
            p for p in self._by_basename[tag.sha].get(PurePosixPath(path).name, []) if p != path
        ]
        for candidate in candidates:
            message = self._message(tree[candidate], candidate)
            if message is not None and message.name == name:
                return message
        return None

    def _message(self, blob: str, path: str) -> Message | None:
        if blob not in self._blobs:
            data = self.repo._object(blob)
            self._blobs[blob] = read_spec(path, data).message if data is not None else None
        return self._blobs[blob]

    def released_at(self, tag: Tag, path: str, message: Message) -> Versions:
        """The versions of ``message`` that release ``tag`` shipped."""
        shipped = self.message_at(tag, path, message.name)
        if shipped is None:
            return Versions.none()
        versions = shipped.released_versions
        if shipped.kind == "response" and shipped.name.endswith("Response"):
            request_name = shipped.name.removesuffix("Response") + "Request"
            request_path = str(PurePosixPath(path).with_name(request_name + ".json"))
            request = self.message_at(tag, request_path, request_name)
            if request is not None and request.latest_version_unstable and request.valid_versions:
                top = request.valid_versions.highest
                versions = versions - Versions.of(top, top)
        return versions


class TagsReleased(ReleasedFor):
    """Released versions from release tags reachable from BASE."""

    def __init__(self, releases: TagReleases, base: Side) -> None:
        assert base.sha is not None
        self.releases = releases
        self.base = base
        self.reachable = releases.reachable_from(base.sha)
        self.first_release: dict[tuple[str, int], str] = {}

    def __call__(self, message: Message) -> tuple[Versions, str]:
        path = _source_path(self.base, message.path) or message.path
        shipped = Versions.none()
        for tag in self.reachable:
            at_tag = self.releases.released_at(tag, path, message)
            for version in at_tag.clip(4096) - shipped:
                self.first_release.setdefault((message.name, version), tag.name)
            shipped = shipped | at_tag
        released = message.valid_versions & shipped
        return released, "tags"

    def explain(self, message_name: str, versions: Versions) -> str:
        names = sorted(
            {
                self.first_release[(message_name, v)]
                for v in versions.clip(4096)
                if (message_name, v) in self.first_release
            },
            key=_version_key,
        )
        if not names:
            return "tags"
        return f"released in {names[0]}" if len(names) == 1 else f"released in {', '.join(names)}"


def tags_policy(base: Side, messages: Iterable[Message], config: Config) -> ReleasedFor:
    """``--released tags``: needs BASE to be a git revision with release tags."""
    from kcompat.diff.released import BaseReleased
    from kcompat.errors import UsageError

    if base.kind != "rev" or base.repo is None or base.sha is None:
        raise UsageError("--released tags needs BASE to be a git revision (tags come from git)")
    tags = release_tags(base.repo, config.release_tags)
    if not tags:
        return BaseReleased(messages)
    return TagsReleased(TagReleases(base.repo, tags), base)
