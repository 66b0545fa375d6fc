"""A repository that is not Apache Kafka: a product that vendors Kafka's specs
(tests/vendored.py builds it: snake_case files, a subset of versions, an old name kept, a
field renamed, messages of its own, ``{{placeholder}}`` templates, ``v`` tags on release
branches), against a small upstream with three releases.

What it checks, command by command (issue 31, §2 and §3):
- a JSON file that never held a spec is not a spec (diff, changelog, lint, explain), and
  each command says once which files it left out; one under a configured spec path, or
  one that held a spec on the other side, still is;
- a folder named in snake_case throughout gets no file-name-mismatch; a mixed one gets
  one finding per odd file out;
- drift pairs the copy with upstream by API key and type, reports a rename once, one
  finding per cause, and says which upstream release the copy is closest to.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import jsonschema
import pytest

from tests.diff_runner import commit_tree, git, run_cli
from tests.vendored import (
    SPEC_DIR,
    TEMPLATE_DIRS,
    synthetic_copy,
    synthetic_upstream,
    synthetic_vendor,
    templates,
)

LEFT_OUT = (
    "kcompat: note: left out 10 .json files that do not parse and never name validVersions "
    "(not specs: templates?): docs/api/acls.json, docs/api/configs.json, docs/api/fetch.json "
    "and 7 more; list their folder in kcompat.toml's paths to check them as specs\n"
)


@pytest.fixture(scope="module")
def vendor(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return synthetic_vendor(tmp_path_factory.mktemp("vendor") / "broker")


@pytest.fixture(scope="module")
def upstream(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return synthetic_upstream(tmp_path_factory.mktemp("upstream") / "kafka")


# -- which files are specs ------------------------------------------------------------------
def test_a_release_audit_meets_no_template(vendor: Path) -> None:
    """Every template changed between the two releases: none of them is a spec (before,
    each was a spec-unreadable error: 10 of 10 errors)."""
    run = run_cli(["diff", "v1.0.0", "v1.1.0", "--format", "json"], vendor)
    assert run.code == 0, run.stdout + run.stderr
    assert run.findings() == []
    assert run.stderr == LEFT_OUT


def test_the_changelog_between_releases_meets_no_template(vendor: Path) -> None:
    run = run_cli(["changelog", "v1.0.0", "v1.1.0"], vendor)
    assert run.code == 0, run.stdout + run.stderr
    assert "does not parse" not in run.stdout
    assert run.stderr == LEFT_OUT


def test_a_template_under_a_configured_spec_path_is_a_spec(tmp_path: Path) -> None:
    """Under a configured spec path, a file that does not parse is a broken spec, whatever
    its text: each changed one is an error."""
    repo = synthetic_vendor(tmp_path / "broker")
    files = {p.relative_to(repo).as_posix(): p.read_bytes() for p in _files(repo)}
    config = {"kcompat.toml": f'paths = ["{SPEC_DIR}", "{TEMPLATE_DIRS[1]}"]\n'}
    commit_tree(repo, {**files, **config}, "configure")
    commit_tree(repo, {**files, **config, **templates(3)}, "templates again")
    run = run_cli(["diff", "HEAD~1", "HEAD", "--format", "json"], repo)
    assert run.code == 1
    broken = sorted(f["file"] for f in run.findings() if f["rule"] == "spec-unreadable")
    assert broken == [f"{TEMPLATE_DIRS[1]}/{n}.json" for n in ("error", "request", "response")]
    assert "docs/api" not in run.stdout + run.stderr  # outside the paths: not even read


def test_a_spec_broken_in_head_is_still_a_spec(tmp_path: Path) -> None:
    """A file that held a spec in BASE and no longer names validVersions in HEAD (a bad
    merge left a template's text in it) is a spec: its HEAD does not parse, an error."""
    repo = synthetic_vendor(tmp_path / "broker")
    files = {p.relative_to(repo).as_posix(): p.read_bytes() for p in _files(repo)}
    spec = f"{SPEC_DIR}/ping_request.json"
    commit_tree(repo, {**files, spec: b'{"title": "ping", "apiKey": {{ api_key }}}\n'}, "bad")
    run = run_cli(["diff", "HEAD~1", "HEAD", "--format", "json"], repo)
    assert run.code == 1
    (broken,) = run.findings()
    assert (broken["rule"], broken["file"], broken["severity"]) == (
        "spec-unreadable",
        spec,
        "error",
    )


def test_lint_leaves_templates_out_with_one_line(vendor: Path) -> None:
    run = run_cli(["lint"], vendor)
    assert run.code == 0
    assert run.stdout == "No problems in 8 spec files.\n"
    assert run.stderr == LEFT_OUT


def test_a_hook_naming_only_a_template_lints_nothing(vendor: Path) -> None:
    run = run_cli(["lint", "docs/api/fetch.json"], vendor)
    assert run.code == 0
    assert run.stdout == "No spec files among the 1 given file(s); nothing to lint.\n"
    assert "docs/api/fetch.json" in run.stderr


def test_explain_looks_past_templates(vendor: Path) -> None:
    found = run_cli(["explain", "Ping", "--format", "json"], vendor)
    assert found.code == 0, found.stderr
    missing = run_cli(["explain", "NoSuchMessage"], vendor)
    assert missing.code == 2
    assert "does not parse" not in missing.stderr  # a template is no broken spec


# -- file names -----------------------------------------------------------------------------
def test_a_folder_named_in_snake_case_throughout_gets_no_finding(vendor: Path) -> None:
    """Before: one file-name-mismatch per file (8 here, 84 in the bundle-built copy)."""
    run = run_cli(["lint", SPEC_DIR, "--format", "json"], vendor)
    assert run.code == 0
    assert [f["rule"] for f in run.findings()] == []


def test_a_folder_that_mixes_conventions_names_the_odd_ones_out(tmp_path: Path) -> None:
    folder = tmp_path / "specs"
    folder.mkdir()
    for path, text in synthetic_copy().items():
        (folder / Path(path).name).write_text(text)
    (folder / "ping_request.json").rename(folder / "PingRequest.json")
    run = run_cli(["lint", "specs"], tmp_path)
    assert run.code == 0
    assert run.stdout.splitlines() == [
        "specs/PingRequest.json:5:11: info [file-name-mismatch] file PingRequest.json holds "
        "message 'PingRequest', but the other 7 files of its folder are named in snake_case "
        "after their message",
        "    hint: rename the file to ping_request.json",
        "Found 1 info in 8 spec files.",
    ]


# -- drift ----------------------------------------------------------------------------------
def drift_json(upstream: Path, vendor: Path, rev: str = "1.2.0") -> dict[str, object]:
    run = run_cli(
        ["drift", "--repo", str(upstream), rev, str(vendor / SPEC_DIR), "-f", "json"], vendor
    )
    assert run.code == 0, run.stdout + run.stderr
    document = run.json()
    assert isinstance(document, dict)
    return document


def test_drift_pairs_by_api_key_and_says_each_cause_once(upstream: Path, vendor: Path) -> None:
    found = drift_json(upstream, vendor)["findings"]
    assert isinstance(found, list)
    said = sorted((f["rule"], f["severity"], f["message"]) for f in found)
    assert said == [
        (
            "drift-message-missing",
            "info",
            "request StatsRequest and response StatsResponse exist in the local copy; "
            "upstream lacks them",
        ),
        (
            "drift-renamed",
            "info",
            "ListThingRequest and ListThingResponse are upstream's ListThingsRequest and "
            "ListThingsResponse (API key 2): renamed upstream after 1.0.0 (the last release "
            "with the local name)",
        ),
        (
            "drift-renamed",
            "info",
            "ListThingResponse: field Number is upstream's Total (the same position on the "
            "wire, versions 0-1): renamed locally (no upstream release used the local name)",
        ),
        (
            "drift-versions-missing",
            "warning",
            "LookupRequest and LookupResponse: upstream has versions 0, 3 that the local "
            "copy lacks",
        ),
    ]
    (missing,) = [f for f in found if f["rule"] == "drift-versions-missing"]
    assert missing["notes"] == [
        "fields only in those versions (part of this finding): LookupRequest.Cursor"
    ]


def test_drift_answers_what_a_vendor_asks(upstream: Path, vendor: Path) -> None:
    document = drift_json(upstream, vendor)
    schema = resources.files("kcompat").joinpath("data/findings.schema.json").read_text()
    jsonschema.validate(document, json.loads(schema))
    summary = document["drift"]
    assert isinstance(summary, dict)
    assert (summary["paired"], summary["shared_versions"], summary["mismatched"]) == (6, 10, 0)
    assert (summary["alike"], summary["proven"], summary["samples"]) == (8, 2, 20)
    assert summary["missing"] == [
        {"message": "LookupRequest", "versions": "0, 3"},
        {"message": "LookupResponse", "versions": "0, 3"},
    ]
    assert summary["local_only"] == ["StatsRequest", "StatsResponse"]
    closest = summary["closest"]
    assert isinstance(closest, dict)
    assert (closest["about"], closest["release"]) == ("1.1", "1.1.0")
    assert closest["before"]["release"] == "1.0.0" and closest["after"]["release"] == "1.2.0"


def test_drift_dates_the_copy_whichever_revision_it_is_compared_with(
    upstream: Path, vendor: Path
) -> None:
    """The closest release comes from every release, not from the revision compared."""
    for rev in ("1.0.0", "1.2.0", "main"):
        closest = drift_json(upstream, vendor, rev)["drift"]["closest"]  # type: ignore[index]
        assert closest["release"] == "1.1.0", rev


def test_drift_in_text_ends_with_the_answers(upstream: Path, vendor: Path) -> None:
    run = run_cli(["drift", "--repo", str(upstream), "1.2.0", str(vendor / SPEC_DIR)], vendor)
    tail = run.stdout.splitlines()[-5:]
    assert tail[0] == (
        "Wire: all 10 versions both sides have (6 messages) match: 8 laid out alike, 2 with "
        "other names or defaults proven with 20 samples written by each side and read by the "
        "other."
    )
    assert tail[3].startswith("Closest release: vendored from about 1.1 (1.1.0): ")
    assert tail[4] == "Found 1 warning, 3 infos in 14 spec files."


def _files(repo: Path) -> list[Path]:
    return [p for p in repo.rglob("*") if p.is_file() and ".git" not in p.parts]


def test_the_fixture_has_the_shape_it_claims(vendor: Path) -> None:
    tags = git(vendor, "tag").split()
    assert tags == ["v1.0.0", "v1.0.0-rc1", "v1.0.1", "v1.1.0", "v1.1.0-rc1", "v1.1.1"]
    names = sorted(p.name for p in (vendor / SPEC_DIR).iterdir())
    assert "list_thing_request.json" in names and all("_" in n for n in names if "ping" not in n)
    template = vendor / "docs/api/fetch.json"
    with pytest.raises(json.JSONDecodeError):
        json.loads(template.read_text())


def test_the_matrix_meets_no_template(tmp_path: Path) -> None:
    """A template that even reads like a request (``"type": "request"``, an ``apiKey``)
    is no unreadable spec of a release."""
    repo = synthetic_vendor(tmp_path / "broker")
    files = {p.relative_to(repo).as_posix(): p.read_bytes() for p in _files(repo)}
    page = b'{"type": "request", "apiKey": {{ api_key }}, "name": "{{ name }}"}\n'
    commit_tree(repo, {**files, "docs/api/request.json": page}, "a request page")
    git(repo, "tag", "v1.2.0")
    run = run_cli(["matrix"], repo)
    assert run.code == 0, run.stderr
    assert "not readable" not in run.stdout + run.stderr
