"""Symbolic links git holds: their text is the path they name, never a spec.

git stores a link (mode 120000) as a blob holding the path it points at. Reading that
blob as a spec would parse a path ("does not parse", "not specs: templates?"), and a
link whose text happened to parse would be judged while the checkout, which follows it,
holds something else. So the git layer hands a link's blob over as :class:`LinkText`:
the same bytes, marked, so that :mod:`kcompat.sources.reading` names the file as the link
it is (:func:`~kcompat.spec.specfile.linked_spec`) and nothing reads through it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

#: The mode git gives a symbolic link: its blob is the path it names.
LINK_MODE = "120000"

#: The longest path a link can name on disk (PATH_MAX, its NUL included): a longer blob
#: is no link anything could follow, so git is not asked about it.
PATH_MAX = 4096


class LinkText(bytes):
    """The blob of a symbolic link git holds: the path it names (never followed)."""

    __slots__ = ()


def could_be_link(data: bytes) -> bool:
    """Whether ``data`` could be a link's text (short, no NUL): only then is git asked
    the file's mode, so a spec of ordinary size costs no question."""
    return len(data) < PATH_MAX and b"\x00" not in data


@dataclass
class LinkModes:
    """Which files git holds as links, per commit (or the index), as listings named them.

    The git layer notes each mode its listings show (``ls-tree``, the raw diff,
    ``ls-files -s``) and asks git only for a short file it read by name."""

    _links: dict[tuple[str, str], bool] = field(default_factory=dict)
    _indexes: set[str] = field(default_factory=set)  # the index's listings noted whole

    def note(self, at: str, path: str, mode: str | bool) -> None:
        """``path`` at ``at`` has ``mode`` (git's octal mode, or whether it is a link)."""
        self._links[(at, path)] = mode is True or mode == LINK_MODE

    def note_index(self, at: str, listing: str) -> None:
        """Every stage-0 entry of ``ls-files -s -z``'s ``listing``, noted at ``at``."""
        self._indexes.add(at)
        for entry in listing.split("\x00"):
            meta, _, name = entry.partition("\t")
            parts = meta.split()
            if len(parts) == 3 and parts[2] == "0":
                self.note(at, name, parts[0])

    def indexed(self, at: str) -> bool:
        """Whether the whole index was noted at ``at`` (asked once per run)."""
        return at in self._indexes

    def marked(
        self, at: str, path: str, data: bytes | None, ask: Callable[[], object]
    ) -> bytes | None:
        """``data`` as :class:`LinkText` when ``path`` at ``at`` is a link: its text is a
        path and must reach no parser. ``ask`` lists the file's mode when no listing
        named it (only for data that could be a link)."""
        if data is None or not could_be_link(data):
            return data
        if (at, path) not in self._links:
            ask()
        return LinkText(data) if self._links.get((at, path), False) else data
