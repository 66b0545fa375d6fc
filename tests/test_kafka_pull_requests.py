"""Apache Kafka's own pull requests, replayed on its spec history (issue 31 §1).

Each is ``kcompat diff C~1 C`` on a real commit of the bundle, as CI saw it: an error
needs a release whose wire layout of the version is BASE's and not HEAD's. These
commits once got errors naming releases that the change could not break.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.diff_runner import git, run_cli
from tests.full_clone import tag_before_specs

pytestmark = pytest.mark.corpus

#: KAFKA-12276: IsrChangeRecord renamed PartitionChangeRecord (apiKey 5) and reshaped, a
#: month before 2.8.0 shipped PartitionChangeRecord as the commit leaves it.
RENAMED_BEFORE_RELEASE = "5829e09"
#: KAFKA-13053: the KRaft records of 2.8 made flexible from v0 (a break 2.8.0's records
#: took on purpose); ClientQuotaRecord is not in 2.8.0 (its QuotaRecord is another record),
#: and PartitionRecord's v0 was already not 2.8.0's (its nullability changed in b9e2642).
FLEXIBLE_RECORDS = "5d00f2e"
#: KAFKA-14881: UserScramCredentialRecord v0 reworked; BASE's v0 (from 57c466d) is in no
#: release: 2.8.0 to 3.4.0 shipped another, 3.5.0 the one this commit makes.
SCRAM_REWORKED = "4b91e1f"
#: KAFKA-14702: ConsumerGroupPartitionMetadataValue v0 after 3.5.0 shipped another v0.
PARTITION_METADATA = "4965c99"
#: KAFKA-8932 on the 2.4 branch: CreateTopics v6 lived three days (on trunk, and here);
#: 2.7.0's v6 is another one (its request alike, its response not).
CREATE_TOPICS_DRAFT = "e2acad2"


def findings(repo: Path, commit: str) -> list[tuple[str, str, str, str]]:
    run = run_cli(["diff", f"{commit}~1", commit, "--format", "json", "--no-proof"], repo)
    assert run.code in (0, 1), run.stderr
    found: list[dict[str, Any]] = run.json()["findings"]
    return sorted((f["severity"], f["rule"], f["message_name"], f["versions"] or "") for f in found)


def errors_of(seen: list[tuple[str, str, str, str]]) -> list[tuple[str, str, str, str]]:
    return [f for f in seen if f[0] == "error"]


def test_a_record_renamed_before_its_release_gets_no_error(kafka_repo: Path) -> None:
    assert findings(kafka_repo, RENAMED_BEFORE_RELEASE) == [
        ("info", "docs-changed", "PartitionRecord", ""),
        ("info", "release-restored", "AccessControlRecord", "0"),
        ("info", "release-restored", "PartitionChangeRecord", "0"),
        ("warning", "message-renamed", "PartitionChangeRecord", ""),
    ]


def test_only_the_records_2_8_0_shipped_as_base_has_them_are_broken(kafka_repo: Path) -> None:
    seen = findings(kafka_repo, FLEXIBLE_RECORDS)
    assert errors_of(seen) == [
        ("error", "field-added", "RegisterBrokerRecord", "0"),
        ("error", "flexible-versions-changed", "ConfigRecord", "0"),
        ("error", "flexible-versions-changed", "FenceBrokerRecord", "0"),
        ("error", "flexible-versions-changed", "RegisterBrokerRecord", "0"),
        ("error", "flexible-versions-changed", "RemoveTopicRecord", "0"),
        ("error", "flexible-versions-changed", "TopicRecord", "0"),
        ("error", "flexible-versions-changed", "UnfenceBrokerRecord", "0"),
        ("error", "flexible-versions-changed", "UnregisterBrokerRecord", "0"),
        ("error", "nullable-widened", "ConfigRecord", "0"),
    ]
    assert ("info", "unreleased-change", "ClientQuotaRecord", "0-1") in seen
    assert ("info", "unreleased-change", "PartitionRecord", "0-1") in seen
    run = run_cli(["diff", f"{FLEXIBLE_RECORDS}~1", FLEXIBLE_RECORDS, "--no-proof"], kafka_repo)
    assert (
        "PartitionRecord changes v0 and removes v1, which are not in any release as BASE has "
        "them (already incompatible with 2.8.0 in BASE)"
    ) in run.stdout


def test_a_version_whose_base_layout_no_release_shipped_is_no_break(kafka_repo: Path) -> None:
    assert findings(kafka_repo, SCRAM_REWORKED) == [
        ("info", "release-restored", "UserScramCredentialRecord", "0")
    ]
    assert findings(kafka_repo, PARTITION_METADATA) == [
        ("info", "unreleased-change", "ConsumerGroupPartitionMetadataValue", "0")
    ]


def test_removing_a_three_day_draft_of_a_version_is_no_break(kafka_repo: Path) -> None:
    assert findings(kafka_repo, CREATE_TOPICS_DRAFT) == [
        ("info", "release-restored", "CreateTopicsRequest", "5"),
        ("info", "release-restored", "CreateTopicsResponse", "5"),
        ("info", "unreleased-change", "CreateTopicsRequest", "6"),
        ("info", "unreleased-change", "CreateTopicsResponse", "6"),
    ]


@pytest.fixture()
def kafka_clone(kafka_repo: Path, tmp_path: Path) -> Path:
    """A clone of the bundle's clone (every branch and tag), to commit in."""
    clone = tmp_path / "kafka"
    subprocess.run(["git", "clone", "-q", str(kafka_repo), str(clone)], check=True)
    git(clone, "fetch", "-q", "origin", "+refs/remotes/origin/*:refs/remotes/origin/*")
    return clone


def test_why_names_the_first_release_that_shipped_the_layout(kafka_clone: Path) -> None:
    """2.7.0 renamed FetchRequest's MaxWait to MaxWaitMs: the bytes of versions 0-10 are
    2.2.0's (where the bundle's history starts), whatever the field is called."""
    spec = kafka_clone / "clients/src/main/resources/common/message/FetchRequest.json"
    old = '"name": "MaxWaitMs", "type": "int32"'
    spec.write_text(spec.read_text(encoding="utf-8").replace(old, old.replace("32", "64")))
    git(kafka_clone, "commit", "-q", "-am", "MaxWaitMs as int64")
    run = run_cli(["diff", "HEAD~1", "HEAD", "--format", "json", "--no-proof"], kafka_clone)
    (error,) = [f for f in run.json()["findings"] if f["severity"] == "error"]
    assert (error["rule"], error["versions"]) == ("field-type-changed", "0-16")
    assert error["released_by"] == "released in ≤ 2.2.0, 2.3.0, 2.7.0, 3.1.0, 3.5.0, 3.7.0"


def test_tags_before_the_json_specs_are_no_releases(kafka_clone: Path) -> None:
    """A full clone of apache/kafka has 11 release tags (0.8.0 to 2.1.1) on commits without
    a spec file: its releases are still the 42 from 2.2.0."""
    tag_before_specs(kafka_clone)
    assert {"0.8.0", "2.1.1"} <= set(git(kafka_clone, "tag").split())
    run = run_cli(["diff", "3.7.0", "3.8.0", "--no-proof", "--color", "never"], kafka_clone)
    assert run.code == 1, run.stderr
    assert run.stdout.splitlines()[-2] == (
        "Released: versions shipped by 42 releases (2.2.0 to 3.7.1); 1 later release already "
        "contains this change."
    )
    assert json.loads(
        run_cli(["diff", "3.7.0", "3.8.0", "--no-proof", "--format", "json"], kafka_clone).stdout
    )["findings"]
