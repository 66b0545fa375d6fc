"""``kcompat diff`` end to end, on real git repositories built in temp directories.

Which sides a command line means (the working tree, the index, revisions, merge bases,
remotes), how git problems are reported (one line, exit 2, the command that fixes it),
every output format, exit codes, baselines, inline suppression and configuration.
Most runs are in-process (:func:`tests.diff_runner.run_cli`); where the process itself
is under test (exit status, stderr, nothing executed) they run the installed CLI.
"""

from __future__ import annotations

import json
import os
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from tests.diff_runner import (
    CliRun,
    commit_tree,
    git,
    init_repo,
    run_cli,
    run_process,
    write_files,
)

SPEC_DIR = "protocol/message"
LEASE = f"{SPEC_DIR}/RenewLeaseRequest.json"
SHELF = f"{SPEC_DIR}/ShelfPlacementRecord.json"

LEASE_TEXT = """\
// The lease API.
{
  "apiKey": 92,
  "type": "request",
  "name": "RenewLeaseRequest",
  "validVersions": "0-2",
  "flexibleVersions": "1+",
  "fields": [
    { "name": "LeaseId", "type": "string", "versions": "0+",
      "about": "The lease to renew." },
    { "name": "HolderEpoch", "type": "int32", "versions": "0+",
      "about": "The holder's current epoch." },
    { "name": "DurationMs", "type": "int64", "versions": "0+",
      "about": "How long the renewed lease should last." }
  ]
}
"""

SHELF_TEXT = """\
{
  "apiKey": 41,
  "type": "metadata",
  "name": "ShelfPlacementRecord",
  "validVersions": "0-1",
  "flexibleVersions": "0+",
  "fields": [
    { "name": "ShelfId", "type": "uuid", "versions": "0+",
      "about": "The shelf." },
    { "name": "BrokerId", "type": "int32", "versions": "0+", "entityType": "brokerId",
      "about": "The broker that holds the shelf." }
  ]
}
"""

HOLDER_EPOCH = """\
    { "name": "HolderEpoch", "type": "int32", "versions": "0+",
      "about": "The holder's current epoch." },
"""


def lease_without_epoch() -> str:
    """HolderEpoch removed from released versions: field-removed."""
    return LEASE_TEXT.replace(HOLDER_EPOCH, "")


def lease_with_duration(kind: str) -> str:
    """DurationMs's type changed: field-type-changed."""
    return LEASE_TEXT.replace('"DurationMs", "type": "int64"', f'"DurationMs", "type": "{kind}"')


def shelf_lowest(valid: str) -> str:
    return SHELF_TEXT.replace('"validVersions": "0-1"', f'"validVersions": "{valid}"')


def shelf_renamed_field() -> str:
    """BrokerId renamed in place: a warning only."""
    return SHELF_TEXT.replace('"name": "BrokerId"', '"name": "OwnerId"')


@pytest.fixture()
def repo(tmp_path: Path) -> Path:
    """main with one commit holding both specs (and a non-spec JSON file)."""
    path = init_repo(tmp_path / "repo")
    commit_tree(
        path,
        {LEASE: LEASE_TEXT, SHELF: SHELF_TEXT, "web/package.json": '{"name": "x"}\n'},
        "specs",
    )
    return path


def diff(repo: Path, *args: str, fmt: str = "json") -> CliRun:
    return run_cli(["diff", *args, "--format", fmt, "--no-proof"], repo)


def rules(run: CliRun) -> list[tuple[str, str]]:
    return sorted((f["rule"], f["field_path"]) for f in run.findings())


def state(repo: Path) -> dict[str, Any]:
    """Everything a read-only command must leave alone."""
    files = {}
    for path in sorted(repo.rglob("*")):
        if ".git" in path.relative_to(repo).parts or not path.is_file():
            continue
        files[str(path.relative_to(repo))] = (path.read_bytes(), path.stat().st_mtime_ns)
    index = repo / ".git" / "index"
    return {
        "status": git(repo, "--no-optional-locks", "status", "--porcelain"),
        "staged": git(repo, "ls-files", "--stage"),
        "index": (index.read_bytes(), index.stat().st_mtime_ns),
        "files": files,
    }


# -- which sides ----------------------------------------------------------------------------


def test_default_head_is_the_working_tree(repo: Path) -> None:
    write_files(repo, {LEASE: lease_without_epoch()})
    run = diff(repo)
    assert run.code == 1
    assert rules(run) == [("field-removed", "HolderEpoch")]
    assert run.json()["base"] == "HEAD" and run.json()["head"] == "the working tree"


def test_an_untracked_spec_is_part_of_the_working_tree(repo: Path) -> None:
    new = SHELF_TEXT.replace("ShelfPlacementRecord", "ShelfRetiredRecord").replace("41", "42")
    write_files(repo, {f"{SPEC_DIR}/ShelfRetiredRecord.json": new})
    run = diff(repo)
    assert run.code == 0
    assert rules(run) == [("message-added", "")]
    assert run.findings()[0]["file"] == f"{SPEC_DIR}/ShelfRetiredRecord.json"


def test_a_clean_tree_has_nothing_to_report(repo: Path) -> None:
    run = diff(repo, fmt="text")
    assert (run.code, run.stdout) == (
        0,
        "No spec file changed between the HEAD commit and the working tree.\n",
    )


def test_staged_sees_only_the_index_and_writes_nothing(repo: Path) -> None:
    write_files(repo, {LEASE: lease_without_epoch()})
    git(repo, "add", LEASE)
    write_files(repo, {SHELF: shelf_lowest("1")})  # unstaged: not part of --staged
    before = state(repo)
    run = diff(repo, "--staged")
    assert run.code == 1
    assert rules(run) == [("field-removed", "HolderEpoch")]
    assert run.json()["head"] == "the index"
    assert state(repo) == before
    # The same tree without --staged sees both changes.
    assert rules(diff(repo)) == [("field-removed", "HolderEpoch"), ("lowest-version-raised", "")]
    assert state(repo) == before


def test_the_working_tree_diff_never_writes_the_index(repo: Path) -> None:
    """A file whose stat data changed but whose bytes did not makes `git diff` refresh
    and rewrite .git/index; kcompat must not."""
    target = repo / SHELF
    later = target.stat().st_mtime_ns + 5_000_000_000
    os.utime(target, ns=(later, later))
    index = repo / ".git" / "index"
    before = (index.read_bytes(), index.stat().st_mtime_ns)
    assert diff(repo).findings() == []
    assert (index.read_bytes(), index.stat().st_mtime_ns) == before


def test_staged_with_a_head_is_a_usage_error(repo: Path) -> None:
    run = diff(repo, "HEAD", "HEAD", "--staged")
    assert run.code == 2
    assert "--staged" in run.stderr


def test_merge_base_reports_only_the_branch(repo: Path) -> None:
    git(repo, "checkout", "-q", "-b", "feature")
    write_files(repo, {LEASE: lease_without_epoch()})
    git(repo, "commit", "-q", "-am", "feature: drop HolderEpoch")
    git(repo, "checkout", "-q", "main")
    write_files(repo, {SHELF: shelf_lowest("0-2")})  # main moves on: a new version
    git(repo, "commit", "-q", "-am", "main: ShelfPlacementRecord v2")
    git(repo, "checkout", "-q", "feature")

    run = diff(repo, "main", "--merge-base")
    assert rules(run) == [("field-removed", "HolderEpoch")]
    assert run.json()["base"] == "merge-base(main)"
    # Against main itself, main's new version looks removed by the branch.
    plain = diff(repo, "main")
    assert ("released-version-removed", "") in rules(plain)


def test_revisions_by_ancestry_tag_and_sha(repo: Path) -> None:
    first = git(repo, "rev-parse", "HEAD").strip()
    git(repo, "tag", "v1.0")
    tree = {LEASE: LEASE_TEXT, SHELF: SHELF_TEXT}
    commit_tree(repo, {**tree, LEASE: lease_without_epoch()}, "drop HolderEpoch")
    commit_tree(repo, {**tree, LEASE: lease_without_epoch(), SHELF: shelf_lowest("0-2")}, "v2")
    commit_tree(repo, {**tree, LEASE: lease_without_epoch(), SHELF: shelf_lowest("1-2")}, "cut")
    expected = [
        ("field-removed", "HolderEpoch"),
        ("lowest-version-raised", ""),
        ("version-added", ""),
    ]
    for base in ("HEAD~3", "v1.0", first, first[:10]):
        run = diff(repo, base, "HEAD")
        assert rules(run) == expected, base
        assert run.json()["base"] == base
    assert rules(diff(repo, "HEAD~1", "HEAD")) == [("lowest-version-raised", "")]


def test_origin_main_in_a_clone(repo: Path, tmp_path: Path) -> None:
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", f"file://{repo}", str(clone))
    write_files(clone, {SHELF: shelf_lowest("1")})
    git(clone, "commit", "-q", "-am", "cut version 0")
    run = diff(clone, "origin/main", "HEAD")
    assert rules(run) == [("lowest-version-raised", "")]
    assert rules(diff(clone, "origin/main", "--merge-base")) == [("lowest-version-raised", "")]


def test_repo_option_from_another_directory(repo: Path, tmp_path: Path) -> None:
    write_files(repo, {LEASE: lease_without_epoch()})
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    run = run_cli(["diff", "--repo", str(repo), "--format", "json", "--no-proof"], elsewhere)
    assert run.code == 1
    assert rules(run) == [("field-removed", "HolderEpoch")]
    assert Path(elsewhere, run.findings()[0]["file"]).resolve() == (repo / LEASE).resolve()


def test_outside_a_repository_without_repo_option(tmp_path: Path) -> None:
    run = run_cli(["diff", "--no-proof"], tmp_path)
    assert run.code == 2
    assert run.stderr.count("\n") == 1 and "git repository" in run.stderr


# -- git problems: one line, exit 2, the command that fixes it -------------------------------


def test_a_missing_remote_branch_names_the_fetch(repo: Path, tmp_path: Path) -> None:
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", f"file://{repo}", str(clone))
    done = run_process(["diff", "origin/release-2.0", "--no-proof"], clone)
    assert done.code == 2
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("kcompat: error: unknown revision 'origin/release-2.0'")
    # a full clone knows every branch origin had: this one was not there (issue 35.12)
    assert (
        "origin had no branch 'release-2.0' at the last fetch; did you mean origin/main"
        in (lines[0])
    )
    assert lines[0].endswith("(if it is new there: git fetch origin release-2.0)")


def test_a_near_miss_ref_suggests_the_refs_that_exist(repo: Path, tmp_path: Path) -> None:
    """``3.7`` when only ``origin/3.7`` and tag ``3.7.0`` exist: those, not a fetch."""
    git(repo, "branch", "3.7")
    git(repo, "tag", "3.7.0")
    git(repo, "tag", "3.7.1")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", f"file://{repo}", str(clone))
    done = run_process(["diff", "3.7", "--no-proof"], clone)
    assert done.code == 2
    (line,) = done.stderr.splitlines()
    assert line.endswith("did you mean origin/3.7 (a remote branch) or 3.7.0 (a tag)?"), line
    assert "git fetch" not in line
    misspelt = run_process(["diff", "3.7.00", "--no-proof"], clone)
    (line,) = misspelt.stderr.splitlines()
    assert "did you mean 3.7.0 (a tag)" in line
    assert line.endswith("(if it is a tag not fetched yet: git fetch origin tag 3.7.00)"), line


def test_a_missing_tag_names_the_fetch(repo: Path, tmp_path: Path) -> None:
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", f"file://{repo}", str(clone))
    done = run_process(["diff", "3.9.0", "--no-proof"], clone)
    assert done.code == 2
    (line,) = done.stderr.splitlines()
    assert line.endswith("git fetch origin tag 3.9.0")


def test_merge_base_in_a_shallow_clone_says_unshallow(repo: Path, tmp_path: Path) -> None:
    git(repo, "checkout", "-q", "-b", "feature")
    commit_tree(repo, {LEASE: lease_without_epoch(), SHELF: SHELF_TEXT}, "feature 1")
    commit_tree(repo, {LEASE: lease_without_epoch(), SHELF: shelf_lowest("0-2")}, "feature 2")
    git(repo, "checkout", "-q", "main")
    commit_tree(repo, {LEASE: LEASE_TEXT, SHELF: SHELF_TEXT, "README": "x\n"}, "main moves")
    shallow = tmp_path / "shallow"
    git(
        tmp_path,
        "clone",
        "-q",
        "--depth",
        "1",
        "--branch",
        "feature",
        f"file://{repo}",
        str(shallow),
    )
    git(shallow, "fetch", "-q", "--depth", "1", "origin", "main:refs/remotes/origin/main")
    done = run_process(["diff", "origin/main", "--merge-base", "--no-proof"], shallow)
    assert done.code == 2
    (line,) = done.stderr.splitlines()
    assert line.startswith("kcompat: error: no merge base of")
    assert "git fetch --unshallow" in line


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (["--no-proof", "--", "--upload-pack=touch pwned", "HEAD"], "invalid revision"),
        (["--no-proof", "--", "HEAD", "--output=pwned"], "invalid revision"),
        (["--no-proof", "--upload-pack=touch pwned"], "No such option: --upload-pack"),
    ],
)
def test_a_ref_that_looks_like_an_option_is_rejected(
    repo: Path, args: list[str], error: str
) -> None:
    before = state(repo)
    done = run_process(["diff", *args], repo)
    assert done.code == 2
    assert done.stdout == ""
    (line,) = done.stderr.splitlines()
    assert line.startswith("kcompat: error: ") and error in line
    assert not (repo / "pwned").exists()
    assert state(repo) == before


# -- output formats -----------------------------------------------------------------------------


@pytest.fixture()
def broken(repo: Path) -> Path:
    """HEAD~1 -> HEAD removes a field (error) and renames another (warning)."""
    commit_tree(
        repo,
        {
            LEASE: lease_without_epoch(),
            SHELF: shelf_renamed_field(),
            "web/package.json": '{"name": "x"}\n',
        },
        "break things",
    )
    return repo


TEXT_LINE = re.compile(
    r"^(?P<path>\S+\.json):(?P<line>\d+):(?P<col>\d+): (?P<severity>error|warning|info) "
    r"\[(?P<rule>[a-z0-9-]+)\] (?P<message>.+?)"
    r"(?: \(was (?:line |(?P<base>\S+):)(?P<base_line>\d+) in (?P<label>\S+)\))?$"
)


def test_text_format(broken: Path) -> None:
    done = run_process(["diff", "HEAD~1", "HEAD", "--no-proof", "--color", "never"], broken)
    assert done.code == 1
    findings = [TEXT_LINE.match(line) for line in done.stdout.splitlines()]
    matched = [m for m in findings if m is not None]
    assert [(m["rule"], m["severity"]) for m in matched] == [
        ("field-removed", "error"),
        ("field-renamed", "warning"),
    ]
    removed, renamed = matched
    assert removed["path"] == LEASE and removed["base"] is None  # the file did not move
    assert removed["line"] == "8" and removed["base_line"] == "11"
    assert removed["label"] == "HEAD~1"
    assert renamed["message"] == "field BrokerId was renamed to OwnerId"
    assert done.stdout.splitlines()[-1] == "Found 1 error, 1 warning in 2 spec files."
    assert "    hint: " in done.stdout


def test_a_moved_file_names_where_it_was(repo: Path) -> None:
    moved = f"{SPEC_DIR}/lease/RenewLeaseRequest.json"
    commit_tree(repo, {moved: lease_without_epoch(), SHELF: SHELF_TEXT}, "move and break")
    done = run_cli(["diff", "HEAD~1", "HEAD", "--no-proof", "--color", "never"], repo)
    first = TEXT_LINE.match(done.stdout.splitlines()[0])
    assert first is not None, done.stdout
    assert (first["path"], first["base"], first["label"]) == (moved, LEASE, "HEAD~1")


def test_an_empty_comparison_says_nothing_changed(repo: Path) -> None:
    done = run_cli(["diff", "HEAD", "HEAD", "--color", "never"], repo)
    assert (done.code, done.stdout) == (0, "No spec file changed between HEAD and HEAD.\n")
    staged = run_cli(["diff", "--staged", "--color", "never"], repo)
    assert staged.stdout == "No spec file changed between the HEAD commit and the index.\n"
    markdown = run_cli(["diff", "HEAD", "HEAD", "-f", "markdown"], repo)
    assert "✅ **No spec file changed**." in markdown.stdout
    assert "0 spec files" not in markdown.stdout
    github = run_cli(["diff", "HEAD", "HEAD", "-f", "github"], repo)
    assert github.stdout == "kcompat diff: No spec file changed between HEAD and HEAD\n"


def test_staged_names_base_as_the_commit_and_head_as_the_index(repo: Path) -> None:
    write_files(repo, {LEASE: lease_without_epoch()})
    git(repo, "add", LEASE)
    done = run_cli(["diff", "--staged", "--no-proof", "--color", "never"], repo)
    assert done.code == 1
    first = done.stdout.splitlines()[0]
    assert first.endswith("(was line 11 in the HEAD commit)"), first
    markdown = run_cli(["diff", "--staged", "--no-proof", "-f", "markdown"], repo)
    assert "Base `HEAD`, head `the index`." in markdown.stdout
    assert markdown.stdout.count("HEAD") == 1


def test_json_format_follows_the_schema(broken: Path) -> None:
    from kcompat.report import json_report

    schema_path = Path(json_report.__file__).parent.parent / "data" / "findings.schema.json"
    schema = json.loads(schema_path.read_text(encoding="utf-8"))
    for args in (["HEAD~1", "HEAD"], ["HEAD", "HEAD"]):
        report = diff(broken, *args).json()
        jsonschema.validate(report, schema)
    report = diff(broken, "HEAD~1", "HEAD").json()
    assert report["command"] == "diff"
    assert report["summary"] == {
        "files": 2,
        "error": 1,
        "warning": 1,
        "info": 0,
        "accepted": 0,
        "suppressed": 0,
        "baselined": 0,
        "hidden": 0,
        "accepted_in_change": 0,
        "suppressions": [],
    }
    assert {f["base_file"] for f in report["findings"]} == {LEASE, SHELF}


def test_sarif_format_follows_the_official_schema(broken: Path) -> None:
    from tests.sarif_schema import sarif_schema

    schema = sarif_schema()
    validator = jsonschema.Draft202012Validator(
        schema, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER
    )
    with_proof = run_cli(["diff", "HEAD~1", "HEAD", "--format", "sarif"], broken)
    for run in (with_proof, *(diff(broken, *a, fmt="sarif") for a in (["HEAD~1"], ["HEAD"]))):
        document = json.loads(run.stdout)
        errors = sorted(validator.iter_errors(document), key=lambda e: list(e.path))
        assert errors == [], [f"{list(e.path)}: {e.message}" for e in errors]
    run = diff(broken, "HEAD~1", "HEAD", fmt="sarif")
    (result_run,) = json.loads(run.stdout)["runs"]
    levels = {r["ruleId"]: r["level"] for r in result_run["results"]}
    assert levels == {"field-removed": "error", "field-renamed": "warning"}
    removed = next(r for r in result_run["results"] if r["ruleId"] == "field-removed")
    location = removed["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == LEASE
    assert location["region"]["startLine"] == 8
    assert removed["relatedLocations"][0]["physicalLocation"]["region"]["startLine"] == 11


def test_github_format(broken: Path) -> None:
    run = diff(broken, "HEAD~1", "HEAD", fmt="github")
    lines = run.stdout.splitlines()
    assert lines[0].startswith(
        f"::error file={LEASE},line=8,col=3,title=kcompat field-removed::field HolderEpoch"
    )
    assert lines[1].startswith(f"::warning file={SHELF},line=10,")
    assert lines[-1] == "kcompat diff: 1 error, 1 warning in 2 spec files"
    assert run.code == 1


def test_junit_format(broken: Path) -> None:
    run = diff(broken, "HEAD~1", "HEAD", fmt="junit")
    root = ET.fromstring(run.stdout)
    assert root.tag == "testsuites" and root.get("failures") == "2"
    cases = root.findall("./testsuite/testcase")
    assert len(cases) == 2
    failures = [c.find("failure") for c in cases]
    assert {f.get("type") for f in failures if f is not None} == {"error", "warning"}
    clean = ET.fromstring(diff(broken, "HEAD", "HEAD", fmt="junit").stdout)
    assert clean.get("failures") == "0"


def test_markdown_format(broken: Path) -> None:
    text = diff(broken, "HEAD~1", "HEAD", fmt="markdown").stdout
    assert text.startswith("### kcompat compatibility check\n")
    assert "**Breaking changes found** in 2 spec files: 1 error, 1 warning, 0 infos." in text
    assert "Base `HEAD~1`, head `HEAD`." in text
    assert "| [`field-removed`](" in text  # the per-rule table links to the rule pages
    assert f"`{LEASE}:8:3`" in text
    clean = diff(broken, "HEAD~1", "HEAD", "--fail-on", "never", "--level", "error")
    empty = diff(broken, "HEAD", "HEAD", fmt="markdown").stdout
    assert "**No spec file changed**" in empty
    write_files(broken, {SHELF: shelf_renamed_field().replace("OwnerId", "HolderId")})
    renamed_only = diff(broken, "HEAD", fmt="markdown").stdout
    assert "✅ **No errors** in 1 spec file: 0 errors, 1 warning, 0 infos." in renamed_only
    assert clean.code == 0


# -- exit codes and --fail-on -----------------------------------------------------------------


def test_exit_codes_and_fail_on(repo: Path) -> None:
    assert diff(repo, "HEAD", "HEAD").code == 0
    write_files(repo, {SHELF: shelf_renamed_field()})
    assert diff(repo).code == 0  # a warning does not fail by default
    assert diff(repo, "--fail-on", "warning").code == 1
    assert diff(repo, "--fail-on", "never").code == 0
    write_files(repo, {SHELF: shelf_lowest("0-2")})  # only an info: version-added
    assert diff(repo, "--fail-on", "warning").code == 0
    assert diff(repo, "--fail-on", "info").code == 1
    write_files(repo, {LEASE: lease_without_epoch()})
    assert diff(repo).code == 1
    assert diff(repo, "--fail-on", "never").code == 0
    assert diff(repo, "--fail-on", "nonsense").code == 2
    assert diff(repo, "no-such-ref").code == 2


def test_exit_codes_through_a_real_process(repo: Path) -> None:
    assert run_process(["diff", "--no-proof"], repo).code == 0
    write_files(repo, {LEASE: lease_without_epoch()})
    done = run_process(["diff", "--no-proof"], repo)
    assert done.code == 1 and done.stderr == ""
    assert run_process(["diff", "--no-proof", "--fail-on", "never"], repo).code == 0


# -- baselines, suppression, configuration ------------------------------------------------------


def test_baseline_accepts_known_findings_only(repo: Path, tmp_path: Path) -> None:
    baseline = tmp_path / "baseline.json"
    write_files(repo, {LEASE: lease_without_epoch()})
    written = run_cli(["diff", "--no-proof", "--write-baseline", str(baseline)], repo)
    # writing a baseline says where and how many, and succeeds
    assert (written.code, written.stdout) == (
        0,
        f"Wrote 1 finding to {baseline}; accept it with --baseline {baseline}.\n",
    )
    assert [f["rule"] for f in json.loads(baseline.read_text())["findings"]] == ["field-removed"]

    accepted = diff(repo, "--baseline", str(baseline))
    assert (accepted.code, accepted.findings()) == (0, [])

    # Lines inserted above do not change the fingerprint.
    shifted = (
        "// Renewal keeps the lease alive.\n// See the design notes.\n" + lease_without_epoch()
    )
    write_files(repo, {LEASE: shifted})
    assert diff(repo, "--baseline", str(baseline)).findings() == []

    # A new break still fails.
    write_files(repo, {LEASE: shifted.replace('"type": "int64"', '"type": "int32"')})
    run = diff(repo, "--baseline", str(baseline))
    assert run.code == 1
    assert rules(run) == [("field-type-changed", "DurationMs")]


def test_baseline_errors(repo: Path, tmp_path: Path) -> None:
    missing = diff(repo, "--baseline", str(tmp_path / "none.json"))
    assert missing.code == 2 and "--write-baseline" in missing.stderr
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    assert diff(repo, "--baseline", str(bad)).code == 2


def test_inline_suppression_in_the_head_file(repo: Path) -> None:
    suppressed = lease_without_epoch().replace(
        '  "fields": [',
        '  // kcompat: ignore[field-removed] epochs moved to the session (KIP-0000)\n  "fields": [',
    )
    write_files(repo, {LEASE: suppressed})
    run = diff(repo)
    # the change's own comment: accepted in this change, shown with its reason
    assert run.code == 0
    assert [(f["rule"], f["accepted"]) for f in run.findings()] == [
        ("field-removed", "epochs moved to the session (KIP-0000)")
    ]
    # It accepts only the rule it names.
    also_retyped = suppressed.replace('"type": "int64"', '"type": "int32"')
    write_files(repo, {LEASE: also_retyped})
    run = diff(repo)
    assert [(f["rule"], f["field_path"], bool(f["accepted"])) for f in run.findings()] == [
        ("field-removed", "HolderEpoch", True),
        ("field-type-changed", "DurationMs", False),
    ]


def test_config_paths_limit_discovery(repo: Path) -> None:
    write_files(repo, {LEASE: lease_without_epoch(), "other/ShelfPlacementRecord.json": "{}"})
    write_files(repo, {"pyproject.toml": '[tool.kcompat]\npaths = ["elsewhere"]\n'})
    (repo / "elsewhere").mkdir()
    run = diff(repo)
    # the working tree's paths leave the break out, in the open (config-weakened)
    assert run.code == 0
    assert [(f["rule"], f["weakened_by"]) for f in run.findings()] == [
        ("field-removed", "paths"),
        ("config-weakened", None),
    ]
    git(repo, "add", "pyproject.toml")
    git(repo, "commit", "-q", "-m", "compare elsewhere")
    run = diff(repo)  # BASE (the commit) has the same paths: nothing to say
    assert (run.code, run.findings()) == (0, [])
    write_files(repo, {"pyproject.toml": f'[tool.kcompat]\npaths = ["{SPEC_DIR}"]\n'})
    # "elsewhere" is left out now: a change of paths a reviewer should see, hiding nothing
    assert rules(diff(repo)) == [("config-weakened", "paths"), ("field-removed", "HolderEpoch")]


def test_config_severity_makes_dropping_old_versions_a_warning(repo: Path) -> None:
    write_files(repo, {SHELF: shelf_lowest("1")})
    assert diff(repo).code == 1
    write_files(
        repo,
        {"kcompat.toml": '[severity]\nlowest-version-raised = "warning"\n'},
    )
    run = diff(repo)
    assert run.code == 0
    assert [(f["rule"], f["severity"]) for f in run.findings()] == [
        ("config-weakened", "warning"),  # the working tree lowers it: said so
        ("lowest-version-raised", "warning"),
    ]
    assert diff(repo, "--fail-on", "warning").code == 1


def test_discovery_finds_specs_anywhere_and_skips_other_json(repo: Path) -> None:
    deep = "services/billing/api/v1/schemas/ShelfPlacementRecord.json"
    commit_tree(
        repo,
        {LEASE: LEASE_TEXT, SHELF: SHELF_TEXT, deep: SHELF_TEXT, "package.json": "{}\n"},
        "more",
    )
    write_files(
        repo,
        {
            deep: shelf_lowest("1"),
            "package.json": '{"name": "web", "version": "2.0.0", "fields": []}\n',
            "tsconfig.json": '{"compilerOptions": {}}\n',
        },
    )
    run = diff(repo)
    assert rules(run) == [("lowest-version-raised", "")]
    assert run.findings()[0]["file"] == deep


def test_two_copies_of_one_message_are_each_compared(repo: Path) -> None:
    """A vendored copy holds a message of the same name; neither hides the other."""
    copy = "vendor/shelf/ShelfPlacementRecord.json"
    commit_tree(repo, {LEASE: LEASE_TEXT, SHELF: SHELF_TEXT, copy: SHELF_TEXT}, "vendor")
    write_files(repo, {SHELF: shelf_lowest("1"), copy: shelf_renamed_field()})
    run = diff(repo)
    found = sorted((f["file"], f["rule"]) for f in run.findings())
    assert found == [(SHELF, "lowest-version-raised"), (copy, "field-renamed")]


def test_a_spec_that_no_longer_parses_is_an_error_not_a_removal(repo: Path) -> None:
    write_files(repo, {LEASE: LEASE_TEXT.replace('"apiKey": 92,', '"apiKey": 92,,')})
    run = diff(repo)
    assert run.code == 1
    assert rules(run) == [("spec-unreadable", "")]
    assert run.findings()[0]["file"] == LEASE and run.findings()[0]["line"] == 3
