"""``kcompat matrix`` on Kafka's own history, against cases checked by hand.

The table below was read off the spec files at each release tag (and matches Kafka's
release notes: Produce v8 in 2.4 for KIP-467, v11 in 3.8 for KIP-890, Fetch v13 in 3.1 for
topic IDs, ListOffsets v7 in 3.0 for KIP-734 ...): for every API that trunk marks with
``deprecatedVersions`` (KIP-896), the highest version clients send from each release on,
trunk's range and its deprecated versions. From it, by hand: a trunk broker talks to every
client release from 2.2.0 on at the client's highest version; dropping the deprecated
versions (KIP-896's plan for 4.0) strands none of them, because the oldest, 2.2.0, sends
at least the lowest version each API keeps (Produce 7, Fetch 10 >= 4, SaslHandshake 1 ...).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from kcompat.naming import release_order
from tests.conftest import ROOT
from tests.diff_runner import git, run_cli

pytestmark = pytest.mark.corpus

SCHEMA = json.loads((ROOT / "kcompat" / "data" / "matrix.schema.json").read_text("utf-8"))

#: key -> (name at trunk, trunk's validVersions, its deprecatedVersions, and
#:         "release=highest ...": the highest version clients send from each release on)
DEPRECATING: dict[int, tuple[str, str, str, str]] = {
    0: ("ProduceRequest", "0-11", "0-6", "2.2.0=7 2.4.0=8 2.8.0=9 3.7.0=10 3.8.0=11"),
    1: ("FetchRequest", "0-17", "0-3", "2.2.0=10 2.3.0=11 2.7.0=12 3.1.0=13 3.5.0=15 3.7.0=16"),
    2: ("ListOffsetsRequest", "0-10", "0", "2.2.0=5 2.8.0=6 3.0.0=7 3.5.0=8"),
    3: ("MetadataRequest", "0-12", "0-3", "2.2.0=7 2.3.0=8 2.4.0=9 2.8.0=11 3.1.0=12"),
    8: ("OffsetCommitRequest", "0-9", "0-1", "2.2.0=6 2.3.0=7 2.4.0=8 3.7.0=9"),
    9: ("OffsetFetchRequest", "0-9", "0", "2.2.0=5 2.4.0=6 2.5.0=7 3.0.0=8 3.7.0=9"),
    10: ("FindCoordinatorRequest", "0-6", "0", "2.2.0=2 2.4.0=3 3.0.0=4 3.8.0=5"),
    11: ("JoinGroupRequest", "0-9", "0-1", "2.2.0=4 2.3.0=5 2.4.0=6 2.5.0=7 3.2.0=9"),
    17: ("SaslHandshakeRequest", "0-1", "0", "2.2.0=1"),
    19: ("CreateTopicsRequest", "0-7", "0-1", "2.2.0=3 2.4.0=5 2.7.0=6 2.8.0=7"),
    20: ("DeleteTopicsRequest", "0-6", "0", "2.2.0=3 2.4.0=4 2.7.0=5 2.8.0=6"),
    23: ("OffsetForLeaderEpochRequest", "0-4", "0-1", "2.2.0=2 2.3.0=3 2.8.0=4"),
    29: ("DescribeAclsRequest", "0-3", "0", "2.2.0=1 2.5.0=2 3.3.0=3"),
    30: ("CreateAclsRequest", "0-3", "0", "2.2.0=1 2.5.0=2 3.3.0=3"),
    31: ("DeleteAclsRequest", "0-3", "0", "2.2.0=1 2.5.0=2 3.3.0=3"),
    32: ("DescribeConfigsRequest", "0-4", "0", "2.2.0=2 2.6.0=3 2.8.0=4"),
    34: ("AlterReplicaLogDirsRequest", "0-2", "0", "2.2.0=1 2.8.0=2"),
    35: ("DescribeLogDirsRequest", "0-4", "0", "2.2.0=1 2.6.0=2 3.2.0=3 3.3.0=4"),
    38: ("CreateDelegationTokenRequest", "0-3", "0", "2.2.0=1 2.4.0=2 3.3.0=3"),
    39: ("RenewDelegationTokenRequest", "0-2", "0", "2.2.0=1 2.5.0=2"),
    40: ("ExpireDelegationTokenRequest", "0-2", "0", "2.2.0=1 2.5.0=2"),
    41: ("DescribeDelegationTokenRequest", "0-3", "0", "2.2.0=1 2.5.0=2 3.3.0=3"),
    42: ("DeleteGroupsRequest", "0-2", "0", "2.2.0=1 2.4.0=2"),
}  # fmt: skip


def _highest(moves: str, release: str) -> int:
    """The highest version a client release sends, from the table's moves."""
    own = release_order(release)
    found = [(release_order(r), int(v)) for r, _, v in (m.partition("=") for m in moves.split())]
    return max(item for item in found if item[0] <= own)[1]


@pytest.fixture(scope="module")
def tags(kafka_repo: Path) -> list[str]:
    return sorted(git(kafka_repo, "tag").split(), key=release_order)


def _cells(document: dict[str, Any]) -> dict[tuple[str, str], dict[str, Any]]:
    return {(c["client"], c["broker"]): c for c in document["cells"]}


def test_trunk_talks_to_every_client_release_at_its_highest_version(
    kafka_repo: Path, tags: list[str]
) -> None:
    done = run_cli(["matrix", "--format", "json"], kafka_repo)
    assert done.code == 0, done.stderr
    document = done.json()
    jsonschema.validate(document, SCHEMA)
    names = [r["name"] for r in document["releases"]]
    assert names == [*tags, "HEAD"] and tags[0] == "2.2.0" and len(tags) == 43
    apis = {api["key"]: api for api in document["apis"]}
    cells = _cells(document)
    for key, (name, valid, deprecated, moves) in DEPRECATING.items():
        assert apis[key]["name"] == name
        trunk = apis[key]["ranges"][-1]
        assert (trunk["served"], trunk["deprecated"]) == (valid, deprecated), name
        for client in tags:
            cell = cells[(client, "HEAD")]
            assert cell["negotiated"][str(key)] == _highest(moves, client), (name, client)
            assert cell["stranded"] == [], (name, client)
    assert document["brokers"][-1] == {"broker": "HEAD", "oldest_client": "2.2.0", "stranded": []}


def test_dropping_trunk_s_deprecated_versions_strands_no_release_from_2_2_0_on(
    kafka_repo: Path, tags: list[str]
) -> None:
    done = run_cli(["matrix", "--format", "json", "--what-if", "drop-deprecated"], kafka_repo)
    assert done.code == 0, done.stderr
    document = done.json()
    jsonschema.validate(document, SCHEMA)
    removals = {r["key"]: r for r in document["removals"]}
    assert set(removals) == set(DEPRECATING)
    apis = {api["key"]: api for api in document["apis"]}
    cells = _cells(document)
    for key, (name, valid, deprecated, moves) in DEPRECATING.items():
        lowest = int(deprecated.split("-")[-1]) + 1
        top = int(valid.split("-")[1])
        kept = f"{lowest}-{top}" if top > lowest else str(lowest)
        assert (removals[key]["removed"], removals[key]["remaining"]) == (deprecated, kept)
        assert removals[key]["clients"] == [] and removals[key]["brokers"] == [], name
        assert apis[key]["ranges"][-1]["served"] == kept  # HEAD as if they were gone
        for client in tags:
            highest = _highest(moves, client)
            assert highest >= lowest, (name, client)  # why none is stranded, by hand
            assert cells[(client, "HEAD")]["negotiated"][str(key)] == highest, (name, client)
        # and a trunk client without them still talks to a 2.2.0 broker
        oldest = _highest(moves, "2.2.0")
        assert cells[("HEAD", "2.2.0")]["negotiated"][str(key)] == oldest, name
    text = run_cli(["matrix", "--what-if", "drop-deprecated"], kafka_repo).stdout.splitlines()
    assert (
        "  ListOffsets: drops 0, keeps 1-10: strands no client release" in text
        and "  Produce: drops 0-6, keeps 7-11: strands no client release" in text
        and "  0 of 23 APIs with deprecated versions would strand some client release" in text
    )


def test_what_a_removal_beyond_the_deprecated_versions_would_strand(kafka_repo: Path) -> None:
    """A trunk that drops ListOffsets 0-5 (beyond KIP-896): clients of 2.2.0-2.7.2 send at
    most v5 and are stranded, 2.8.0 on (v6) are not; by hand from the table."""
    spec = kafka_repo / "clients/src/main/resources/common/message/ListOffsetsRequest.json"
    before = spec.read_text("utf-8")
    try:
        spec.write_text(before.replace('"validVersions": "0-10"', '"validVersions": "6-10"'))
        done = run_cli(["matrix", "--format", "json", "--apis", "ListOffsets"], kafka_repo)
        text = run_cli(["matrix", "--apis", "2"], kafka_repo).stdout
    finally:
        spec.write_text(before)
    document = done.json()
    assert document["releases"][-1] == {"name": "working tree", "head": True}
    stranded = document["brokers"][-1]["stranded"]
    tags = [r["name"] for r in document["releases"] if not r["head"]]
    assert [s["client"] for s in stranded] == [
        t for t in tags if release_order(t) < release_order("2.8.0")
    ]
    assert document["brokers"][-1]["oldest_client"] == "2.8.0"
    assert "  working tree  2.8.0          2.2.0–2.7.2: ListOffsets" in text.splitlines()
