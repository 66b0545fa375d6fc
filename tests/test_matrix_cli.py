"""``kcompat matrix`` end to end on repositories laid out as Kafka lays out releases
(tests/matrix_repos.py): the releases it finds, the APIs it judges, every format, the
what-if, and bad input as one line with exit status 2."""

from __future__ import annotations

import json
import os
from pathlib import Path

import jsonschema
import pytest

from tests.changelog_specs import spec
from tests.conftest import ROOT
from tests.diff_runner import commit_tree, git, init_repo, run_cli, run_process, write_files
from tests.matrix_repos import SPECS, kafka_like, request

SCHEMA = json.loads((ROOT / "kcompat" / "data" / "matrix.schema.json").read_text("utf-8"))


@pytest.fixture(scope="module")
def releases(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return kafka_like(tmp_path_factory.mktemp("matrix") / "repo")


def test_the_text_summary(releases: Path) -> None:
    done = run_cli(["matrix"], releases)
    assert done.code == 0, done.stderr
    assert done.stderr == (
        "kcompat: note: 1 release tag holds no request spec, so no release of the protocol: 0.9.0\n"
    )
    assert done.stdout.splitlines() == [
        "kcompat matrix: 4 releases (v1.0.0 to v2.0.0, and HEAD) × 3 APIs (client)",
        "",
        "Per broker release, the oldest client release that talks every API",
        "  brokers        oldest client  stranded clients (and on which APIs)",
        "  v1.0.0         v1.0.0         HEAD: Produce",
        "  v1.1.0–v2.0.0  v1.0.0         none",
        "  HEAD           v1.1.0         v1.0.0: Produce",
        "",
        "Per API, the releases where each side's range moved (clients: the highest version "
        "they send; brokers: the versions they accept)",
        "  Produce (API key 0)",
        "    clients  v3 from v1.0.0 · v4 from v1.1.0 · v5 from v2.0.0",
        "    brokers  0-3 from v1.0.0 · 0-4 from v1.1.0 · 0-5 (0-3 deprecated) from v2.0.0 · "
        "4-5 from HEAD",
        "  ListOffsets (API key 2; was ListOffsetRequest)",
        "    clients  v2 from v1.0.0 · v3 from v1.1.0 · v5 from v2.0.0 · v6 from HEAD",
        "    brokers  0-2 from v1.0.0 · 0-3 from v1.1.0 · 0-5 (0-2 deprecated) from v2.0.0 · "
        "0-6 (0-2 deprecated) from HEAD",
        "  Beat (API key 91)",  # its first version was unstable: offered from v2.0.0 on
        "    clients  v0 from v2.0.0",
        "    brokers  0 from v2.0.0",
    ]


def test_what_if_drop_deprecated(releases: Path) -> None:
    done = run_cli(["matrix", "--what-if", "drop-deprecated"], releases)
    assert done.code == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[2:6] == [
        "What if HEAD dropped every deprecated version (--what-if drop-deprecated)",
        "  ListOffsets: drops 0-2, keeps 3-6: clients of v1.0.0 can no longer send "
        "ListOffsets to HEAD brokers (their highest version is 2); HEAD clients could no "
        "longer send it to brokers of v1.0.0",
        "  1 of 1 API with deprecated versions would strand some client release",
        "",
    ]
    assert "  HEAD           v1.1.0         v1.0.0: Produce, ListOffsets" in lines


@pytest.mark.parametrize(
    ("args", "keys"),
    [
        ([], [0, 2, 91]),
        (["--controller-apis"], [0, 2, 91, 92]),
        (["--inter-broker-apis"], [0, 2, 4, 52, 91]),
        (["--apis", "ListOffsetRequest,leaderandisr"], [2, 4]),  # old names, any case
        (["--apis", "92", "--apis", "listoffsets"], [2, 92]),
        (["--unstable"], [0, 2, 91]),
    ],
)
def test_which_apis_are_judged(releases: Path, args: list[str], keys: list[int]) -> None:
    done = run_cli(["matrix", "--format", "json", *args], releases)
    assert done.code == 0, done.stderr
    document = done.json()
    assert [api["key"] for api in document["apis"]] == keys
    roles = {api["key"]: api["role"] for api in document["apis"]}
    assert roles.get(4, "inter-broker") == "inter-broker"
    assert roles.get(52, "inter-broker") == "inter-broker"  # the KRaft quorum's
    assert roles.get(92, "controller-only") == "controller-only"


def test_an_unstable_latest_version_counts_only_when_asked(releases: Path) -> None:
    def beat(*args: str) -> list[str | None]:
        document = run_cli(["matrix", "--format", "json", *args], releases).json()
        found = next(api for api in document["apis"] if api["key"] == 91)
        return [entry["offered"] for entry in found["ranges"]]

    assert beat() == [None, None, "0", "0"]
    assert beat("--unstable") == [None, "0", "0-1", "0-1"]


def test_json_has_every_cell_and_follows_its_schema(releases: Path) -> None:
    done = run_cli(["matrix", "--format", "json"], releases)
    document = done.json()
    jsonschema.validate(document, SCHEMA)
    names = [r["name"] for r in document["releases"]]
    assert names == ["v1.0.0", "v1.1.0", "v2.0.0", "HEAD"]  # no 0.9.0, no v1.1.0-rc1
    assert [r["head"] for r in document["releases"]] == [False, False, False, True]
    assert len(document["cells"]) == 16
    cells = {(c["client"], c["broker"]): c for c in document["cells"]}
    old_to_head = cells[("v1.0.0", "HEAD")]
    assert old_to_head == {
        "client": "v1.0.0",
        "broker": "HEAD",
        "negotiated": {"2": 2},
        "stranded": [0],
        "unserved": [],
    }
    assert cells[("HEAD", "v1.0.0")]["unserved"] == [91]  # newer than the broker
    assert cells[("HEAD", "v1.0.0")]["stranded"] == [0]  # HEAD's clients send only 4-5
    assert cells[("v2.0.0", "v1.1.0")]["negotiated"] == {"0": 4, "2": 3}
    assert document["brokers"][-1] == {
        "broker": "HEAD",
        "oldest_client": "v1.1.0",
        "stranded": [{"client": "v1.0.0", "apis": [0]}],
    }
    what_if = run_cli(["matrix", "-f", "json", "--what-if", "drop-deprecated"], releases).json()
    jsonschema.validate(what_if, SCHEMA)
    assert what_if["what_if"] == "drop-deprecated"
    assert what_if["removals"] == [
        {
            "key": 2,
            "name": "ListOffsetsRequest",
            "removed": "0-2",
            "remaining": "3-6",
            "clients": [{"first": "v1.0.0", "last": "v1.0.0", "highest": 2, "count": 1}],
            "brokers": [{"first": "v1.0.0", "last": "v1.0.0", "highest": 2, "count": 1}],
        }
    ]


def test_markdown_and_html(releases: Path) -> None:
    markdown = run_cli(["matrix", "--format", "markdown"], releases)
    assert markdown.code == 0, markdown.stderr
    assert "| `v1.0.0` | `v1.0.0` | `HEAD: Produce` |" in markdown.stdout
    assert "| `ListOffsets (API key 2; was ListOffsetRequest)` |" in markdown.stdout
    page = run_cli(["matrix", "--format", "html", "--what-if", "drop-deprecated"], releases)
    assert page.code == 0, page.stderr
    html = page.stdout
    assert "Content-Security-Policy" in html and "default-src 'none'" in html
    assert "<script" not in html and "http://" not in html and "https://" not in html
    assert html.count('<td style="background:') == 16  # the heat map: 4 x 4
    assert html.count('<details class="cell">') == 16
    assert 'href="#c0-b3"' in html and '<span id="c0-b3"></span>' in html
    # client v1.0.0 against a HEAD without its deprecated versions: two APIs stranded
    assert '<p class="stranded">stranded: Produce, ListOffsets</p>' in html
    assert "What if HEAD dropped every deprecated version" in html


def test_range_selects_releases(releases: Path) -> None:
    def names(*args: str) -> list[str]:
        done = run_cli(["matrix", "--format", "json", *args], releases)
        assert done.code == 0, done.stderr
        return [r["name"] for r in done.json()["releases"]]

    assert names("--range", "v1.1.0..") == ["v1.1.0", "v2.0.0", "HEAD"]
    assert names("--range", "1.0..1.1") == ["v1.0.0", "v1.1.0"]  # B a release: no HEAD
    assert names("--range", "..1") == ["v1.0.0", "v1.1.0"]
    assert names("--range", "2.0.0..HEAD") == ["v2.0.0", "HEAD"]
    assert names("--no-head") == ["v1.0.0", "v1.1.0", "v2.0.0"]
    assert names("--head", "v1.1.0") == ["v1.0.0", "v1.1.0", "v2.0.0", "v1.1.0"]


def test_the_working_tree_is_head_when_it_changes_a_spec(tmp_path: Path) -> None:
    repo = kafka_like(tmp_path / "repo")
    names = [r["name"] for r in run_cli(["matrix", "-f", "json"], repo).json()["releases"]]
    assert names[-1] == "HEAD"
    write_files(
        repo,
        {f"{SPECS}/produce_request.json": request("ProduceRequest", 0, "5", listeners=["broker"])},
    )
    document = run_cli(["matrix", "-f", "json"], repo).json()
    assert document["releases"][-1] == {"name": "working tree", "head": True}
    produce = next(api for api in document["apis"] if api["key"] == 0)
    assert produce["ranges"][-1]["served"] == "5"


def test_a_file_written_back_unchanged_leaves_head_the_commit(tmp_path: Path) -> None:
    """Rewriting a spec with its own bytes makes it stat-dirty to git (its index entry is
    stale, and kcompat never refreshes .git/index): it is no change of the working tree."""
    repo = kafka_like(tmp_path / "repo")
    spec = repo / SPECS / "produce_request.json"
    text = spec.read_bytes()
    spec.write_bytes(text)
    os.utime(spec, (1_000_000_000, 1_000_000_000))
    index = (repo / ".git" / "index").read_bytes()
    names = [r["name"] for r in run_cli(["matrix", "-f", "json"], repo).json()["releases"]]
    assert names[-1] == "HEAD"
    assert (repo / ".git" / "index").read_bytes() == index
    spec.write_bytes(text + b"\n")
    names = [r["name"] for r in run_cli(["matrix", "-f", "json"], repo).json()["releases"]]
    assert names[-1] == "working tree"


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--range", "3.0..4.0"], "--range 3.0..4.0: no release in it (the releases are"),
        (["--range", "x..y"], "--range bound 'x' is not a release name"),
        (["--range", "1.0"], "--range '1.0': write A..B"),
        (["--apis", "ListOfsets"], "no API named 'ListOfsets' in these releases; did you mean ListOffsets?"),  # noqa: E501
        (["--what-if", "drop-everything"], "--what-if 'drop-everything': the one change"),
        (["--what-if", "drop-deprecated", "--no-head"], "--what-if judges HEAD"),
        (["--what-if", "drop-deprecated", "--range", "..2.0"], "--what-if judges HEAD"),
        (["--head", "HEAD", "--no-head"], "--head names the HEAD to add"),
        (["--head", "no-such-rev"], "no-such-rev"),
        (["--format", "yaml"], "--format"),
    ],
)  # fmt: skip
def test_bad_input_is_one_line_and_exit_2(releases: Path, args: list[str], says: str) -> None:
    done = run_process(["matrix", *args], releases)
    assert done.code == 2, done.stdout + done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert says in done.stderr and "Traceback" not in done.stderr
    assert done.stdout == ""


def test_a_repository_without_release_tags_or_without_specs_in_them(tmp_path: Path) -> None:
    repo = init_repo(tmp_path / "untagged")
    commit_tree(repo, {f"{SPECS}/a.json": request("ARequest", 1, "0-1")}, "specs")
    done = run_process(["matrix"], repo)
    assert done.code == 2 and len(done.stderr.splitlines()) == 1
    assert "no release tags (none matches release-tags" in done.stderr
    git(repo, "tag", "1.0.0-rc1")  # a pre-release is no release
    assert "no release tags" in run_process(["matrix"], repo).stderr
    other = init_repo(tmp_path / "specless")
    commit_tree(other, {"notes.json": '{"a": 1}\n'}, "no specs")
    git(other, "tag", "1.0.0")
    git(other, "tag", "1.1.0")
    done = run_process(["matrix"], other)
    assert done.code == 2 and len(done.stderr.splitlines()) == 1
    assert "none of the 2 release tags holds a request spec with an apiKey" in done.stderr


def test_names_from_specs_are_escaped_in_every_format(tmp_path: Path) -> None:
    hostile = "Evil\x1b[31mRed\u202eRequest"
    files = {f"{SPECS}/evil.json": request(hostile, 7_000, "0-1", listeners=["broker"])}
    repo = init_repo(tmp_path / "repo")
    commit_tree(repo, files, "release")
    git(repo, "tag", "1.0.0")
    commit_tree(
        repo, {f"{SPECS}/evil.json": request(hostile, 7_000, "1", listeners=["broker"])}, "head"
    )
    for fmt in ("text", "markdown", "html"):
        done = run_cli(["matrix", "--format", fmt], repo)
        assert done.code == 0, done.stderr
        assert "\x1b" not in done.stdout and "\u202e" not in done.stdout, fmt
        assert "\\x1b[31mRed\\u202e" in done.stdout, fmt
    document = run_cli(["matrix", "--format", "json"], repo)
    assert "\x1b" not in document.stdout and "\u202e" not in document.stdout
    assert document.json()["apis"][0]["name"] == hostile  # the real value, \u-escaped


def test_nothing_under_the_repository_is_written(tmp_path: Path) -> None:
    repo = kafka_like(tmp_path / "repo")
    write_files(repo, {f"{SPECS}/extra.json": spec("XRequest", key=93, valid="0")})
    before = sorted((p.relative_to(repo), p.stat().st_mtime_ns) for p in repo.rglob("*"))
    for fmt in ("text", "markdown", "json", "html"):
        assert run_process(["matrix", "--format", fmt], repo).code == 0
    after = sorted((p.relative_to(repo), p.stat().st_mtime_ns) for p in repo.rglob("*"))
    assert after == before
