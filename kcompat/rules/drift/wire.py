"""``drift-wire-mismatch``: a version both sides have is written differently, found as the
first place the two layouts of a version part on the wire."""

from __future__ import annotations

from kcompat.codec.evidence import BASE_TO_HEAD, Evidence
from kcompat.findings import Reporter, Severity
from kcompat.rules.drift.adapters import DriftPair, pair_rule
from kcompat.rules.drift.pairing import Difference, first_difference
from kcompat.rules.registry import Category
from kcompat.spec.load import JObject
from kcompat.spec.model import Message
from kcompat.spec.resolve import LayoutField, resolve
from kcompat.spec.runs import runs
from kcompat.spec.shape import struct_shape
from kcompat.spec.versions import Versions


def spec_type(entry: LayoutField) -> str:
    """The field's type as specs write it (``[]Topic``, ``int32``), with what changes its
    bytes at this version (nullable, tag)."""
    text = entry.field.type.text
    if entry.nullable:
        text += ", nullable"
    if entry.tag is not None:
        text += f", tag {entry.tag}"
    return text


def _types(up: LayoutField, lo: LayoutField) -> tuple[str, str]:
    """Both fields' spec types; with the wire forms when the spec types read the same."""
    up_text, lo_text = spec_type(up), spec_type(lo)
    if up_text == lo_text:
        return (
            f"{up_text} ({up.wire.describe().lower()} on the wire)",
            f"{lo_text} ({lo.wire.describe().lower()} on the wire)",
        )
    return up_text, lo_text


def describe_difference(found: Difference) -> str:
    """What a reader at each end sees differently, naming the fields at that place."""
    up, lo = found.upstream, found.local
    if found.flexibility is not None:
        up_flex, lo_flex = found.flexibility
        return (
            f"{found.path} is {_flex(lo_flex)} locally but {_flex(up_flex)} upstream "
            "(flexible versions write compact lengths and tagged fields)"
        )
    parent = found.path.rpartition(".")[0]
    where = f"field {found.position}" + (f" of {parent}" if parent else "")
    if up is not None and lo is not None:
        up_type, lo_type = _types(up, lo)
        if up.path == lo.path:
            return f"{lo.path} is {lo_type} locally but {up_type} upstream"
        if up.tag is not None:
            where = f"tag {up.tag}" + (f" of {parent}" if parent else "")
        return f"{where} is {lo.path} ({lo_type}) locally but {up.path} ({up_type}) upstream"
    if up is not None:
        return f"upstream writes {up.path} ({spec_type(up)}) as {where}; the local copy has none"
    assert lo is not None
    return f"the local copy writes {lo.path} ({spec_type(lo)}) as {where}; upstream has none"


def _flex(flexible: bool) -> str:
    return "flexible" if flexible else "not flexible"


@pair_rule("drift-wire-mismatch", Category.DRIFT, Severity.ERROR)
def drift_wire_mismatch(pair: DriftPair, report: Reporter) -> None:
    """A version both sides have is encoded differently: the two ends misread it."""
    # versions whose difference reads the same are one finding (the wire forms may vary)
    # (once per run of versions whose layouts cannot differ: kcompat.spec.runs)
    groups: dict[str, tuple[Difference, list[Versions]]] = {}
    for run in runs(pair.upstream, pair.local, pair.shared):
        up = resolve(pair.upstream, run.lowest).root
        lo = resolve(pair.local, run.lowest).root
        if struct_shape(up) == struct_shape(lo):
            continue
        found = first_difference(up, lo)
        if found is not None:
            groups.setdefault(describe_difference(found), (found, []))[1].append(run)
    for said, (found, versions) in groups.items():
        shown = Versions.from_ranges(r for part in versions for r in part.ranges)
        local_node = found.local.field.node if found.local is not None else None
        upstream_node = found.upstream.field.node if found.upstream is not None else None
        flexible = found.flexibility is not None
        report(
            local_node if local_node is not None else pair.local.node,
            f"{pair.local.name} versions {shown}: {said}",
            key="flexibleVersions" if flexible else "name",
            field_path=found.path,
            versions=shown,
            base=upstream_node if upstream_node is not None else pair.upstream.node,
            base_key="flexibleVersions" if flexible else "name",
            hint="re-vendor the upstream spec, or stop advertising these versions",
        )
    _misread(pair, report)


def _misread(pair: DriftPair, report: Reporter) -> None:
    """Versions laid out alike whose bytes the proof shows misread all the same (a tagged
    field's default differs, so a tag one side leaves out reads as something else): one
    finding per field and direction, with the counterexample."""
    seen: dict[tuple[str, str], list[Evidence]] = {}
    for item in pair.proof.evidence:
        if isinstance(item, Evidence):
            seen.setdefault((item.field_path, item.direction), []).append(item)
    for (path, direction), items in seen.items():
        versions = Versions.from_ranges((e.version, e.version) for e in items)
        writer, reader = (
            ("upstream", "the local copy")
            if direction == BASE_TO_HEAD
            else ("the local copy", "upstream")
        )
        node = _node_at(pair.local, path)
        report(
            node if node is not None else pair.local.node,
            f"{pair.local.name} versions {versions}: {path or 'the message'} as {writer} writes "
            f"it is read otherwise by {reader}, though both lay it out alike",
            key="name",
            field_path=path,
            versions=versions,
            base=_node_at(pair.upstream, path) or pair.upstream.node,
            base_key="name",
            evidence=items[0],
            hint="make the two specs agree (a tagged field's default is part of its bytes)",
        )


def _node_at(message: Message, path: str) -> JObject | None:
    for found, item in message.walk():
        if found == path:
            return item.node
    return None
