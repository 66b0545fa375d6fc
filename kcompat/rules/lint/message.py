"""Rules about message-level keys: what only requests may carry, and API keys."""

from __future__ import annotations

from kcompat.findings import Reporter, Severity
from kcompat.rules.lint.adapters import message_rule
from kcompat.rules.registry import Category
from kcompat.spec.model import Message
from kcompat.spec.versions import Versions

#: Kinds whose apiKey Kafka's generator reads unconditionally (a request's ApiKeys entry,
#: a metadata or coordinator record's id): without one it fails on an empty Optional.
_KEYED_KINDS = ("request", "response", "metadata", "coordinator-key", "coordinator-value")


#: Keys only requests carry: what a finding says of another message that sets one, the hint.
_REQUEST_ONLY = {
    "listeners": ("declares listeners", "move listeners to the request spec"),
    "latestVersionUnstable": ("sets latestVersionUnstable", "set it on the request"),
}


def _off_request(message: Message, report: Reporter, key: str, value: object) -> None:
    """A key only requests carry, set (``value`` true) on a message of another kind."""
    says, hint = _REQUEST_ONLY[key]
    if value and message.node is not None and message.kind != "request":
        report(
            message.node,
            f"{message.kind} {message.name} {says}; only requests do",
            key=key,
            hint=hint,
        )


@message_rule("listeners-off-request", Category.MESSAGES, Severity.ERROR)
def listeners_off_request(message: Message, report: Reporter) -> None:
    """listeners on a message that is not a request."""
    listeners = message.node.get("listeners") if message.node is not None else None
    _off_request(message, report, "listeners", listeners)


@message_rule("unstable-off-request", Category.MESSAGES, Severity.ERROR)
def unstable_off_request(message: Message, report: Reporter) -> None:
    """latestVersionUnstable on a message that is not a request."""
    _off_request(message, report, "latestVersionUnstable", message.latest_version_unstable)


@message_rule("missing-api-key", Category.MESSAGES, Severity.ERROR)
def missing_api_key(message: Message, report: Reporter) -> None:
    """A request, response, metadata record or coordinator record without an apiKey."""
    node = message.node
    if node is not None and message.kind in _KEYED_KINDS and node.get("apiKey") is None:
        report(
            node,
            f"{message.kind} {message.name} has no apiKey",
            hint='add "apiKey": the API key shared by the request and its response',
        )


@message_rule("coordinator-key-versions", Category.MESSAGES, Severity.ERROR)
def coordinator_key_versions(message: Message, report: Reporter) -> None:
    """A coordinator-key record whose validVersions is not 0 or that has flexibleVersions."""
    node = message.node
    if node is None or message.kind != "coordinator-key" or message.valid_versions.empty:
        return  # Kafka checks a coordinator key only when it has versions at all
    if message.valid_versions != Versions.of(0, 0):
        report(
            node.where_value("validVersions"),
            f"coordinator key {message.name} has validVersions {message.valid_versions}; "
            "Kafka's generator requires exactly 0",
            hint='write "validVersions": "0": a key\'s layout can never change, evolve the '
            "value record instead",
        )
    if not message.flexible_versions.empty:
        report(
            node.where_value("flexibleVersions"),
            f"coordinator key {message.name} has flexibleVersions {message.flexible_versions}; "
            "Kafka's generator does not support flexible coordinator keys",
            hint='write "flexibleVersions": "none"',
        )
