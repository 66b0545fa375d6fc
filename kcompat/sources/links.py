"""Symbolic links git holds: their text is the path they name, never a spec.

git stores a link (mode 120000) as a blob holding the path it points at. Reading that
blob as a spec would parse a path ("does not parse", "not specs: templates?"), and a
link whose text happened to parse would be judged while the checkout, which follows it,
holds something else. So the git layer hands a link's blob over as :class:`LinkText`:
the same bytes, marked, so that :mod:`kcompat.sources.reading` names the file as the link
it is (:func:`~kcompat.spec.specfile.linked_spec`) and nothing reads through it.
"""

from __future__ import annotations

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
