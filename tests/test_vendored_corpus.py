"""The bundle's Kafka 3.4.0 vendored the way a Kafka-compatible broker keeps it
(tests/vendored.py: 84 snake_case specs, a subset of versions, ListOffset and
ElectPreferredLeaders under their 2.x names, six fields renamed, two APIs of its own, ten
``{{placeholder}}`` templates, ``v`` tags on release branches), as its maintainers would
try kcompat on it (issue 31, §2 and §3). Before: a release audit's 10 errors were all
templates, lint gave 84 file-name-mismatch infos, and drift against 3.8.0 gave 130
warnings (100 of them fields "missing" on one side) with ListOffset unpaired.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tests.diff_runner import run_cli
from tests.vendored import SPEC_DIR, vendor_from_kafka

pytestmark = pytest.mark.corpus


@pytest.fixture(scope="module")
def broker(kafka_repo: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return vendor_from_kafka(kafka_repo, tmp_path_factory.mktemp("broker") / "broker")


def test_a_release_audit_has_no_error(broker: Path) -> None:
    run = run_cli(["diff", "v1.0.0", "v1.1.0", "--format", "json"], broker)
    assert run.code == 0, run.stdout
    assert Counter(f["rule"] for f in run.findings()) == {"message-added": 2}
    assert "left out 10 .json files" in run.stderr


def test_lint_of_the_copy_says_nothing_about_its_file_names(broker: Path) -> None:
    run = run_cli(["lint", SPEC_DIR, "--format", "json"], broker)
    assert run.code == 0
    assert run.json()["summary"]["files"] == 84
    assert [f for f in run.findings() if f["rule"] == "file-name-mismatch"] == []


@pytest.fixture(scope="module")
def drift(broker: Path, kafka_repo: Path) -> dict[str, Any]:
    local = str(broker / SPEC_DIR)
    run = run_cli(["drift", "--repo", str(kafka_repo), "3.8.0", local, "-f", "json"], broker)
    assert run.code == 0, run.stdout + run.stderr
    return run.json()


def test_drift_against_3_8_meets_the_goal(drift: dict[str, Any]) -> None:
    """0 errors, at most 60 warnings, no consequence findings, ListOffset paired."""
    findings = drift["findings"]
    severities = Counter(f["severity"] for f in findings)
    assert severities["error"] == 0
    assert severities["warning"] <= 60
    assert Counter(f["rule"] for f in findings if f["severity"] == "warning") == {
        "drift-versions-missing": 16  # one per API that lacks versions
    }
    renamed = [f["message"] for f in findings if f["rule"] == "drift-renamed"]
    assert (
        "ListOffsetRequest and ListOffsetResponse are upstream's ListOffsetsRequest and "
        "ListOffsetsResponse (API key 2): renamed upstream after 2.7.2 (the last release with "
        "the local name)"
    ) in renamed
    missing = " ".join(f["message"] for f in findings if f["rule"] == "drift-message-missing")
    assert "ListOffset" not in missing and "ElectLeaders" not in missing
    # the six local renames and upstream's own, one info each
    assert sum("renamed locally" in m for m in renamed) == 6


def test_drift_says_the_copy_is_from_about_3_4(drift: dict[str, Any]) -> None:
    summary = drift["drift"]
    assert summary["mismatched"] == 0
    assert summary["shared_versions"] == summary["alike"] + summary["proven"]
    closest = summary["closest"]
    assert (closest["about"], closest["release"], closest["same_layouts"]) == (
        "3.4",
        "3.4.0",
        ["3.4.1"],
    )
    assert closest["before"]["release"] == "3.3.2"
    assert closest["after"]["release"] == "3.5.0"


def test_drift_against_upstreams_message_folder(broker: Path, kafka_repo: Path) -> None:
    """As a vendor would run it: upstream's message folder at a release."""
    upstream = "3.8.0:clients/src/main/resources/common/message"
    local = str(broker / SPEC_DIR)
    run = run_cli(["drift", "--repo", str(kafka_repo), upstream, local, "-f", "json"], broker)
    assert run.code == 0, run.stderr
    assert run.json()["drift"]["closest"]["release"] == "3.4.0"
