"""Rules across all the specs of one run: names, API keys, request/response pairs."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from kcompat.findings import Reporter, Severity
from kcompat.rules.lint.adapters import set_rule
from kcompat.rules.registry import Category
from kcompat.spec.jackson import scalar_text
from kcompat.spec.model import Message
from kcompat.spec.versions import Versions


@set_rule("duplicate-message-name", Category.MESSAGES, Severity.ERROR)
def duplicate_message_name(messages: Sequence[Message], report: Reporter) -> None:
    """Two spec files define messages with the same name."""
    # Every file involved gets the finding, so linting any one of them alone shows it.
    by_name: dict[str, list[Message]] = defaultdict(list)
    for message in messages:
        if message.name and message.node is not None:
            by_name[message.name].append(message)
    for name, group in by_name.items():
        if len(group) < 2:
            continue
        for message in group:
            assert message.node is not None
            elsewhere = ", ".join(m.path for m in group if m is not message)
            report(
                message.node.where_value("name"),
                f"message {name} is also defined in {elsewhere}",
                path=message.path,
                message_name=name,
                hint="rename one of them or delete the copy",
            )


@set_rule("duplicate-api-key", Category.MESSAGES, Severity.ERROR)
def duplicate_api_key(messages: Sequence[Message], report: Reporter) -> None:
    """Two messages of one type share an apiKey."""
    by_key: dict[tuple[str, int], list[Message]] = defaultdict(list)
    for message in messages:
        if message.api_key is not None and message.node is not None:
            by_key[(message.kind, message.api_key)].append(message)
    for (kind, api_key), group in by_key.items():
        if len({m.name for m in group}) < 2:
            continue  # one message defined twice: duplicate-message-name reports it
        for message in group:
            assert message.node is not None
            others = [m for m in group if m.name != message.name]
            report(
                message.node.where_value("apiKey"),
                f"{kind} apiKey {api_key} of {message.name} is also used by "
                + ", ".join(f"{m.name} ({m.path})" for m in others),
                path=message.path,
                message_name=message.name,
                hint="give each API its own apiKey (the request and its response share one)",
            )


@set_rule("unpaired-request-response", Category.MESSAGES, Severity.ERROR)
def unpaired_request_response(messages: Sequence[Message], report: Reporter) -> None:
    """A request without its response (same apiKey), or the reverse."""
    by_key: dict[int, dict[str, Message]] = defaultdict(dict)
    by_name = {m.name: m for m in messages if m.name}
    for candidate in messages:
        if candidate.kind in ("request", "response") and candidate.api_key is not None:
            by_key[candidate.api_key].setdefault(candidate.kind, candidate)
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


@set_rule("unpaired-coordinator-record", Category.MESSAGES, Severity.ERROR)
def unpaired_coordinator_record(messages: Sequence[Message], report: Reporter) -> None:
    """A coordinator-key record without its coordinator-value (same apiKey), or the reverse."""
    by_key: dict[int, dict[str, Message]] = defaultdict(dict)
    for candidate in messages:
        if candidate.kind.startswith("coordinator-") and candidate.api_key is not None:
            by_key[candidate.api_key].setdefault(candidate.kind, candidate)
    for api_key, pair in sorted(by_key.items()):
        for kind, other_kind in _COORDINATOR_PAIRS:
            message = pair.get(kind)
            if message is None or other_kind in pair or message.node is None:
                continue
            half, other_half = kind.split("-")[1], other_kind.split("-")[1]
            stem = message.name.removesuffix(half.capitalize())
            report(
                message.node,
                f"{kind} {message.name} (apiKey {api_key}) has no {other_kind} with that "
                "apiKey; Kafka's generator fails on an unpaired coordinator record",
                path=message.path,
                message_name=message.name,
                hint=f'add {stem}{other_half.capitalize()}.json with "type": '
                f'"{other_kind}" and apiKey {api_key} in the same directory',
            )


_COORDINATOR_PAIRS = (
    ("coordinator-key", "coordinator-value"),
    ("coordinator-value", "coordinator-key"),
)


@set_rule("request-response-versions-differ", Category.MESSAGES, Severity.ERROR)
def request_response_versions_differ(messages: Sequence[Message], report: Reporter) -> None:
    """A request and its response (same apiKey) with different validVersions."""
    # Kafka's README: "The version of a response must always match the version of the
    # corresponding request." A response always answers in the request's version.
    by_key: dict[int, dict[str, Message]] = defaultdict(dict)
    for candidate in messages:
        if candidate.kind in ("request", "response") and candidate.api_key is not None:
            by_key[candidate.api_key].setdefault(candidate.kind, candidate)
    for _api_key, pair in sorted(by_key.items()):
        request, response = pair.get("request"), pair.get("response")
        if request is None or response is None or not _versions_parse(request, response):
            continue
        if request.valid_versions == response.valid_versions:
            continue
        for message, other in ((request, response), (response, request)):
            assert message.node is not None
            report(
                message.node.where_value("validVersions"),
                f"{message.kind} {message.name} has validVersions {message.valid_versions} but "
                f"its {other.kind} {other.name} has {other.valid_versions}; a response is "
                "always sent in the version of its request",
                path=message.path,
                message_name=message.name,
                hint="give the request and the response the same validVersions",
            )


def _versions_parse(*messages: Message) -> bool:
    """Every message's validVersions is a range (else invalid-versions says why)."""
    for message in messages:
        text = message.node.get("validVersions") if message.node is not None else None
        if Versions.try_parse(scalar_text(text)) is None:
            return False
    return True
