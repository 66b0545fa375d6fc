"""Repositories laid out as Kafka lays out releases, for ``kcompat matrix``: each release
tagged on its own branch (never merged back into main), ``v`` tags, a pre-release, a tag
from before the specs existed, an API renamed with its file, snake_case file names, an
unstable latest version, deprecated versions, a controller-only and an inter-broker API.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from tests.changelog_specs import spec
from tests.diff_runner import commit_tree, git, init_repo

SPECS = "proto/msg"


def request(name: str, key: int, valid: str, **extra: Any) -> str:
    return spec(name, key=key, valid=valid, flexible="none", **extra)


#: The releases, oldest first: (tag, files). Each is committed on main, then tagged on a
#: branch of its own with one more commit only the branch has.
RELEASES: list[tuple[str, Mapping[str, str]]] = [
    (
        "v1.0.0",
        {
            f"{SPECS}/list_offset_request.json": request("ListOffsetRequest", 2, "0-2"),
            f"{SPECS}/produce_request.json": request("ProduceRequest", 0, "0-3"),
            f"{SPECS}/leader_and_isr_request.json": request(
                "LeaderAndIsrRequest", 4, "0-1", listeners=["zkBroker"]
            ),
            f"{SPECS}/produce_response.json": spec(
                "ProduceResponse", kind="response", key=0, valid="0-3", flexible="none"
            ),
            "README.json": '{"not": "a spec"}\n',
        },
    ),
    (
        "v1.1.0",
        {
            f"{SPECS}/list_offsets_request.json": request(
                "ListOffsetsRequest", 2, "0-3", listeners=["zkBroker", "broker"]
            ),
            f"{SPECS}/produce_request.json": request(
                "ProduceRequest", 0, "0-4", listeners=["zkBroker", "broker"]
            ),
            f"{SPECS}/leader_and_isr_request.json": request(
                "LeaderAndIsrRequest", 4, "0-2", listeners=["zkBroker"]
            ),
            f"{SPECS}/vote_request.json": request("VoteRequest", 52, "0", listeners=["controller"]),
            f"{SPECS}/heartbeat_request.json": request(
                "BeatRequest", 91, "0", listeners=["broker"], latestVersionUnstable=True
            ),
        },
    ),
    (
        "v2.0.0",
        {
            f"{SPECS}/list_offsets_request.json": request(
                "ListOffsetsRequest", 2, "0-5", listeners=["broker"], deprecatedVersions="0-2"
            ),
            f"{SPECS}/produce_request.json": request(
                "ProduceRequest", 0, "0-5", listeners=["broker"], deprecatedVersions="0-3"
            ),
            f"{SPECS}/leader_and_isr_request.json": request(
                "LeaderAndIsrRequest", 4, "0-2", listeners=["zkBroker"]
            ),
            f"{SPECS}/vote_request.json": request("VoteRequest", 52, "0", listeners=["controller"]),
            f"{SPECS}/heartbeat_request.json": request(
                "BeatRequest", 91, "0-1", listeners=["broker"], latestVersionUnstable=True
            ),
            f"{SPECS}/quota_request.json": request(
                "QuotaRequest", 92, "0-1", listeners=["controller"]
            ),
        },
    ),
]

#: HEAD: ListOffsets keeps deprecating 0-2 and adds 6; Produce drops 0-3 (deprecated).
HEAD: Mapping[str, str] = {
    **RELEASES[-1][1],
    f"{SPECS}/list_offsets_request.json": request(
        "ListOffsetsRequest", 2, "0-6", listeners=["broker"], deprecatedVersions="0-2"
    ),
    f"{SPECS}/produce_request.json": request("ProduceRequest", 0, "4-5", listeners=["broker"]),
}


#: Kafka's release tags from 2.2.0 to 3.9.1, two of each line: more broker releases than
#: a phone's width holds as columns of a map.
KAFKA_TAGS = [f"2.{minor}.{patch}" for minor in range(2, 9) for patch in range(2)] + [
    f"3.{minor}.{patch}" for minor in range(10) for patch in range(2)
]


def _kafka_specs(index: int) -> dict[str, str]:
    """The specs of the ``index``-th release of :func:`many_releases`: each range moves
    up as releases pass, and now and then a lowest version rises (Produce every tenth
    release, ListOffsets at the 26th, DescribeTopicPartitionsIncremental at the 31st),
    stranding the clients of older releases on one to three APIs."""
    apis = {
        "produce_request": request(
            "ProduceRequest", 0, f"{index // 10 * 3}-{3 + index // 2}", listeners=["broker"]
        ),
        "list_offsets_request": request(
            "ListOffsetsRequest", 2, f"{0 if index < 25 else 4}-{1 + index // 3}",
            listeners=["broker"],
        ),
    }  # fmt: skip
    if index >= 15:
        low = 0 if index < 30 else 2
        apis["describe_topic_partitions_incremental_request"] = request(
            "DescribeTopicPartitionsIncrementalRequest", 77, f"{low}-{2 + (index - 15) // 4}",
            listeners=["broker"],
        )  # fmt: skip
    if index >= 20:
        apis["consumer_group_heartbeat_request"] = request(
            "ConsumerGroupHeartbeatRequest", 68, "0-1", listeners=["broker"],
            **({"deprecatedVersions": "0"} if index >= 30 else {}),
        )  # fmt: skip
    return {f"{SPECS}/{name}.json": text for name, text in apis.items()}


def many_releases(path: Path, count: int = len(KAFKA_TAGS)) -> Path:
    """A repository with the first ``count`` of Kafka's release tags (:data:`KAFKA_TAGS`,
    each line's patch releases on its branch) and HEAD one release further."""
    releases = [(tag, _kafka_specs(i)) for i, tag in enumerate(KAFKA_TAGS[:count])]
    return kafka_like(path, _kafka_specs(count), releases)


def kafka_like(
    path: Path,
    head: Mapping[str, str] = HEAD,
    releases: Sequence[tuple[str, Mapping[str, str]]] = RELEASES,
) -> Path:
    """The repository: a ``0.9.0`` tag before any spec, the releases (``v1.1.0-rc1`` a
    pre-release before ``v1.1.0``), then HEAD on main."""
    init_repo(path)
    commit_tree(path, {"build.gradle": "// before the specs\n"}, "start of history")
    git(path, "tag", "0.9.0")
    for tag, files in releases:
        commit_tree(path, files, f"specs for {tag}")
        line = tag.removeprefix("v").rsplit(".", 1)[0]
        git(path, "checkout", "-q", "-B", line)
        if tag == "v1.1.0":
            git(path, "tag", "v1.1.0-rc1")  # a pre-release: not a release
        git(path, "commit", "-q", "--allow-empty", "-m", f"bump version to {tag}")
        git(path, "tag", tag)
        git(path, "checkout", "-q", "main")
    commit_tree(path, head, "HEAD")
    return path
