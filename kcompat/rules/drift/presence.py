"""Drift rules on what only one side has: versions, fields, messages."""

from __future__ import annotations

from kcompat.findings import Reporter, Severity
from kcompat.rules.drift.adapters import DriftPair, DriftSet, pair_rule, set_rule
from kcompat.rules.registry import Category


@pair_rule("drift-versions-missing", Category.DRIFT, Severity.WARNING)
def drift_versions_missing(pair: DriftPair, report: Reporter) -> None:
    """Versions one side supports and the other lacks."""
    up, lo = pair.upstream.valid_versions, pair.local.valid_versions
    if lo - up:
        report.changed(
            pair.local.node,
            pair.upstream.node,
            "validVersions",
            f"{pair.local.name}: the local copy has versions {lo - up} that upstream lacks",
            versions=lo - up,
        )
    if up - lo:
        report.changed(
            pair.local.node,
            pair.upstream.node,
            "validVersions",
            f"{pair.local.name}: upstream has versions {up - lo} that the local copy lacks",
            versions=up - lo,
            hint="re-vendor to pick up the new versions",
        )


@pair_rule("drift-fields-one-side", Category.DRIFT, Severity.WARNING)
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


@set_rule("drift-message-missing", Category.DRIFT, Severity.INFO)
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


@set_rule("drift-spec-unreadable", Category.DRIFT, Severity.ERROR)
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
