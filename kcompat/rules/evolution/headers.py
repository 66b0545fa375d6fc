"""Request and response headers, judged by the bytes each API version's header has.

A header's version is never sent: both sides derive it from the API version
(:mod:`kcompat.spec.headers`). Kafka 2.4 renumbered RequestHeader (2.3's only version,
v0, became v1; v0 became ControlledShutdown v0's), keeping every API version's header
bytes: comparing "v0" with "v0" there reports a removed ClientId that no API version
ever lost. So a renumbered group of API versions is compared as BASE's header version
against HEAD's.
"""

from __future__ import annotations

from dataclasses import replace

from kcompat.findings import Reporter, Severity
from kcompat.rules.evolution.adapters import pair_rule
from kcompat.rules.evolution.pairing import MessagePair
from kcompat.rules.registry import Category
from kcompat.spec.resolve import StructLayout, resolve
from kcompat.spec.shape import inline_leaves, wire_shape
from kcompat.spec.versions import Versions


@pair_rule("header-renumbered", Category.VERSIONS, Severity.ERROR)
def header_renumbered(pair: MessagePair, report: Reporter) -> None:
    """A header renumbered so that some API versions' header bytes change."""
    for group, before, after in pair.renumbered:
        change, widened = header_change(
            resolve(pair.base, before).root, resolve(pair.head, after).root
        )
        where = f"{pair.head.name}: {group} use v{after} in HEAD, v{before} in BASE"
        if change is None:
            also = (
                f" ({', '.join(widened)} also {'allows' if len(widened) == 1 else 'allow'} "
                "null in HEAD)"
                if widened
                else ""
            )
            report(
                pair.head.node,
                f"{where}, with the same header bytes{also}",
                key="validVersions",
                base=pair.base.node,
                base_key="validVersions",
                versions=Versions.of(before, before),
                severity=Severity.INFO,
            )
        else:
            report.changed(
                pair.head.node,
                pair.base.node,
                "validVersions",
                f"{where}, and their header bytes differ: {change}",
                versions=Versions.of(before, before),
                hint="a header version follows from the API version; keep the bytes each "
                "API version's header had, whatever the header version is called",
            )


def header_change(base: StructLayout, head: StructLayout) -> tuple[str | None, list[str]]:
    """How two header layouts' bytes differ (None: they do not), and the fields HEAD lets
    be null where BASE did not (every header BASE writes is still written alike)."""
    if base.flexible != head.flexible:
        now = "has" if head.flexible else "lacks"
        return f"HEAD's {now} a tagged-field section", []
    old, new = inline_leaves(base), inline_leaves(head)
    if len(old) != len(new):
        return f"{len(old)} fields in BASE, {len(new)} in HEAD", []
    widened = []
    for before, after in zip(old, new, strict=True):
        if wire_shape(before.wire) == wire_shape(after.wire):
            continue
        as_nullable = replace(before.wire, nullable=True, null_marker=after.wire.null_marker)
        if after.wire.nullable and wire_shape(as_nullable) == wire_shape(after.wire):
            widened.append(after.name)
            continue
        return (
            f"{after.name} is {after.wire.describe()} in HEAD, {before.wire.describe()} in BASE",
            [],
        )
    tags = [(f.tag, wire_shape(f.wire)) for f in base.tagged]
    if tags != [(f.tag, wire_shape(f.wire)) for f in head.tagged]:
        return "their tagged fields differ", []
    return None, widened
