"""Tag ledger: every meaning a tag number has had in a struct, across history.

A tag must never be reused: once tag 3 of ``Topics`` meant ``ClusterId: string``, no later
field may take tag 3 unless it is that same field. BASE alone cannot show a tag that was
used and later removed, so ``kcompat diff`` also reads the tags of every revision in
BASE's history that touched the file.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from kcompat.spec.model import Field, Memo, Message


@dataclass(frozen=True)
class Binding:
    """What a tag meant: the field's name and type, and where that was seen."""

    name: str
    type: str
    seen_in: str  # "BASE", or a revision (short SHA) of BASE's history


#: Tag bindings by where they were seen, kept on the message.
_BINDINGS: Memo[dict[str, dict[tuple[str, int], Binding]]] = Memo("tag_bindings")


def tag_bindings(message: Message, seen_in: str) -> dict[tuple[str, int], Binding]:
    """(struct path, tag) -> binding, for every tagged field (common structs expanded)."""
    cache = _BINDINGS(message, dict)  # a history audit asks again and again
    found = cache.get(seen_in)
    if found is None:
        found = {}
        for scope_path, field in walk_fields(message, message.fields, "", ()):
            if field.tag is not None and not field.tagged_versions.empty:
                found.setdefault(
                    (scope_path, field.tag), Binding(field.name, field.type.text, seen_in)
                )
        cache[seen_in] = found
    return dict(found)


def walk_fields(
    message: Message, fields: tuple[Field, ...], path: str, chain: tuple[str, ...]
) -> Iterator[tuple[str, Field]]:
    for field in fields:
        yield path, field
        if not field.type.has_struct:
            continue
        name = field.type.base
        if name in chain:
            continue
        children = field.fields
        if not children and field.node is not None and "fields" not in field.node:
            struct = message.structs.get(name)
            children = struct.fields if struct is not None else ()
        child_path = f"{path}.{field.name}" if path else field.name
        yield from walk_fields(message, children, child_path, (*chain, name))


#: One entry of a ledger as plain data: (message, struct path, tag, its bindings as
#: (field name, type, where seen)).
LedgerRow = tuple[str, str, int, tuple[tuple[str, str, str], ...]]


@dataclass
class TagLedger:
    """Bindings from BASE and its history, keyed by message name then (struct path, tag)."""

    entries: dict[str, dict[tuple[str, int], list[Binding]]]

    @staticmethod
    def empty() -> TagLedger:
        return TagLedger({})

    def add(self, message: Message, seen_in: str, as_name: str | None = None) -> None:
        book = self.entries.setdefault(as_name or message.name, {})
        for key, binding in tag_bindings(message, seen_in).items():
            known = book.setdefault(key, [])
            if all((b.name, b.type) != (binding.name, binding.type) for b in known):
                known.append(binding)

    def add_all(self, messages: Iterable[tuple[Message, str]]) -> None:
        for message, seen_in in messages:
            self.add(message, seen_in)

    def meanings(self, message_name: str, path: str, tag: int) -> list[Binding]:
        return self.entries.get(message_name, {}).get((path, tag), [])

    # -- as data ---------------------------------------------------------------------------
    def to_rows(self) -> tuple[LedgerRow, ...]:
        """The ledger as sorted plain tuples, so a prepared comparison is serialisable and
        its row does not depend on dictionary order (what travels to Spark executors)."""
        return tuple(
            (name, path, tag, tuple((b.name, b.type, b.seen_in) for b in bindings))
            for name, book in sorted(self.entries.items())
            for (path, tag), bindings in sorted(book.items())
        )

    @staticmethod
    def from_rows(rows: Iterable[LedgerRow]) -> TagLedger:
        """The ledger :meth:`to_rows` made."""
        ledger = TagLedger.empty()
        for name, path, tag, bindings in rows:
            ledger.entries.setdefault(name, {})[(path, tag)] = [Binding(*b) for b in bindings]
        return ledger

    @staticmethod
    def rows_to_json(rows: Iterable[LedgerRow]) -> str:
        """Rows as one JSON text (a column of a prepared comparison's row)."""
        return json.dumps([[m, p, t, [list(b) for b in bs]] for m, p, t, bs in rows])

    @staticmethod
    def rows_from_json(text: str) -> tuple[LedgerRow, ...]:
        """The rows :meth:`rows_to_json` wrote."""
        found: list[list[Any]] = json.loads(text)
        return tuple(
            (str(m), str(p), int(t), tuple((str(a), str(b), str(c)) for a, b, c in bs))
            for m, p, t, bs in found
        )
