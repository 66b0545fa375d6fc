"""A spec that is a link out of its repository is never read (issue 32.4).

git stores a symbolic link as the path it names, so ``diff REV REV`` read the link's
text and failed closed; ``lint`` (and every other read from disk) followed it, so the
names and values of whatever it pointed at reached the output: in the Action with
``lint: true``, annotations, the job summary and the comment. Each test commits
``protocol/Evil.json`` linking to a spec outside the repository (its field named after a
secret) and checks that the secret never shows, on every path that reads from disk.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from tests.action_runner import SPEC, Runner, event_of, pull_request, tally
from tests.diff_runner import commit_tree, git, init_repo, run_cli, run_process

SECRET = "TokenAbc123"
#: What the link points at: a spec whose only field is named after a secret.
OUTSIDE = (
    '{"apiKey": 5, "type": "request", "name": "SecretRequest", "validVersions": "0", '
    '"flexibleVersions": "none", "fields": [{"name": "SECRET", "type": "int32"}]}'
).replace("SECRET", SECRET)


def _link(repo: Path, name: str, target: str | Path) -> None:
    (repo / name).parent.mkdir(parents=True, exist_ok=True)
    os.symlink(target, repo / name)


def _commit(repo: Path, message: str) -> None:
    git(repo, "add", "-A", ".")
    git(repo, "commit", "-q", "-m", message)


@pytest.fixture()
def linked(tmp_path: Path) -> Path:
    """A repository at BASE (a spec), then HEAD with ``protocol/Evil.json`` linking to a
    spec outside it."""
    secret = tmp_path / "elsewhere" / "Secret.json"
    secret.parent.mkdir()
    secret.write_text(OUTSIDE, encoding="utf-8")
    repo = init_repo(tmp_path / "repo")
    commit_tree(repo, {SPEC: tally(2)}, "base")
    _link(repo, "protocol/Evil.json", secret)
    _commit(repo, "a link out")
    return repo


def _refused(line: str, shown: str, repo: Path) -> bool:
    return line == (
        f"kcompat: error: {shown}: a link to a file outside the repository {repo}; kcompat "
        "reads no spec through it: commit the spec itself, not a link"
    )


@pytest.mark.parametrize(
    ("args", "shown"),
    [
        (["lint", "protocol/Evil.json"], "protocol/Evil.json"),
        (["lint", "protocol"], "protocol/Evil.json"),
        (["lint"], "protocol/Evil.json"),
        (["lint", SPEC], None),  # a sibling: context only, left out without a word
        (["diff", "HEAD~1", "--no-proof"], "protocol/Evil.json"),  # the working tree
    ],
)
def test_no_read_from_disk_follows_a_link_out(
    linked: Path, args: list[str], shown: str | None
) -> None:
    run = run_process(args, linked)
    assert SECRET not in run.stdout + run.stderr
    if shown is None:
        assert (run.code, run.stderr) == (1, ""), run.stderr  # TallyRequest's own finding
        return
    assert run.code == 2, run.stdout
    (line,) = run.stderr.splitlines()
    assert _refused(line, shown, linked), line


def test_a_folder_diff_inside_a_repository_and_a_link_into_git(linked: Path) -> None:
    """Comparing folders reads from disk too; a link into the repository's own ``.git``
    (where ``actions/checkout`` keeps its token) is refused as well."""
    run = run_cli(
        ["diff", str(linked / "protocol"), str(linked / "protocol"), "--no-proof"], linked
    )
    assert run.code == 2 and SECRET not in run.stdout + run.stderr
    assert _refused(run.stderr.strip(), str(linked / "protocol" / "Evil.json"), linked)
    (linked / "protocol" / "Evil.json").unlink()
    _link(linked, "protocol/Config.json", "../.git/config")
    run = run_cli(["lint", "protocol"], linked)
    assert run.code == 2
    assert run.stderr.strip() == (
        "kcompat: error: protocol/Config.json: a link into the repository's .git folder "
        f"({linked / '.git'}); kcompat reads no spec through it: commit the spec itself, "
        "not a link"
    )


def test_a_link_inside_the_repository_is_read(linked: Path) -> None:
    (linked / "protocol" / "Evil.json").unlink()
    _link(linked, "protocol/Again.json", Path(SPEC).name)
    run = run_cli(["lint", "protocol/Again.json"], linked)
    assert run.code in (0, 1) and run.stderr == "", run.stderr
    assert "Again.json" in run.stdout  # linted (a second spec of the same message)


def test_the_language_server_never_reads_a_closed_link_out(linked: Path) -> None:
    """Closed specs of a folder are read from disk for the cross-file rules: a link out
    is not one of them (before: its request, unpaired, was published as a diagnostic)."""
    pytest.importorskip("pygls", reason="pygls is not installed (the lsp extra)")
    from tests.lsp_client import editing

    async def session() -> None:
        async with editing(linked) as editor:
            uri = editor.open(linked / SPEC)
            await editor.diagnostics(uri, 1)
            # a second pass: what the first published for closed files has arrived
            await editor.diagnostics(uri, editor.change(uri, tally(2) + " "))
            said = [
                diagnostic.message
                for published in editor.published.values()
                for params in published
                for diagnostic in params.diagnostics
            ]
            assert not [text for text in said if "Secret" in text or SECRET in text]
            assert not [u for u in editor.published if u.endswith("Evil.json")]

    asyncio.run(session())


def test_the_action_lints_the_committed_blobs(tmp_path: Path) -> None:
    """``lint: true``: a pull request that turns a spec into a link out: the link is read as
    git holds it (the path it names: the diff's spec that no longer parses, an error; no
    spec for the lint, which leaves it out), never followed; the secret reaches no
    annotation, summary or output (before: the lint read the checkout, and the target's
    request and field were in annotations and the summary)."""
    secret = tmp_path / "elsewhere" / "Secret.json"
    secret.parent.mkdir()
    secret.write_text(OUTSIDE, encoding="utf-8")
    evil = "protocol/Evil.json"
    workspace = pull_request(tmp_path, {SPEC: tally(2), evil: tally(1)}, {SPEC: tally(2)})
    _link(workspace, evil, secret)
    _commit(workspace, "a spec turned into a link out")
    done = Runner(tmp_path / "runner", workspace, event_of(workspace)).run(lint="true")
    everything = done.stdout + done.stderr + done.summary + str(done.outputs)
    assert SECRET not in everything and "SecretRequest" not in everything
    assert done.returncode == 1, done.stdout
    errors = done.annotations("error")
    assert any(
        f"file={evil}," in a and "spec-unreadable" in a and "is a symbolic link (to " in a
        for a in errors
    ), errors  # named as the link it is (before: "the spec does not parse")
