"""The Action's pull-request comment, through its own step commands in a simulated run
(:mod:`tests.action_runner`) against a fake GitHub API on an ephemeral port
(:mod:`tests.fake_github`): whose comment it updates (issue 22, point 7), what it says
when the skip label skips the check (issue 27, point 2), what it links and how it ends
(27.3), and that nothing a spec holds is acted on by GitHub's Markdown (22.15), checked
by rendering the comment with cmark-gfm, GitHub's own Markdown renderer.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from tests.action_runner import SPEC, ActionRun, Runner, event_of, pull_request, tally
from tests.diff_runner import commit_tree, git
from tests.fake_github import ACTIONS_BOT, FakeGitHub, serving

MARKER = "<!-- kcompat -->"
SKIP = "kcompat: expected break"
COMMENTS = "/repos/kafka/protocol/issues/7/comments"


@pytest.fixture()
def github() -> Iterator[FakeGitHub]:
    with serving() as state:
        yield state


def run(
    workspace: Path, home: Path, github: FakeGitHub, event: dict[str, Any] | None = None,
    **inputs: str,
) -> ActionRun:  # fmt: skip
    runner = Runner(home, workspace, event or event_of(workspace), api=github.url, token="ghs_test")
    return runner.run(comment="true", **inputs)


def breaking(tmp_path: Path) -> Path:
    return pull_request(tmp_path, {SPEC: tally(3)}, {SPEC: tally(3, typed="int64")})


def test_one_comment_is_posted_then_updated(tmp_path: Path, github: FakeGitHub) -> None:
    github.comment("LGTM", by="bob")
    workspace = breaking(tmp_path)
    done = run(workspace, tmp_path / "first", github)
    assert done.returncode == 1, done.stdout + done.stderr
    assert ("GET", f"{COMMENTS}?per_page=100&page=1", "Bearer ghs_test") in github.requests
    ((method, path, body),) = github.writes()
    assert (method, path) == ("POST", COMMENTS)
    assert body["body"].startswith(f"{MARKER}\n### kcompat compatibility check")
    assert "field-type-changed" in body["body"]
    posted = github.comments[-1]
    assert posted["user"]["login"] == ACTIONS_BOT
    github.requests.clear()
    run(workspace, tmp_path / "second", github)
    assert [(m, p) for m, p, _ in github.writes()] == [
        ("PATCH", f"/repos/kafka/protocol/issues/comments/{posted['id']}")
    ]
    assert len(github.comments) == 2


def test_a_marker_comment_written_by_someone_else_is_never_updated(
    tmp_path: Path, github: FakeGitHub
) -> None:
    """Anyone can start a comment with the marker: only the token's own is kcompat's."""
    forged = github.comment(f"{MARKER}\n✅ **No errors**", by="mallory")
    workspace = breaking(tmp_path)
    run(workspace, tmp_path / "first", github)
    assert [m for m, _, _ in github.writes()] == ["POST"]
    assert forged["body"] == f"{MARKER}\n✅ **No errors**"
    ours = github.comments[-1]
    github.requests.clear()
    run(workspace, tmp_path / "second", github)
    ((method, path, _),) = github.writes()
    assert (method, path) == ("PATCH", f"/repos/kafka/protocol/issues/comments/{ours['id']}")
    assert forged["body"] == f"{MARKER}\n✅ **No errors**"


def test_a_personal_token_updates_its_own_users_comment(tmp_path: Path, github: FakeGitHub) -> None:
    github.user = "release-bot"
    other = github.comment(f"{MARKER}\nold", by=ACTIONS_BOT)
    mine = github.comment(f"{MARKER}\nolder", by="release-bot")
    run(breaking(tmp_path), tmp_path / "runner", github)
    assert ("GET", "/user", "Bearer ghs_test") in github.requests
    assert [(m, p) for m, p, _ in github.writes()] == [
        ("PATCH", f"/repos/kafka/protocol/issues/comments/{mine['id']}")
    ]
    assert other["body"] == f"{MARKER}\nold"


def test_a_read_only_token_is_a_warning_and_the_summary_has_the_report(
    tmp_path: Path, github: FakeGitHub
) -> None:
    github.read_only = True
    done = run(breaking(tmp_path), tmp_path / "runner", github)
    assert done.returncode == 1  # the verdict, not the comment, decides
    (warning,) = done.annotations("warning")
    assert warning.startswith("::warning title=kcompat::the comment was not posted: POST ")
    assert "HTTP 403" in warning and "fork gets a read-only token" in warning
    assert "**Breaking changes found**" in done.summary


# -- the skip label (issue 27, point 2) ------------------------------------------------------


def test_the_skip_label_turns_the_earlier_report_into_skipped(
    tmp_path: Path, github: FakeGitHub
) -> None:
    workspace = breaking(tmp_path)
    run(workspace, tmp_path / "first", github)
    ours = github.comments[-1]
    assert "Breaking changes found" in ours["body"]
    github.requests.clear()
    labelled = event_of(workspace, action="labeled", label=SKIP, labels=(SKIP,), sender="carol")
    done = run(workspace, tmp_path / "second", github, labelled)
    assert done.returncode == 0 and done.outputs["skipped"] == "true"
    ((method, _, body),) = github.writes()
    assert method == "PATCH" and body["body"] == ours["body"]
    head = git(workspace, "rev-parse", "HEAD").strip()
    assert ours["body"].startswith(f"{MARKER}\n### kcompat compatibility check\n\n⏭️ **Skipped**")
    assert f"the label `{SKIP}`, added by `carol`" in ours["body"]
    assert f"[`{head[:7]}`](https://github.com/kafka/protocol/commit/{head})" in ours["body"]
    assert "Breaking changes found" not in ours["body"]
    assert ours["body"].endswith("The earlier report in this comment no longer applies.")
    assert "⏭️ **Skipped**" in done.summary and "earlier report" not in done.summary


def test_a_skipped_pull_request_without_an_earlier_comment_gets_none(
    tmp_path: Path, github: FakeGitHub
) -> None:
    workspace = breaking(tmp_path)
    labelled = event_of(workspace, action="labeled", label=SKIP, labels=(SKIP,))
    done = run(workspace, tmp_path / "runner", github, labelled)
    assert done.returncode == 0 and github.writes() == []


def test_a_rerun_sees_the_labels_as_they_are_now(tmp_path: Path, github: FakeGitHub) -> None:
    """A re-run reuses the old event file: the labels are asked of the API."""
    workspace = breaking(tmp_path)
    github.labels = [SKIP]
    stale = run(workspace, tmp_path / "first", github, event_of(workspace, labels=()))
    assert stale.outputs["skipped"] == "true" and stale.returncode == 0
    github.labels = []
    removed = run(workspace, tmp_path / "second", github, event_of(workspace, labels=(SKIP,)))
    assert removed.outputs["skipped"] == "false" and removed.returncode == 1


# -- what the comment says (issue 27, point 3) ----------------------------------------------


def test_the_comment_links_commits_and_lines_and_ends_with_how_to_accept(
    tmp_path: Path, github: FakeGitHub
) -> None:
    workspace = breaking(tmp_path)
    done = run(workspace, tmp_path / "first", github)
    body = github.comments[-1]["body"]
    head = git(workspace, "rev-parse", "HEAD").strip()
    base = git(workspace, "merge-base", "origin/main", "HEAD").strip()
    repo = "https://github.com/kafka/protocol"
    assert (
        f"Base [`{base[:7]}`]({repo}/commit/{base}) (`merge-base(origin/main)`), "
        f"head [`{head[:7]}`]({repo}/commit/{head}) (`HEAD`)."
    ) in body
    rows = [line for line in body.splitlines() if line.startswith("| 🔴 |")]
    assert len(rows) == 3
    assert rows[0].startswith(
        f"| 🔴 | [`{SPEC}:8:25`]({repo}/blob/{head}/{SPEC}#L8) | field Count0 changed type"
    )
    assert body == MARKER + "\n" + done.summary.rstrip("\n")  # the summary says the same
    ending = body[body.index("**Breaking on purpose?**") :]
    assert f"the label `{SKIP}`" in ending
    assert "`// kcompat: ignore[field-type-changed] KIP-NNNN: why this break is safe`" in ending
    toml = re.search(r"```toml\n(.*?)\n\s*```", ending, re.DOTALL)
    assert toml is not None
    entry = "\n".join(line.strip() for line in toml.group(1).splitlines())
    assert tomllib.loads(entry)["ignore"][0]["reason"]
    # the [[ignore]] entry it suggests accepts the break
    text = {SPEC: tally(3, typed="int64"), "kcompat.toml": entry + "\n"}
    commit_tree(workspace, text, "accept the break")
    accepted = run(workspace, tmp_path / "second", github)
    assert accepted.returncode == 0, accepted.stdout
    accepted_body = github.comments[-1]["body"]
    # accepted, and in the open: the entry the change adds is its own config-weakened
    assert "(3 accepted in this change)" in accepted_body, accepted_body[:400]
    assert "This change edits kcompat's configuration" in accepted_body
    assert "**Breaking on purpose?**" not in github.comments[-1]["body"]


def test_a_pull_request_that_changes_no_spec_gets_no_new_comment(
    tmp_path: Path, github: FakeGitHub
) -> None:
    workspace = pull_request(
        tmp_path, {SPEC: tally(2)}, {SPEC: tally(2), "README.md": "a change elsewhere\n"}
    )
    done = run(workspace, tmp_path / "first", github)
    assert done.returncode == 0
    assert github.writes() == []
    assert "No spec file changed" in done.summary


def test_an_earlier_comment_says_the_specs_are_fine_now(tmp_path: Path, github: FakeGitHub) -> None:
    workspace = breaking(tmp_path)
    run(workspace, tmp_path / "first", github)
    ours = github.comments[-1]
    commit_tree(workspace, {SPEC: tally(3)}, "undo the break")
    github.requests.clear()
    done = run(workspace, tmp_path / "second", github)
    assert done.returncode == 0
    assert [m for m, _, _ in github.writes()] == ["PATCH"]
    assert "✅ **No spec file changed** between [`" in ours["body"]
    assert "the specs are fine now" in ours["body"]
    assert "Breaking changes found" not in ours["body"]


# -- nothing from a spec is acted on (issue 22, point 15) -------------------------------------

HOSTILE = (
    "Evil @kafka/committers ![p](https://evil.example/p.png) [click](https://evil.example/x) "
    "www.evil.example #1 mallory@evil.example <img src=x> ]: https://evil.example"
)


class Rendered(HTMLParser):
    """What GitHub would show: links, images, and text outside code (where mentions and
    references are made)."""

    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.images: list[str] = []
        self.text: list[str] = []
        self._inert = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "a":
            self.links.append(dict(attrs).get("href") or "")
        if tag == "img":
            self.images.append(dict(attrs).get("src") or "")
        if tag in ("code", "pre", "a"):
            self._inert += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in ("code", "pre", "a"):
            self._inert -= 1

    def handle_data(self, data: str) -> None:
        if not self._inert:
            self.text.append(data)


def test_spec_text_in_the_comment_is_inert(tmp_path: Path, github: FakeGitHub) -> None:
    cmarkgfm = pytest.importorskip("cmarkgfm", reason="cmark-gfm comes with the dev extra")

    name = json.dumps(HOSTILE)
    base = tally(2).replace('"Count1"', name)
    head = base.replace(f'{name}, "type": "int32"', f'{name}, "type": "int64"')
    assert head != base
    workspace = pull_request(tmp_path, {SPEC: base}, {SPEC: head})
    run(workspace, tmp_path / "runner", github)
    body = github.comments[-1]["body"]
    html = cmarkgfm.github_flavored_markdown_to_html(
        body, options=cmarkgfm.cmark.Options.CMARK_OPT_UNSAFE
    )
    shown = Rendered()
    shown.feed(html)
    assert shown.images == []
    assert "evil.example" not in " ".join(shown.links)
    assert all(
        link.startswith(("https://github.com/kafka/protocol/", "https://github.com/kcompat/"))
        for link in shown.links
    ), shown.links
    text = "".join(shown.text)
    assert "Evil @\u200bkafka/committers" in text  # there to read, as text
    assert not re.search(r"(?<![\w`])@[A-Za-z0-9]", text), text  # no mention
    assert not re.search(r"(?<![\w&])#\d", text), text  # no issue reference
    assert "<img" not in html
