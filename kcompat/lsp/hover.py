"""Hover: what a field, a message or a version string means, read off kcompat's model.

A field shows its type and, per run of versions, how it is written on the wire (the
matrix ``kcompat explain`` draws, from the same resolved layouts the codec uses), its
versions, nullable and tagged ranges, default and ``encoding``, its timeline sentence,
and which releases shipped it. The message's name shows its API key and versions; a
version string shows which versions it covers. Every name from the spec is escaped for
Markdown.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from kcompat.escaping import shown
from kcompat.explain.matrix import Cell, Column, Row, build_matrix
from kcompat.explain.timeline import default_text, timeline
from kcompat.lsp.documents import Parsed, Spot
from kcompat.lsp.shipped import Shipping
from kcompat.report.markdown import code
from kcompat.spec.model import Field, Message
from kcompat.spec.versions import Versions, VersionSyntaxError

#: Keys whose values are version ranges.
VERSION_KEYS = frozenset(
    {
        "validVersions",
        "flexibleVersions",
        "deprecatedVersions",
        "versions",
        "nullableVersions",
        "taggedVersions",
    }
)
#: What Markdown acts on inside a line (CommonMark and GitHub's extensions): a backslash
#: escape, a code span, emphasis, a link or an image, raw HTML or an entity, a
#: strikethrough, a table's pipe; ``_`` only outside a word (``snake_case`` emphasises
#: nothing). The rest (``.``, ``,``, ``-``, ``:`` ...) stays as written: a client that
#: shows hovers as plain text shows no backslashes there.
_INLINE = re.compile(r"[\\`*\[\]<>&~|!]|(?<![0-9A-Za-z])_|_(?![0-9A-Za-z])")
#: What Markdown acts on at the start of a paragraph: a heading, a list item, a quote, a
#: setext underline or a thematic break, an ordered list's ``1.``.
_LINE_START = re.compile(r"^(?:[#>+=-]|\d{1,9}(?=[.)]))")
#: An autolink's start (``scheme://``, ``www.``): a zero-width space breaks it, unseen.
_AUTOLINK = re.compile(r"(?<=\w)(?=://)|(?i:\bwww)(?=\.)")
#: Releases listed by name in a hover before the rest are counted.
_SHOWN_RELEASES = 3


def text(words: str) -> str:
    """Text from a spec as literal Markdown: no link, image, HTML or emphasis can come of
    it, nor a raw control character; only what Markdown would act on is escaped."""
    escaped = _INLINE.sub(lambda m: "\\" + m.group(), shown(words))
    start = _LINE_START.match(escaped)
    if start is not None:  # "1." gets its dot escaped, "#" itself
        end = start.end()
        escaped = (
            f"{escaped[:end]}\\{escaped[end:]}" if start.group()[0].isdigit() else "\\" + escaped
        )
    return _AUTOLINK.sub(lambda m: m.group() + "\u200b", escaped)


def hover_text(parsed: Parsed, spot: Spot, shipping: Shipping) -> str | None:
    """The Markdown for what ``spot`` is on, or None where there is nothing to say."""
    message = parsed.message
    if message is None:
        return None
    if spot.key in VERSION_KEYS and not spot.on_key:
        return version_text(parsed, spot, message)
    if spot.kind == "message" and spot.key == "name":
        return message_text(message, shipping)
    if spot.kind == "field" and spot.key in ("name", "type", "tag"):
        found = parsed.field_of(spot.obj)
        return field_text(message, found, shipping) if found is not None else None
    if spot.kind == "commonStruct" and spot.key == "name":
        struct = parsed.struct_of(spot.obj)
        if struct is not None:
            users = sum(1 for _p, f in message.walk() if f.type.base == struct.name)
            return (
                f"**{code(struct.name, cell=False)}** · common struct of "
                f"{code(message.name, cell=False)} · versions {code(str(struct.versions))} · "
                f"{len(struct.fields)} fields · used by {users} field(s)"
            )
    return None


def message_text(message: Message, shipping: Shipping) -> str:
    """The message: kind, API key, valid, flexible, deprecated and unstable versions."""
    head = [
        f"**{code(message.name or '(unnamed)', cell=False)}**",
        text(message.kind or "no type"),
    ]
    if message.api_key is not None:
        head.append(f"apiKey {message.api_key}")
    facts = [
        f"valid {code(str(message.valid_versions))}",
        f"flexible {code(str(message.flexible_versions))}",
        f"deprecated {code(str(message.deprecated_versions))}",
    ]
    valid = message.valid_versions
    if message.latest_version_unstable and not valid.empty and not valid.open_ended:
        facts.append(f"v{valid.highest} unstable (not released)")
    lines = [" · ".join(head), "", " · ".join(facts)]
    if message.listeners:
        lines += ["", "listeners: " + ", ".join(code(x) for x in message.listeners)]
    structs = len(message.common_structs)
    lines += ["", f"{len(message.fields)} top-level fields, {structs} common structs"]
    if shipping.known:
        lines += ["", _releases_line(shipping.of_message())]
    return "\n".join(lines)


def field_text(message: Message, item: Field, shipping: Shipping) -> str:
    """A field: type, wire form per version range, attributes, timeline, releases."""
    matrix = build_matrix(message)
    row = next((r for r in matrix.rows if r.field.node is item.node), None)
    lines = [
        f"**{code(item.name, cell=False)}** · {code(item.type.text, cell=False)} · "
        f"field of {code(message.name, cell=False)}"
    ]
    if item.about:
        lines += ["", text(item.about)]
    if row is not None:
        lines += ["", *wire_table(row, matrix.columns)]
    lines += ["", *_attributes(item), *_struct_line(message, item)]
    if row is not None:
        lines += ["", text(timeline(row, matrix.columns))]
    if shipping.known:
        path = next((p for p, f in message.walk() if f.node is item.node), item.name)
        lines += ["", _releases_line(shipping.of_field(path))]
    return "\n".join(lines)


def wire_table(row: Row, columns: Sequence[Column]) -> list[str]:
    """One table row per run of versions where the field is written the same way."""
    runs: list[tuple[list[str], Cell]] = []
    for cell, column in zip(row.cells, columns, strict=True):
        if runs and _same(runs[-1][1], cell):
            runs[-1][0].append(column.label)
        else:
            runs.append(([column.label], cell))
    lines = ["| versions | on the wire |", "|---|---|"]
    for labels, cell in runs:
        span = labels[0] if len(labels) == 1 else f"{labels[0]}-{labels[-1]}"
        lines.append(f"| {span} | {_wire(cell)} |")
    return lines


def _same(a: Cell, b: Cell) -> bool:
    return (a.present, a.wire, a.nullable, a.tag, a.encoding) == (
        b.present,
        b.wire,
        b.nullable,
        b.tag,
        b.encoding,
    )


def _wire(cell: Cell) -> str:
    if not cell.present:
        return "absent"
    parts = [code(cell.wire)]
    if cell.nullable:
        parts.append("nullable")
    if cell.tag is not None:
        parts.append(f"tag {cell.tag}")
    if cell.encoding:
        parts.append(f"encoding {code(cell.encoding)}")
    if cell.fixed_size is not None:
        parts.append(f"{cell.fixed_size} bytes")
    return ", ".join(parts)


def _attributes(item: Field) -> list[str]:
    facts = [f"- versions {code(str(item.versions))}"]
    if not item.nullable_versions.empty:
        facts.append(f"- nullable in {code(str(item.nullable_versions))}")
    if item.tag is not None:
        facts.append(f"- tag {item.tag} in {code(str(item.tagged_versions))}")
    if item.default.explicit:
        facts.append(f"- default {code(default_text(item.default))}")
    if item.encoding:
        rules = ", ".join(f"{code(r.name)} in {code(str(r.versions))}" for r in item.encoding)
        facts.append(f"- encoding {rules}")
    if item.ignorable:
        facts.append("- ignorable (dropped, not refused, where a version lacks it)")
    if item.entity_type:
        facts.append(f"- entity type {code(item.entity_type)}")
    return facts


def _struct_line(message: Message, item: Field) -> list[str]:
    """Where the struct a field's type names is defined."""
    if not item.type.has_struct:
        return []
    name = code(item.type.base)
    struct = message.structs.get(item.type.base)
    if struct is None:
        return [f"- struct {name} is not defined in this spec"]
    where = "in `commonStructs`" if struct.common else "inline"
    return [f"- struct {name}: {len(struct.fields)} fields, defined {where}"]


def _releases_line(names: list[str]) -> str:
    if not names:
        return "shipped by no release yet"
    shown = [code(n) for n in names]
    if len(names) <= _SHOWN_RELEASES:
        return f"shipped by {', '.join(shown)}"
    return f"shipped by {len(names)} releases: {shown[0]} to {shown[-1]}"


def version_text(parsed: Parsed, spot: Spot, message: Message) -> str:
    """What a version string covers, within the message's valid versions."""
    raw = spot.obj.get(spot.key)
    if not isinstance(raw, str):
        return f'{code(str(raw))}: not a version string (write it as a string, e.g. "0+")'
    try:
        versions = Versions.parse(raw)
    except VersionSyntaxError as err:
        return text(str(err))
    lines = [f"{code(raw, cell=False)}: {_covers(versions)}"]
    valid = message.valid_versions
    if spot.key != "validVersions" and not valid.empty:
        inside = versions.intersect(valid)
        lines += [
            "",
            f"of {code(message.name, cell=False)}'s valid versions {code(str(valid))}: "
            + (f"{code(str(inside))} ({len(inside)} versions)" if inside else "none of them"),
        ]
    if spot.kind == "field" and spot.key != "versions":
        item = parsed.field_of(spot.obj)
        if item is not None and not item.versions.contains(versions):
            lines += ["", f"beyond the field's own versions {code(str(item.versions))}"]
    return "\n".join(lines)


def _covers(versions: Versions) -> str:
    if versions.empty:
        return "no version"
    parts = []
    for low, high in versions.ranges:
        if high == low:
            parts.append(f"version {low}")
        elif high >= 0x7FFF:
            parts.append(f"version {low} and every later one")
        else:
            parts.append(f"versions {low} to {high}")
    return ", ".join(parts)
