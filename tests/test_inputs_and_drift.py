"""Issue 7: every input form of diff, released versions from tags, and kcompat drift."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from kcompat.cli import main
from kcompat.modes import ReleasedMode
from tests.conftest import git

REQUEST = """{
  "apiKey": 90,
  "type": "request",
  "name": "WidgetRequest",
  "validVersions": "%(valid)s",
  "flexibleVersions": "1+",
  "fields": [
    { "name": "WidgetId", "type": "%(id_type)s", "versions": "0+", "about": "The widget." }%(extra)s
  ]
}
"""
RESPONSE = """{
  "apiKey": 90,
  "type": "response",
  "name": "WidgetResponse",
  "validVersions": "%(valid)s",
  "flexibleVersions": "1+",
  "fields": [
    { "name": "ErrorCode", "type": "int16", "versions": "0+", "about": "The error." }
  ]
}
"""


def request(valid: str = "0-1", id_type: str = "int32", extra: str = "") -> str:
    return REQUEST % {"valid": valid, "id_type": id_type, "extra": extra}


def response(valid: str = "0-1") -> str:
    return RESPONSE % {"valid": valid}


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def run_json(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, Any]]:
    code, out, err = run([*args, "--format", "json"], capsys)
    assert err == "" or code in (0, 1), err
    return code, json.loads(out)


def rules_of(report: dict[str, Any], severity: str | None = None) -> set[str]:
    return {f["rule"] for f in report["findings"] if severity is None or f["severity"] == severity}


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def commit(repo: Path, message: str) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)


# -- inputs ------------------------------------------------------------------------------


def test_directories_on_both_sides_pair_messages_by_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base, head = tmp_path / "base", tmp_path / "head"
    write(base / "WidgetRequest.json", request())
    write(base / "WidgetResponse.json", response())
    # another folder layout and snake_case names: still the same messages
    write(head / "api" / "widget_request.json", request(id_type="int64"))
    write(head / "api" / "widget_response.json", response())
    code, report = run_json(["diff", str(base), str(head), "--no-proof"], capsys)
    assert code == 1
    changed = [f for f in report["findings"] if f["rule"] == "field-type-changed"]
    assert len(changed) == 1
    assert changed[0]["message_name"] == "WidgetRequest"
    assert changed[0]["file"].endswith("widget_request.json")
    assert changed[0]["base_file"].endswith("WidgetRequest.json")
    assert "message-removed" not in rules_of(report)
    assert "message-added" not in rules_of(report)


def test_identical_directories_have_no_findings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for side in ("a", "b"):
        write(tmp_path / side / "WidgetRequest.json", request())
        write(tmp_path / side / "WidgetResponse.json", response())
    code, out, _ = run(
        ["diff", str(tmp_path / "a"), str(tmp_path / "b"), "--color", "never"], capsys
    )
    assert code == 0
    assert out.strip().startswith("No spec file changed between ")


def test_plain_file_pair(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    old = write(tmp_path / "old.json", request())
    new = write(
        tmp_path / "new.json",
        request(
            extra=',\n    { "name": "Color", "type": "string", "versions": "0+", "about": "x" }'
        ),
    )
    code, report = run_json(["diff", str(old), str(new), "--no-proof"], capsys)
    assert code == 1
    assert rules_of(report, "error") == {"field-added"}
    (finding,) = [f for f in report["findings"] if f["rule"] == "field-added"]
    assert finding["field_path"] == "Color" and finding["versions"] == "0-1"


def test_rev_colon_path_on_both_sides(
    repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    write(repo / "specs" / "WidgetRequest.json", request())
    write(repo / "other" / "Unrelated.json", '{"not": "a spec"}')
    commit(repo, "v1")
    write(repo / "specs" / "WidgetRequest.json", request(id_type="int64"))
    commit(repo, "change")
    monkeypatch.chdir(repo)
    code, report = run_json(["diff", "HEAD~1:specs", "HEAD:specs", "--no-proof"], capsys)
    assert code == 1
    assert "field-type-changed" in rules_of(report, "error")
    # the revision side limited to a folder that does not hold the spec sees nothing
    code, report = run_json(["diff", "HEAD~1:other", "HEAD:other", "--no-proof"], capsys)
    assert code == 0 and report["findings"] == []


def test_revision_against_directory(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    write(repo / "WidgetRequest.json", request())
    commit(repo, "v1")
    vendored = write(tmp_path / "vendored" / "widget_request.json", request(valid="0"))
    monkeypatch.chdir(repo)
    code, report = run_json(["diff", "HEAD", str(vendored.parent), "--no-proof"], capsys)
    assert code == 1
    assert "released-version-removed" in rules_of(report, "error")
    assert (repo / "WidgetRequest.json").read_text() == request()  # nothing written


# -- released versions from tags -----------------------------------------------------------


@pytest.fixture()
def tagged_repo(repo: Path) -> Path:
    """v1.0.0 ships version 0; trunk then adds version 1, reshapes it, and reshapes v0."""
    write(repo / "WidgetRequest.json", request(valid="0"))
    write(repo / "WidgetResponse.json", response(valid="0"))
    commit(repo, "release 1.0")
    git(repo, "tag", "v1.0.0")
    write(
        repo / "WidgetRequest.json",
        request(
            valid="0-1",
            extra=',\n    { "name": "Color", "type": "string", "versions": "1+", "about": "x" }',
        ),
    )
    write(repo / "WidgetResponse.json", response(valid="0-1"))
    commit(repo, "add version 1")
    git(repo, "tag", "v1.1.0-rc1")  # a release candidate: not a release
    write(
        repo / "WidgetRequest.json",
        request(
            valid="0-1",
            extra=',\n    { "name": "Colour", "type": "int8", "versions": "1+", "about": "x" }',
        ),
    )
    commit(repo, "reshape unreleased version 1")
    return repo


def test_released_tags_ignores_unreleased_versions(
    tagged_repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tagged_repo)
    code, base_mode = run_json(
        ["diff", "HEAD~1", "HEAD", "--no-proof", "--released", "base"], capsys
    )
    assert code == 1
    assert {"field-added", "field-removed"} <= rules_of(base_mode, "error")
    (removed,) = [f for f in base_mode["findings"] if f["rule"] == "field-removed"]
    assert removed["released_by"] == "in BASE's validVersions"

    code, tags_mode = run_json(
        ["diff", "HEAD~1", "HEAD", "--no-proof", "--released", "tags"], capsys
    )
    assert code == 0, tags_mode["findings"]
    assert rules_of(tags_mode, "error") == set()


def test_released_tags_names_the_release(
    tagged_repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    write(
        tagged_repo / "WidgetRequest.json",
        request(
            valid="0-1",
            id_type="int64",
            extra=',\n    { "name": "Colour", "type": "int8", "versions": "1+", "about": "x" }',
        ),
    )
    commit(tagged_repo, "break released version 0")
    monkeypatch.chdir(tagged_repo)
    code, report = run_json(["diff", "HEAD~1", "HEAD", "--no-proof", "--released", "tags"], capsys)
    assert code == 1
    (changed,) = [f for f in report["findings"] if f["rule"] == "field-type-changed"]
    assert changed["versions"] == "0"  # version 1 was never released
    # v1.0.0 is the repository's first commit: an older release may have shipped it
    assert changed["released_by"] == "released in ≤ v1.0.0"
    code, out, _ = run(
        ["diff", "HEAD~1", "HEAD", "--no-proof", "--released", "tags", "--color", "never"], capsys
    )
    assert "why: released in ≤ v1.0.0" in out


def test_a_message_no_release_shipped_can_be_removed(
    tagged_repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    write(
        tagged_repo / "GadgetRequest.json",
        request().replace("Widget", "Gadget").replace('"apiKey": 90', '"apiKey": 91'),
    )
    write(
        tagged_repo / "GadgetResponse.json",
        response().replace("Widget", "Gadget").replace('"apiKey": 90', '"apiKey": 91'),
    )
    commit(tagged_repo, "add an API on trunk")
    (tagged_repo / "GadgetRequest.json").unlink()
    (tagged_repo / "GadgetResponse.json").unlink()
    commit(tagged_repo, "drop it again before any release")
    monkeypatch.chdir(tagged_repo)
    code, tags_mode = run_json(["diff", "HEAD~1", "HEAD", "--released", "tags"], capsys)
    assert code == 0 and rules_of(tags_mode, "error") == set()
    code, base_mode = run_json(["diff", "HEAD~1", "HEAD", "--released", "base"], capsys)
    assert code == 1 and rules_of(base_mode, "error") == {"message-removed"}


def test_release_tag_pattern_is_configurable(
    tagged_repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Counting release candidates as releases makes version 1 released (tag v1.1.0-rc1).
    write(
        tagged_repo / "kcompat.toml",
        'release-tags = "^v\\\\d+\\\\.\\\\d+\\\\.\\\\d+(-rc\\\\d+)?$"\n',
    )
    monkeypatch.chdir(tagged_repo)
    code, report = run_json(["diff", "HEAD~1", "HEAD", "--no-proof", "--released", "tags"], capsys)
    assert code == 1
    assert {"field-added", "field-removed"} <= rules_of(report, "error")
    released = {f["released_by"] for f in report["findings"] if f["severity"] == "error"}
    assert released == {"released in v1.1.0-rc1"}


def test_history_defaults_to_tags_when_the_repo_has_releases(tagged_repo: Path) -> None:
    from kcompat.pipeline.history_driver import HistoryRequest, released_mode_for
    from kcompat.sources.git import GitRepo

    repo = GitRepo.open(tagged_repo)
    assert released_mode_for(HistoryRequest(tagged_repo), repo) == "tags"
    assert (
        released_mode_for(HistoryRequest(tagged_repo, released=ReleasedMode.BASE), repo) == "base"
    )
    git(tagged_repo, "tag", "-d", "v1.0.0")
    assert released_mode_for(HistoryRequest(tagged_repo), GitRepo.open(tagged_repo)) == "base"


# -- drift -----------------------------------------------------------------------------------


def test_drift_reports_wire_mismatch_and_missing_versions_with_their_fields(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    upstream, local = tmp_path / "upstream", tmp_path / "local"
    write(
        upstream / "WidgetRequest.json",
        request(
            valid="0-2",
            extra=',\n    { "name": "Color", "type": "string", "versions": "2+", "about": "x" }',
        ),
    )
    write(local / "widget_request.json", request(valid="0-1", id_type="int64"))
    code, report = run_json(["drift", str(upstream), str(local)], capsys)
    assert code == 1
    (mismatch,) = [f for f in report["findings"] if f["rule"] == "drift-wire-mismatch"]
    assert mismatch["versions"] == "0-1"
    assert "WidgetId is int64 locally but int32 upstream" in mismatch["message"]
    (missing,) = [f for f in report["findings"] if f["rule"] == "drift-versions-missing"]
    # Color exists only in version 2, which the copy lacks: part of that finding, not a
    # finding of its own (one finding per cause)
    assert missing["notes"] == [
        "fields only in those versions (part of this finding): WidgetRequest.Color"
    ]
    assert "drift-fields-one-side" not in rules_of(report, "warning")


def snake_case_copy(source: Path, target: Path) -> Path:
    """The specs of ``source`` under snake_case file names."""
    target.mkdir(parents=True, exist_ok=True)
    for path in sorted(source.glob("*.json")):
        name = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", path.stem).lower()
        shutil.copy(path, target / f"{name}.json")
    return target


def test_drift_against_a_snake_case_copy_is_clean(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = Path(__file__).resolve().parent.parent / "specs" / "examples"
    copy = snake_case_copy(source, tmp_path / "copy")
    assert sorted(p.name for p in copy.iterdir()) != sorted(p.name for p in source.glob("*.json"))
    code, out, _ = run(["drift", str(source), str(copy), "--color", "never"], capsys)
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("Wire: all 15 versions both sides have (4 messages) match")
    assert lines[-1].startswith("No problems")


# -- acceptance on the real corpus ------------------------------------------------------------


def kafka_python_specs() -> Path:
    kafka = pytest.importorskip("kafka", reason="kafka-python is not installed (dev extra)")
    path = Path(kafka.__file__).parent / "protocol" / "schemas" / "resources"
    if not path.is_dir():
        pytest.skip("this kafka-python does not ship spec files")
    return path


@pytest.mark.corpus
def test_trunk_against_kafka_4_3_has_no_field_level_breaks(
    kafka_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    upstream = kafka_python_specs()
    trunk = kafka_repo / "clients" / "src" / "main" / "resources" / "common" / "message"
    code, report = run_json(["diff", str(trunk), str(upstream), "--no-proof"], capsys)
    # Kafka 4 dropped old versions (KIP-896) and kafka-python ships a subset of messages;
    # the field layouts of the versions both have did not change.
    assert code == 1
    assert rules_of(report, "error") == {"lowest-version-raised", "message-removed"}


@pytest.mark.corpus
def test_drift_between_trunk_and_kafka_4_3_and_their_snake_case_copies(
    kafka_repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    upstream = kafka_python_specs()
    trunk = kafka_repo / "clients" / "src" / "main" / "resources" / "common" / "message"
    code, report = run_json(["drift", str(upstream), str(trunk)], capsys)
    assert "drift-wire-mismatch" not in rules_of(report)
    assert code == 0
    for index, source in enumerate((upstream, trunk)):
        copy = snake_case_copy(source, tmp_path / f"copy{index}")
        code, copy_report = run_json(["drift", str(source), str(copy)], capsys)
        assert code == 0 and copy_report["findings"] == [], copy_report["findings"][:3]
