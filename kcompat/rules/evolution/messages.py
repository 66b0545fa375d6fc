"""Message-level evolution rules: removed, added, renamed, apiKey and type changes."""

from __future__ import annotations

from kcompat.findings import Reporter, Severity
from kcompat.rules.evolution.adapters import pair_rule, set_rule
from kcompat.rules.evolution.context import DiffContext
from kcompat.rules.evolution.pairing import MessagePair
from kcompat.rules.registry import Category


@set_rule("message-removed", Category.MESSAGES, Severity.ERROR)
def message_removed(context: DiffContext, report: Reporter) -> None:
    """A message present in BASE is gone from HEAD."""
    for spec in context.pairing.removed:
        message = spec.message
        assert message is not None
        versions = context.releases.released(message)
        if versions.empty:
            continue  # nothing released (validVersions "none", or no release shipped it)
        report(
            message.node,
            f"{message.kind} {message.name} was removed; clients of its "
            f"released versions ({versions}) can no longer use it",
            key="name",
            path=spec.path,
            message_name=message.name,
            versions=versions,
            hint="keep the spec; deprecate versions with deprecatedVersions instead",
        )


@set_rule("message-added", Category.MESSAGES, Severity.INFO)
def message_added(context: DiffContext, report: Reporter) -> None:
    """A new message (compatible)."""
    for spec in context.pairing.added:
        message = spec.message
        assert message is not None
        report(
            message.node,
            f"new {message.kind} {message.name} (versions {message.valid_versions})",
            key="name",
            path=spec.path,
            message_name=message.name,
        )


@pair_rule("message-renamed", Category.MESSAGES, Severity.WARNING)
def message_renamed(pair: MessagePair, report: Reporter) -> None:
    """A message renamed: the wire is unchanged, generated class names are not."""
    if pair.base.name != pair.head.name and pair.head.node is not None:
        report.changed(
            pair.head.node,
            pair.base.node,
            "name",
            f"message {pair.base.name} was renamed to {pair.head.name}",
            hint="renames break generated code and JSON tooling; keep the old name",
        )


@pair_rule("api-key-changed", Category.MESSAGES, Severity.ERROR)
def api_key_changed(pair: MessagePair, report: Reporter) -> None:
    """The apiKey changed: every client sends the old key."""
    if pair.base.api_key != pair.head.api_key and pair.head.node is not None:
        report.changed(
            pair.head.node,
            pair.base.node,
            "apiKey",
            f"apiKey of {pair.head.name} changed from {pair.base.api_key} to {pair.head.api_key}",
            hint="an apiKey is permanent; define a new message for a new key",
        )


@pair_rule("message-type-changed", Category.MESSAGES, Severity.ERROR)
def message_type_changed(pair: MessagePair, report: Reporter) -> None:
    """The message type changed (request, response, header, ...)."""
    if pair.base.kind != pair.head.kind and pair.head.node is not None:
        report.changed(
            pair.head.node,
            pair.base.node,
            "type",
            f"{pair.head.name} changed type from {pair.base.kind} to {pair.head.kind}",
        )


@pair_rule("listener-removed", Category.MESSAGES, Severity.WARNING)
def listener_removed(pair: MessagePair, report: Reporter) -> None:
    """A request is no longer accepted by a listener it used to be sent to."""
    gone = [x for x in pair.base.listeners if x not in pair.head.listeners]
    if gone and pair.head.listeners and pair.head.node is not None:
        report.changed(
            pair.head.node,
            pair.base.node,
            "listeners",
            f"{pair.head.name} is no longer accepted by listener(s) {', '.join(gone)}",
            hint="clients that send it there will get an unsupported-version error",
        )
