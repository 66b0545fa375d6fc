"""Names UTF-8 cannot write, or that no identifier may hold, are findings, never crashes.

JSON can spell a NUL (``\\u0000``) and a lone surrogate (``\\ud800``) inside a string:
valid JSON, but no Unicode text a terminal or a file can take as is. A spec whose message
name holds a NUL, or whose field name holds a lone surrogate, gets the name rules'
findings from lint, diff's findings, explain's views and drift's report in every output
format, through a real process, with exit status 0 or 1 and no internal error.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from kcompat.findings import Finding, Location, Severity
from tests.conftest import git
from tests.diff_runner import GIT_ENV, KCOMPAT

REQUEST = """{ "apiKey": 300, "type": "request", "listeners": ["broker"],
  "name": "Wid\\u0000getRequest", "validVersions": "0-1", "flexibleVersions": "1+",
  "fields": [
    { "name": "A\\ud800b", "type": "TYPE", "versions": "0+", "about": "x\\udc80" },
    { "name": "Other", "type": "string", "versions": "0+", "about": "y" },
    { "name": "Tagged\\ud801", "type": "string", "versions": "1+", "taggedVersions": "1+",
      "tag": 0, "default": "\\ud800\\u0000", "about": "z" }
  ] }
"""
RESPONSE = """{ "apiKey": 300, "type": "response", "name": "WidgetResponse",
  "validVersions": "0-1", "flexibleVersions": "1+",
  "fields": [ { "name": "A\\ud800b", "type": "TYPE", "versions": "0+", "about": "x" } ] }
"""
FORMATS = ("text", "json", "sarif", "markdown", "junit", "github", "gitlab")


def write_specs(directory: Path, field_type: str) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    for name, text in (("WidgetRequest", REQUEST), ("WidgetResponse", RESPONSE)):
        (directory / f"{name}.json").write_text(text.replace("TYPE", field_type), "utf-8")


@pytest.fixture(scope="module")
def sides(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """BASE in ``a``, HEAD (A retyped from int32 to int64, a break) in ``b``."""
    root = tmp_path_factory.mktemp("unencodable")
    write_specs(root / "a", "int32")
    write_specs(root / "b", "int64")
    return root


def kcompat(cwd: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [str(KCOMPAT), *args],
        cwd=cwd,
        capture_output=True,
        env={**os.environ, **GIT_ENV, "NO_COLOR": "1"},
        timeout=120,
    )


def assert_no_crash(done: subprocess.CompletedProcess[bytes]) -> None:
    stderr = done.stderr.decode("utf-8", "replace")
    assert "internal error" not in stderr and "Traceback" not in stderr, stderr
    assert done.returncode in (0, 1), stderr


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("command", ["lint", "diff", "drift"])
def test_checks_report_in_every_format(sides: Path, command: str, fmt: str) -> None:
    args = ["lint", "a"] if command == "lint" else [command, "a", "b"]
    done = kcompat(sides, *args, "--format", fmt)
    assert_no_crash(done)
    assert done.stdout
    if fmt in ("json", "sarif"):
        json.loads(done.stdout)  # the surrogate is written as its JSON escape


def test_lint_names_the_bad_names(sides: Path) -> None:
    done = kcompat(sides, "lint", "a", "--format", "json")
    assert_no_crash(done)
    rules = {f["rule"] for f in json.loads(done.stdout)["findings"]}
    assert {"invalid-message-name", "invalid-field-name"} <= rules


def test_diff_finds_the_break_with_its_proof(sides: Path) -> None:
    done = kcompat(sides, "diff", "a", "b", "--format", "json")
    assert_no_crash(done)
    findings = json.loads(done.stdout)["findings"]
    changed = [f for f in findings if f["rule"] == "field-type-changed"]
    assert len(changed) == 2  # the request's and the response's field
    assert any(f["evidence"] for f in changed)


@pytest.mark.parametrize(
    "args",
    [
        ["300"],
        ["300", "--format", "json"],
        ["300", "--format", "markdown"],
        ["300", "--version", "1"],
        ["Widget", "--type", "response", "--against", "../b"],
    ],
)
def test_explain_shows_the_message(sides: Path, args: list[str]) -> None:
    done = kcompat(sides / "a", "explain", *args)
    assert_no_crash(done)
    assert done.stdout


def test_diff_between_commits(repo: Path) -> None:
    write_specs(repo / "specs", "int32")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    write_specs(repo / "specs", "int64")
    done = kcompat(repo, "diff", "HEAD")
    assert_no_crash(done)
    assert b"field-type-changed" in done.stdout


def test_fingerprint_of_a_lone_surrogate() -> None:
    finding = Finding(
        "invalid-field-name",
        Severity.ERROR,
        "invalid field name 'A\ud800b'",
        Location("a.json"),
        field_path="A\ud800b",
    )
    assert len(finding.fingerprint) == 16
