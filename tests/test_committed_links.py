"""A spec git holds as a symbolic link (mode 120000) is named as one (issue 32.4).

git stores a link as the path it names. Reading that blob as a spec failed closed but
said the wrong thing: an added link was "left out ... .json file that does not parse
(not specs: templates?)", a link replacing a spec was ``spec-unreadable`` with a parse
error, and a link whose text happened to be a spec was compared as that text while the
checkout, which follows it, held something else. Each test commits links in a real
repository and runs the CLI: the link is named, with the path it names (escaped), as a
link that is not followed; it stays an error where a spec was; nothing reads through it.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.action_runner import tally
from tests.diff_runner import commit_tree, git, init_repo, run_cli

SPEC = "protocol/TallyRequest.json"
OTHER = "protocol/OtherRequest.json"
#: A spec on one line, with no "/": a text a link can hold.
ONE_LINE = (
    '{"apiKey": 181, "type": "request", "name": "OtherRequest", "validVersions": "0-1", '
    '"flexibleVersions": "1+", "fields": [{"name": "Count", "type": "int32", '
    '"versions": "0+", "about": "a count"}]}'
)
NOT_FOLLOWED = "links are not followed; commit the spec itself"


def _link(repo: Path, name: str, target: str) -> None:
    (repo / name).unlink(missing_ok=True)
    os.symlink(target, repo / name)


def _commit(repo: Path, message: str) -> None:
    git(repo, "add", "-A", ".")
    git(repo, "commit", "-q", "-m", message)


def _changed(repo: Path, staged: bool) -> list[str]:
    """How the change is compared: the two commits, or (staged) HEAD~1 against the index."""
    if not staged:
        return ["diff", "HEAD~1", "HEAD", "--no-proof"]
    git(repo, "reset", "-q", "--soft", "HEAD~1")
    return ["diff", "--staged", "--no-proof"]


@pytest.mark.parametrize("staged", [False, True], ids=["revisions", "staged"])
def test_an_added_link_is_named_as_a_link(tmp_path: Path, staged: bool) -> None:
    repo = init_repo(tmp_path / "repo")
    commit_tree(repo, {SPEC: tally(2)}, "base")
    _link(repo, "protocol/FooRequest.json", "../../etc/x.json")
    _link(repo, "protocol/EscRequest.json", "../\x1b[31mred\u202e.json")
    _commit(repo, "links added")
    run = run_cli(_changed(repo, staged), repo)
    assert run.code == 0, run.stdout + run.stderr
    assert run.stderr.splitlines() == [
        "kcompat: note: protocol/EscRequest.json is a symbolic link (to "
        "../\\x1b[31mred\\u202e.json); protocol/FooRequest.json is a symbolic link (to "
        f"../../etc/x.json), left out: {NOT_FOLLOWED}"
    ]


@pytest.mark.parametrize("staged", [False, True], ids=["revisions", "staged"])
def test_a_link_replacing_a_spec_is_an_error_naming_it(tmp_path: Path, staged: bool) -> None:
    """The link points at a good spec of the same repository: followed, it would pass."""
    repo = init_repo(tmp_path / "repo")
    commit_tree(repo, {SPEC: tally(2), OTHER: ONE_LINE}, "base")
    _link(repo, OTHER, "TallyRequest.json")
    _commit(repo, "a spec replaced by a link")
    run = run_cli(_changed(repo, staged), repo)
    assert run.code == 1, run.stdout + run.stderr
    assert (
        f"{OTHER}:1:1: error [spec-unreadable] the file is a symbolic link (to "
        f"TallyRequest.json): {NOT_FOLLOWED}"
    ) in run.stdout.splitlines()
    assert "does not parse" not in run.stdout + run.stderr


def test_a_link_whose_text_is_the_spec_never_passes(tmp_path: Path) -> None:
    """A link whose text is BASE's spec itself: read as text, the change looked like no
    change at all (before: exit 0); the checkout follows it to another file."""
    repo = init_repo(tmp_path / "repo")
    commit_tree(repo, {SPEC: tally(2), OTHER: ONE_LINE}, "base")
    _link(repo, OTHER, ONE_LINE)
    _commit(repo, "a spec replaced by a link named like it")
    run = run_cli(["diff", "HEAD~1", "HEAD", "--no-proof"], repo)
    assert run.code == 1, run.stdout + run.stderr
    assert f"{OTHER}:1:1: error [spec-unreadable] the file is a symbolic link" in run.stdout


def test_a_link_under_the_spec_paths_is_an_error(tmp_path: Path) -> None:
    """Under the configured spec paths an added link is a spec that cannot be read: an
    error of the diff, naming the link."""
    repo = init_repo(tmp_path / "repo")
    commit_tree(repo, {SPEC: tally(2), "kcompat.toml": 'paths = ["protocol"]\n'}, "base")
    _link(repo, "protocol/FooRequest.json", "../../etc/x.json")
    _commit(repo, "a link under the spec paths")
    run = run_cli(["diff", "HEAD~1", "HEAD", "--no-proof"], repo)
    assert run.code == 1, run.stdout + run.stderr
    assert (
        "protocol/FooRequest.json:1:1: error [spec-unreadable] the file is a symbolic link "
        f"(to ../../etc/x.json): {NOT_FOLLOWED}"
    ) in run.stdout.splitlines()
