"""``drift-wire-mismatch``: a version both sides have is written differently, found as the
first place the two layouts of a version part on the wire."""

from __future__ import annotations

from dataclasses import dataclass

from kcompat.findings import Reporter, Severity
from kcompat.rules.drift.adapters import DriftPair, pair_rule
from kcompat.rules.registry import Category
from kcompat.spec.resolve import LayoutField, StructLayout, resolve
from kcompat.spec.runs import runs
from kcompat.spec.shape import own_shape, struct_inside, struct_shape
from kcompat.spec.versions import Versions


@dataclass(frozen=True)
class Difference:
    """The first place two layouts of one version differ on the wire."""

    path: str  # the field (or struct) where they part
    upstream: LayoutField | None  # the field upstream has there (None: nothing)
    local: LayoutField | None
    position: int = 0  # 1-based place among the struct's untagged fields (0: n/a)
    flexibility: tuple[bool, bool] | None = None  # (upstream, local) when that differs


def first_difference(upstream: StructLayout, local: StructLayout) -> Difference | None:
    """The first byte-level difference between two layouts, fields compared in wire order."""
    if upstream.flexible != local.flexible:
        return Difference(
            upstream.path or "(message)",
            None,
            None,
            flexibility=(upstream.flexible, local.flexible),
        )
    for position, (up, lo) in enumerate(zip(upstream.fields, local.fields, strict=False), 1):
        found = _compare(up, lo, position)
        if found is not None:
            return found
    if len(upstream.fields) != len(local.fields):
        position = min(len(upstream.fields), len(local.fields))
        if len(upstream.fields) > position:
            extra = upstream.fields[position]
            return Difference(extra.path, extra, None, position + 1)
        extra = local.fields[position]
        return Difference(extra.path, None, extra, position + 1)
    up_tags = {f.tag: f for f in upstream.tagged}
    lo_tags = {f.tag: f for f in local.tagged}
    for tag in sorted(k for k in up_tags.keys() | lo_tags.keys() if k is not None):
        u, lo_ = up_tags.get(tag), lo_tags.get(tag)
        if u is None or lo_ is None:
            continue  # a tag only one side knows is skipped by the other: compatible
        found = _compare(u, lo_, 0)
        if found is not None:
            return found
    return None


def _compare(up: LayoutField, lo: LayoutField, position: int) -> Difference | None:
    if own_shape(up.wire) != own_shape(lo.wire):
        return Difference(up.path if up.path == lo.path else lo.path, up, lo, position)
    child_up, child_lo = struct_inside(up.wire), struct_inside(lo.wire)
    if child_up is not None and child_lo is not None:
        return first_difference(child_up, child_lo)
    return None


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
