"""Moved to :mod:`kcompat.spec.released` (the model: plain data the rules read); this name
stays for code written against it before the move (issue 34)."""

from kcompat.spec.released import BASE, TAGS, Releases, Shipped

__all__ = ["BASE", "TAGS", "Releases", "Shipped"]
