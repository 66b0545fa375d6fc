"""Moved to :mod:`kcompat.spec.ledger` (the model: plain data the rules read); this name
stays for code written against it before the move (issue 34)."""

from kcompat.spec.ledger import Binding, TagLedger, tag_bindings, walk_fields

__all__ = ["Binding", "TagLedger", "tag_bindings", "walk_fields"]
