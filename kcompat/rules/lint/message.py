"""Rules about message-level keys: what only requests may carry, and API keys."""

from __future__ import annotations

from kcompat.rules.engine import Reporter, Severity, rule
from kcompat.spec.model import Message

_KEYED_KINDS = ("request", "response", "coordinator-key", "coordinator-value")


@rule(
    "listeners-off-request",
    kind="lint",
    category="message",
    severity=Severity.ERROR,
    summary="listeners on a message that is not a request.",
)
def listeners_off_request(message: Message, report: Reporter) -> None:
    node = message.node
    if node is not None and node.get("listeners") and message.kind != "request":
        report(
            node,
            f"{message.kind} {message.name} declares listeners; only requests do",
            key="listeners",
            hint="move listeners to the request spec",
        )


@rule(
    "unstable-off-request",
    kind="lint",
    category="message",
    severity=Severity.ERROR,
    summary="latestVersionUnstable on a message that is not a request.",
)
def unstable_off_request(message: Message, report: Reporter) -> None:
    node = message.node
    if node is not None and message.latest_version_unstable and message.kind != "request":
        report(
            node,
            f"{message.kind} {message.name} sets latestVersionUnstable; only requests do",
            key="latestVersionUnstable",
            hint="set it on the request",
        )


@rule(
    "missing-api-key",
    kind="lint",
    category="message",
    severity=Severity.ERROR,
    summary="A request, response or coordinator record without an apiKey.",
)
def missing_api_key(message: Message, report: Reporter) -> None:
    node = message.node
    if node is not None and message.kind in _KEYED_KINDS and "apiKey" not in node:
        report(
            node,
            f"{message.kind} {message.name} has no apiKey",
            hint='add "apiKey": the API key shared by the request and its response',
        )
