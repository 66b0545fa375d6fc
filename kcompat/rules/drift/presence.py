"""Drift rules on what only one side has: versions, tagged fields, messages.

One finding per cause: the versions an API lacks are one finding for its request and
response (with the fields that exist only in those versions, which cannot be compared),
and the messages a copy never vendored are one finding per API, or per kind of message
it has none of.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from kcompat.findings import Reporter, Severity
from kcompat.rules.drift.adapters import DriftPair, DriftSet, pair_rule, set_rule
from kcompat.rules.drift.pairing import places
from kcompat.rules.registry import Category
from kcompat.spec.model import Message
from kcompat.spec.specfile import SpecFile
from kcompat.spec.versions import Versions

#: At most this many fields are named in a finding's note.
MOST_FIELDS = 8
#: The kinds of message an API is made of (one finding covers both).
API_KINDS = ("request", "response")


def on_pair(report: Reporter, pair: DriftPair) -> Reporter:
    """A reporter for one pair in a set rule: the local file, upstream's as the base."""
    return Reporter(
        report.rule,
        pair.local_spec.path,
        report.sink,
        message_name=pair.local.name,
        base_path=pair.upstream_spec.path,
    )


def api_groups(pairs: Sequence[DriftPair]) -> list[list[DriftPair]]:
    """Pairs grouped by API: a request and its response (same API key) together, request
    first; any other message alone."""
    groups: dict[object, list[DriftPair]] = {}
    for pair in pairs:
        key = pair.local.api_key
        grouped = key is not None and pair.local.kind in API_KINDS
        groups.setdefault(("api", key) if grouped else ("one", id(pair)), []).append(pair)
    return [sorted(group, key=lambda p: _rank(p.local.kind)) for group in groups.values()]


def _rank(kind: str) -> int:
    return API_KINDS.index(kind) if kind in API_KINDS else len(API_KINDS)


def names(messages: Sequence[Message]) -> str:
    return " and ".join(m.name for m in messages)


@set_rule("drift-versions-missing", Category.DRIFT, Severity.WARNING)
def drift_versions_missing(drift_set: DriftSet, report: Reporter) -> None:
    """Versions one side supports and the other lacks."""
    for group in api_groups(drift_set.pairs):
        for lacking, where in (("local", "upstream"), ("upstream", "local")):
            _missing(group, lacking, where, report)


def _missing(group: list[DriftPair], lacking: str, where: str, report: Reporter) -> None:
    """One finding per set of versions the ``lacking`` side lacks, for every message of
    the API that lacks exactly those."""
    by_versions: dict[Versions, list[DriftPair]] = {}
    for pair in group:
        have, lack = (
            (pair.upstream, pair.local) if lacking == "local" else (pair.local, pair.upstream)
        )
        extra = have.valid_versions - lack.valid_versions
        if extra:
            by_versions.setdefault(extra, []).append(pair)
    for extra, pairs in by_versions.items():
        first = pairs[0]
        said = names([p.local for p in pairs])
        if lacking == "local":
            message = f"{said}: upstream has versions {extra} that the local copy lacks"
            hint = _hint_for_missing(first.local.valid_versions, extra)
            sides = [p.upstream for p in pairs]
        else:
            message = f"{said}: the local copy has versions {extra} that upstream lacks"
            hint = "a peer speaking upstream's protocol does not know them: do not advertise them"
            sides = [p.local for p in pairs]
        only = [f"{m.name}.{path}" for m in sides for path in _only_in(m, extra)]
        notes: tuple[str, ...] = ()
        if only:
            shown = ", ".join(only[:MOST_FIELDS])
            more = f" and {len(only) - MOST_FIELDS} more" if len(only) > MOST_FIELDS else ""
            notes = (f"fields only in those versions (part of this finding): {shown}{more}",)
        on_pair(report, first)(
            first.local.node,
            message,
            key="validVersions",
            base=first.upstream.node,
            base_key="validVersions",
            versions=extra,
            hint=hint,
            notes=notes,
        )


def _hint_for_missing(local: Versions, missing: Versions) -> str:
    newer = not local.empty and not missing.empty and missing.highest > local.highest
    older = not local.empty and not missing.empty and missing.lowest < local.lowest
    if newer and older:
        return "re-vendor to pick up the new versions; the old ones are not served"
    if older:
        return (
            "the local copy does not serve these older versions: clients that speak only "
            "them cannot use it"
        )
    return "re-vendor to pick up the new versions"


def _only_in(message: Message, versions: Versions) -> list[str]:
    """The fields of ``message`` that exist only in ``versions`` (top-level fields and
    the first field of a struct that does: its own fields go with it)."""
    out: list[str] = []
    for path, item in message.walk():
        if item.versions.empty or not item.versions.intersect(message.valid_versions):
            continue
        if (item.versions & message.valid_versions).subtract(versions).empty:
            parent = path.rpartition(".")[0]
            if not any(parent == p or parent.startswith(p + ".") for p in out):
                out.append(path)
    return out


@pair_rule("drift-fields-one-side", Category.DRIFT, Severity.WARNING)
def drift_fields_one_side(pair: DriftPair, report: Reporter) -> None:
    """A tagged field only one side has, at versions both sides have."""
    for place in places(pair):
        up, lo = place.upstream, place.local
        if (up is None) == (lo is None):
            continue
        only = up if up is not None else lo
        assert only is not None
        if only.tag is None:
            continue  # an untagged field only one side writes moves the bytes: wire mismatch
        if up is not None:
            report(
                pair.local.node,
                f"{pair.local.name}: upstream has tagged field {up.path} (tag {up.tag}) at "
                f"versions {place.versions}; the local copy skips it when reading and "
                "never writes it",
                key="fields",
                field_path=up.path,
                versions=place.versions,
                base=up.field.node,
                base_key="name",
                hint="re-vendor the upstream spec to read it",
            )
        else:
            assert lo is not None
            report(
                lo.field.node if lo.field.node is not None else pair.local.node,
                f"{pair.local.name}: the local copy has tagged field {lo.path} (tag {lo.tag}) "
                f"at versions {place.versions}; upstream skips it when reading and never "
                "writes it",
                key="name",
                field_path=lo.path,
                versions=place.versions,
                base=pair.upstream.node,
                base_key="name",
            )


@set_rule("drift-message-missing", Category.DRIFT, Severity.INFO)
def drift_message_missing(drift_set: DriftSet, report: Reporter) -> None:
    """A message only one side defines."""
    local_kinds = {p.local.kind for p in drift_set.pairs} | {
        s.message.kind for s in drift_set.local_only if s.message is not None
    }
    for specs, where, kinds in (
        (drift_set.upstream_only, "upstream; the local copy lacks", local_kinds),
        (drift_set.local_only, "in the local copy; upstream lacks", None),
    ):
        for group in _unvendored(specs, kinds):
            first = group[0].message
            assert first is not None
            if kinds is not None and first.kind not in kinds:
                said = (
                    f"upstream has {len(group)} {first.kind} message"
                    f"{'s' if len(group) > 1 else ''} ({_listed(group)}); the local copy "
                    f"has no {first.kind} message at all"
                )
            else:
                subject = " and ".join(
                    f"{s.message.kind} {s.message.name}" for s in group if s.message
                )
                pronoun = "them" if len(group) > 1 else "it"
                exists = "exist" if len(group) > 1 else "exists"
                said = f"{subject} {exists} {where} {pronoun}"
            report(first.node, said, path=group[0].path, message_name=first.name)


def _unvendored(specs: Sequence[SpecFile], kinds: set[str] | None) -> Iterator[list[SpecFile]]:
    """Messages one side lacks, one group per cause: an API (request and response), a
    kind of message the other side has none of (when ``kinds`` says which it has), or
    the message alone."""
    groups: dict[object, list[SpecFile]] = {}
    for spec in specs:
        message = spec.message
        assert message is not None
        if kinds is not None and message.kind not in kinds:
            key: object = ("kind", message.kind)
        elif message.api_key is not None and message.kind in API_KINDS:
            key = ("api", message.api_key)
        else:
            key = ("one", spec.path)
        groups.setdefault(key, []).append(spec)
    for group in groups.values():
        yield sorted(group, key=_api_order)


def _api_order(spec: SpecFile) -> tuple[int, str]:
    message = spec.message
    assert message is not None
    return _rank(message.kind), message.name


def _messages(specs: Sequence[SpecFile]) -> list[Message]:
    return [s.message for s in specs if s.message is not None]


def _listed(group: Sequence[SpecFile], most: int = 3) -> str:
    shown = [s.message.name for s in group[:most] if s.message is not None]
    rest = f" and {len(group) - most} more" if len(group) > most else ""
    return ", ".join(shown) + rest


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
