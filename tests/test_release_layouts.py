"""An error needs a release whose layout of the version is BASE's and not HEAD's (issue 31).

Each repository is laid out as Kafka's (releases tagged on release branches main never
reaches, pull requests branched from main) but shaped otherwise than the bundled Kafka
history: records renamed and reshaped before their release, a record the release does
not have under that apiKey, a short-lived version whose response the release ships as
another layout, a field renamed between two releases, tags cut before any spec, ``v``
tags beside release candidates, a tag git cannot read, and ten thousand release tags.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from kcompat.pipeline.revisions import Comparison, not_ancestors, releases
from kcompat.sources.git import GitRepo
from tests.diff_runner import GIT_ENV, commit_tree, git, init_repo, run_cli

METADATA = "metadata/src/main/resources/common/metadata"
CLIENTS = "clients/src/main/resources/common/message"


def field(name: str, kind: str = "int32", versions: str = "0+", **extra: Any) -> dict[str, Any]:
    return {"name": name, "type": kind, "versions": versions, "about": "x", **extra}


def spec(name: str, kind: str, versions: str, fields: list[dict[str, Any]], **top: Any) -> str:
    document: dict[str, Any] = {"type": kind, "name": name, "validVersions": versions}
    document.update({"flexibleVersions": "none", **top, "fields": fields})
    return json.dumps(document, indent=2) + "\n"


def start(repo: Path) -> Path:
    """A repository whose history starts before any spec (so releases are first ones)."""
    init_repo(repo)
    git(repo, "commit", "-q", "--allow-empty", "-m", "start of history")
    return repo


def release_from(repo: Path, commit: str, tag: str, branch: str | None = None) -> None:
    """Cut a release branch at ``commit`` and tag ``tag`` on it (main never reaches it)."""
    git(repo, "checkout", "-q", "-b", branch or tag.rpartition(".")[0], commit)
    git(repo, "commit", "-q", "--allow-empty", "-m", f"Bump version to {tag}")
    git(repo, "tag", tag)
    git(repo, "checkout", "-q", "main")


def diff(repo: Path, *args: str) -> tuple[list[dict[str, Any]], str]:
    run = run_cli(["diff", *args, "--format", "json", "--no-proof"], repo)
    assert run.code in (0, 1), run.stderr
    return run.json()["findings"], run.stderr


def summary(repo: Path, *args: str) -> str:
    run = run_cli(["diff", *args, "--no-proof", "--color", "never"], repo)
    assert run.code in (0, 1), run.stderr
    return next(line for line in run.stdout.splitlines() if line.startswith("Released:"))


def seen(findings: list[dict[str, Any]]) -> list[tuple[str, str, str, str]]:
    return sorted(
        (f["severity"], f["rule"], f["message_name"], f["versions"] or "") for f in findings
    )


# -- a record renamed and reshaped before the release that shipped it ----------------------------

ISR, PARTITION = f"{METADATA}/IsrChangeRecord.json", f"{METADATA}/PartitionChangeRecord.json"


def record(name: str, fields: list[dict[str, Any]]) -> str:
    return spec(name, "metadata", "0", fields, apiKey=5, flexibleVersions="0+")


def test_a_record_renamed_and_reshaped_before_its_release_breaks_nothing(tmp_path: Path) -> None:
    """IsrChangeRecord became PartitionChangeRecord (apiKey 5), flexible with tagged fields,
    a month before 2.8.0 shipped the latter: the change reaches 2.8.0's layout."""
    repo = start(tmp_path / "r")
    isr = spec("IsrChangeRecord", "metadata", "0", [field("Topic"), field("Epoch")], apiKey=5)
    base = commit_tree(repo, {ISR: isr}, "KIP-631 records")
    leader = field("Leader", taggedVersions="0+", tag=0, default="-1")
    partition = record("PartitionChangeRecord", [field("Topic"), leader])
    merged = commit_tree(repo, {PARTITION: partition}, "quorum controller (merged)")
    release_from(repo, merged, "2.8.0")
    git(repo, "checkout", "-q", "-b", "controller", base)
    commit_tree(repo, {PARTITION: partition}, "quorum controller")
    findings, stderr = diff(repo, "controller~1", "controller")
    assert stderr == ""
    assert seen(findings) == [
        ("info", "release-restored", "PartitionChangeRecord", "0"),
        ("warning", "message-renamed", "PartitionChangeRecord", ""),
    ]
    (restored,) = [f for f in findings if f["rule"] == "release-restored"]
    assert restored["message"].startswith(
        "restores PartitionChangeRecord v0 as released in 2.8.0; no release shipped BASE's "
        "layout of it, so this breaks none"
    )
    # Reshaping what 2.8.0 shipped is a break, named by that release.
    git(repo, "checkout", "-q", "main")
    wider = record("PartitionChangeRecord", [field("Topic", "int64"), leader])
    commit_tree(repo, {PARTITION: wider}, "Topic as int64")
    findings, _ = diff(repo, "main~1", "main")
    assert [(f["rule"], f["released_by"]) for f in findings if f["severity"] == "error"] == [
        ("field-type-changed", "released in 2.8.0")
    ]


# -- another record of the same apiKey is no release of this one ---------------------------------

QUOTA, CLIENT_QUOTA = f"{METADATA}/QuotaRecord.json", f"{METADATA}/ClientQuotaRecord.json"
QUOTA_FIELDS = [field("Key", "string"), field("Value", "float64"), field("Remove", "bool")]


def test_a_record_of_another_name_under_the_same_api_key_is_no_release_of_it(
    tmp_path: Path,
) -> None:
    """2.8.0 shipped QuotaRecord (apiKey 14); KIP-746 made it ClientQuotaRecord, then
    flexible from v0: ClientQuotaRecord is in no release (a request would be: an API is its
    apiKey, tests/test_verdict_change.py)."""
    repo = start(tmp_path / "r")
    quota = spec("QuotaRecord", "metadata", "0", QUOTA_FIELDS, apiKey=14)
    release_from(repo, commit_tree(repo, {QUOTA: quota}, "2.8 branch point"), "2.8.0")
    renamed = spec("ClientQuotaRecord", "metadata", "0-1", QUOTA_FIELDS, apiKey=14)
    renamed = renamed.replace('"flexibleVersions": "none"', '"flexibleVersions": "1+"')
    commit_tree(repo, {CLIENT_QUOTA: renamed}, "KIP-746")
    flexible = renamed.replace('"0-1"', '"0"').replace('"1+"', '"0+"')
    commit_tree(repo, {CLIENT_QUOTA: flexible}, "bump the frame version instead")
    findings, _ = diff(repo, "HEAD~1", "HEAD")
    assert seen(findings) == [("info", "unreleased-change", "ClientQuotaRecord", "0-1")]
    assert "which are not in any release" in findings[0]["message"]


# -- a short-lived version: the release's version of that number is another API layout -----------

REQUEST, RESPONSE = f"{CLIENTS}/CreateShelfRequest.json", f"{CLIENTS}/CreateShelfResponse.json"


def create_shelf(versions: str, flexible: str, code: dict[str, Any]) -> dict[str, str]:
    request = spec("CreateShelfRequest", "request", versions, [field("Name", "string")])
    response = spec(
        "CreateShelfResponse", "response", versions, [field("ErrorCode", "int16"), code]
    )
    return {
        REQUEST: request.replace('"flexibleVersions": "none"', f'"flexibleVersions": "{flexible}"'),
        RESPONSE: response.replace(
            '"flexibleVersions": "none"', f'"flexibleVersions": "{flexible}"'
        ),
    }


def test_removing_a_version_whose_response_no_release_shipped_is_no_break(tmp_path: Path) -> None:
    """CreateTopics v6 lived three days on trunk (and on the 2.4 branch); 2.7.0's v6 has
    the same request but another response: a client of 2.7.0's v6 could never talk to the
    draft, so removing the draft breaks none of 2.7.0."""
    repo = start(tmp_path / "r")
    untagged = field("ConfigErrorCode", "int16", "1+")
    tagged = {**untagged, "taggedVersions": "1+", "tag": 0}
    release_from(repo, commit_tree(repo, create_shelf("0", "1+", untagged), "2.3"), "2.3.0")
    draft = commit_tree(repo, create_shelf("0-1", "1+", untagged), "draft v1")
    shipped = commit_tree(repo, create_shelf("0-1", "1+", tagged), "KIP-525: the code tagged")
    release_from(repo, shipped, "2.7.0")
    git(repo, "checkout", "-q", "-b", "2.4", draft)
    commit_tree(repo, create_shelf("0", "1+", untagged), "drop the draft")
    findings, _ = diff(repo, "2.4~1", "2.4")
    assert seen(findings) == [
        ("info", "unreleased-change", "CreateShelfRequest", "1"),
        ("info", "unreleased-change", "CreateShelfResponse", "1"),
    ]
    assert all("(already incompatible with 2.7.0 in BASE)" in f["message"] for f in findings)
    # The same removal once 2.7.0's own v1 is BASE breaks 2.7.0.
    git(repo, "checkout", "-q", "main")
    commit_tree(repo, create_shelf("0", "1+", tagged), "drop v1")
    findings, _ = diff(repo, "main~1", "main")
    assert [(f["rule"], f["released_by"]) for f in findings if f["severity"] == "error"] == [
        ("released-version-removed", "released in 2.7.0"),
        ("released-version-removed", "released in 2.7.0"),
    ]


# -- why names the first release that shipped the wire layout, whatever it called the fields -----

FETCH = f"{CLIENTS}/FetchShelfRequest.json"


def fetch_shelf(versions: str, wait: str, kind: str = "int32") -> dict[str, str]:
    return {FETCH: spec("FetchShelfRequest", "request", versions, [field(wait, kind)], apiKey=91)}


def test_why_names_the_first_release_of_the_layout_not_of_its_field_names(tmp_path: Path) -> None:
    """2.2.0 shipped MaxWait; 2.7.0 renamed it MaxWaitMs (the same bytes) and added v2."""
    repo = start(tmp_path / "r")
    release_from(repo, commit_tree(repo, fetch_shelf("0-1", "MaxWait"), "2.2"), "2.2.0")
    release_from(repo, commit_tree(repo, fetch_shelf("0-2", "MaxWaitMs"), "2.7"), "2.7.0")
    commit_tree(repo, fetch_shelf("0-2", "MaxWaitMs", "int64"), "a longer wait")
    findings, _ = diff(repo, "HEAD~1", "HEAD")
    errors = [f for f in findings if f["severity"] == "error"]
    assert [(f["rule"], f["versions"], f["released_by"]) for f in errors] == [
        ("field-type-changed", "0-2", "released in 2.2.0, 2.7.0")
    ]


# -- releases are tags that hold specs -----------------------------------------------------------

SHELF = f"{CLIENTS}/ShelfRequest.json"


def shelf(kind: str = "int32") -> dict[str, str]:
    return {SHELF: spec("ShelfRequest", "request", "0", [field("Id", kind)], apiKey=90)}


def test_tags_without_a_spec_file_are_no_releases(tmp_path: Path) -> None:
    """apache/kafka's tags 0.8.0 to 2.1.1 predate its JSON specs."""
    repo = start(tmp_path / "r")
    early = commit_tree(repo, {"README.md": "Kafka\n", "config/log4j.json": "{}\n"}, "0.x")
    for tag in ("0.8.0", "1.0.0", "2.1.1"):
        release_from(repo, early, tag)
    release_from(repo, commit_tree(repo, shelf(), "JSON specs"), "2.2.0")
    release_from(repo, commit_tree(repo, {**shelf(), "x.txt": "x"}, "2.3"), "2.3.0")
    commit_tree(repo, shelf("int64"), "retype Id")
    assert (
        summary(repo, "HEAD~1", "HEAD")
        == "Released: versions shipped by 2 releases (2.2.0 to 2.3.0)."
    )
    found = releases(GitRepo.open(repo), r"^v?\d+\.\d+(\.\d+)?$")
    assert [(c.base_label, c.head_label) for c in found] == [("2.2.0", "2.3.0")]


def test_v_tags_are_releases_and_release_candidates_are_not(tmp_path: Path) -> None:
    repo = start(tmp_path / "r")
    release_from(repo, commit_tree(repo, shelf(), "1.0"), "v1.0.0", branch="1.0")
    later = commit_tree(repo, shelf("int64"), "retype Id")
    for tag in ("v1.1.0-rc1", "v1.1.0-beta1", "1.1.0-RC2"):
        release_from(repo, later, tag, branch=f"b-{tag}")
    findings, _ = diff(repo, "HEAD~1", "HEAD")
    assert [(f["rule"], f["released_by"]) for f in findings if f["severity"] == "error"] == [
        ("field-type-changed", "released in v1.0.0")
    ]
    assert summary(repo, "HEAD~1", "HEAD") == "Released: versions shipped by 1 release (v1.0.0)."


def test_a_release_git_cannot_read_is_left_out_in_one_line_and_the_rest_goes_on(
    tmp_path: Path,
) -> None:
    repo = start(tmp_path / "r")
    release_from(repo, commit_tree(repo, shelf(), "1.0"), "1.0.0")
    commit_tree(repo, shelf("int64"), "retype Id")
    missing_tree = "1" * 40
    body = f"tree {missing_tree}\nauthor a <a@a> 1 +0000\ncommitter a <a@a> 1 +0000\n\nx\n"
    broken = subprocess.run(
        ["git", "hash-object", "-t", "commit", "--literally", "-w", "--stdin"],
        cwd=repo, input=body, capture_output=True, text=True, check=True, env=GIT_ENV,
    ).stdout.strip()  # fmt: skip
    git(repo, "tag", "0.9.0", broken)  # a commit whose tree the repository lacks
    git(repo, "tag", "1.1.0", "HEAD^{tree}")  # a tree, not a commit
    (repo / ".git" / "refs" / "tags" / "1.2.0").write_text("2" * 40 + "\n")  # no object
    findings, stderr = diff(repo, "HEAD~1", "HEAD")
    assert [(f["rule"], f["released_by"]) for f in findings if f["severity"] == "error"] == [
        ("field-type-changed", "released in 1.0.0")
    ]
    assert stderr == (
        "kcompat: note: release 1.1.0 left out: it points at no commit the repository has; "
        "release 1.2.0 left out: it points at no commit the repository has; "
        "release 0.9.0 left out: its tree is not in the repository\n"
    )


def test_ten_thousand_release_tags_are_read_in_one_pass(tmp_path: Path) -> None:
    """100 release branches of 100 tags each (a product that tags every build): every
    release counts, none is lost, and git is asked a fixed number of questions."""
    repo = init_repo(tmp_path / "r")
    stream = []
    for index in range(100):
        text = shelf()[SHELF] if index < 99 else shelf("int64")[SHELF]
        data = text.encode()
        parent = f"from :{index}\n" if index else ""
        stream.append(
            f"commit refs/heads/{1 + index // 10}.{index % 10}\nmark :{index + 1}\n"
            f"committer a <a@a> {1_600_000_000 + index} +0000\ndata 2\nx\n{parent}"
            f"M 100644 inline {SHELF}\ndata {len(data)}\n{data.decode()}\n"
        )
        for patch in range(100 if index < 99 else 0):
            stream.append(
                f"reset refs/tags/v{1 + index // 10}.{index % 10}.{patch}\nfrom :{index + 1}\n\n"
            )
    stream.append("reset refs/heads/main\nfrom :100\n\ndone\n")
    done = subprocess.run(
        ["git", "fast-import", "--quiet", "--done"],
        cwd=repo, input="".join(stream).encode(), capture_output=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    git(repo, "checkout", "-q", "main")
    findings, stderr = diff(repo, "HEAD~1", "HEAD")
    assert stderr == ""
    assert [(f["rule"], f["released_by"]) for f in findings if f["severity"] == "error"] == [
        ("field-type-changed", "released in ≤ v1.0.0")  # history starts with it there
    ]
    assert summary(repo, "HEAD~1", "HEAD") == (
        "Released: versions shipped by 9900 releases (v1.0.0 to v10.8.99)."
    )


def test_release_pairs_on_other_branches_are_noted_once(tmp_path: Path) -> None:
    repo = start(tmp_path / "r")
    point = commit_tree(repo, shelf(), "branch point")
    for tag in ("1.0.0", "1.1.0", "1.2.0", "1.3.0", "1.4.0"):
        release_from(repo, point, tag)
    opened = GitRepo.open(repo)
    shas = {
        t: git(repo, "rev-parse", t).strip() for t in ("1.0.0", "1.1.0", "1.2.0", "1.3.0", "1.4.0")
    }
    pairs = [
        Comparison(i, shas[a], shas[b], a, b)
        for i, (a, b) in enumerate(
            [("1.0.0", "1.1.0"), ("1.1.0", "1.2.0"), ("1.2.0", "1.3.0"), ("1.3.0", "1.4.0")]
        )
    ]
    assert not_ancestors(opened, pairs) == [
        "in 4 release pairs the older release is not an ancestor of the newer (releases of "
        "other branches: 1.0.0 -> 1.1.0, 1.1.0 -> 1.2.0, 1.2.0 -> 1.3.0 and 1 more): each "
        "compared the two releases' specs as they are, so what the older one's branch "
        "changed after the newer one's branched off shows as undone"
    ]
