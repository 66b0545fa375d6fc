"""kcompat in CI: the GitHub Action's step, GitLab Code Quality, and the comment budget.

The action's step (``python -m kcompat.ci.github``) runs for real on temp repositories
laid out as a pull request checkout, with a fake ``GITHUB_EVENT_PATH``,
``GITHUB_STEP_SUMMARY`` and ``GITHUB_OUTPUT``, and a local HTTP server standing in for
GitHub's API where it posts its comment.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

import pytest

from tests.diff_runner import GIT_ENV, commit_tree, git, init_repo, run_cli

ROOT = Path(__file__).resolve().parent.parent
NAME = "protocol/TallyRequest.json"


def tally(fields: int, *, renamed: int = 0, typed: str = "int32") -> str:
    """A request with ``fields`` int32 fields; the first ``renamed`` carry new names."""
    entries = [
        f'    {{ "name": "{"Renamed" if i < renamed else "Count"}{i}", "type": "{typed}",'
        f' "versions": "0+", "about": "count {i}" }}'
        for i in range(fields)
    ]
    return (
        '{\n  "apiKey": 180,\n  "type": "request",\n  "name": "TallyRequest",\n'
        '  "validVersions": "0-1",\n  "flexibleVersions": "1+",\n  "fields": [\n'
        + ",\n".join(entries)
        + "\n  ]\n}\n"
    )


def pull_request(tmp_path: Path, base: str, head: str) -> Path:
    """A clone whose origin/main holds ``base`` and whose HEAD (the PR) holds ``head``."""
    origin = init_repo(tmp_path / "origin")
    commit_tree(origin, {NAME: base}, "base")
    clone = tmp_path / "checkout"
    subprocess.run(["git", "clone", "-q", str(origin), str(clone)], check=True)
    git(clone, "checkout", "-q", "-b", "feature")
    commit_tree(clone, {NAME: head}, "the pull request")
    return clone


def step(
    checkout: Path, tmp_path: Path, event: dict[str, Any], **inputs: str
) -> tuple[subprocess.CompletedProcess[str], str, dict[str, str]]:
    """Run the action's step; returns the process, the job summary and the outputs."""
    event_path, summary, output = (tmp_path / n for n in ("event.json", "summary.md", "out"))
    event_path.write_text(json.dumps(event))
    env = {
        **GIT_ENV,
        "PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin",
        "HOME": str(tmp_path),
        "GITHUB_EVENT_PATH": str(event_path),
        "GITHUB_STEP_SUMMARY": str(summary),
        "GITHUB_OUTPUT": str(output),
        "GITHUB_BASE_REF": "main",
        "GITHUB_REPOSITORY": "kafka/protocol",
        "PYTHONPATH": os.environ.get("PYTHONPATH", ""),  # the tree under test, not the venv's
        **{f"KCOMPAT_{k.upper()}": v for k, v in inputs.items() if k.isupper() is False},
    }
    if "api" in inputs:
        env["GITHUB_API_URL"] = inputs["api"]
        env["GITHUB_TOKEN"] = "test-token"
    done = subprocess.run(
        [sys.executable, "-m", "kcompat.ci.github"],
        cwd=checkout,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    outputs = dict(
        line.split("=", 1) for line in (output.read_text().splitlines() if output.exists() else [])
    )
    return done, summary.read_text() if summary.exists() else "", outputs


EVENT = {"pull_request": {"number": 7, "base": {"ref": "main"}, "labels": []}}


def test_the_step_fails_a_breaking_pull_request(tmp_path: Path) -> None:
    checkout = pull_request(tmp_path, tally(3), tally(3, typed="int64"))
    done, summary, outputs = step(checkout, tmp_path, EVENT)
    assert done.returncode == 1, done.stderr
    lines = done.stdout.splitlines()
    annotations = [line for line in lines if line.startswith("::error")]
    assert len(annotations) == 3 and all(
        a.startswith("::error file=protocol/") for a in annotations
    )
    assert "title=kcompat field-type-changed" in annotations[0]
    # a checkout without tags is told, once, how to fetch them
    (notice,) = [line for line in lines if line.startswith("::notice")]
    assert notice.endswith("fetch the tags: git fetch --tags origin")
    assert summary.startswith("### kcompat compatibility check\n")
    assert "❌ **Breaking changes found** in 1 spec file: 3 errors" in summary
    assert "Base `merge-base(origin/main)`, head `HEAD`." in summary
    assert outputs == {
        "skipped": "false",
        "errors": "3",
        "warnings": "0",
        "infos": "0",
        "exit-code": "1",
    }


def test_annotations_keep_to_githubs_budget(tmp_path: Path) -> None:
    # 12 fields renamed (warnings) and 15 retyped (errors)
    base = tally(27)
    head = tally(27, renamed=12)
    head = "\n".join(
        line.replace('"int32"', '"int64"') if any(f"Count{i}\"" in line for i in range(12, 27))
        else line
        for line in head.splitlines()
    ) + "\n"  # fmt: skip
    checkout = pull_request(tmp_path, base, head)
    done, summary, outputs = step(checkout, tmp_path, EVENT)
    lines = done.stdout.splitlines()
    errors = [line for line in lines if line.startswith("::error file=")]
    warnings = [line for line in lines if line.startswith("::warning file=")]
    assert (len(errors), len(warnings)) == (10, 10)
    (rest,) = [line for line in lines if line.startswith("::error title=kcompat::")]
    assert rest == (
        "::error title=kcompat::kcompat: 5 errors, 2 warnings more than GitHub shows per "
        "step. The job summary lists them all."
    )
    assert lines.index(rest) > max(lines.index(a) for a in errors + warnings)
    assert outputs["errors"] == "15" and outputs["warnings"] == "12"
    assert summary.count("| 🔴 |") == 15 and summary.count("| 🟡 |") == 12


def test_a_label_skips_an_expected_break(tmp_path: Path) -> None:
    checkout = pull_request(tmp_path, tally(3), tally(3, typed="int64"))
    event = {"pull_request": {**EVENT["pull_request"], "labels": [{"name": "breaking: ok"}]}}
    done, summary, outputs = step(checkout, tmp_path, event, skip_label="breaking: ok")
    assert done.returncode == 0
    assert "Skipped: the pull request has the label `breaking: ok`" in summary
    assert outputs["skipped"] == "true"


def test_the_default_skip_label(tmp_path: Path) -> None:
    checkout = pull_request(tmp_path, tally(3), tally(3, typed="int64"))
    labelled = {"pull_request": {**EVENT["pull_request"],
                                 "labels": [{"name": "kcompat: expected break"}]}}  # fmt: skip
    assert step(checkout, tmp_path, labelled)[0].returncode == 0
    other = {"pull_request": {**EVENT["pull_request"], "labels": [{"name": "docs"}]}}
    (tmp_path / "second").mkdir()
    assert step(checkout, tmp_path / "second", other)[0].returncode == 1


class FakeGitHub(BaseHTTPRequestHandler):
    """GitHub's issue-comment API: list, create, update; every request is recorded."""

    comments: ClassVar[list[dict[str, Any]]] = []
    requests: ClassVar[list[tuple[str, str, Any]]] = []

    def _reply(self, status: int, body: Any) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _body(self) -> Any:
        length = int(self.headers.get("Content-Length", 0))
        return json.loads(self.rfile.read(length)) if length else None

    def do_GET(self) -> None:
        self.requests.append(("GET", self.path, self.headers.get("Authorization")))
        page = 1 if "page=1" in self.path else 2
        self._reply(200, self.comments if page == 1 else [])

    def do_POST(self) -> None:
        body = self._body()
        self.requests.append(("POST", self.path, body))
        self.comments.append({"id": 99, "body": body["body"]})
        self._reply(201, {"id": 99})

    def do_PATCH(self) -> None:
        body = self._body()
        self.requests.append(("PATCH", self.path, body))
        self._reply(200, {"id": 99})

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture()
def github() -> Iterator[str]:
    FakeGitHub.comments, FakeGitHub.requests = [{"id": 3, "body": "LGTM"}], []
    server = ThreadingHTTPServer(("127.0.0.1", 0), FakeGitHub)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


def test_one_comment_is_posted_then_updated(tmp_path: Path, github: str) -> None:
    checkout = pull_request(tmp_path, tally(3), tally(3, typed="int64"))
    done, _, _ = step(checkout, tmp_path, EVENT, comment="true", api=github)
    assert done.returncode == 1, done.stdout + done.stderr
    methods = [(m, p) for m, p, _ in FakeGitHub.requests]
    assert methods[0] == ("GET", "/repos/kafka/protocol/issues/7/comments?per_page=100&page=1")
    assert FakeGitHub.requests[0][2] == "Bearer test-token"
    assert methods[-1] == ("POST", "/repos/kafka/protocol/issues/7/comments")
    body = FakeGitHub.requests[-1][2]["body"]
    assert body.startswith("<!-- kcompat -->\n### kcompat compatibility check")
    assert "field-type-changed" in body
    FakeGitHub.requests = []
    (tmp_path / "second").mkdir()
    step(checkout, tmp_path / "second", EVENT, comment="true", api=github)
    assert [m for m, _, _ in FakeGitHub.requests] == ["GET", "PATCH"]
    assert FakeGitHub.requests[-1][1] == "/repos/kafka/protocol/issues/comments/99"


def test_the_action_manifest_runs_the_step_with_its_inputs() -> None:
    yaml = pytest.importorskip("yaml", reason="PyYAML comes with pre-commit (the dev extra)")
    action = yaml.safe_load((ROOT / "action.yml").read_text())
    assert action["runs"]["using"] == "composite"
    check = next(s for s in action["runs"]["steps"] if s.get("id") == "check")
    assert check["run"] == "python -m kcompat.ci.github"
    env = check["env"]
    for name in ("base", "fail-on", "comment", "skip-label", "args"):
        key = "KCOMPAT_" + name.upper().replace("-", "_")
        assert env[key] == "${{ inputs." + name + " }}"
    assert set(action["outputs"]) >= {"errors", "warnings", "skipped", "exit-code"}


# -- Markdown within GitHub's comment limit -------------------------------------------------------


def test_markdown_keeps_under_the_comment_limit_errors_first(tmp_path: Path) -> None:
    from kcompat.findings import Finding, Location, Severity
    from kcompat.report.document import Report
    from kcompat.report.markdown import render_markdown

    def finding(i: int, severity: Severity) -> Finding:
        return Finding(
            "field-removed" if severity is Severity.ERROR else "docs-changed",
            severity,
            f"field Field{i} was removed from released versions 0-7 " + "x" * 200,
            Location(f"protocol/Message{i}.json", i + 1, 3),
            hint="keep it in released versions",
            message_name=f"Message{i}",
            field_path=f"Field{i}",
        )

    findings = [finding(i, Severity.ERROR) for i in range(120)]
    findings += [finding(i, Severity.INFO) for i in range(120, 600)]
    text = render_markdown(Report("diff", tuple(findings), 600))
    assert len(text) <= 65_536
    assert text.count("| 🔴 |") == 120  # errors in full
    assert text.count("hint: keep it in released versions") >= 120  # hints included
    last = text.splitlines()[-1]
    assert last.startswith("_Showing ") and "of 600 findings (120 of 120 errors, " in last
    small = render_markdown(Report("diff", tuple(findings[:3]), 3))
    assert "_Showing" not in small


# -- GitLab Code Quality -------------------------------------------------------------------------


def test_gitlab_code_quality_field_by_field(tmp_path: Path) -> None:
    repo = init_repo(tmp_path / "repo")
    commit_tree(repo, {NAME: tally(2)}, "base")
    head = tally(2, renamed=1).replace('"Count1", "type": "int32"', '"Count1", "type": "int64"')
    commit_tree(repo, {NAME: head}, "head")
    (repo / "kcompat.toml").write_text(
        '[[ignore]]\nrule = "field-type-changed"\nmessage = "Tally*"\nreason = "KIP-1"\n'
    )
    run = run_cli(["diff", "HEAD~1", "HEAD", "--no-proof", "--format", "gitlab"], repo)
    issues = json.loads(run.stdout)
    assert isinstance(issues, list) and len(issues) == 2
    for issue in issues:
        assert set(issue) == {"description", "check_name", "fingerprint", "severity", "location"}
        assert set(issue["location"]) == {"path", "lines"}
        assert issue["location"]["path"] == NAME
        assert isinstance(issue["location"]["lines"]["begin"], int)
        assert issue["severity"] in ("info", "minor", "major", "critical", "blocker")
    assert len({i["fingerprint"] for i in issues}) == 2
    by_rule = {i["check_name"]: i for i in issues}
    assert by_rule["field-renamed"]["severity"] == "minor"
    accepted = [i for i in issues if i["check_name"] == "field-type-changed"]
    assert {i["severity"] for i in accepted} == {"info"}
    assert all(i["description"].endswith("(accepted: KIP-1)") for i in accepted)
    assert run.code == 0  # the accepted errors never fail


def test_a_hostile_checkout_name_stays_data(tmp_path: Path) -> None:
    """The notice names the checkout's directory: an escape sequence or bidi override in
    that name is shown escaped, never acted on by the log viewer."""
    checkout = pull_request(tmp_path, tally(1), tally(1))
    hostile = checkout.rename(checkout.with_name("checkout\x1b]0;pwn\x07\u202e"))
    done, _summary, _outputs = step(hostile, tmp_path, EVENT)
    assert done.returncode == 0, done.stderr
    for char in "\x1b\x07\u202e":
        assert char not in done.stdout, done.stdout
    (notice,) = [line for line in done.stdout.splitlines() if line.startswith("::notice")]
    assert "checkout\\x1b]0;pwn\\x07\\u202e" in notice
