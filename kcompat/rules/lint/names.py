"""Rules about names: field names, duplicates, case clashes, message name suffixes."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import cache

from kcompat.findings import Reporter, Severity
from kcompat.rules.lint.adapters import field_rule, message_rule, set_rule
from kcompat.rules.lint.scopes import Scope, scopes, written_fields
from kcompat.rules.registry import Category
from kcompat.spec.jackson import scalar_text
from kcompat.spec.load import JObject
from kcompat.spec.model import Field, Message

FIELD_NAME = re.compile(r"[A-Za-z][A-Za-z0-9]*\Z")
MESSAGE_NAME = re.compile(r"[A-Z][A-Za-z0-9]*\Z")


@field_rule("invalid-field-name", Category.NAMES, Severity.ERROR)
def invalid_field_name(scope: Scope, field: Field, node: JObject, report: Reporter) -> None:
    """A field name outside [A-Za-z][A-Za-z0-9]* (it becomes a Java identifier)."""
    if scalar_text(node.get("name")) is None:
        return  # missing or null: missing-key / wrong-value-type
    if FIELD_NAME.match(field.name):
        return
    fixed = re.sub(r"[^A-Za-z0-9]+(.)?", lambda m: (m.group(1) or "").upper(), field.name)
    fixed = fixed.lstrip("0123456789")
    hint = f"rename it to {fixed!r}" if fixed else "start with a letter; letters and digits only"
    report(
        node.where_value("name"),
        f"invalid field name {field.name!r}: use a letter followed by letters and digits",
        hint=hint,
    )


@message_rule("duplicate-field-name", Category.NAMES, Severity.ERROR)
def duplicate_field_name(message: Message, report: Reporter) -> None:
    """Two fields with the same name in one struct."""
    for scope in scopes(message):
        seen: dict[str, int] = {}
        for field, node in written_fields(scope):
            if not field.name:
                continue
            if field.name in seen:
                report(
                    node.where_value("name"),
                    f"field {field.name!r} is defined twice in {scope.name} (first at line "
                    f"{seen[field.name]})",
                    hint="rename or remove one of them",
                    field_path=scope.field_path(field),
                )
            else:
                seen[field.name] = node.pos[0]


def _camel(name: str) -> str:
    """The name Kafka's generator gives accessors and JSON keys (first letter lowered)."""
    return name[:1].lower() + name[1:]


@cache  # a folder's specs ask about the same few hundred names again and again
def _snake(name: str) -> str:
    """Kafka's toSnakeCase (schema field names): '_' before a capital after a non-capital."""
    out = []
    previous_capital = True
    for char in name:
        if char.isupper():
            if not previous_capital:
                out.append("_")
            out.append(char.lower())
            previous_capital = True
        else:
            out.append(char)
            previous_capital = False
    return "".join(out)


@message_rule("field-name-case-clash", Category.NAMES, Severity.ERROR)
def field_name_case_clash(message: Message, report: Reporter) -> None:
    """Two fields whose names differ only in case: generated accessors collide."""
    for scope in scopes(message):
        camel: dict[str, str] = {}
        snake: dict[str, str] = {}
        for field, node in written_fields(scope):
            name = field.name
            if not name:
                continue
            as_camel, as_snake = _camel(name), _snake(name)
            other = camel.get(as_camel)
            if other is None or other == name:
                other, what = snake.get(as_snake), f"schema name {as_snake}"
            else:
                what = f"accessor {as_camel}()"
            if other is not None and other != name:
                report(
                    node.where_value("name"),
                    f"field {name!r} differs from {other!r} only in case; both get the "
                    f"generated {what}",
                    hint="give one of them a name that differs in more than case",
                    field_path=scope.field_path(field),
                )
            camel.setdefault(as_camel, name)
            snake.setdefault(as_snake, name)


@message_rule("message-name-suffix", Category.NAMES, Severity.ERROR)
def message_name_suffix(message: Message, report: Reporter) -> None:
    """Request names must end in Request and response names in Response."""
    if message.node is None or not message.name:
        return
    for kind, suffix in (("request", "Request"), ("response", "Response")):
        if message.kind == kind and not message.name.endswith(suffix):
            other_suffix = "Response" if suffix == "Request" else "Request"
            if message.name.endswith(other_suffix):
                stem = message.name.removesuffix(other_suffix)
                hint = (
                    f'if this is the {other_suffix.lower()}, set "type": '
                    f'"{other_suffix.lower()}"; otherwise rename it to {stem + suffix!r}'
                )
            else:
                hint = f"rename it to {message.name + suffix!r}"
            report(
                message.node.where_value("name"),
                f"{kind} {message.name!r} does not end in {suffix!r}; Kafka derives the API "
                "name from it",
                hint=hint,
            )


@message_rule("invalid-message-name", Category.NAMES, Severity.ERROR)
def invalid_message_name(message: Message, report: Reporter) -> None:
    """A message name that is not a capitalised identifier (it names generated classes)."""
    if message.node is None or scalar_text(message.node.get("name")) is None:
        return  # missing or null: missing-key / wrong-value-type
    if not MESSAGE_NAME.match(message.name):
        words = re.findall(r"[A-Za-z0-9]+", message.name)
        fixed = "".join(word[:1].upper() + word[1:] for word in words).lstrip("0123456789")
        report(
            message.node.where_value("name"),
            f"invalid message name {message.name!r}: start with a capital letter, then "
            "letters and digits",
            hint=f"rename it (and its file) to {fixed!r}"
            if fixed
            else "use a CamelCase name such as FooRequest",
        )


def _kebab(name: str) -> str:
    return _snake(name).replace("_", "-")


#: How a folder may name its files after their messages, Kafka's way first (it wins a tie).
NAMINGS: tuple[tuple[str, Callable[[str], str]], ...] = (
    ("the message's name", lambda name: name),
    ("snake_case", _snake),
    ("kebab-case", _kebab),
    ("lowercase", str.lower),
    ("camelCase", _camel),
)


@set_rule("file-name-mismatch", Category.NAMES, Severity.INFO)
def file_name_mismatch(messages: Sequence[Message], report: Reporter) -> None:
    """A file not named after its message the way the other files of its folder are."""
    named = [(m, _stem(m)) for m in messages if m.node is not None and m.name and m.path]
    named = [(m, stem) for m, stem in named if stem not in ("<string>", "-")]
    if not named:
        return
    counts = [sum(1 for m, stem in named if stem == form(m.name)) for _how, form in NAMINGS]
    chosen = max(range(len(NAMINGS)), key=lambda i: (counts[i], -i))
    how, form = NAMINGS[chosen]
    for message, stem in named:
        wanted = form(message.name)
        if stem == wanted:
            continue
        assert message.node is not None
        said = f"file {stem}.json holds message {message.name!r}"
        if chosen:  # a convention of the folder's own: say which
            said += (
                f", but the other {counts[chosen]} files of its folder are named in {how} "
                "after their message"
            )
        report(
            message.node.where_value("name"),
            said,
            hint=f"rename the file to {wanted}.json",
            path=message.path,
            message_name=message.name,
        )


def _stem(message: Message) -> str:
    """The file name without its suffix (``PurePosixPath(...).stem``, in string
    operations: a folder's lint asks it of every file, on every edit in an editor)."""
    name = message.path.replace("\\", "/").rpartition("/")[2]
    dot = name.rfind(".")
    return name[:dot] if dot > 0 and dot < len(name) - 1 else name
