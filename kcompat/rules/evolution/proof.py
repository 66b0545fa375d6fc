"""The round-trip proof as raw findings: bytes one revision writes, misread by the other.

The codec proves each released version both revisions have (:func:`kcompat.codec.proof.
prove`). Every counterexample becomes one raw ``roundtrip-mismatch`` finding naming the
field that changed; the runner's finishing step then attaches it to the rule finding that
explains it, or merges it into a standalone ``roundtrip-mismatch`` error
(:mod:`kcompat.rules.evidence`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from kcompat import progress
from kcompat.findings import Finding, Reporter, Severity
from kcompat.rules.evolution.pairing import MessagePair
from kcompat.rules.registry import Category, Elsewhere, RuleKind, elsewhere, get_rule
from kcompat.spec.load import JObject
from kcompat.spec.model import Field, Message
from kcompat.spec.versions import Versions

if TYPE_CHECKING:
    from kcompat.codec.compiler import CodeStore

_PROOF = "kcompat.rules.evolution.proof:proof_findings"

(ROUNDTRIP_MISMATCH,) = elsewhere(
    RuleKind.DIFF,
    (
        Elsewhere("roundtrip-mismatch", Category.PROOF, Severity.ERROR, _PROOF),
        "Bytes one revision writes are misread (or rejected) by the other: the proof.",
    ),
)


def proof_findings(
    pairs: Sequence[MessagePair], *, samples: int = 20, code_cache: CodeStore | None = None
) -> list[Finding]:
    """One raw finding per counterexample, on the changed field, for every message pair
    (``code_cache``: where the command keeps compiled codecs between its processes)."""
    from kcompat.codec.proof import prove

    meta = get_rule(ROUNDTRIP_MISMATCH)
    assert meta is not None
    findings: list[Finding] = []
    compared = [pair for pair in pairs if not pair.common.empty]
    progress.step("proving with bytes (messages)", total=len(compared))
    for pair in compared:
        progress.advance()
        reporter = Reporter(
            meta,
            pair.head_spec.path,
            findings,
            message_name=pair.head.name,
            base_path=pair.base_spec.path,
        )
        # Each side's fields by path once per pair, not once per counterexample: a break
        # in 256 versions of a 2,000-field message is 512 counterexamples.
        head_fields, base_fields = dict(pair.head.walk()), dict(pair.base.walk())
        proven = prove(pair.base, pair.head, pair.common, samples=samples, code_cache=code_cache)
        for evidence in proven:
            path = evidence.field_path
            reporter(
                node_of(pair.head, path, head_fields),
                f"round trip {evidence.direction} (version {evidence.version})",
                key="name",
                field_path=path,
                versions=Versions.of(evidence.version, evidence.version),
                base=node_of(pair.base, path, base_fields),
                base_key="name",
                evidence=evidence,
            )
    return findings


def node_of(message: Message, field_path: str, fields: Mapping[str, Field]) -> JObject | None:
    """The JSON node of a field path (or of the nearest enclosing field, or the message);
    ``fields`` is ``dict(message.walk())``. A path through a common struct ends at the
    struct's own field, where every use of it is defined (and rules report it)."""
    found = _defined(message, field_path)
    if found is not None:
        return found
    path = field_path
    while path:
        field = fields.get(path)
        if field is not None and field.node is not None:
            return field.node
        path = path.rpartition(".")[0]
    return message.node


def _defined(message: Message, field_path: str) -> JObject | None:
    """The node of the field ``field_path`` names, following struct types into common
    structs (``Coordinator.Port`` is ``Endpoint``'s ``Port``); None when it names none."""
    fields = message.fields
    field: Field | None = None
    for name in field_path.split(".") if field_path else ():
        field = next((f for f in fields if f.name == name), None)
        if field is None:
            return None
        fields = field.fields
        if not fields and field.type.has_struct:
            struct = message.structs.get(field.type.base)
            fields = struct.fields if struct is not None else ()
    return field.node if field is not None else None
