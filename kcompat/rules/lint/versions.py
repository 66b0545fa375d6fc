"""Rules about version ranges: syntax, bounds, and fields outside their parent's versions."""

from __future__ import annotations

import re
from collections.abc import Iterator

from kcompat.findings import Reporter, Severity
from kcompat.rules.lint.adapters import document_rule, field_rule, message_rule
from kcompat.rules.lint.scopes import Scope, each_field, fields_of, written_objects
from kcompat.rules.registry import Category
from kcompat.spec.jackson import scalar_text
from kcompat.spec.load import JObject
from kcompat.spec.model import Field, Memo, Message
from kcompat.spec.specfile import SpecFile
from kcompat.spec.versions import Versions, VersionSyntaxError


def _text(value: object) -> str | None:
    """A version value as Kafka reads it: a string, or a JSON number's or boolean's text."""
    return scalar_text(value)


#: The version keys of each kind of object (``written_objects``).
_KEYS = {
    "message": ("validVersions", "flexibleVersions", "deprecatedVersions"),
    "field": ("versions", "nullableVersions", "taggedVersions", "flexibleVersions"),
    "commonStruct": ("versions", "deprecatedVersions"),
}


def _version_values(spec: SpecFile, *, blank: bool) -> Iterator[tuple[str, JObject, str, str]]:
    """(kind, object, key, text) for every version string of a document, the kind
    ``"encoding"`` for a range of an encoding object: only the blank ones Kafka reads as
    none (``blank``, blank-versions' findings), or all the others (invalid-versions')."""
    for kind, obj, key, text, is_blank in _version_texts(spec):
        if is_blank == blank:
            yield kind, obj, key, text


#: Every version string of a document, whether blank means none: read once for both rules.
_VERSION_TEXTS: Memo[tuple[tuple[str, JObject, str, str, bool], ...]] = Memo("version_texts")


def _version_texts(spec: SpecFile) -> tuple[tuple[str, JObject, str, str, bool], ...]:
    """(kind, object, key, text, blank means none) for every version string of a document,
    in order (an encoding object's ranges after the other keys of its field)."""
    if spec.message is None:
        return ()  # no object at all

    def read() -> Iterator[tuple[str, JObject, str, str, bool]]:
        for kind, obj in written_objects(spec):
            for key in _KEYS[kind]:
                text = _text(obj.get(key))
                if text is not None:
                    yield kind, obj, key, text, _blank_means_none(obj, key, text)
            encoding = obj.get("encoding") if kind == "field" else None
            if isinstance(encoding, JObject):
                for range_text in encoding:
                    yield "encoding", encoding, range_text, range_text, False

    return _VERSION_TEXTS(spec.message, lambda: tuple(read()))


@document_rule("invalid-versions", Category.VERSIONS, Severity.ERROR)
def invalid_versions(spec: SpecFile, report: Reporter) -> None:
    """A version range that is not none, N, N-M or N+ (or is reversed, like 2-1)."""
    for kind, obj, key, text in _version_values(spec, blank=False):
        is_encoding = kind == "encoding"
        try:
            Versions.parse(text)
        except VersionSyntaxError as err:
            if "," in text and not is_encoding:
                message = f"invalid version range {text!r}: a single range is allowed here"
            else:
                message = str(err)
            where = obj.key_pos[key] if is_encoding else obj.where_value(key)
            label = "encoding range" if is_encoding else key
            reversed_range = re.fullmatch(r"\s*(\d+)\s*-\s*(\d+)\s*", text)
            if reversed_range and int(reversed_range[1]) > int(reversed_range[2]):
                hint = f'write "{reversed_range[2]}-{reversed_range[1]}"'
            else:
                hint = "write none, N, N-M or N+"
            report(where, f"{label}: {message}", hint=hint)


#: Keys Kafka reads as "none" when blank (Versions.parse falls back to its default).
_BLANK_IS_NONE = {"flexibleVersions", "nullableVersions", "taggedVersions", "deprecatedVersions"}


def _blank_means_none(obj: JObject, key: str, text: str) -> bool:
    """A blank range that Kafka accepts: optional keys, or versions taken from
    taggedVersions."""
    if text.strip():
        return False
    if key in _BLANK_IS_NONE:
        return True
    tagged = obj.get("taggedVersions")
    return key == "versions" and isinstance(tagged, str) and bool(tagged.strip())


@document_rule("blank-versions", Category.VERSIONS, Severity.WARNING)
def blank_versions(spec: SpecFile, report: Reporter) -> None:
    """An empty version range, which Kafka silently reads as none."""
    for kind, obj, key, _blank in _version_values(spec, blank=True):
        hint = f'write "{key}": "none" if that is what you mean, or remove the key'
        if key == "versions":
            meaning = "the field takes its taggedVersions"
        elif key == "flexibleVersions" and kind == "field":
            meaning = "the field follows the message's flexibleVersions (no override)"
            hint = 'remove the key; "none" would make the field never flexible'
        else:
            meaning = "it is read as none"
        report(obj.where_value(key), f"{key} is empty: {meaning}", hint=hint)


@message_rule("valid-versions-unbounded", Category.VERSIONS, Severity.ERROR)
def valid_versions_unbounded(message: Message, report: Reporter) -> None:
    """validVersions has no maximum (N+); Kafka requires the highest version spelled out."""
    if message.valid_versions.open_ended and message.node is not None:
        low = message.valid_versions.lowest
        report(
            message.node.where_value("validVersions"),
            f"validVersions {message.valid_versions} has no maximum version",
            hint=f'write "{low}-N" with the highest supported version N',
        )


@message_rule("missing-flexible-versions", Category.VERSIONS, Severity.WARNING)
def missing_flexible_versions(message: Message, report: Reporter) -> None:
    """No flexibleVersions: read as none (pre-KIP-482); Kafka 2.4+ requires the key."""
    node = message.node
    if node is None or node.get("flexibleVersions") is not None or message.valid_versions.empty:
        return  # JSON null reads as a missing key
    if "versionsWithOptional" in node:
        return  # draft-syntax explains how to migrate it to flexibleVersions
    report(
        node,
        f"{message.name or 'the message'} has no flexibleVersions; it is read as "
        '"none", and Kafka\'s generator (2.4 and later) requires it',
        hint='add "flexibleVersions": "none" (or "N+" from the first flexible version)',
    )


@message_rule("flexible-versions-not-open", Category.VERSIONS, Severity.ERROR)
def flexible_versions_not_open(message: Message, report: Reporter) -> None:
    """flexibleVersions must be none or open-ended (N+): flexibility is never dropped."""
    flexible = message.flexible_versions
    if message.node is None or flexible.empty or flexible.open_ended:
        return
    if message.valid_versions.empty:
        return  # no versions at all: Kafka ignores flexibleVersions
    report(
        message.node.where_value("flexibleVersions"),
        f"flexibleVersions {flexible} is not open-ended; once a version is flexible, every "
        "later one is",
        hint=f'write "{flexible.lowest}+"',
    )


@message_rule("versions-outside-parent", Category.VERSIONS, Severity.WARNING)
def versions_outside_parent(message: Message, report: Reporter) -> None:
    """A field whose versions never overlap its message's or parent's: it is never sent."""
    common = _common_names(message)
    for scope, field, node in each_field(message):
        if field.versions.empty or scope.versions.empty:
            continue
        if _inline_struct(field, common):
            continue  # struct-versions-outside-parent: an error, as in Kafka
        if "versions" not in node and "taggedVersions" not in node:
            continue
        if field.versions.overlaps(scope.versions):
            continue
        owner = (
            "the message's validVersions"
            if scope.top_level
            else (
                f"common struct {scope.name}'s versions within validVersions"
                if scope.common and not scope.path.count(".")
                else f"its parent {scope.path}'s versions"
            )
        )
        report(
            node.where_value("versions"),
            f"field {scope.field_path(field)} has versions {field.versions}, outside "
            f"{owner} ({scope.versions}): it is never on the wire",
            hint="fix the range, or delete the field if its versions are gone",
            field_path=scope.field_path(field),
        )


@field_rule("nullable-versions-outside", Category.VERSIONS, Severity.WARNING)
def nullable_versions_outside(scope: Scope, field: Field, node: JObject, report: Reporter) -> None:
    """nullableVersions that share no version with the field's versions have no effect."""
    nullable = field.nullable_versions
    if nullable.empty or field.versions.empty:
        return
    if not nullable.overlaps(field.versions):
        report(
            node.where_value("nullableVersions"),
            f"nullableVersions {nullable} of {scope.field_path(field)} never overlap its "
            f"versions {field.versions}",
            hint="fix the range or remove nullableVersions",
        )


@message_rule("deprecated-versions-outside", Category.VERSIONS, Severity.WARNING)
def deprecated_versions_outside(message: Message, report: Reporter) -> None:
    """deprecatedVersions names versions that validVersions does not have."""
    deprecated = message.deprecated_versions
    if message.node is None or deprecated.empty or message.valid_versions.empty:
        return
    extra = deprecated - message.valid_versions
    if not extra.empty:
        report(
            message.node.where_value("deprecatedVersions"),
            f"deprecatedVersions {deprecated} includes {extra}, outside validVersions "
            f"{message.valid_versions}",
            hint="deprecate only versions that exist",
        )


def _common_names(message: Message) -> frozenset[str]:
    return frozenset(struct.name for struct in message.common_structs)


def _inline_struct(field: Field, common: frozenset[str]) -> bool:
    """A field Kafka generates a struct class for: a struct type that is not common."""
    return field.type.has_struct and field.type.base not in common


@message_rule("struct-versions-outside-parent", Category.VERSIONS, Severity.ERROR)
def struct_versions_outside_parent(message: Message, report: Reporter) -> None:
    """A struct whose versions share none with its parent's; Kafka's generator rejects it."""
    common = _common_names(message)
    for scope, field in fields_of(message):
        if field.node is None or scope.versions.empty or not _inline_struct(field, common):
            continue  # an empty scope: its own struct (or the message) is the one to fix
        if field.versions.overlaps(scope.versions):
            continue
        if field.versions.empty and not _written_none(field.node, "versions"):
            continue  # a range that does not parse: invalid-versions / missing-key
        path = scope.field_path(field)
        owner = "the message's validVersions" if scope.top_level else f"its parent {scope.path}"
        report(
            field.node.where_value("versions"),
            f"struct field {path} has versions {field.versions}, none of them in {owner} "
            f"({scope.versions}); Kafka's generator fails: version ranges "
            f"{scope.versions} and {field.versions} have no versions in common",
            field_path=path,
            hint="fix the range, or delete the field if its versions are gone",
        )
    for struct in message.common_structs:
        if struct.node is None or not _written_none(struct.node, "versions"):
            continue  # blank or unparseable ranges: missing-key / invalid-versions
        report(
            struct.node.where_value("versions"),
            f"common struct {struct.name} has versions none; Kafka's generator fails: a "
            "struct needs at least one version",
            hint="give it the versions its fields use, or delete the struct",
        )


def _written_none(node: JObject, key: str) -> bool:
    """The key holds the range "none" itself (not a blank or broken range read as none)."""
    return (_text(node.get(key)) or "").strip() == "none"
