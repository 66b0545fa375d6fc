"""``kcompat drift``: a vendored copy of a protocol against its upstream.

Brokers and client libraries vendor Kafka's specs. Unlike ``diff`` there is no before and
after: both ends talk to each other now, so every version both sides have must have the
same wire layout, whatever either side calls its files or fields. Messages are matched
by name, so a copy with snake_case file names or another folder layout pairs up.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from kcompat.config import Config
from kcompat.rules.engine import Reporter, Rule, Severity, all_rules, rule
from kcompat.rules.runner import Call, Finishing, Outcome, finish, run_rules
from kcompat.spec.model import Message
from kcompat.spec.resolve import Kind, LayoutField, StructLayout, resolve
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
    )


def first_difference(upstream: StructLayout, local: StructLayout) -> tuple[str, str, str] | None:
    """(path, upstream description, local description) of the first byte-level difference."""
    if upstream.flexible != local.flexible:
        return (upstream.path or "(message)", _flex(upstream), _flex(local))
    for up, lo in zip(upstream.fields, local.fields, strict=False):
        found = _compare(up, lo)
        if found is not None:
            return found
    if len(upstream.fields) != len(local.fields):
        longer, side = (
            (upstream, "upstream") if len(upstream.fields) > len(local.fields) else (local, "local")
        )
        extra = longer.fields[min(len(upstream.fields), len(local.fields))]
        missing = "absent" if side == "local" else extra.wire.describe()
        present = extra.wire.describe() if side == "upstream" else "absent"
        return (
            extra.path,
            present if side == "upstream" else missing,
            missing if side == "upstream" else present,
        )
    up_tags = {f.tag: f for f in upstream.tagged}
    lo_tags = {f.tag: f for f in local.tagged}
    for tag in sorted(k for k in up_tags.keys() | lo_tags.keys() if k is not None):
        u, lo_ = up_tags.get(tag), lo_tags.get(tag)
        if u is None or lo_ is None:
            continue  # a tag only one side knows is skipped by the other: compatible
        found = _compare(u, lo_)
        if found is not None:
            return found
    return None


def _flex(layout: StructLayout) -> str:
    return "flexible (with tagged fields)" if layout.flexible else "not flexible"


def _compare(up: LayoutField, lo: LayoutField) -> tuple[str, str, str] | None:
    if own_shape(up.wire) != own_shape(lo.wire):
        return (up.path, up.wire.describe(), lo.wire.describe())
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


def drift_specs(
    upstream: Sequence[SpecFile], local: Sequence[SpecFile], config: Config | None = None
) -> Outcome:
    """Every drift finding between an upstream spec set and a local copy (pure)."""
    config = config if config is not None else Config()
    drift_set = pair_drift(upstream, local)

    def calls(drift_rule: Rule) -> Iterator[Call]:
        if drift_rule.scope == "set":
            yield Call((drift_set,))
            return
        for pair in drift_set.pairs:
            yield Call((pair,), pair.local_spec.path, pair.local.name, pair.upstream_spec.path)

    how = Finishing(
        config=config,
        kinds=frozenset({"drift"}),
        comments={s.path: s.document.comments for s in local if s.document is not None},
    )
    return finish(run_rules(all_rules("drift"), calls), how)


_DRIFT = dict(kind="drift", scope="pair")


@rule(
    "drift-wire-mismatch",
    category="drift",
    severity=Severity.ERROR,
    summary="A version both sides have is encoded differently: the two ends misread it.",
    **_DRIFT,
)
def drift_wire_mismatch(pair: DriftPair, report: Reporter) -> None:
    groups: dict[tuple[str, str, str], list[int]] = {}
    for version in pair.shared:
        up = resolve(pair.upstream, version).root
        lo = resolve(pair.local, version).root
        if struct_shape(up) == struct_shape(lo):
            continue
        found = first_difference(up, lo)
        if found is not None:
            groups.setdefault(found, []).append(version)
    for (path, up_text, lo_text), versions in groups.items():
        shown = Versions.from_ranges((v, v) for v in versions)
        report(
            pair.local.node,
            f"{pair.local.name} versions {shown}: {path} is {lo_text} "
            f"locally but {up_text} upstream",
            key="name",
            field_path=path,
            versions=str(shown),
            base=pair.upstream.node,
            base_key="name",
            hint="re-vendor the upstream spec, or stop advertising these versions",
        )


@rule(
    "drift-versions-missing",
    category="drift",
    severity=Severity.WARNING,
    summary="Versions one side supports and the other lacks.",
    **_DRIFT,
)
def drift_versions_missing(pair: DriftPair, report: Reporter) -> None:
    up, lo = pair.upstream.valid_versions, pair.local.valid_versions
    if lo - up:
        report(
            pair.local.node,
            f"{pair.local.name}: the local copy has versions {lo - up} that upstream lacks",
            key="validVersions",
            versions=str(lo - up),
            base=pair.upstream.node,
            base_key="validVersions",
        )
    if up - lo:
        report(
            pair.local.node,
            f"{pair.local.name}: upstream has versions {up - lo} that the local copy lacks",
            key="validVersions",
            versions=str(up - lo),
            base=pair.upstream.node,
            base_key="validVersions",
            hint="re-vendor to pick up the new versions",
        )


@rule(
    "drift-fields-one-side",
    category="drift",
    severity=Severity.WARNING,
    summary="Fields only one side defines (by name).",
    **_DRIFT,
)
def drift_fields_one_side(pair: DriftPair, report: Reporter) -> None:
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
        report(
            node if node is not None else pair.local.node,
            f"{pair.local.name}: field {path} "
            f"exists locally (versions {lo[path].versions}) but not upstream",
            key="name",
            field_path=path,
            base=pair.upstream.node,
            base_key="name",
        )


@rule(
    "drift-message-missing",
    category="drift",
    severity=Severity.INFO,
    summary="A message only one side defines.",
    kind="drift",
    scope="set",
)
def drift_message_missing(drift_set: DriftSet, report: Reporter) -> None:
    for spec in drift_set.upstream_only:
        assert spec.message is not None
        report(
            spec.message.node,
            f"{spec.message.kind} {spec.message.name} exists upstream but not in the local copy",
            path=spec.path,
            message_name=spec.message.name,
        )
    for spec in drift_set.local_only:
        assert spec.message is not None
        report(
            spec.message.node,
            f"{spec.message.kind} {spec.message.name} exists only in the local copy",
            path=spec.path,
            message_name=spec.message.name,
        )
