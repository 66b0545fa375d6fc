"""Which releases ``kcompat matrix`` finds, end to end on repositories of shapes other
than Kafka's bundle: the releases are those every command finds
(:func:`kcompat.sources.release_source.repository_releases`), so tags from before the
specs existed are none, ``v`` tags are, pre-releases are not, and ``.json`` files that
are no specs (API-doc templates) are passed over without a word."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.changelog_specs import spec
from tests.diff_runner import GIT_ENV, commit_tree, git, init_repo, run_cli, run_process
from tests.matrix_repos import request

#: A file every revision of the repositories below holds: the build, not a spec.
BUILD = {"build.gradle": "// the build\n", "docs/js/package.json": '{"version": "1"}\n'}


def released(repo: Path, tag: str, files: dict[str, str], branch: str, annotated: bool) -> None:
    """Commit ``files`` on main, then tag them on ``branch`` (cut from there, Kafka's way:
    the tag is reachable from no later commit of main)."""
    commit_tree(repo, files, f"towards {tag}")
    git(repo, "checkout", "-q", "-B", branch)
    git(repo, "commit", "-q", "--allow-empty", "-m", f"bump version to {tag}")
    git(repo, "tag", *(["-a", "-m", f"release {tag}"] if annotated else []), tag)
    git(repo, "checkout", "-q", "main")


@pytest.fixture(scope="module")
def specless_tags(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """0.7.0 to 0.8.2 tag a history from before the specs (one of them holds a ``.json``
    file that is no spec); 1.0.0 ships only a record (a spec, but no request: a release
    without APIs); 2.2.0 and 2.3.0 ship requests."""
    repo = init_repo(tmp_path_factory.mktemp("specless") / "repo")
    for number, tag in enumerate(("0.7.0", "0.8.0", "0.8.2")):
        released(repo, tag, {**BUILD, "v.txt": tag}, f"rel-{tag}", annotated=number % 2 == 0)
    record = {"proto/meta_record.json": spec("MetaRecord", kind="metadata", key=1, valid="0")}
    released(repo, "1.0.0", {**BUILD, **record}, "1.0", annotated=True)
    old = {"proto/Produce.json": request("ProduceRequest", 0, "0-3")}
    released(repo, "2.2.0", {**BUILD, **record, **old}, "2.2", annotated=False)
    new = {"proto/Produce.json": request("ProduceRequest", 0, "0-4")}
    released(repo, "2.3.0", {**BUILD, **record, **new}, "2.3", annotated=True)
    commit_tree(repo, {**BUILD, **record, **new}, "trunk goes on")
    return repo


def test_tags_that_hold_no_specs_are_no_releases(specless_tags: Path) -> None:
    done = run_cli(["matrix"], specless_tags)
    assert done.code == 0, done.stderr
    assert done.stdout.splitlines()[0] == (
        "kcompat matrix: 3 releases (2.2.0 to 2.3.0, and HEAD) × 1 API (client)"
    )
    assert done.stderr == (
        "kcompat: note: 4 release tags hold no request spec, so no release of the "
        "protocol: 0.7.0, 0.8.0, 0.8.2, 1.0.0\n"
    )
    cells = run_cli(["matrix", "--format", "json"], specless_tags).json()
    assert [r["name"] for r in cells["releases"]] == ["2.2.0", "2.3.0", "HEAD"]


def test_a_range_chooses_among_the_releases_that_hold_specs(specless_tags: Path) -> None:
    done = run_process(["matrix", "--range", "0.7..0.9"], specless_tags)
    assert done.code == 2 and len(done.stderr.splitlines()) == 1, done.stderr
    assert "--range 0.7..0.9: no release in it (the releases are 1.0.0 to 2.3.0)" in done.stderr
    within = run_cli(["matrix", "--range", "0.8..2.2"], specless_tags)
    assert within.code == 0, within.stderr
    assert within.stdout.splitlines()[0] == ("kcompat matrix: 1 release (2.2.0) × 1 API (client)")


def template(title: str) -> str:
    """An API-doc template beside the specs: it names ``request`` and ``apiKey`` as a
    request spec does, but holds ``{{placeholders}}`` (not JSON) and no validVersions."""
    return (
        "{\n"
        f'  "title": "{title}",\n'
        '  "kind": "request",\n'
        '  "apiKey": {{ api_key }},\n'
        '  "fields": [{{#each fields}}{"name": "{{name}}"}{{/each}}]\n'
        "}\n"
    )


SCHEMATA = "src/v/kafka/protocol/schemata"


def vendored_tree(fetch: str, produce: str) -> dict[str, str]:
    return {
        f"{SCHEMATA}/fetch_request.json": request("FetchRequest", 1, fetch, listeners=["broker"]),
        f"{SCHEMATA}/produce_request.json": request(
            "ProduceRequest", 0, produce, listeners=["broker"]
        ),
        f"{SCHEMATA}/request_template.json": template("request"),
        "docs/api/fetch.json": template("fetch"),
        "README.md": "A Kafka-compatible broker.\n",
    }


@pytest.fixture(scope="module")
def vendored(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A product that vendors Kafka's specs: snake_case files, ``vX.Y.Z`` tags on release
    branches (``v1.0.x``) with patch releases, pre-release tags on commits whose specs
    differ from the release's (so a pre-release taken for a release would show), and
    templates."""
    repo = init_repo(tmp_path_factory.mktemp("vendored") / "repo")
    commit_tree(repo, vendored_tree("4-7", "3-5"), "towards v1.0.0")
    git(repo, "checkout", "-q", "-b", "v1.0.x")
    git(repo, "tag", "v1.0.0")
    commit_tree(repo, vendored_tree("4-7", "3-6"), "backport produce v6")
    git(repo, "tag", "-a", "-m", "v1.0.1", "v1.0.1")
    git(repo, "checkout", "-q", "main")
    commit_tree(repo, vendored_tree("4-9", "3-6"), "fetch v9 (a release candidate)")
    git(repo, "checkout", "-q", "-b", "v1.1.x")
    git(repo, "tag", "v1.1.0-rc1")
    commit_tree(repo, vendored_tree("4-8", "3-6"), "fetch v9 was not ready")
    git(repo, "tag", "v1.1.0")
    git(repo, "checkout", "-q", "main")
    commit_tree(repo, vendored_tree("5-10", "3-7"), "main goes on")
    git(repo, "tag", "v1.2.0-beta1")
    return repo


def test_a_vendored_copy_has_its_v_releases_and_no_pre_release(vendored: Path) -> None:
    done = run_cli(["matrix"], vendored)
    assert done.code == 0, done.stderr
    assert done.stderr == ""  # no template is called unreadable, no tag left out
    assert done.stdout.splitlines() == [
        "kcompat matrix: 4 releases (v1.0.0 to v1.1.0, and HEAD) × 2 APIs (client)",
        "",
        "Per broker release, the oldest client release that talks every API",
        "  brokers      oldest client  stranded clients (and on which APIs)",
        "  v1.0.0–HEAD  v1.0.0         none",
        "",
        "Per API, the releases where each side's range moved (clients: the highest version "
        "they send; brokers: the versions they accept)",
        "  Produce (API key 0)",
        "    clients  v5 from v1.0.0 · v6 from v1.0.1 · v7 from HEAD",
        "    brokers  3-5 from v1.0.0 · 3-6 from v1.0.1 · 3-7 from HEAD",
        "  Fetch (API key 1)",
        "    clients  v7 from v1.0.0 · v8 from v1.1.0 · v10 from HEAD",
        "    brokers  4-7 from v1.0.0 · 4-8 from v1.1.0 · 5-10 from HEAD",
    ]
    cells = run_cli(["matrix", "--format", "json", "--no-head"], vendored).json()
    assert [r["name"] for r in cells["releases"]] == ["v1.0.0", "v1.0.1", "v1.1.0"]


def test_release_branches_count_as_releases_as_in_diff(vendored: Path, tmp_path: Path) -> None:
    """``release-branches`` makes the tips of release branches releases about to ship,
    in the matrix as in ``diff``."""
    config = tmp_path / "kcompat.toml"
    config.write_text("release-branches = '^v\\d+\\.\\d+\\.x$'\n", "utf-8")
    done = run_cli(["matrix", "--no-head", "--format", "json", "--config", str(config)], vendored)
    assert done.code == 0, done.stderr
    assert [r["name"] for r in done.json()["releases"]] == [
        "v1.0.0",
        "v1.0.1",
        "v1.0.x (branch)",
        "v1.1.0",
        "v1.1.x (branch)",
    ]


def test_files_that_are_no_specs_leave_head_the_head_commit(tmp_path: Path) -> None:
    """The working tree is compared instead of HEAD only when its specs differ: an
    untracked build output or note is no change of the protocol."""
    repo = init_repo(tmp_path / "repo")
    released(repo, "1.0.0", {**BUILD, **vendored_tree("4-7", "3-5")}, "1.0", annotated=False)
    commit_tree(repo, {**BUILD, **vendored_tree("4-8", "3-5")}, "fetch v8")
    (repo / "build").mkdir()
    (repo / "build" / "out.log").write_text("compiled\n", "utf-8")
    (repo / "notes.txt").write_text("to do\n", "utf-8")
    header = "kcompat matrix: 2 releases (1.0.0, and HEAD) × 2 APIs (client)"
    done = run_cli(["matrix"], repo)
    assert done.code == 0, done.stderr
    assert done.stdout.splitlines()[0] == header
    (repo / SCHEMATA / "fetch_request.json").write_text(
        request("FetchRequest", 1, "4-9", listeners=["broker"]), "utf-8"
    )
    changed = run_cli(["matrix"], repo).stdout.splitlines()[0]
    assert changed == header.replace("HEAD)", "working tree)")


def test_a_release_git_cannot_read_is_left_out_in_one_line_each(
    vendored: Path, tmp_path: Path
) -> None:
    """A tag on a commit whose tree the repository lacks (a damaged or partial clone), a
    tag on a tree and a tag on no object: each is said once, and the matrix goes on with
    the others (it stopped at the first with git's own error)."""
    repo = tmp_path / "repo"
    git(tmp_path, "clone", "-q", str(vendored), str(repo))
    body = "tree " + "1" * 40 + "\nauthor a <a@a> 1 +0000\ncommitter a <a@a> 1 +0000\n\nx\n"
    broken = subprocess.run(
        ["git", "hash-object", "-t", "commit", "--literally", "-w", "--stdin"],
        cwd=repo, input=body, capture_output=True, text=True, check=True, env=GIT_ENV,
    ).stdout.strip()  # fmt: skip
    git(repo, "tag", "v0.9.0", broken)
    git(repo, "tag", "v1.0.5", "HEAD^{tree}")
    (repo / ".git" / "refs" / "tags" / "v1.0.7").write_text("2" * 40 + "\n")
    done = run_process(["matrix", "--no-head", "--format", "json"], repo)
    assert done.code == 0, done.stderr
    assert [r["name"] for r in json.loads(done.stdout)["releases"]] == [
        "v1.0.0",
        "v1.0.1",
        "v1.1.0",
    ]
    assert done.stderr == (
        "kcompat: note: release v1.0.5 left out: it points at no commit the repository has\n"
        "kcompat: note: release v1.0.7 left out: it points at no commit the repository has\n"
        "kcompat: note: release v0.9.0 left out: its tree is not in the repository\n"
    )
