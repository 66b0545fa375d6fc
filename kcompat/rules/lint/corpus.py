"""Rules across all the specs of one run: names, API keys, request/response pairs."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from kcompat.rules.engine import Reporter, Severity, rule
from kcompat.spec.model import Message

_SET = dict(kind="lint", category="corpus", scope="set")


@rule(
    "duplicate-message-name",
    severity=Severity.ERROR,
    summary="Two spec files define messages with the same name.",
    **_SET,
)
def duplicate_message_name(messages: Sequence[Message], report: Reporter) -> None:
    first: dict[str, Message] = {}
    for message in messages:
        if not message.name or message.node is None:
            continue
        if message.name in first:
            other = first[message.name]
            report(
                message.node.where_value("name"),
                f"message {message.name} is also defined in {other.path}",
                path=message.path,
                message_name=message.name,
                hint="rename one of them or delete the copy",
            )
        else:
            first[message.name] = message


@rule(
    "duplicate-api-key",
    severity=Severity.ERROR,
    summary="Two messages of one type share an apiKey.",
    **_SET,
)
def duplicate_api_key(messages: Sequence[Message], report: Reporter) -> None:
    seen: dict[tuple[str, int], Message] = {}
    for message in messages:
        if message.api_key is None or message.node is None:
            continue
        key = (message.kind, message.api_key)
        if key in seen and seen[key].name != message.name:
            report(
                message.node.where_value("apiKey"),
                f"{message.kind} apiKey {message.api_key} of {message.name} is already used by "
                f"{seen[key].name} ({seen[key].path})",
                path=message.path,
                message_name=message.name,
                hint="use the next free apiKey",
            )
        else:
            seen.setdefault(key, message)


@rule(
    "unpaired-request-response",
    severity=Severity.ERROR,
    summary="A request without its response (same apiKey), or the reverse.",
    **_SET,
)
def unpaired_request_response(messages: Sequence[Message], report: Reporter) -> None:
    by_key: dict[int, dict[str, Message]] = defaultdict(dict)
    by_name = {m.name: m for m in messages if m.name}
    for message in messages:
        if message.kind in ("request", "response") and message.api_key is not None:
            by_key[message.api_key].setdefault(message.kind, message)
    for api_key, pair in sorted(by_key.items()):
        for kind, other_kind in (("request", "response"), ("response", "request")):
            message = pair.get(kind)
            if message is None or other_kind in pair or message.node is None:
                continue
            stem = message.name.removesuffix(kind.capitalize())
            partner = by_name.get(stem + other_kind.capitalize())
            if partner is not None and partner.kind == other_kind:
                has = "no apiKey" if partner.api_key is None else f"apiKey {partner.api_key}"
                text = (
                    f"{kind} {message.name} (apiKey {api_key}) has no {other_kind}: "
                    f"{partner.name} has {has}"
                )
                hint = f"give {partner.name} apiKey {api_key}, or correct this one's apiKey"
            else:
                text = f"{kind} {message.name} (apiKey {api_key}) has no {other_kind}"
                hint = (
                    f"add {stem}{other_kind.capitalize()}.json with apiKey {api_key} in the "
                    "same directory"
                )
            report(
                message.node,
                text,
                path=message.path,
                message_name=message.name,
                hint=hint,
            )
