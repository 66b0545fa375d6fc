"""Round-trip evidence as findings: bytes written by one revision, misread by the other.

The codec proves each released version both revisions have (:func:`kcompat.codec.proof.
prove`); every counterexample becomes a ``roundtrip-mismatch`` error carrying the bytes.
One finding per (field, direction), with the versions merged and the first (lowest
version) counterexample attached.
"""

from __future__ import annotations

from collections.abc import Sequence

from kcompat.config import Config
from kcompat.diff.match import ReleasedFor, pair_messages
from kcompat.rules.engine import Finding, Reporter, Severity, get_rule, rule
from kcompat.spec.load import JObject
from kcompat.spec.model import Message
from kcompat.spec.specfile import SpecFile
from kcompat.spec.versions import Versions


@rule(
    "roundtrip-mismatch",
    kind="diff",
    category="proof",
    severity=Severity.ERROR,
    summary="Bytes one revision writes are misread (or rejected) by the other: the proof.",
    scope="proof",
)
def roundtrip_mismatch(*_args: object) -> None:
    """Findings come from :func:`proof_findings` (the codec), not from a pair walk."""


def proof_findings(
    base_specs: Sequence[SpecFile],
    head_specs: Sequence[SpecFile],
    released_for: ReleasedFor,
    *,
    samples: int = 20,
    config: Config | None = None,
) -> list[Finding]:
    from kcompat.codec.proof import prove

    if config is not None and "roundtrip-mismatch" in config.disabled:
        return []
    meta = get_rule("roundtrip-mismatch")
    assert meta is not None
    pairing = pair_messages(list(base_specs), list(head_specs), released_for)
    findings: list[Finding] = []
    for pair in pairing.pairs:
        if pair.common.empty:
            continue
        # prove() itself skips versions whose layouts compile identically (names included)
        evidence = prove(pair.base, pair.head, pair.common, samples=samples)
        groups: dict[tuple[str, str, bool], list[object]] = {}
        for item in sorted(evidence, key=lambda e: e.version):
            groups.setdefault((item.field_path, item.direction, item.error is not None), []).append(
                item
            )
        for (field_path, direction, failed), items in groups.items():
            first = items[0]
            versions = Versions.from_ranges((e.version, e.version) for e in items)  # type: ignore[attr-defined]
            writer, reader = ("BASE", "HEAD") if direction == "base->head" else ("HEAD", "BASE")
            what = (
                f"{reader} cannot read bytes {writer} writes"
                if failed
                else f"{reader} misreads {field_path or 'the message'} as {writer} writes it"
            )
            sink: list[Finding] = []
            reporter = Reporter(
                meta,
                pair.head_spec.path,
                sink,
                message_name=pair.head.name,
                base_path=pair.base_spec.path,
            )
            head_node, base_node = _nodes(pair.head, field_path), _nodes(pair.base, field_path)
            detail = first.summary().partition(": ")[2]  # type: ignore[attr-defined]
            reporter(
                head_node,
                f"round trip {direction} (versions {versions}): {what}: {detail}",
                key="name",
                field_path=field_path,
                versions=str(versions),
                base=base_node,
                base_key="name",
                evidence=first,
                hint="the bytes below are a sample that does not survive the change",
            )
            findings.extend(sink)
    if config is not None and "roundtrip-mismatch" in config.severities:
        from dataclasses import replace

        findings = [replace(f, severity=config.severities["roundtrip-mismatch"]) for f in findings]
    return findings


def _nodes(message: Message, field_path: str) -> JObject | None:
    """The JSON node of a field path (or the message when the path is not a field)."""
    fields = dict(message.walk())
    path = field_path
    while path:
        found = fields.get(path)
        if found is not None and found.node is not None:
            return found.node
        path = path.rpartition(".")[0]
    return message.node


__all__ = ["proof_findings"]
