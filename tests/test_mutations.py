"""Mutation suite: small edits of real Kafka spec files, each judged by ``kcompat diff``.

Every mutation takes trunk's version of a file from Kafka's spec history (the bundle in
``../shared/corpus``), commits it into a fresh git repository, applies one JSON-level
edit that keeps every other byte (licence header, comments), commits again and runs
``kcompat diff HEAD~1 HEAD --format json``. A breaking mutation must be reported with
exactly the expected error and warning findings (rule and field path, on the right
message); a compatible one must produce no error or warning at all.

The table is data: one row per mutation. ``wire`` marks the breaking mutations whose
bytes differ in a released version that both revisions have; the round-trip proof must
confirm exactly those with a ``roundtrip-mismatch`` finding (and never a compatible
one), which the ``proof`` parametrization checks.
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from tests.diff_runner import commit_tree, diff_last_commit, init_repo, run_process
from tests.spec_edit import (
    Edit,
    add_field,
    drop_field,
    drop_key,
    replace_once,
    set_key,
    swap_fields,
)

pytestmark = pytest.mark.corpus

CLIENTS = "clients/src/main/resources/common/message"
METADATA = "metadata/src/main/resources/common/metadata"

#: Short names of the Kafka files the mutations use -> (revision, path in the bundle).
FILES = {
    "MetadataRequest": ("trunk", f"{CLIENTS}/MetadataRequest.json"),
    "MetadataResponse": ("trunk", f"{CLIENTS}/MetadataResponse.json"),
    "MetadataResponse@2.3.0": ("2.3.0", f"{CLIENTS}/MetadataResponse.json"),
    "FetchRequest": ("trunk", f"{CLIENTS}/FetchRequest.json"),
    "ProduceRequest": ("trunk", f"{CLIENTS}/ProduceRequest.json"),
    "ApiVersionsResponse": ("trunk", f"{CLIENTS}/ApiVersionsResponse.json"),
    "CreateTopicsRequest": ("trunk", f"{CLIENTS}/CreateTopicsRequest.json"),
    "JoinGroupRequest": ("trunk", f"{CLIENTS}/JoinGroupRequest.json"),
    "ConsumerGroupHeartbeatRequest": ("trunk", f"{CLIENTS}/ConsumerGroupHeartbeatRequest.json"),
    "ConsumerGroupHeartbeatResponse": (
        "trunk",
        f"{CLIENTS}/ConsumerGroupHeartbeatResponse.json",
    ),
    "UpdateMetadataRequest": ("trunk", f"{CLIENTS}/UpdateMetadataRequest.json"),
    "RequestHeader": ("trunk", f"{CLIENTS}/RequestHeader.json"),
    "PartitionRecord": ("trunk", f"{METADATA}/PartitionRecord.json"),
}

Tree = dict[str, str]
TreeEdit = Callable[[Tree], Tree]


@dataclass(frozen=True)
class Mutation:
    """One row of the table.

    ``edit`` changes the main file's text; ``tree`` changes the whole tree instead (to
    delete, rename, move or add files). ``setup`` is applied to BASE too (a starting point
    Kafka's files do not have, such as an ``encoding``). ``before`` are edits committed
    between the original and the mutation, so the diff of the last commit sees history.
    ``expect`` lists the (rule, field path) of every error and warning; empty means the
    mutation is compatible.
    """

    id: str
    file: str
    edit: Edit | None = None
    expect: tuple[tuple[str, str], ...] = ()
    tree: TreeEdit | None = None
    setup: Edit | None = None
    before: tuple[Edit, ...] = ()
    message: str = ""  # the message the findings are on (default: the file's)
    companions: tuple[str, ...] = ()  # other files committed alongside, unchanged
    wire: bool = False  # the bytes of a common released version change
    infos: tuple[str, ...] = ()  # the info findings' rules, for a compatible mutation
    versions: Mapping[str, str] = field(default_factory=dict)  # rule -> expected versions


def _text(edit: Edit, path: str) -> TreeEdit:
    def apply(tree: Tree) -> Tree:
        return {**tree, path: edit(tree[path])}

    return apply


def _chain(*edits: Edit) -> Edit:
    def apply(text: str) -> str:
        for edit in edits:
            text = edit(text)
        return text

    return apply


def _field(path: str, key: str, value: str) -> Edit:
    return partial(_set, path=path, key=key, value=value)


def _set(text: str, *, path: str, key: str, value: str) -> str:
    return set_key(text, path, key, value)


def _top(key: str, value: str) -> Edit:
    return _field("", key, value)


def _drop(path: str) -> Edit:
    return lambda text: drop_field(text, path)


def _drop_key(path: str, key: str) -> Edit:
    return lambda text: drop_key(text, path, key)


def _add(after: str, field_json: str) -> Edit:
    return lambda text: add_field(text, after, field_json)


def _swap(first: str, second: str) -> Edit:
    return lambda text: swap_fields(text, first, second)


def _replace(old: str, new: str) -> Edit:
    return lambda text: replace_once(text, old, new)


def _delete(path: str) -> TreeEdit:
    return lambda tree: {p: t for p, t in tree.items() if p != path}


def _move(path: str, to: str, edit: Edit | None = None) -> TreeEdit:
    def apply(tree: Tree) -> Tree:
        out = {p: t for p, t in tree.items() if p != path}
        out[to] = edit(tree[path]) if edit is not None else tree[path]
        return out

    return apply


def _add_file(path: str, text: str) -> TreeEdit:
    return lambda tree: {**tree, path: text}


NEW_MESSAGE = """\
{
  "apiKey": 90,
  "type": "request",
  "listeners": ["broker"],
  "name": "DescribeShelvesRequest",
  "validVersions": "0",
  "flexibleVersions": "0+",
  "fields": [
    { "name": "ShelfNames", "type": "[]string", "versions": "0+",
      "about": "The shelves to describe." }
  ]
}
"""

CONTROLLER_READY = (
    '{ "name": "ControllerReady", "type": "int32", "versions": "3+", "taggedVersions": "3+",'
    ' "tag": 3, "default": "0", "about": "How many controllers are ready." }'
)

M = Mutation
MUTATIONS: list[Mutation] = [
    # -- fields removed, added, reordered -----------------------------------------------------
    M(
        "field-removed-nested",
        "MetadataResponse",
        _drop("Topics.Partitions.LeaderEpoch"),
        (("field-removed", "Topics.Partitions.LeaderEpoch"),),
        wire=True,
        versions={"field-removed": "7-12"},
    ),
    M(
        "field-removed-top",
        "ProduceRequest",
        _drop("TimeoutMs"),
        (("field-removed", "TimeoutMs"),),
        wire=True,
    ),
    M(
        "field-added-released",
        "JoinGroupRequest",
        _add(
            "SessionTimeoutMs",
            '{ "name": "HeartbeatIntervalMs", "type": "int32", "versions": "0+",'
            ' "about": "How often members heartbeat." }',
        ),
        (("field-added", "HeartbeatIntervalMs"),),
        wire=True,
        versions={"field-added": "0-9"},
    ),
    M(
        "field-added-nested",
        "FetchRequest",
        _add(
            "Topics.Partitions.FetchOffset",
            '{ "name": "MaxRecords", "type": "int32", "versions": "12+",'
            ' "about": "The most records to return." }',
        ),
        (("field-added", "Topics.Partitions.MaxRecords"),),
        wire=True,
        versions={"field-added": "12-17"},
    ),
    M(
        "swap-same-type-arrays",
        "MetadataResponse",
        _swap("Topics.Partitions.ReplicaNodes", "Topics.Partitions.IsrNodes"),
        (("fields-reordered", "Topics.Partitions.IsrNodes"),),
        wire=True,
    ),
    M(
        "swap-same-type-int32",
        "FetchRequest",
        _swap("MaxWaitMs", "MinBytes"),
        (("fields-reordered", "MinBytes"),),
        wire=True,
    ),
    M(
        "reorder-different-types",
        "MetadataResponse",
        _swap("Brokers.Host", "Brokers.Port"),
        (("fields-reordered", "Brokers.Port"),),
        wire=True,
    ),
    # -- types ---------------------------------------------------------------------------------
    M(
        "type-int32-to-int64",
        "CreateTopicsRequest",
        _field("timeoutMs", "type", '"int64"'),
        (("field-type-changed", "timeoutMs"),),
        wire=True,
    ),
    M(
        "type-string-to-bytes",
        "JoinGroupRequest",
        _field("ProtocolType", "type", '"bytes"'),
        (("field-type-changed", "ProtocolType"),),
        wire=True,
    ),
    M(
        "box-int32-array-non-flexible",
        "MetadataResponse@2.3.0",
        _field(
            "Topics.Partitions.ReplicaNodes",
            "type",
            '"[]ReplicaNode", "fields": [ { "name": "NodeId", "type": "int32",'
            ' "versions": "0+", "entityType": "brokerId", "about": "A replica." } ]',
        ),
    ),
    M(
        "box-int32-array-flexible",
        "MetadataResponse",
        _field(
            "Topics.Partitions.ReplicaNodes",
            "type",
            '"[]ReplicaNode", "fields": [ { "name": "NodeId", "type": "int32",'
            ' "versions": "0+", "entityType": "brokerId", "about": "A replica." } ]',
        ),
        (("field-type-changed", "Topics.Partitions.ReplicaNodes"),),
        wire=True,
        versions={"field-type-changed": "9-12"},
    ),
    M(
        "header-override-removed",
        "RequestHeader",
        _drop_key("ClientId", "flexibleVersions"),
        (("wire-format-changed", "ClientId"),),
        wire=True,
        versions={"wire-format-changed": "2"},
    ),
    # -- defaults ------------------------------------------------------------------------------
    M(
        "default-changed",
        "UpdateMetadataRequest",
        _field("Type", "default", '"2"'),
        (("default-changed", "Type"),),
        wire=True,
        versions={"default-changed": "8"},
    ),
    M(
        "default-changed-where-absent",
        "FetchRequest",
        _field("ReplicaId", "default", '"0"'),
        (("default-changed", "ReplicaId"),),
    ),
    M(
        "default-changed-where-always-written",
        "CreateTopicsRequest",
        _field("timeoutMs", "default", '"30000"'),
        infos=("default-changed",),
    ),
    M(
        "default-hex-same-value",
        "FetchRequest",
        _field("MaxBytes", "default", '"2147483647"'),
    ),
    # -- nullability ---------------------------------------------------------------------------
    M(
        "nullable-narrowed",
        "MetadataResponse",
        _field("ClusterId", "nullableVersions", '"3+"'),
        (("nullable-narrowed", "ClusterId"),),
        wire=True,
        versions={"nullable-narrowed": "2"},
    ),
    M(
        "nullable-widened",
        "MetadataResponse",
        _field("Topics.Name", "nullableVersions", '"10+"'),
        (("nullable-widened", "Topics.Name"),),
        wire=True,
        versions={"nullable-widened": "10-11"},
    ),
    M(
        "nullable-in-new-version",
        "MetadataResponse",
        _chain(
            _top("validVersions", '"0-13"'), _field("Brokers.Host", "nullableVersions", '"13+"')
        ),
        infos=("version-added",),
    ),
    M(
        "struct-nullable-dropped",
        "ConsumerGroupHeartbeatResponse",
        _drop_key("Assignment", "nullableVersions"),
        (("struct-nullability-changed", "Assignment"),),
        companions=("ConsumerGroupHeartbeatRequest",),
        wire=True,
        versions={"struct-nullability-changed": "0"},
    ),
    M(
        "tagged-struct-made-nullable",
        "FetchRequest",
        _field("ReplicaState", "nullableVersions", '"15+"'),
        (("struct-nullability-changed", "ReplicaState"),),
        wire=True,
        versions={"struct-nullability-changed": "15-17"},
    ),
    # -- tags ----------------------------------------------------------------------------------
    M(
        "tag-changed",
        "ApiVersionsResponse",
        _field("FinalizedFeaturesEpoch", "tag", "4"),
        (("tag-changed", "FinalizedFeaturesEpoch"),),
        wire=True,
    ),
    M(
        "tags-swapped",
        "ApiVersionsResponse",
        _chain(_field("SupportedFeatures", "tag", "2"), _field("FinalizedFeatures", "tag", "0")),
        (("tag-changed", "SupportedFeatures"), ("tag-changed", "FinalizedFeatures")),
        wire=True,
    ),
    M(
        "tag-reused",
        "ApiVersionsResponse",
        _chain(_drop("ZkMigrationReady"), _add("FinalizedFeatures", CONTROLLER_READY)),
        (("tag-reused", "ControllerReady"),),
        wire=True,
    ),
    M(
        "tag-reused-from-history",
        "ApiVersionsResponse",
        _add("FinalizedFeatures", CONTROLLER_READY),
        (("tag-reused", "ControllerReady"),),
        before=(_drop("ZkMigrationReady"),),
    ),
    M(
        "tagged-to-untagged",
        "PartitionRecord",
        _chain(
            _drop_key("LeaderRecoveryState", "taggedVersions"),
            _drop_key("LeaderRecoveryState", "tag"),
        ),
        (("field-tagging-changed", "LeaderRecoveryState"),),
        wire=True,
    ),
    M(
        "untagged-to-tagged",
        "ApiVersionsResponse",
        _chain(
            _field("ThrottleTimeMs", "tag", "4"), _field("ThrottleTimeMs", "taggedVersions", '"3+"')
        ),
        (("field-tagging-changed", "ThrottleTimeMs"),),
        wire=True,
        versions={"field-tagging-changed": "3-4"},
    ),
    M(
        "tagged-versions-grow-into-released",
        "PartitionRecord",
        _chain(
            _field("EligibleLeaderReplicas", "versions", '"1+"'),
            _field("EligibleLeaderReplicas", "nullableVersions", '"1+"'),
            _field("EligibleLeaderReplicas", "taggedVersions", '"1+"'),
        ),
        (("tagged-versions-changed", "EligibleLeaderReplicas"),),
        wire=True,
        versions={"tagged-versions-changed": "1"},
    ),
    M(
        "tagged-versions-shrink-from-released",
        "PartitionRecord",
        _chain(
            _field("LeaderRecoveryState", "versions", '"1+"'),
            _field("LeaderRecoveryState", "taggedVersions", '"1+"'),
        ),
        (("tagged-versions-changed", "LeaderRecoveryState"),),
        wire=True,
        versions={"tagged-versions-changed": "0"},
    ),
    M(
        "tagged-versions-start-later",
        "FetchRequest",
        _field("ClusterId", "taggedVersions", '"13+"'),
        (("field-tagging-changed", "ClusterId"),),
        wire=True,
        versions={"field-tagging-changed": "12"},
    ),
    # -- versions ------------------------------------------------------------------------------
    M(
        "flexible-versions-widened",
        "MetadataRequest",
        _top("flexibleVersions", '"8+"'),
        (("flexible-versions-changed", ""),),
        wire=True,
        versions={"flexible-versions-changed": "8"},
    ),
    M(
        "flexible-versions-narrowed",
        "ProduceRequest",
        _top("flexibleVersions", '"10+"'),
        (("flexible-versions-changed", ""),),
        wire=True,
        versions={"flexible-versions-changed": "9"},
    ),
    M(
        "lowest-version-raised",
        "JoinGroupRequest",
        _top("validVersions", '"3-9"'),  # 0-1 are deprecated (KIP-896), 2 is not
        (("lowest-version-raised", ""), ("deprecated-version-removed", "")),
        versions={"lowest-version-raised": "2", "deprecated-version-removed": "0-1"},
    ),
    M(
        "deprecated-versions-dropped",
        "JoinGroupRequest",
        _top("validVersions", '"2-9"'),
        (("deprecated-version-removed", ""),),
        versions={"deprecated-version-removed": "0-1"},
    ),
    M(
        "highest-version-lowered",
        "FetchRequest",
        _top("validVersions", '"0-16"'),
        (("released-version-removed", ""),),
        versions={"released-version-removed": "17"},
    ),
    M(
        "unstable-version-reshaped",
        "ConsumerGroupHeartbeatRequest",
        _drop("SubscribedTopicRegex"),
        infos=("unreleased-change",),
    ),
    M(
        "unstable-response-version-reshaped",
        "ConsumerGroupHeartbeatResponse",
        _add(
            "HeartbeatIntervalMs",
            '{ "name": "RebalanceHint", "type": "int32", "versions": "1+",'
            ' "about": "A hint for the next rebalance." }',
        ),
        companions=("ConsumerGroupHeartbeatRequest",),
        infos=("unreleased-change",),
    ),
    M(
        "unstable-request-stable-version-broken",
        "ConsumerGroupHeartbeatRequest",
        _drop("MemberEpoch"),
        (("field-removed", "MemberEpoch"),),
        wire=True,
        versions={"field-removed": "0"},
    ),
    M("new-version", "JoinGroupRequest", _top("validVersions", '"0-10"'), infos=("version-added",)),
    M(
        "field-in-new-version",
        "CreateTopicsRequest",
        _chain(
            _top("validVersions", '"0-8"'),
            _add(
                "validateOnly",
                '{ "name": "DryRunReason", "type": "string", "versions": "8+",'
                ' "nullableVersions": "8+", "default": "null", "about": "Why this is a dry run." }',
            ),
        ),
        infos=("version-added",),
    ),
    M(
        "tagged-field-added",
        "MetadataResponse",
        _add(
            "ControllerId",
            '{ "name": "ControllerRack", "type": "string", "versions": "9+",'
            ' "nullableVersions": "9+", "default": "null", "tag": 0, "taggedVersions": "9+",'
            ' "about": "The rack of the controller, or null." }',
        ),
        infos=("tagged-field-added",),
    ),
    M("tagged-field-removed", "ApiVersionsResponse", _drop("ZkMigrationReady")),
    # -- messages ------------------------------------------------------------------------------
    M(
        "api-key-changed",
        "ProduceRequest",
        _top("apiKey", "70"),
        (("api-key-changed", ""),),
    ),
    M(
        "message-type-changed",
        "PartitionRecord",
        _top("type", '"data"'),
        (("message-type-changed", ""),),
    ),
    M(
        "message-removed",
        "CreateTopicsRequest",
        tree=_delete(f"{CLIENTS}/CreateTopicsRequest.json"),
        expect=(("message-removed", ""),),
    ),
    M(
        "message-renamed",
        "JoinGroupRequest",
        tree=_move(
            f"{CLIENTS}/JoinGroupRequest.json",
            f"{CLIENTS}/EnterGroupRequest.json",
            _top("name", '"EnterGroupRequest"'),
        ),
        expect=(("message-renamed", ""),),
        message="EnterGroupRequest",
    ),
    M(
        "message-added",
        "MetadataRequest",
        tree=_add_file(f"{CLIENTS}/DescribeShelvesRequest.json", NEW_MESSAGE),
        infos=("message-added",),
    ),
    M(
        "file-moved",
        "MetadataRequest",
        tree=_move(f"{CLIENTS}/MetadataRequest.json", "protocol/specs/MetadataRequest.json"),
    ),
    M(
        "listener-removed",
        "MetadataRequest",
        _top("listeners", '["broker"]'),
        (("listener-removed", ""),),
    ),
    # -- names and generated-code properties (warnings) ---------------------------------------
    M(
        "field-renamed",
        "MetadataResponse",
        _field("Brokers.Rack", "name", '"RackId"'),
        (("field-renamed", "Brokers.RackId"),),
    ),
    M(
        "struct-renamed",
        "MetadataResponse",
        _field("Brokers", "type", '"[]ClusterBroker"'),
        (("struct-renamed", "Brokers"),),
    ),
    M(
        "map-key-dropped",
        "MetadataResponse",
        _drop_key("Brokers.NodeId", "mapKey"),
        (("map-key-changed", "Brokers.NodeId"),),
    ),
    M(
        "ignorable-dropped",
        "MetadataResponse",
        _drop_key("ThrottleTimeMs", "ignorable"),
        (("ignorable-changed", "ThrottleTimeMs"),),
    ),
    M(
        "entity-type-dropped",
        "PartitionRecord",
        _drop_key("Leader", "entityType"),
        (("entity-type-changed", "Leader"),),
    ),
    # -- integer encodings --------------------------------------------------------------------
    M(
        "encoding-added",
        "PartitionRecord",
        _field("LeaderEpoch", "encoding", '"packed32"'),
        (("encoding-changed", "LeaderEpoch"),),
        wire=True,
        versions={"encoding-changed": "0-2"},
    ),
    M(
        "encoding-changed",
        "PartitionRecord",
        _field("LeaderEpoch", "encoding", '"upacked32"'),
        (("encoding-changed", "LeaderEpoch"),),
        setup=_field("LeaderEpoch", "encoding", '"packed32"'),
        wire=True,
    ),
    M(
        "encoding-narrowed",
        "FetchRequest",
        _field("Topics.Partitions.FetchOffset", "encoding", '"fixed32"'),
        (("encoding-changed", "Topics.Partitions.FetchOffset"),),
        setup=_field("Topics.Partitions.FetchOffset", "encoding", '"fixed64"'),
        wire=True,
    ),
    M(
        "encoding-in-new-version",
        "FetchRequest",
        _chain(
            _top("validVersions", '"0-18"'),
            _field(
                "Topics.Partitions.FetchOffset",
                "encoding",
                '{ "0-17": "fixed64", "18+": "packed64" }',
            ),
        ),
        infos=("version-added",),
    ),
    # -- common structs ------------------------------------------------------------------------
    M(
        "common-struct-field-removed",
        "UpdateMetadataRequest",
        _drop("UpdateMetadataPartitionState.ZkVersion"),
        # one edit of one line, used twice: one finding (the other use in its notes)
        (("field-removed", "UngroupedPartitionStates.ZkVersion"),),
        wire=True,
    ),
    M(
        "common-struct-tagged-field-added",
        "UpdateMetadataRequest",
        _add(
            "UpdateMetadataPartitionState.OfflineReplicas",
            '{ "name": "LeaderRecoveryState", "type": "int8", "versions": "6+",'
            ' "taggedVersions": "6+", "tag": 0, "default": "0", "about": "Recovery state." }',
        ),
        infos=("tagged-field-added",),
    ),
    # -- text that is not the protocol ---------------------------------------------------------
    M(
        "docs-changed",
        "MetadataRequest",
        _field("AllowAutoTopicCreation", "about", '"Create missing topics if the broker allows."'),
        infos=("docs-changed",),
    ),
    M(
        "comment-added",
        "FetchRequest",
        _replace('  "fields": [', '  // A note for readers.\n  "fields": ['),
    ),
]

BREAKING = [m for m in MUTATIONS if m.expect]
COMPATIBLE = [m for m in MUTATIONS if not m.expect]


# -- running ----------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def kafka_texts(kafka_repo: Path) -> dict[str, str]:
    """Each file of :data:`FILES` at its revision."""
    texts = {}
    for name, (rev, path) in FILES.items():
        texts[name] = subprocess.run(
            ["git", "show", f"{rev}:{path}"],
            cwd=kafka_repo,
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    return texts


@pytest.fixture(scope="session")
def built(
    kafka_texts: dict[str, str], tmp_path_factory: pytest.TempPathFactory
) -> Callable[[Mutation], Path]:
    """Build each mutation's repository once; the static and proof runs only read it."""
    cache: dict[str, Path] = {}

    def get(mutation: Mutation) -> Path:
        if mutation.id not in cache:
            cache[mutation.id] = build(
                mutation, kafka_texts, tmp_path_factory.mktemp("mutation") / mutation.id
            )
        return cache[mutation.id]

    return get


def message_of(mutation: Mutation) -> str:
    return mutation.message or mutation.file.partition("@")[0]


def build(mutation: Mutation, texts: Mapping[str, str], repo: Path) -> Path:
    """The repository: the original (and history), then the mutation as the last commit."""
    path = FILES[mutation.file][1]
    original = texts[mutation.file]
    if mutation.setup is not None:
        original = mutation.setup(original)
    tree: Tree = {path: original}
    for companion in mutation.companions:
        tree[FILES[companion][1]] = texts[companion]
    init_repo(repo)
    commit_tree(repo, tree, "original")
    for step in mutation.before:
        tree = _text(step, path)(tree)
        commit_tree(repo, tree, "an earlier change")
    edit = mutation.tree if mutation.tree is not None else _text(_need(mutation.edit), path)
    head = edit(tree)
    assert head != tree, f"{mutation.id}: the edit changes nothing"
    commit_tree(repo, head, mutation.id)
    return repo


def _need(edit: Edit | None) -> Edit:
    assert edit is not None
    return edit


def loud(findings: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [f for f in findings if f["severity"] in ("error", "warning")]


def _ids(mutation: Mutation) -> str:
    return mutation.id


# -- the suite --------------------------------------------------------------------------------


def test_the_table_is_big_and_unique() -> None:
    ids = [m.id for m in MUTATIONS]
    assert len(ids) == len(set(ids))
    assert len(MUTATIONS) >= 40
    assert len(BREAKING) >= 25 and len(COMPATIBLE) >= 12


@pytest.mark.parametrize("mutation", BREAKING, ids=_ids)
def test_breaking_mutation_is_flagged(
    mutation: Mutation, built: Callable[[Mutation], Path]
) -> None:
    repo = built(mutation)
    run = diff_last_commit(repo)
    assert run.stderr == ""
    found = loud(run.findings())
    assert sorted((f["rule"], f["field_path"]) for f in found) == sorted(mutation.expect), found
    for finding in found:
        assert finding["message_name"] == message_of(mutation)
        assert finding["file"].endswith(".json")
        expected = mutation.versions.get(finding["rule"])
        if expected is not None:
            assert finding["versions"] == expected, finding
    severe = any(f["severity"] == "error" for f in found)
    assert run.code == (1 if severe else 0)


@pytest.mark.parametrize("mutation", COMPATIBLE, ids=_ids)
def test_compatible_mutation_is_clean(
    mutation: Mutation, built: Callable[[Mutation], Path]
) -> None:
    repo = built(mutation)
    run = diff_last_commit(repo)
    assert run.stderr == ""
    assert loud(run.findings()) == []
    assert run.code == 0
    assert sorted({f["rule"] for f in run.findings()}) == sorted(mutation.infos)


@pytest.mark.parametrize("mutation", MUTATIONS, ids=_ids)
def test_round_trip_proof_agrees(mutation: Mutation, built: Callable[[Mutation], Path]) -> None:
    """With the proof on: wire-level breaks are confirmed by bytes, attached to the finding
    that explains them (one finding per break), and nothing else is."""
    repo = built(mutation)
    run = diff_last_commit(repo, proof=True)
    assert run.stderr == ""
    found = loud(run.findings())
    assert [f for f in found if f["rule"] == "roundtrip-mismatch"] == []
    assert sorted((f["rule"], f["field_path"]) for f in found) == sorted(mutation.expect)
    proven = [f for f in found if f["evidence"]]
    if mutation.wire:
        assert proven, f"{mutation.id}: the proof did not confirm the break"
        for finding in proven:
            evidence = finding["evidence"]
            assert evidence["message"] in (message_of(mutation), mutation.file.partition("@")[0])
            # the counterexample names the field that changed
            assert evidence["field_path"] in (finding["field_path"], "")
    else:
        assert proven == []


def test_one_finding_per_break(built: Callable[[Mutation], Path]) -> None:
    """Across the table: at most 1.3 errors per single-edit break on average, never more
    than 2, each on the changed field (benchmarks/mutation_errors.py prints the figures)."""
    counts = []
    for mutation in BREAKING:
        errors = [
            f
            for f in diff_last_commit(built(mutation), proof=True).findings()
            if f["severity"] == "error"
        ]
        expected = {path for _rule, path in mutation.expect}
        assert all(f["field_path"] in expected for f in errors), mutation.id
        if errors:
            counts.append(len(errors))
    assert max(counts) <= 2
    assert sum(counts) / len(counts) <= 1.3


def test_tag_reuse_names_the_commit_that_used_it(built: Callable[[Mutation], Path]) -> None:
    mutation = next(m for m in MUTATIONS if m.id == "tag-reused-from-history")
    repo = built(mutation)
    original = subprocess.run(
        ["git", "rev-parse", "HEAD~2"], cwd=repo, capture_output=True, text=True, check=True
    ).stdout.strip()
    (finding,) = loud(diff_last_commit(repo).findings())
    assert f"it meant ZkMigrationReady (bool) in {original[:12]}" in finding["message"]
    # Without the history the reuse is invisible: BASE alone no longer has tag 3.
    assert loud(diff_last_commit(repo, "--no-history").findings()) == []


@pytest.mark.parametrize(
    "mutation_id", ["field-removed-nested", "tag-reused", "new-version", "field-renamed"]
)
def test_exit_codes_through_a_real_process(
    mutation_id: str, built: Callable[[Mutation], Path]
) -> None:
    mutation = next(m for m in MUTATIONS if m.id == mutation_id)
    repo = built(mutation)
    done = run_process(["diff", "HEAD~1", "HEAD", "--no-proof"], repo)
    assert done.stderr == ""
    errors = [r for r, _ in mutation.expect if r not in ("field-renamed",)]
    assert done.code == (1 if errors else 0)
    lines = done.stdout.splitlines()
    for rule, _path in mutation.expect:
        assert any(f"[{rule}]" in line for line in lines), done.stdout
    assert lines[-1].startswith(("Found", "No problems"))
