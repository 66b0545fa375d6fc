"""Rules about struct definitions: common structs and inline structs."""

from __future__ import annotations

from kcompat.findings import Reporter, Severity
from kcompat.rules.lint.adapters import field_rule, message_rule
from kcompat.rules.lint.scopes import Scope, each_field, fields_of
from kcompat.rules.registry import Category
from kcompat.spec.jackson import scalar_text
from kcompat.spec.load import JObject
from kcompat.spec.model import Field, Message


@message_rule("common-struct-duplicate", Category.STRUCTS, Severity.ERROR)
def common_struct_duplicate(message: Message, report: Reporter) -> None:
    """Two commonStructs entries with the same name."""
    seen: dict[str, int] = {}
    for struct in message.common_structs:
        if struct.node is None or not struct.name:
            continue
        if struct.name in seen:
            report(
                struct.node.where_value("name"),
                f"common struct {struct.name} is defined twice (first at line {seen[struct.name]})",
                hint="merge the two definitions",
            )
        else:
            seen[struct.name] = struct.node.pos[0]


@message_rule("common-struct-lowercase", Category.STRUCTS, Severity.ERROR)
def common_struct_lowercase(message: Message, report: Reporter) -> None:
    """A common struct name must start with a capital letter (it is a type name)."""
    for struct in message.common_structs:
        if struct.node is not None and struct.name and not struct.name[0].isupper():
            report(
                struct.node.where_value("name"),
                f"common struct {struct.name!r} must start with a capital letter",
                hint=f"rename it to {struct.name[0].upper() + struct.name[1:]!r}",
            )


@message_rule("common-struct-inline", Category.STRUCTS, Severity.ERROR)
def common_struct_inline(message: Message, report: Reporter) -> None:
    """A field re-specifies a common struct inline with its own fields."""
    common = {s.name for s in message.common_structs}
    for scope, field, node in each_field(message):
        if field.type.base in common and "fields" in node and field.fields:
            report(
                node,
                f"{scope.field_path(field)} re-specifies common struct {field.type.base} inline",
                key="fields",
                hint="remove the inline fields (the common struct defines them)",
                field_path=scope.field_path(field),
            )


@message_rule("struct-defined-twice", Category.STRUCTS, Severity.ERROR)
def struct_defined_twice(message: Message, report: Reporter) -> None:
    """Two inline structs with one name: struct names are global to the file."""
    common = {s.name for s in message.common_structs}
    seen: dict[str, str] = {}
    for scope, field in fields_of(message):
        node = field.node
        if node is None or not field.type.has_struct or "fields" not in node:
            continue
        name = field.type.base
        if name in common:
            continue  # common-struct-inline reports it
        path = scope.field_path(field)
        if name in seen:
            report(
                node.where_value("type"),
                f"struct {name} is defined inline again by {path} (first by {seen[name]})",
                field_path=path,
                hint=f"rename one struct type, or move {name} to commonStructs and refer to it",
            )
        else:
            seen[name] = path


@message_rule("unused-common-struct", Category.STRUCTS, Severity.WARNING)
def unused_common_struct(message: Message, report: Reporter) -> None:
    """A common struct that no field refers to."""
    used = {field.type.base for _scope, field in fields_of(message) if field.type.has_struct}
    for struct in message.common_structs:
        if not struct.name[:1].isupper():
            continue  # common-struct-lowercase: no type can refer to it until it is renamed
        if struct.node is not None and struct.name not in used:
            report(
                struct.node.where_value("name"),
                f"common struct {struct.name} is never used",
                hint="remove it or refer to it",
            )


@message_rule("recursive-struct", Category.STRUCTS, Severity.ERROR)
def recursive_struct(message: Message, report: Reporter) -> None:
    """A struct that contains itself: it has no finite encoding."""
    structs = {s.name: s for s in message.structs}

    def children(name: str) -> set[str]:
        struct = structs.get(name)
        if struct is None:
            return set()
        found: set[str] = set()
        stack = list(struct.fields)
        while stack:
            field = stack.pop()
            if field.type.has_struct:
                found.add(field.type.base)
            stack.extend(field.fields)
        return found

    for name, struct in structs.items():
        seen: set[str] = set()
        frontier = children(name)
        while frontier and name not in seen:
            seen |= frontier
            frontier = set().union(*(children(n) for n in frontier)) - seen if frontier else set()
        if name in seen and struct.node is not None:
            report(
                struct.node.where_value("name")
                if struct.common
                else struct.node.where_value("type"),
                f"struct {name} contains itself, so its layout cannot be resolved per version",
                hint="break the cycle: spell out a bounded depth with distinct struct types, "
                "or flatten the tree into an array with parent indexes",
            )


@message_rule("common-struct-nested-inline", Category.STRUCTS, Severity.ERROR)
def common_struct_nested_inline(message: Message, report: Reporter) -> None:
    """An inline struct defined inside a common struct; Kafka's generator cannot find it."""
    common = {s.name for s in message.common_structs}
    for scope, field in fields_of(message):
        node = field.node
        if node is None or not scope.common or not field.type.has_struct:
            continue
        if field.type.base in common or "fields" not in node:
            continue  # a common struct, or an undefined one (undefined-struct)
        path = scope.field_path(field)
        report(
            node.where_value("type"),
            f"{path} defines struct {field.type.base} inline inside common struct "
            f"{path.split('.', 1)[0]}; Kafka's generator registers only the inline structs of "
            f"the message's own fields and fails: unable to locate a specification for the "
            f"structure {field.type.base}",
            field_path=path,
            hint=f"move {field.type.base} to commonStructs and refer to it by name",
        )


@message_rule("common-struct-used-early", Category.STRUCTS, Severity.ERROR)
def common_struct_used_early(message: Message, report: Reporter) -> None:
    """A field uses a common struct in versions before the struct's first version."""
    # Structs with no versions of their own (none, null, broken) are other rules' findings.
    common = {s.name: s for s in message.common_structs if s.node is not None and s.versions}
    for scope, field in fields_of(message):
        struct = common.get(field.type.base) if field.type.has_struct else None
        if field.node is None or struct is None:
            continue
        present = field.versions & scope.versions
        # Kafka builds the struct's schemas for validVersions ∩ its versions, then looks
        # each version a field is present in up by "the latest schema at or below it".
        built = struct.versions & message.valid_versions
        if present.empty or (not built.empty and present.lowest >= built.lowest):
            continue
        path = scope.field_path(field)
        first = f"starts at {built.lowest}" if not built.empty else "has no valid version"
        report(
            field.node.where_value("versions"),
            f"{path} uses common struct {struct.name} in versions {present}, but the struct "
            f"{first} (versions {struct.versions}); Kafka's schema generator finds no "
            "schema for the earlier versions and fails",
            field_path=path,
            hint=f"widen {struct.name}'s versions to cover {present}, or narrow the field's",
        )


@field_rule("inline-struct-without-versions", Category.STRUCTS, Severity.WARNING)
def inline_struct_without_versions(
    scope: Scope, field: Field, node: JObject, report: Reporter
) -> None:
    """An inline struct field with no "versions" of its own (newer Kafka requires them)."""
    if not field.type.has_struct or not field.fields:
        return
    written = scalar_text(node.get("versions"))
    if written is not None and written.strip():
        return  # Kafka re-reads this raw text as the struct's versions
    if field.tagged_versions.empty:
        return  # no versions at all: missing-key
    report(
        node,
        f"{scope.field_path(field)} defines an inline struct but takes its versions from "
        f"taggedVersions {field.tagged_versions}; newer Kafka generators fail: you must "
        "specify the version of the structure",
        key="taggedVersions",
        hint=f'add "versions": "{field.tagged_versions}" next to taggedVersions',
    )
