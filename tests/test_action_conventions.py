"""The Action by GitHub's own conventions (issue 35, points 4 to 9): the triggers it
refuses, actions pinned by SHA, what it will not install, its outputs on a skipped run,
what a fork's pull request gets, and where its links point. Each runs the Action's own
steps as the runner does (:mod:`tests.action_runner`), with a fake GitHub API where a
comment is posted (:mod:`tests.fake_github`)."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.action_runner import SPEC, ActionRun, Runner, event_of, pull_request, tally
from tests.conftest import ROOT
from tests.fake_github import ACTIONS_BOT, FakeGitHub, serving

SKIP = "kcompat: expected break"
MARKER = "<!-- kcompat -->"
#: The commit a workflow pinned: ``uses: kcompat/kcompat@PINNED``.
PINNED = "89abcdef0123456789abcdef0123456789abcdef"


@pytest.fixture()
def github() -> Iterator[FakeGitHub]:
    with serving() as state:
        yield state


def breaking(tmp_path: Path) -> Path:
    """A pull request that changes a released field's type (an error)."""
    return pull_request(tmp_path, {SPEC: tally(3)}, {SPEC: tally(3, typed="int64")})


def _refused(done: ActionRun, says: str) -> None:
    """The first step stopped the run: exit 2, one error line, the summary says why, and
    no later step (install, check) ran."""
    assert done.returncode == 2, done.stdout + done.stderr
    assert [step.name for step in done.steps] == ["Check the event and what to install"]
    (error,) = done.annotations("error")
    assert error.startswith("::error title=kcompat::") and says in error, error
    assert says in done.summary


# -- 4: never on pull_request_target ---------------------------------------------------------


def test_pull_request_target_is_refused_with_the_reason(tmp_path: Path) -> None:
    workspace = breaking(tmp_path)
    runner = Runner(tmp_path / "runner", workspace, event_of(workspace),
                    event_name="pull_request_target")  # fmt: skip
    done = runner.run()
    _refused(done, "kcompat does not run on pull_request_target")
    (error,) = done.annotations("error")
    assert "write token and secrets" in error and "run it on pull_request" in error
    assert not (runner.temp / "kcompat-venv").exists()  # nothing was installed


def test_the_check_step_refuses_it_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Run on its own (``python -m kcompat.ci.github``), the check refuses it as well."""
    from kcompat.ci.github import main

    workspace = breaking(tmp_path)
    event = tmp_path / "event.json"
    event.write_text(json.dumps(event_of(workspace)))
    summary = tmp_path / "summary.md"
    monkeypatch.setenv("GITHUB_EVENT_NAME", "pull_request_target")
    monkeypatch.setenv("GITHUB_EVENT_PATH", str(event))
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    monkeypatch.delenv("GITHUB_OUTPUT", raising=False)
    assert main(["--repo", str(workspace)]) == 2
    assert "kcompat does not run on pull_request_target" in summary.read_text()


# -- 5: pinned by SHA ------------------------------------------------------------------------

_PINNED_USE = re.compile(r"uses: (actions/[a-z-]+)@([0-9a-f]{40}) # v\d+\.\d+\.\d+$")


def _uses(text: str) -> list[str]:
    return [line.strip().removeprefix("- ") for line in text.splitlines() if "uses:" in line]


def test_the_action_pins_what_it_uses_by_sha() -> None:
    uses = _uses((ROOT / "action.yml").read_text(encoding="utf-8"))
    assert uses == ["uses: actions/setup-python@a26af69be951a213d495a4c3e4e4022e16d87065 # v5.6.0"]
    assert all(_PINNED_USE.fullmatch(line) for line in uses)


def test_the_readme_workflow_pins_checkout_by_sha() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    workflow = readme.split("<!-- readme: workflow -->", 1)[1].split("```", 2)[1]
    uses = _uses(workflow)
    assert uses[0] == "uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2"
    for line in uses:
        assert _PINNED_USE.fullmatch(line) or line.startswith("uses: kcompat/kcompat@<commit>")


# -- 6: never the pull request's checkout as what to install ---------------------------------


@pytest.mark.parametrize(
    "install",
    [
        "{workspace}",
        "{workspace}/tools",
        "kcompat @ file://{workspace}",
        "kcompat[spark] @ git+file://{workspace}",
        "../../workspace",  # relative to RUNNER_TEMP, where the step runs
        "{link}",  # a link elsewhere that leads into the workspace
        # pip reads a path with extras or an environment marker as that path, and builds it
        "{workspace}[spark]",
        '{workspace} ; python_version >= "3"',
        "{workspace}/tools[spark];python_version>'3'",
    ],
)
def test_an_install_inside_the_workspace_is_refused(tmp_path: Path, install: str) -> None:
    workspace = breaking(tmp_path)
    (workspace / "tools").mkdir()
    link = tmp_path / "elsewhere"
    link.symlink_to(workspace)
    runner = Runner(tmp_path / "runner", workspace, event_of(workspace))
    done = runner.run(install=install.format(workspace=workspace, link=link))
    _refused(done, "inside GITHUB_WORKSPACE (the pull request's checkout)")


def test_a_pip_option_is_refused(tmp_path: Path) -> None:
    workspace = breaking(tmp_path)
    runner = Runner(tmp_path / "runner", workspace, event_of(workspace))
    done = runner.run(install=f"--requirement={workspace}/requirements.txt")
    _refused(done, "not a pip option")


@pytest.mark.parametrize(
    "install", ["", "kcompat @ git+https://github.com/kcompat/kcompat@{sha}", "{outside}"]
)
def test_an_install_outside_the_workspace_goes_on(tmp_path: Path, install: str) -> None:
    workspace = breaking(tmp_path)
    outside = tmp_path / "kcompat-checkout"
    outside.mkdir()
    runner = Runner(tmp_path / "runner", workspace, event_of(workspace))
    done = runner.run(install=install.format(sha=PINNED, outside=outside))
    assert done.returncode == 1, done.stdout + done.stderr  # checked: the type change
    assert done.steps[0].returncode == 0 and done.outputs["errors"] == "3"  # three fields


# -- 7: a skipped run's counts ---------------------------------------------------------------


def test_a_skipped_run_counts_nothing(tmp_path: Path, github: FakeGitHub) -> None:
    """Skipped, ``errors``, ``warnings`` and ``infos`` are 0 (a workflow compares them
    with 0), even when the API's reply about an earlier comment is not one GitHub sends."""
    github.comments.append({"id": "not a number", "body": f"{MARKER}\nold", "issue": 7,
                            "user": {"login": ACTIONS_BOT}})  # fmt: skip
    workspace = breaking(tmp_path)
    labelled = event_of(workspace, action="labeled", label=SKIP, labels=(SKIP,))
    runner = Runner(tmp_path / "runner", workspace, labelled, api=github.url, token="ghs_x")
    done = runner.run(comment="true")
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.outputs == {"errors": "0", "warnings": "0", "infos": "0", "skipped": "true",
                            "exit-code": "0"}  # fmt: skip


# -- 8: a fork's read-only token -------------------------------------------------------------


def test_a_fork_gets_what_the_readme_says(tmp_path: Path, github: FakeGitHub) -> None:
    """The README says a fork's pull request gets the verdict, the annotations, the job
    summary and one warning; the comment is not posted."""
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert "**From a fork**, GitHub gives the workflow a read-only token" in readme
    assert "the log has one warning saying the comment was not posted and why" in readme
    github.read_only = True
    workspace = breaking(tmp_path)
    runner = Runner(tmp_path / "runner", workspace, event_of(workspace), api=github.url,
                    token="ghs_read_only")  # fmt: skip
    done = runner.run(comment="true")
    assert done.returncode == 1  # the verdict
    assert github.writes() == [] or all(m == "POST" for m, _, _ in github.writes())
    assert not [c for c in github.comments if c["body"].startswith(MARKER)]  # no comment
    (warning,) = done.annotations("warning")
    assert "the comment was not posted" in warning and "read-only token" in warning
    assert any(line.startswith("::error file=protocol/TallyRequest.json") for line in done.lines)
    assert "**Breaking changes found**" in done.summary  # the whole report


# -- 9: links at the pinned commit, KIPs at their page ---------------------------------------


def _rule_links(markdown: str) -> list[str]:
    return re.findall(r"\]\((https://[^)]*/rules/[a-z0-9-]+\.md)\)", markdown)


def _pinned_checkout(
    home: Path, ref: str, *, owner: str = "kcompat", name: str = "kcompat"
) -> Path:
    """The action as the runner fetches ``uses: OWNER/NAME@REF``."""
    path = home / "_actions" / owner / name / ref
    path.parent.mkdir(parents=True)
    path.symlink_to(ROOT)
    return path


def test_rule_links_point_at_the_pinned_commit(tmp_path: Path, github: FakeGitHub) -> None:
    workspace = breaking(tmp_path)
    home = tmp_path / "runner"
    runner = Runner(home, workspace, event_of(workspace), api=github.url, token="ghs_x",
                    action_path=_pinned_checkout(tmp_path / "work", PINNED))  # fmt: skip
    done = runner.run(comment="true")  # github.action_ref empty, as GitHub leaves it
    assert done.returncode == 1, done.stdout + done.stderr
    page = f"https://github.com/kcompat/kcompat/blob/{PINNED}/rules/field-type-changed.md"
    assert _rule_links(done.summary) == [page]
    assert _rule_links(github.comments[-1]["body"]) == [page]
    assert "/blob/main/" not in done.summary + github.comments[-1]["body"]


def test_a_fork_of_kcompat_links_to_its_own_pages(tmp_path: Path) -> None:
    workspace = breaking(tmp_path)
    fork = _pinned_checkout(tmp_path / "work", PINNED, owner="acme", name="kcompat-fork")
    done = Runner(tmp_path / "runner", workspace, event_of(workspace), action_path=fork).run()
    assert _rule_links(done.summary) == [
        f"https://github.com/acme/kcompat-fork/blob/{PINNED}/rules/field-type-changed.md"
    ]


def test_the_action_ref_is_used_where_the_path_does_not_tell(tmp_path: Path) -> None:
    """``uses: ./`` (a local action): the path names no ref; ``github.action_ref`` does
    when GitHub fills it in."""
    workspace = breaking(tmp_path)
    runner = Runner(tmp_path / "runner", workspace, event_of(workspace), action_ref=PINNED)
    done = runner.run()
    assert _rule_links(done.summary) == [
        f"https://github.com/kcompat/kcompat/blob/{PINNED}/rules/field-type-changed.md"
    ]


def test_the_editor_links_rules_to_the_running_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A checkout (no record of a commit): the page shipped with kcompat, which is this
    version's; installed from git at a commit: the page at that commit."""
    pytest.importorskip("pygls", reason="the lsp extra")
    from tests.lsp_client import editing

    folder = tmp_path / "message"
    folder.mkdir()
    spec = tally(2).replace('"name": "Count1"', '"name": "Count0"')  # a duplicate name
    (folder / "TallyRequest.json").write_text(spec)

    async def links() -> list[str]:
        async with editing(folder) as editor:
            uri = editor.open(folder / "TallyRequest.json")
            found = await editor.diagnostics(uri, 1)
            return [str(d.code_description.href) for d in found if d.code_description]

    shipped = asyncio.run(links())
    assert shipped and all(link.startswith("file://") for link in shipped), shipped
    for link in shipped:
        rule = link.rsplit("/", 1)[1].removesuffix(".md")
        assert Path(link.removeprefix("file://")).read_text().startswith(f"# {rule}")

    site = tmp_path / "site"
    record = site / "kcompat-0.1.0.dist-info"
    record.mkdir(parents=True)
    (record / "METADATA").write_text("Metadata-Version: 2.1\nName: kcompat\nVersion: 0.1.0\n")
    (record / "direct_url.json").write_text(json.dumps(
        {"url": "https://github.com/kcompat/kcompat", "vcs_info": {"vcs": "git",
         "commit_id": PINNED}}))  # fmt: skip
    monkeypatch.setenv("PYTHONPATH", str(site))
    pinned = asyncio.run(links())
    assert pinned and all(
        link.startswith(f"https://github.com/kcompat/kcompat/blob/{PINNED}/rules/")
        for link in pinned
    ), pinned


def test_kip_links_go_to_the_kip_s_page(tmp_path: Path) -> None:
    """A changelog's KIP links: the KIP's page on Confluence (its address carries the
    title), not a search; a KIP that is not listed, the search for its number."""
    from tests.changelog_specs import changelog, field, spec

    base = spec("FooRequest", valid="0-1", fields=[field("A")])
    head = spec(
        "FooRequest",
        valid="0-3",
        fields=[field("A"), field("B", versions="2+"), field("C", versions="3+")],
        comment="Version 2 adds B (KIP-890).\nVersion 3 adds C (KIP-9999).",
    )
    done = changelog(tmp_path, {"FooRequest": base}, {"FooRequest": head}, "--format", "markdown")
    assert done.code == 0, done.stderr
    links: dict[str, Any] = dict(re.findall(r"\[(KIP-\d+)\]\(([^)]+)\)", done.stdout))
    assert links["KIP-890"] == (
        "https://cwiki.apache.org/confluence/display/KAFKA/KIP-890%3A+Transactions+Server-Side+Defense"
    )
    assert links["KIP-9999"] == (
        "https://cwiki.apache.org/confluence/dosearchsite.action?queryString=%22KIP-9999%22"
    )


@pytest.mark.corpus
def test_every_kip_kafka_s_specs_cite_has_its_page(kafka_repo: Path) -> None:
    from kcompat.changelog.kips import listed
    from tests.diff_runner import git

    refs = git(kafka_repo, "for-each-ref", "--format=%(refname)").split()
    cited = git(kafka_repo, "grep", "-h", "-o", "-E", "KIP-[0-9]+", *refs, "--", "*.json")
    numbers = {int(m) for m in re.findall(r"KIP-(\d+)", cited)}
    assert numbers and numbers <= listed(), sorted(numbers - listed())
