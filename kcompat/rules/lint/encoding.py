"""Rules for the per-field integer ``encoding`` extension (fixed, packed, upacked;
docs/FORMAT.md)."""

from __future__ import annotations

import difflib
import re

from kcompat.findings import Reporter, Severity
from kcompat.rules.lint.adapters import field_rule
from kcompat.rules.lint.scopes import Scope
from kcompat.rules.lint.types import TYPED_KEYS, key_off_type
from kcompat.rules.registry import Category
from kcompat.spec.load import JObject
from kcompat.spec.model import INT_TYPES, Field
from kcompat.spec.versions import Versions

ENCODING_NAME = re.compile(r"(fixed|packed|upacked)(16|32|64)\Z")
_ENCODABLE = TYPED_KEYS["encoding"].types
_ALL_NAMES = [f"{form}{bits}" for form in ("fixed", "packed", "upacked") for bits in (16, 32, 64)]
_ALIASES = {
    "unsigned": "upacked",
    "signed": "packed",
    "varint": "packed",
    "uvarint": "upacked",
    "zigzag": "packed",
    "int": "fixed",
}


def suggest_encoding(name: str) -> str:
    """A did-you-mean for an encoding name (``unsigned32`` -> ``upacked32``)."""
    match = re.fullmatch(r"([a-z]+)(\d*)", name.lower())
    if match:
        form = _ALIASES.get(match.group(1), match.group(1))
        candidate = form + (match.group(2) or "32")
        if ENCODING_NAME.match(candidate):
            return candidate
    guess = difflib.get_close_matches(name, _ALL_NAMES, n=1, cutoff=0.5)
    return guess[0] if guess else "fixed32"


def _entries(node: JObject) -> list[tuple[tuple[int, int], str, object]]:
    """(position, range text, name) of each encoding entry; a string applies to all versions."""
    value = node.get("encoding")
    if isinstance(value, JObject):
        return [(value.key_pos[key], key, name) for key, name in value.items()]
    if "encoding" in node:  # a name, or a value of the wrong kind (reported as unknown)
        return [(node.where_value("encoding"), "", value)]
    return []


@field_rule("encoding-type", Category.ENCODING, Severity.ERROR)
def encoding_type(scope: Scope, field: Field, node: JObject, report: Reporter) -> None:
    """encoding on a type other than int16, int32 or int64."""
    if "encoding" in node:
        key_off_type(report, scope.field_path(field), field, node, "encoding")


@field_rule("encoding-unknown-name", Category.ENCODING, Severity.ERROR)
def encoding_unknown_name(scope: Scope, field: Field, node: JObject, report: Reporter) -> None:
    """An encoding name outside (fixed|packed|upacked)(16|32|64)."""
    for pos, _range_text, name in _entries(node):
        if isinstance(name, str) and ENCODING_NAME.match(name):
            continue
        suggestion = suggest_encoding(str(name))
        report(
            pos,
            f"unknown encoding {name!r} for {scope.field_path(field)}; did you mean "
            f"{suggestion!r}?",
            hint="encodings are fixed, packed (signed varint) or upacked (unsigned varint) "
            "at 16, 32 or 64 bits",
        )


def _ranges(node: JObject) -> list[tuple[tuple[int, int], Versions]]:
    out = []
    for pos, range_text, _name in _entries(node):
        if range_text:
            parsed = Versions.try_parse(range_text)
            if parsed is not None:
                out.append((pos, parsed))
    return out


@field_rule("encoding-overlap", Category.ENCODING, Severity.ERROR)
def encoding_overlap(scope: Scope, field: Field, node: JObject, report: Reporter) -> None:
    """Two encoding ranges of one field share versions."""
    seen: list[Versions] = []
    for pos, versions in _ranges(node):
        for earlier in seen:
            if versions.overlaps(earlier):
                report(
                    pos,
                    f"encoding range {versions} of {scope.field_path(field)} overlaps "
                    f"{earlier} in {versions & earlier}",
                    hint="each version needs exactly one encoding",
                )
                break
        seen.append(versions)


@field_rule("encoding-coverage", Category.ENCODING, Severity.ERROR)
def encoding_coverage(scope: Scope, field: Field, node: JObject, report: Reporter) -> None:
    """The encoding ranges do not exactly cover the field's versions."""
    if not isinstance(node.get("encoding"), JObject):
        return
    ranges = _ranges(node)
    if not ranges and node["encoding"]:
        return  # only unreadable ranges: invalid-versions reports them
    covered = Versions.none()
    for _pos, versions in ranges:
        covered = covered | versions
    missing = field.versions - covered
    extra = covered - field.versions
    problems = []
    if not missing.empty:
        problems.append(f"versions {missing} have no encoding")
    if not extra.empty:
        problems.append(f"{extra} are not versions of the field")
    if problems:
        report(
            node,
            f"encoding of {scope.field_path(field)} (versions {field.versions}): "
            + "; ".join(problems),
            key="encoding",
            hint=f"the ranges must together be exactly {field.versions}",
        )


@field_rule("encoding-wider-than-type", Category.ENCODING, Severity.ERROR)
def encoding_wider_than_type(scope: Scope, field: Field, node: JObject, report: Reporter) -> None:
    """An encoding wider than the field's type (fixed64 on an int32)."""
    if field.type.text not in _ENCODABLE:
        return
    type_bits = INT_TYPES[field.type.text][0]
    for pos, _range_text, name in _entries(node):
        match = ENCODING_NAME.match(name) if isinstance(name, str) else None
        if match and int(match.group(2)) > type_bits:
            report(
                pos,
                f"encoding {name} of {scope.field_path(field)} is wider than its type {field.type}",
                hint=f"widen the type to int{match.group(2)}, or use a {type_bits}-bit encoding",
            )
