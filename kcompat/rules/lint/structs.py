"""Rules about struct definitions: common structs and inline structs."""

from __future__ import annotations

from kcompat.rules.engine import Reporter, Severity, rule
from kcompat.rules.lint.scopes import fields_of
from kcompat.spec.model import Message


@rule(
    "common-struct-duplicate",
    kind="lint",
    category="structs",
    severity=Severity.ERROR,
    summary="Two commonStructs entries with the same name.",
)
def common_struct_duplicate(message: Message, report: Reporter) -> None:
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


@rule(
    "common-struct-lowercase",
    kind="lint",
    category="structs",
    severity=Severity.ERROR,
    summary="A common struct name must start with a capital letter (it is a type name).",
)
def common_struct_lowercase(message: Message, report: Reporter) -> None:
    for struct in message.common_structs:
        if struct.node is not None and struct.name and not struct.name[0].isupper():
            report(
                struct.node.where_value("name"),
                f"common struct {struct.name!r} must start with a capital letter",
                hint=f"rename it to {struct.name[0].upper() + struct.name[1:]!r}",
            )


@rule(
    "common-struct-inline",
    kind="lint",
    category="structs",
    severity=Severity.ERROR,
    summary="A field re-specifies a common struct inline with its own fields.",
)
def common_struct_inline(message: Message, report: Reporter) -> None:
    common = {s.name for s in message.common_structs}
    for scope, field in fields_of(message):
        node = field.node
        if node is not None and field.type.base in common and "fields" in node and field.fields:
            report(
                node,
                f"{scope.field_path(field)} re-specifies common struct {field.type.base} inline",
                key="fields",
                field_path=scope.field_path(field),
                hint="remove the inline fields (the common struct defines them)",
            )


@rule(
    "struct-defined-twice",
    kind="lint",
    category="structs",
    severity=Severity.ERROR,
    summary="Two inline structs with one name: struct names are global to the file.",
)
def struct_defined_twice(message: Message, report: Reporter) -> None:
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


@rule(
    "unused-common-struct",
    kind="lint",
    category="structs",
    severity=Severity.WARNING,
    summary="A common struct that no field refers to.",
)
def unused_common_struct(message: Message, report: Reporter) -> None:
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


@rule(
    "recursive-struct",
    kind="lint",
    category="structs",
    severity=Severity.ERROR,
    summary="A struct that contains itself: it has no finite encoding.",
)
def recursive_struct(message: Message, report: Reporter) -> None:
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
