"""``kcompat drift``: a vendored copy of a protocol against its upstream.

Brokers and client libraries vendor Kafka's specs. Unlike ``diff`` there is no before and
after: both ends talk to each other now, so every version both sides have must have the
same wire layout, whatever either side calls its files or fields. Messages are matched
by name, so a copy with snake_case file names or another folder layout pairs up.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import cast

from kcompat.config import Config
from kcompat.findings import Reporter, Severity
from kcompat.rules.registry import Category, Rule, RuleKind, Runner, Subject, all_rules, decorator
from kcompat.rules.runner import Call, Finishing, Outcome, compared, finish, run_rules
from kcompat.spec.model import Message
from kcompat.spec.resolve import Kind, LayoutField, StructLayout, resolve
from kcompat.spec.runs import runs
from kcompat.spec.shape import own_shape, struct_shape
from kcompat.spec.specfile import SpecFile
from kcompat.spec.versions import Versions


@dataclass(frozen=True)
class DriftPair:
    """One message as upstream and the local copy define it."""

    upstream: Message
    local: Message
    upstream_spec: SpecFile
    local_spec: SpecFile

    @property
    def shared(self) -> Versions:
        return self.upstream.valid_versions & self.local.valid_versions


@dataclass(frozen=True)
class DriftSet:
    pairs: tuple[DriftPair, ...]
    upstream_only: tuple[SpecFile, ...]
    local_only: tuple[SpecFile, ...]
    unreadable: tuple[tuple[str, SpecFile], ...] = ()  # ("upstream" or "local", the file)


def pair_drift(upstream: Sequence[SpecFile], local: Sequence[SpecFile]) -> DriftSet:
    up = {s.message.name: s for s in upstream if s.message is not None}
    lo = {s.message.name: s for s in local if s.message is not None}
    pairs = []
    for name in sorted(up.keys() & lo.keys()):
        u, l_ = up[name], lo[name]
        assert u.message is not None and l_.message is not None
        pairs.append(DriftPair(u.message, l_.message, u, l_))
    return DriftSet(
        tuple(pairs),
        tuple(up[n] for n in sorted(up.keys() - lo.keys())),
        tuple(lo[n] for n in sorted(lo.keys() - up.keys())),
        tuple(
            (side, spec)
            for side, specs in (("upstream", upstream), ("local", local))
            for spec in specs
            if spec.message is None
        ),
    )


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
    for child_up, child_lo in (
        (up.wire.struct, lo.wire.struct),
        (_element_struct(up), _element_struct(lo)),
    ):
        if child_up is not None and child_lo is not None:
            found = first_difference(child_up, child_lo)
            if found is not None:
                return found
    return None


def _element_struct(entry: LayoutField) -> StructLayout | None:
    element = entry.wire.element
    if element is not None and element.kind is Kind.STRUCT:
        return element.struct
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


def drift_specs(
    upstream: Sequence[SpecFile], local: Sequence[SpecFile], config: Config | None = None
) -> Outcome:
    """Every drift finding between an upstream spec set and a local copy (pure)."""
    config = config if config is not None else Config()
    drift_set = pair_drift(upstream, local)

    def calls(drift_rule: Rule) -> Iterator[Call]:
        if drift_rule.subject is Subject.SET:
            yield Call(drift_set)
            return
        for pair in drift_set.pairs:
            yield Call(pair, pair.local_spec.path, pair.local.name, pair.upstream_spec.path)

    how = Finishing(
        config=config,
        kinds=frozenset({"drift"}),
        comments={s.path: s.document.comments for s in local if s.document is not None},
        subjects=compared((*upstream, *local)),
    )
    return finish(run_rules(all_rules("drift"), calls), how)


PairCheck = Callable[[DriftPair, Reporter], None]
SetCheck = Callable[[DriftSet, Reporter], None]


def _on_pair(check: PairCheck) -> Runner:
    return lambda subject, report, _context: check(cast(DriftPair, subject), report)


def _on_set(check: SetCheck) -> Runner:
    return lambda subject, report, _context: check(cast(DriftSet, subject), report)


#: A drift rule on one upstream/local message pair.
_pair_rule = decorator(RuleKind.DRIFT, Subject.PAIR, _on_pair)
#: A drift rule on the two spec sets as a whole (messages only one side has).
_set_rule = decorator(RuleKind.DRIFT, Subject.SET, _on_set)


@_pair_rule("drift-wire-mismatch", Category.DRIFT, Severity.ERROR)
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
            versions=str(shown),
            base=upstream_node if upstream_node is not None else pair.upstream.node,
            base_key="flexibleVersions" if flexible else "name",
            hint="re-vendor the upstream spec, or stop advertising these versions",
        )


@_pair_rule("drift-versions-missing", Category.DRIFT, Severity.WARNING)
def drift_versions_missing(pair: DriftPair, report: Reporter) -> None:
    """Versions one side supports and the other lacks."""
    up, lo = pair.upstream.valid_versions, pair.local.valid_versions
    if lo - up:
        report.changed(
            pair.local.node,
            pair.upstream.node,
            "validVersions",
            f"{pair.local.name}: the local copy has versions {lo - up} that upstream lacks",
            versions=str(lo - up),
        )
    if up - lo:
        report.changed(
            pair.local.node,
            pair.upstream.node,
            "validVersions",
            f"{pair.local.name}: upstream has versions {up - lo} that the local copy lacks",
            versions=str(up - lo),
            hint="re-vendor to pick up the new versions",
        )


@_pair_rule("drift-fields-one-side", Category.DRIFT, Severity.WARNING)
def drift_fields_one_side(pair: DriftPair, report: Reporter) -> None:
    """Fields only one side defines (by name)."""
    up = dict(pair.upstream.walk())
    lo = dict(pair.local.walk())
    for path in sorted(up.keys() - lo.keys()):
        report(
            pair.local.node,
            f"{pair.local.name}: field {path} exists upstream "
            f"(versions {up[path].versions}) but not locally",
            key="fields",
            field_path=path,
            base=up[path].node,
            base_key="name",
        )
    for path in sorted(lo.keys() - up.keys()):
        node = lo[path].node
        report.changed(
            node if node is not None else pair.local.node,
            pair.upstream.node,
            "name",
            f"{pair.local.name}: field {path} "
            f"exists locally (versions {lo[path].versions}) but not upstream",
            field_path=path,
        )


@_set_rule("drift-message-missing", Category.DRIFT, Severity.INFO)
def drift_message_missing(drift_set: DriftSet, report: Reporter) -> None:
    """A message only one side defines."""
    for specs, where in (
        (drift_set.upstream_only, "exists upstream; the local copy lacks it"),
        (drift_set.local_only, "exists in the local copy; upstream lacks it"),
    ):
        for spec in specs:
            assert spec.message is not None
            report(
                spec.message.node,
                f"{spec.message.kind} {spec.message.name} {where}",
                path=spec.path,
                message_name=spec.message.name,
            )


@_set_rule("drift-spec-unreadable", Category.DRIFT, Severity.ERROR)
def drift_spec_unreadable(drift_set: DriftSet, report: Reporter) -> None:
    """A spec file on either side does not parse, so its message cannot be compared."""
    for side, spec in drift_set.unreadable:
        where = "upstream" if side == "upstream" else "in the local copy"
        said = spec.error.message if spec.error is not None else "its top level is not an object"
        report(
            spec.error.pos if spec.error is not None else (1, 1),
            f"the spec {where} does not parse: {said}",
            path=spec.path,
            hint="fix the file (kcompat lint shows every problem); its message was not compared",
        )
