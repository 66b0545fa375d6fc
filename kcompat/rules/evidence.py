"""One finding per break: the proof's counterexamples join the findings that explain them.

The round-trip proof (:mod:`kcompat.rules.evolution.proof`) yields one raw
``roundtrip-mismatch`` finding per (version, direction, changed field), each carrying an
:class:`~kcompat.codec.evidence.Evidence`. A rule that already names the change (a removed
field, a narrowed nullability) explains those bytes: the first counterexample becomes
that finding's evidence and the rest become its notes, instead of three or four more
errors. Only bytes that no rule explains stay standalone ``roundtrip-mismatch`` errors,
one per (field, direction), which is where the proof earns its keep.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from kcompat.findings import Finding, Severity
from kcompat.spec.versions import Versions

ROUNDTRIP = "roundtrip-mismatch"


#: Rules whose finding is a consequence of another rule's on the same field, by one edit:
#: a tag moved onto a number another field once had (tag-changed says it moved).
CONSEQUENCES = {"tag-reused": "tag-changed"}


def one_per_edit(findings: Sequence[Finding]) -> list[Finding]:
    """One finding per edit: the uses of one definition (a common struct's field used in
    two places is one line of the spec: the findings about it share that line on one
    side) merged into one finding, and a consequence folded into the finding of the edit
    that caused it, as a note."""
    kept: list[Finding] = []
    index: dict[tuple[object, ...], int] = {}
    for finding in findings:
        keys = _definition_keys(finding)
        at = next((index[k] for k in keys if k in index), None)
        if at is None:
            for key in keys:
                index[key] = len(kept)
            kept.append(finding)
        else:
            kept[at] = _merged_use(kept[at], finding)
    return _fold_consequences(kept)


def _definition_keys(finding: Finding) -> list[tuple[object, ...]]:
    """Where a finding about a field is defined: its line on either side (none for a
    finding about no field)."""
    if not finding.field_path:
        return []
    leaf = finding.field_path.rpartition(".")[2]
    head = (finding.rule, finding.message_name, finding.severity, leaf)
    keys: list[tuple[object, ...]] = [(*head, "head", finding.location)]
    if finding.base_location is not None:
        keys.append((*head, "base", finding.base_location))
    return keys


def _merged_use(first: Finding, other: Finding) -> Finding:
    if other.field_path == first.field_path or other.field_path in first.explains:
        return first
    mine, theirs = first.versions, other.versions
    merged = first
    if mine is not None and theirs is not None and not mine.empty:
        merged = first.about(mine | theirs)  # its message says the versions of both uses
    return replace(
        merged,
        explains=(*first.explains, other.field_path, *other.explains),
        notes=(*first.notes, f"the same definition is used at {other.field_path}"),
    )


def _fold_consequences(findings: list[Finding]) -> list[Finding]:
    causes = {(f.rule, f.message_name, f.field_path): i for i, f in enumerate(findings)}
    out: list[Finding | None] = list(findings)
    for index, finding in enumerate(findings):
        cause = CONSEQUENCES.get(finding.rule)
        at = causes.get((cause, finding.message_name, finding.field_path)) if cause else None
        host = out[at] if at is not None else None
        if at is None or host is None:
            continue
        out[at] = replace(host, notes=(*host.notes, f"also {finding.rule}: {finding.message}"))
        out[index] = None
    return [f for f in out if f is not None]


def attach_evidence(findings: Sequence[Finding], proofs: Sequence[Finding]) -> list[Finding]:
    """``findings`` with the proofs they explain attached, plus unexplained proofs merged."""
    if not proofs:
        return list(findings)
    explainers = [
        (index, finding, finding.versions)
        for index, finding in enumerate(findings)
        if finding.severity is Severity.ERROR and finding.rule != ROUNDTRIP
    ]
    attached: dict[int, list[Finding]] = {}
    leftover: list[Finding] = []
    for proof in proofs:
        best = _explainer(proof, explainers)
        if best is None:
            leftover.append(proof)
        else:
            attached.setdefault(best, []).append(proof)
    out = [
        _with_evidence(finding, attached[index]) if index in attached else finding
        for index, finding in enumerate(findings)
    ]
    return out + merge_proofs(leftover)


def _explainer(
    proof: Finding, explainers: Sequence[tuple[int, Finding, Versions | None]]
) -> int | None:
    """The finding that best explains a counterexample: same message, a version it names,
    and the changed field itself (or the struct or message around it)."""
    version = _version(proof)
    best: tuple[int, int] | None = None
    for index, finding, versions in explainers:
        if finding.message_name != proof.message_name:
            continue
        if versions is not None and not versions.empty and version not in versions:
            continue
        score = _closeness(finding, proof.field_path, proof.location)
        if score and (best is None or score > best[0]):
            best = (score, index)
    return best[1] if best is not None else None


def _closeness(finding: Finding, path: str, where: object = None) -> int:
    """How directly a finding names a changed field: 3 the field itself (or its
    definition, ``where``: another use of a common struct's field), 2 a field inside the
    changed one, 1 the whole message (flexibility) or the struct around it, 0 none."""
    own = finding.field_path
    if path == own or path in finding.explains:
        return 3
    if where is not None and own and where == finding.location:
        return 3
    if own and path.startswith(own + "."):
        return 2
    if not own or (path and own.startswith(path + ".")):
        return 1
    return 0


def _version(proof: Finding) -> int:
    evidence = proof.evidence
    return int(evidence.version) if evidence is not None else -1


def _with_evidence(finding: Finding, proofs: list[Finding]) -> Finding:
    """The first counterexample (lowest version, base->head first) as the evidence; one
    note for each other direction or field the same change breaks."""
    ordered = sorted(proofs, key=_order)
    first = ordered[0].evidence
    notes = list(finding.notes)
    for (_name, path, direction, failed), group in _groups(ordered[1:]).items():
        if path == first.field_path and direction == first.direction:
            continue
        versions = _versions_of(group)
        what = _what(direction, path, failed)
        where = f" {path}" if path and path != finding.field_path else ""
        notes.append(f"also{where} {direction} (versions {versions}): {what}")
    return replace(finding, evidence=first, notes=tuple(notes))


def merge_proofs(proofs: Sequence[Finding]) -> list[Finding]:
    """Unexplained counterexamples: one ``roundtrip-mismatch`` per (message, changed
    field), with its versions merged, its first counterexample as the evidence and the
    other direction as a note."""
    by_field: dict[tuple[str, str], list[Finding]] = {}
    for proof in sorted(proofs, key=_order):
        evidence: Any = proof.evidence
        by_field.setdefault((proof.message_name, evidence.field_path), []).append(proof)
    out = []
    for group in by_field.values():
        first = group[0]
        evidence = first.evidence
        same = [
            p
            for p in group
            if p.evidence.direction == evidence.direction
            and (p.evidence.error is None) == (evidence.error is None)
        ]
        what = _what(evidence.direction, evidence.field_path, evidence.error is not None)
        detail = evidence.summary().partition(": ")[2]
        merged = replace(
            first,
            message=f"round trip {evidence.direction} (versions {_versions_of(same)}): "
            f"{what}: {detail}",
            versions=_versions_of(group),
            hint="the bytes below are a sample that does not survive the change",
        )
        out.append(_with_evidence(merged, group))
    return out


def _groups(proofs: Sequence[Finding]) -> dict[tuple[str, str, str, bool], list[Finding]]:
    """Counterexamples by (message, changed field, direction, whether reading failed)."""
    groups: dict[tuple[str, str, str, bool], list[Finding]] = {}
    for proof in proofs:
        evidence: Any = proof.evidence
        key = (
            proof.message_name,
            evidence.field_path,
            evidence.direction,
            evidence.error is not None,
        )
        groups.setdefault(key, []).append(proof)
    return groups


def _order(proof: Finding) -> tuple[int, int, str]:
    evidence: Any = proof.evidence
    return (evidence.version, 0 if evidence.direction == "base->head" else 1, evidence.field_path)


def _versions_of(group: Sequence[Finding]) -> Versions:
    return Versions.from_ranges((_version(p), _version(p)) for p in group)


def _what(direction: str, path: str, failed: bool) -> str:
    writer, reader = ("BASE", "HEAD") if direction == "base->head" else ("HEAD", "BASE")
    if failed:
        return f"{reader} cannot read bytes {writer} writes"
    return f"{reader} misreads {path or 'the message'} as {writer} writes it"
