"""``kcompat lint`` end to end, on spec files in temp directories.

Everything about the process itself (exit codes, one-line errors on stderr, no traceback,
terminal detection and colour) runs ``python -m kcompat`` in a subprocess (``real=True``).
The rest calls the same entry point, ``kcompat.cli.main``, in this process with stdout and
stderr captured, which is several times faster. The project directory gets an empty
``.git`` so configuration lookup never wanders above it.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import jsonschema
import pytest

# -- specs --------------------------------------------------------------------------------

REQUEST = """\
// Asks the lease manager to extend a lease.
{
  "apiKey": 1100,
  "type": "request",
  "listeners": ["broker"],
  "name": "ExtendLeaseRequest",
  "validVersions": "0-1",
  "flexibleVersions": "1+",
  "fields": [
    { "name": "LeaseId", "type": "string", "versions": "0+", "about": "The lease." },
    { "name": "DurationMs", "type": "int64", "versions": "1+", "default": "-1",
      "about": "The new duration, or -1 for the default." }
  ]
}
"""

RESPONSE = """\
{
  "apiKey": 1100,
  "type": "response",
  "name": "ExtendLeaseResponse",
  "validVersions": "0-1",
  "flexibleVersions": "1+",
  "fields": [
    { "name": "ErrorCode", "type": "int16", "versions": "0+", "about": "The error code." }
  ]
}
"""

#: Line 9 has a duplicate tag (error); nothing else is wrong.
TAG_CLASH = """\
{
  "type": "data",
  "name": "LeaseState",
  "validVersions": "0",
  "flexibleVersions": "0+",
  "fields": [
    { "name": "Owner", "type": "string", "versions": "0+", "about": "The holder." },
    { "name": "Expiry", "type": "int64", "versions": "0+", "tag": 0, "taggedVersions": "0+" },
    { "name": "Epoch", "type": "int32", "versions": "0+", "tag": 0, "taggedVersions": "0+" }
  ]
}
"""

#: Line 3 holds flexibleVersions-less versions: one warning (missing-flexible-versions).
NO_FLEXIBLE = """\
{
  "type": "data", "name": "LeaseLog",
  "validVersions": "0-1",
  "fields": [
    { "name": "Entries", "type": "[]string", "versions": "0+", "about": "Log lines." }
  ]
}
"""

# Kept explicit so a failure shows exactly which line moved.
TAG_LINE, TAG_COLUMN = 9, 66


# -- running ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Run:
    code: int
    out: str
    err: str

    @property
    def lines(self) -> list[str]:
        return self.out.splitlines()


_CLEARED = ("NO_COLOR", "FORCE_COLOR", "KCOMPAT_DEBUG")


def kcompat(*args: str, cwd: Path, env: dict[str, str] | None = None, real: bool = False) -> Run:
    """``kcompat ARGS`` in ``cwd`` with stdout and stderr captured (not a terminal).

    ``real`` runs ``python -m kcompat`` in a subprocess; otherwise ``kcompat.cli.main``
    runs in this process, with the same environment and working directory.
    """
    extra = {"COLUMNS": "200", **(env or {})}
    if real:
        base = {k: v for k, v in os.environ.items() if k not in _CLEARED}
        done = subprocess.run(
            [sys.executable, "-m", "kcompat", *args],
            cwd=cwd,
            env={**base, **extra},
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        return Run(done.returncode, done.stdout, done.stderr)
    from kcompat.cli import main

    out, err = io.StringIO(), io.StringIO()
    with (
        _environment(extra),
        _directory(cwd),
        contextlib.redirect_stdout(out),
        contextlib.redirect_stderr(err),
    ):
        code = main(list(args))
    return Run(code, out.getvalue(), err.getvalue())


@contextlib.contextmanager
def _environment(extra: dict[str, str]) -> Iterator[None]:
    saved = dict(os.environ)
    for name in _CLEARED:
        os.environ.pop(name, None)
    os.environ.update(extra)
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


@contextlib.contextmanager
def _directory(path: Path) -> Iterator[None]:
    previous = Path.cwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(previous)


def one_error_line(run: Run) -> str:
    """The single line a usage error prints; never a traceback."""
    assert run.code == 2, run
    assert "Traceback" not in run.err and "Traceback" not in run.out
    lines = run.err.strip().splitlines()
    assert len(lines) == 1, run.err
    assert lines[0].startswith("kcompat: error: ")
    return lines[0]


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    """An empty project directory (a git root, so config lookup stops there)."""
    root = tmp_path / "proj"
    root.mkdir()
    (root / ".git").mkdir()
    return root


Write = Callable[[str, str], Path]


@pytest.fixture()
def write(project: Path) -> Write:
    def _write(name: str, text: str) -> Path:
        path = project / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return path

    return _write


FINDING_LINE = re.compile(
    r"^(?P<path>[^:]+):(?P<line>\d+):(?P<col>\d+): (?P<severity>error|warning|info) "
    r"\[(?P<rule>[a-z0-9-]+)\] (?P<message>.+)$"
)


# -- text output and exit codes -----------------------------------------------------------


def test_clean_pair_exits_0(project: Path, write: Write) -> None:
    write("ExtendLeaseRequest.json", REQUEST)
    write("ExtendLeaseResponse.json", RESPONSE)
    run = kcompat("lint", ".", cwd=project, real=True)
    assert (run.code, run.lines, run.err) == (0, ["No problems in 2 spec files."], "")


def test_text_format_finding_hint_and_summary(project: Path, write: Write) -> None:
    write("LeaseState.json", TAG_CLASH)
    run = kcompat("lint", "LeaseState.json", cwd=project, real=True)
    assert run.code == 1 and run.err == ""
    assert run.lines == [
        f"LeaseState.json:{TAG_LINE}:{TAG_COLUMN}: error [tag-duplicate] tag 0 of Epoch is "
        "already used by Expiry",
        "    hint: use tag 1, the next free one",
        "Found 1 error in 1 spec file.",
    ]
    match = FINDING_LINE.match(run.lines[0])
    assert match is not None and match["rule"] == "tag-duplicate"
    assert TAG_CLASH.splitlines()[TAG_LINE - 1][TAG_COLUMN - 1 :].startswith('0, "tagged')


def test_warnings_exit_0_unless_fail_on_warning(project: Path, write: Write) -> None:
    write("LeaseLog.json", NO_FLEXIBLE)
    run = kcompat("lint", "LeaseLog.json", cwd=project)
    assert run.code == 0
    assert run.lines[0].startswith(
        "LeaseLog.json:1:1: warning [missing-flexible-versions] LeaseLog has no flexibleVersions"
    )
    assert run.lines[-1] == "Found 1 warning in 1 spec file."
    assert kcompat("lint", "--fail-on", "warning", "LeaseLog.json", cwd=project).code == 1
    assert kcompat("lint", "--fail-on", "error", "LeaseLog.json", cwd=project).code == 0


def test_errors_and_warnings_are_counted_across_files(project: Path, write: Write) -> None:
    write("LeaseState.json", TAG_CLASH)
    write("LeaseLog.json", NO_FLEXIBLE)
    run = kcompat("lint", ".", cwd=project)
    assert run.code == 1
    # errors first, then warnings
    assert [FINDING_LINE.match(line)["rule"] for line in run.lines if FINDING_LINE.match(line)] == [  # type: ignore[index]
        "tag-duplicate",
        "missing-flexible-versions",
    ]
    assert run.lines[-1] == "Found 1 error, 1 warning in 2 spec files."
    assert kcompat("lint", ".", "--fail-on", "never", cwd=project).code == 0


def test_missing_file_is_one_line_on_stderr(project: Path) -> None:
    run = kcompat("lint", "NoSuchRequest.json", cwd=project, real=True)
    assert one_error_line(run) == "kcompat: error: NoSuchRequest.json: no such file or directory"
    assert run.out == ""


def test_directory_without_specs_exits_2(project: Path, write: Write) -> None:
    write("package.json", '{"name": "web", "version": "1.0.0"}\n')
    line = one_error_line(kcompat("lint", ".", cwd=project, real=True))
    assert line.startswith("kcompat: error: no spec files found in .")


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (
            ("--format", "yaml"),
            "--format must be text, json, sarif, github, gitlab, junit or markdown, not 'yaml'",
        ),
        (("--bogus",), "No such option: --bogus"),
        (
            ("--fail-on", "sometimes"),
            "--fail-on must be error, warning, info or never, not 'sometimes'",
        ),
    ],
)
def test_bad_options_exit_2(
    project: Path, write: Write, args: tuple[str, ...], expected: str
) -> None:
    write("LeaseState.json", TAG_CLASH)
    run = kcompat("lint", *args, "LeaseState.json", cwd=project, real=True)
    assert run.code == 2
    assert expected in run.err
    assert "Traceback" not in run.err and run.out == ""


# -- colour ---------------------------------------------------------------------------------

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def test_color_always_emits_ansi(project: Path, write: Write) -> None:
    write("LeaseState.json", TAG_CLASH)
    run = kcompat("lint", "--color", "always", "LeaseState.json", cwd=project, real=True)
    assert run.code == 1
    assert "\x1b[1;31merror\x1b[0m" in run.out
    assert [ANSI.sub("", line) for line in run.lines][-1] == "Found 1 error in 1 spec file."


@pytest.mark.parametrize("args", [("--color", "never"), ()], ids=["never", "piped"])
def test_no_ansi_when_never_or_piped(project: Path, write: Write, args: tuple[str, ...]) -> None:
    write("LeaseState.json", TAG_CLASH)
    run = kcompat("lint", *args, "LeaseState.json", cwd=project, real=True)
    assert run.code == 1 and "\x1b[" not in run.out
    assert run.lines[-1] == "Found 1 error in 1 spec file."


def test_no_color_environment_wins_over_auto(project: Path, write: Write) -> None:
    write("LeaseState.json", TAG_CLASH)
    run = kcompat("lint", "LeaseState.json", cwd=project, env={"NO_COLOR": "1"}, real=True)
    assert "\x1b[" not in run.out


# -- machine formats ---------------------------------------------------------------------------


def _findings_schema() -> dict[str, object]:
    text = resources.files("kcompat").joinpath("data/findings.schema.json").read_text()
    schema: dict[str, object] = json.loads(text)
    return schema


def test_json_format_matches_the_schema(project: Path, write: Write) -> None:
    write("LeaseState.json", TAG_CLASH)
    write("LeaseLog.json", NO_FLEXIBLE)
    run = kcompat("lint", "--format", "json", ".", cwd=project, real=True)
    assert run.code == 1 and run.err == ""
    report = json.loads(run.out)
    jsonschema.validate(report, _findings_schema())
    assert report["command"] == "lint"
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
    tag = next(f for f in report["findings"] if f["rule"] == "tag-duplicate")
    assert {k: tag[k] for k in ("severity", "file", "line", "column", "message_name")} == {
        "severity": "error",
        "file": "LeaseState.json",
        "line": TAG_LINE,
        "column": TAG_COLUMN,
        "message_name": "LeaseState",
    }
    assert tag["field_path"] == "Epoch"
    assert tag["hint"] == "use tag 1, the next free one"
    assert re.fullmatch(r"[0-9a-f]{16}", tag["fingerprint"])


def test_json_fingerprints_survive_moved_lines(project: Path, write: Write) -> None:
    write("LeaseState.json", TAG_CLASH)
    before = json.loads(kcompat("lint", "-f", "json", "LeaseState.json", cwd=project).out)
    shifted = "// Lease bookkeeping.\n// Owned by the lease manager.\n\n" + TAG_CLASH
    write("LeaseState.json", shifted)
    after = json.loads(kcompat("lint", "-f", "json", "LeaseState.json", cwd=project).out)
    assert [f["line"] for f in after["findings"]] == [f["line"] + 3 for f in before["findings"]]
    assert [f["fingerprint"] for f in after["findings"]] == [
        f["fingerprint"] for f in before["findings"]
    ]
    # A different problem gets a different fingerprint.
    write("LeaseState.json", TAG_CLASH.replace('"Epoch"', '"Term"'))
    renamed = json.loads(kcompat("lint", "-f", "json", "LeaseState.json", cwd=project).out)
    assert renamed["findings"][0]["fingerprint"] != before["findings"][0]["fingerprint"]


def test_json_format_when_clean(project: Path, write: Write) -> None:
    write("ExtendLeaseRequest.json", REQUEST)
    write("ExtendLeaseResponse.json", RESPONSE)
    run = kcompat("lint", "--format", "json", ".", cwd=project)
    report = json.loads(run.out)
    jsonschema.validate(report, _findings_schema())
    assert (run.code, report["findings"], report["summary"]["files"]) == (0, [], 2)


def test_sarif_format(project: Path, write: Write) -> None:
    write("LeaseState.json", TAG_CLASH)
    write("LeaseLog.json", NO_FLEXIBLE)
    run = kcompat("lint", "--format", "sarif", ".", cwd=project)
    assert run.code == 1
    sarif = json.loads(run.out)
    assert sarif["version"] == "2.1.0"
    (sarif_run,) = sarif["runs"]
    driver = sarif_run["tool"]["driver"]
    assert driver["name"] == "kcompat"
    assert [r["id"] for r in driver["rules"]] == ["missing-flexible-versions", "tag-duplicate"]
    results = {r["ruleId"]: r for r in sarif_run["results"]}
    tag = results["tag-duplicate"]
    assert tag["level"] == "error"
    assert driver["rules"][tag["ruleIndex"]]["id"] == "tag-duplicate"
    region = tag["locations"][0]["physicalLocation"]
    assert region["artifactLocation"]["uri"] == "LeaseState.json"
    assert region["region"] == {"startLine": TAG_LINE, "startColumn": TAG_COLUMN}
    assert results["missing-flexible-versions"]["level"] == "warning"
    assert "Hint: " in tag["message"]["text"]


def test_github_format(project: Path, write: Write) -> None:
    write("LeaseState.json", TAG_CLASH)
    run = kcompat("lint", "--format", "github", "LeaseState.json", cwd=project)
    assert run.code == 1
    annotation, summary = run.lines
    match = re.fullmatch(
        r"::(error|warning|notice) file=([^,]+),line=(\d+),col=(\d+),title=([^:]+)::(.*)",
        annotation,
    )
    assert match is not None, annotation
    assert match.groups()[:5] == (
        "error",
        "LeaseState.json",
        str(TAG_LINE),
        str(TAG_COLUMN),
        "kcompat tag-duplicate",
    )
    assert match[6].startswith("tag 0 of Epoch is already used by Expiry (hint: ")
    assert summary == "kcompat lint: 1 error in 1 spec file"


def test_junit_format(project: Path, write: Write) -> None:
    write("LeaseState.json", TAG_CLASH)
    write("LeaseLog.json", NO_FLEXIBLE)
    run = kcompat("lint", "--format", "junit", ".", cwd=project)
    assert run.code == 1
    root = ET.fromstring(run.out)
    assert root.tag == "testsuites"
    assert (root.get("tests"), root.get("failures")) == ("2", "2")
    suites = {str(suite.get("name")): suite for suite in root.iter("testsuite")}
    assert sorted(suites) == ["LeaseLog.json", "LeaseState.json"]
    (case,) = suites["LeaseState.json"].iter("testcase")
    assert case.get("name") == f"tag-duplicate LeaseState.json:{TAG_LINE}:{TAG_COLUMN}"
    failure = case.find("failure")
    assert failure is not None and failure.get("type") == "error"
    assert failure.get("message") == "tag 0 of Epoch is already used by Expiry"


def test_junit_format_when_clean(project: Path, write: Write) -> None:
    write("ExtendLeaseRequest.json", REQUEST)
    write("ExtendLeaseResponse.json", RESPONSE)
    run = kcompat("lint", "--format", "junit", ".", cwd=project)
    root = ET.fromstring(run.out)
    assert (run.code, root.get("failures"), len(list(root.iter("testcase")))) == (0, "0", 1)


def test_markdown_format(project: Path, write: Write) -> None:
    write("LeaseState.json", TAG_CLASH)
    run = kcompat("lint", "--format", "markdown", "LeaseState.json", cwd=project)
    assert run.code == 1
    assert run.lines[0] == "### kcompat spec lint"
    assert re.search(r"\b1 errors?, 0 warnings?, 0 infos?\b", run.lines[2])
    rows = [line for line in run.lines if line.startswith("| ")]
    assert rows[0] == "| rule | severity | count |"
    assert any(
        row.startswith("| [`tag-duplicate`](") and row.endswith(" | error | 1 |") for row in rows
    )
    assert any(
        f"`LeaseState.json:{TAG_LINE}:{TAG_COLUMN}`" in row and "`tag-duplicate`" in row
        for row in rows
    )
    # Every table row has as many cells as its header.
    for row in rows:
        assert row.count(" | ") in (2, 3), row


# -- suppression ---------------------------------------------------------------------------


def _lint_rules(project: Path, name: str) -> list[str]:
    report = json.loads(kcompat("lint", "-f", "json", name, cwd=project).out)
    return [f"{f['rule']}:{f['line']}" for f in report["findings"]]


def test_ignore_comment_on_the_line(project: Path, write: Write) -> None:
    lines = TAG_CLASH.splitlines()
    lines[TAG_LINE - 1] += "  // kcompat: ignore[tag-duplicate] old records still use tag 0"
    write("LeaseState.json", "\n".join(lines) + "\n")
    run = kcompat("lint", "LeaseState.json", cwd=project)
    assert (run.code, run.lines) == (
        0,
        [
            "No problems in 1 spec file (1 suppressed by ignore comments "
            '("old records still use tag 0")).'
        ],
    )


def test_ignore_comment_on_the_line_above(project: Path, write: Write) -> None:
    lines = TAG_CLASH.splitlines()
    lines.insert(TAG_LINE - 1, "    // kcompat: ignore[tag-duplicate] reused on purpose")
    write("LeaseState.json", "\n".join(lines) + "\n")
    assert _lint_rules(project, "LeaseState.json") == []


def test_ignore_comment_names_only_its_rules(project: Path, write: Write) -> None:
    lines = TAG_CLASH.splitlines()
    lines[TAG_LINE - 1] += "  // kcompat: ignore[tag-not-contiguous] wrong rule"
    lines.insert(2, "  // kcompat: ignore[tag-duplicate] too far away")
    write("LeaseState.json", "\n".join(lines) + "\n")
    assert _lint_rules(project, "LeaseState.json") == [f"tag-duplicate:{TAG_LINE + 1}"]


def test_ignore_file_comment(project: Path, write: Write) -> None:
    text = "// kcompat: ignore-file[tag-duplicate, missing-flexible-versions] legacy\n"
    write("LeaseState.json", text + TAG_CLASH)
    write("LeaseLog.json", text + NO_FLEXIBLE)
    run = kcompat("lint", ".", cwd=project)
    assert (run.code, run.lines) == (
        0,
        ['No problems in 2 spec files (2 suppressed by ignore comments ("legacy" ×2)).'],
    )


# -- configuration ---------------------------------------------------------------------------


def test_kcompat_toml_paths_disable_severity_fail_on(project: Path, write: Write) -> None:
    write("specs/LeaseState.json", TAG_CLASH)
    write("specs/LeaseLog.json", NO_FLEXIBLE)
    write("notes/Unrelated.json", TAG_CLASH.replace("LeaseState", "Unrelated"))
    write(
        "kcompat.toml",
        'paths = ["specs"]\n'
        'disable = ["tag-duplicate"]\n'
        'fail-on = "warning"\n'
        "[severity]\n"
        'missing-flexible-versions = "info"\n',
    )
    run = kcompat("lint", "-f", "json", cwd=project)
    report = json.loads(run.out)
    assert [(f["rule"], f["severity"], f["file"]) for f in report["findings"]] == [
        ("missing-flexible-versions", "info", os.path.join("specs", "LeaseLog.json"))
    ]
    assert report["summary"]["files"] == 2
    assert run.code == 0  # fail-on warning, and the only finding is now info
    write("kcompat.toml", 'paths = ["specs"]\nfail-on = "warning"\n')
    run = kcompat("lint", cwd=project)
    assert run.code == 1 and run.lines[-1] == "Found 1 error, 1 warning in 2 spec files."


def test_config_is_found_from_a_subdirectory(project: Path, write: Write) -> None:
    write("specs/LeaseLog.json", NO_FLEXIBLE)
    write("kcompat.toml", '[severity]\nmissing-flexible-versions = "error"\n')
    run = kcompat("lint", "LeaseLog.json", cwd=project / "specs")
    assert run.code == 1
    assert run.lines[0].startswith("LeaseLog.json:1:1: error [missing-flexible-versions]")


def test_pyproject_tool_kcompat(project: Path, write: Write) -> None:
    write("specs/LeaseState.json", TAG_CLASH)
    write("specs/LeaseLog.json", NO_FLEXIBLE)
    write(
        "pyproject.toml",
        '[project]\nname = "lease-protocol"\n\n'
        '[tool.kcompat]\npaths = ["specs"]\nfail-on = "warning"\n\n'
        '[tool.kcompat.severity]\ntag-duplicate = "warning"\nmissing-flexible-versions = "off"\n',
    )
    run = kcompat("lint", cwd=project)
    assert run.code == 1  # the tag clash is a warning now, and fail-on is warning
    expected = os.path.join("specs", "LeaseState.json")
    assert run.lines == [
        f"{expected}:{TAG_LINE}:{TAG_COLUMN}: warning [tag-duplicate] tag 0 of Epoch is "
        "already used by Expiry",
        "    hint: use tag 1, the next free one",
        "Found 1 warning in 2 spec files.",
    ]
    # The command line wins over the configured fail-on.
    assert kcompat("lint", "--fail-on", "error", cwd=project).code == 0


def test_explicit_config_option(project: Path, write: Write) -> None:
    write("LeaseState.json", TAG_CLASH)
    write("ci/strict.toml", 'disable = ["tag-duplicate"]\n')
    run = kcompat("lint", "--config", "ci/strict.toml", "LeaseState.json", cwd=project)
    assert (run.code, run.lines) == (0, ["No problems in 1 spec file."])


@pytest.mark.parametrize(
    ("config_name", "text", "expected"),
    [
        (
            "kcompat.toml",
            'disable = ["tag-duplicates"]\n',
            "unknown rule 'tag-duplicates' in disable; did you mean 'tag-duplicate'?",
        ),
        (
            "kcompat.toml",
            '[severity]\nmissing-flexible-version = "error"\n',
            "unknown rule 'missing-flexible-version' in [severity]; did you mean "
            "'missing-flexible-versions'?",
        ),
        (
            "pyproject.toml",
            '[tool.kcompat]\ndisabled = ["tag-duplicate"]\n',
            "unknown key 'disabled'; did you mean 'disable'?",
        ),
        (
            "kcompat.toml",
            'fail-on = "sometimes"\n',
            "fail-on must be error, warning, info or never, not 'sometimes'",
        ),
        (
            "kcompat.toml",
            '[severity]\ntag-duplicate = "fatal"\n',
            "[severity] tag-duplicate must be error, warning, info or off, not 'fatal'",
        ),
        ("kcompat.toml", "paths = [\n", "invalid TOML"),
    ],
)
def test_bad_config_exits_2_with_one_line(
    project: Path, write: Write, config_name: str, text: str, expected: str
) -> None:
    write("LeaseState.json", TAG_CLASH)
    config = write(config_name, text)
    line = one_error_line(kcompat("lint", "LeaseState.json", cwd=project, real=True))
    # the line of the setting (its last line here), where the file parses at all
    at = "" if expected == "invalid TOML" else f":{text.rstrip().count(chr(10)) + 1}"
    assert line.startswith(f"kcompat: error: {config}{at}: ")
    assert expected in line


# -- cross-file rules and discovery ------------------------------------------------------------


def test_one_file_still_sees_its_response(project: Path, write: Write) -> None:
    write("specs/ExtendLeaseRequest.json", REQUEST)
    write("specs/ExtendLeaseResponse.json", RESPONSE)
    run = kcompat("lint", "specs/ExtendLeaseRequest.json", cwd=project)
    assert (run.code, run.lines) == (0, ["No problems in 1 spec file."])


def test_one_file_without_its_response(project: Path, write: Write) -> None:
    write("specs/ExtendLeaseRequest.json", REQUEST)
    run = kcompat("lint", "specs/ExtendLeaseRequest.json", cwd=project)
    path = os.path.join("specs", "ExtendLeaseRequest.json")
    assert run.code == 1
    assert run.lines[0] == (
        f"{path}:2:1: error [unpaired-request-response] request ExtendLeaseRequest "
        "(apiKey 1100) has no response"
    )


def test_one_file_sees_a_sibling_with_its_api_key(project: Path, write: Write) -> None:
    write("ExtendLeaseRequest.json", REQUEST)
    write("ExtendLeaseResponse.json", RESPONSE)
    write("ShortenLeaseRequest.json", REQUEST.replace("ExtendLease", "ShortenLease"))
    write("ShortenLeaseResponse.json", RESPONSE.replace("ExtendLease", "ShortenLease"))
    # Whichever file is linted alone, the clash is reported on it, and only on it.
    for name in ("ExtendLeaseRequest.json", "ShortenLeaseRequest.json"):
        other = name.replace("Extend", "@").replace("Shorten", "Extend").replace("@", "Shorten")
        report = json.loads(kcompat("lint", "-f", "json", name, cwd=project).out)
        assert [(f["rule"], f["file"], f["line"]) for f in report["findings"]] == [
            ("duplicate-api-key", name, 3)
        ]
        assert other.removesuffix(".json") in report["findings"][0]["message"]


def test_odd_neighbours_do_not_stop_a_single_file_lint(project: Path, write: Write) -> None:
    write("specs/ExtendLeaseRequest.json", REQUEST)
    write("specs/ExtendLeaseResponse.json", RESPONSE)
    (project / "specs" / "archive.json").mkdir()
    run = kcompat("lint", "specs/ExtendLeaseRequest.json", cwd=project)
    assert (run.code, run.lines, run.err) == (0, ["No problems in 1 spec file."], "")


def test_directory_discovery_skips_non_spec_json(project: Path, write: Write) -> None:
    write("specs/ExtendLeaseRequest.json", REQUEST)
    write("specs/ExtendLeaseResponse.json", RESPONSE)
    write("specs/tsconfig.json", '{"compilerOptions": {"strict": true}}\n')
    write("specs/fixtures/sample-data.json", "[1, 2, 3]\n")
    write("specs/README.md", "# not json\n")
    write("specs/.hidden/Broken.json", "{ nope")
    run = kcompat("lint", "specs", cwd=project)
    assert (run.code, run.lines) == (0, ["No problems in 2 spec files."])


def test_directory_discovery_reports_broken_specs(project: Path, write: Write) -> None:
    write("specs/ExtendLeaseRequest.json", REQUEST)
    write("specs/ExtendLeaseResponse.json", RESPONSE.replace('"0+", "about"', '"0+" "about"'))
    run = kcompat("lint", "specs", cwd=project)
    path = os.path.join("specs", "ExtendLeaseResponse.json")
    assert run.code == 1
    assert (
        f"{path}:8:62: error [invalid-json] expected ',' or '}}' but found '\"about\"'" in run.out
    )
    # The request's partner did not parse, so it is unpaired, as Kafka's build would say.
    assert run.lines[0].startswith(
        f"{os.path.join('specs', 'ExtendLeaseRequest.json')}:2:1: error [unpaired-request-response]"
    )
    assert run.lines[-1] == "Found 2 errors in 2 spec files."


# -- inputs that are not specs at all ------------------------------------------------------------


def _huge() -> bytes:
    return b'{"name": "Huge", "about": "' + b"x" * (4 * 1024 * 1024 + 10) + b'"}'


@pytest.mark.parametrize(
    ("content", "rule", "line", "column", "message"),
    [
        (b"", "invalid-json", 1, 1, "file is empty; a spec file holds one JSON object"),
        (b"  \n\n", "invalid-json", 1, 1, "file is empty; a spec file holds one JSON object"),
        (b"// just a comment\n", "invalid-json", 1, 1, "file is empty"),
        (b"[]\n", "not-an-object", 1, 1, "the top-level value is an array"),
        (b'"FooRequest"\n', "not-an-object", 1, 1, "the top-level value is a string"),
        (b"null", "not-an-object", 1, 1, "the top-level value is null"),
        (b'{"name": "Caf\xe9"}', "invalid-json", 1, 14, "not valid UTF-8 (byte 0xe9"),
        (b"\xff\xfe{\x00}\x00", "invalid-json", 1, 1, "not valid UTF-8 (byte 0xff"),
        (b"[" * 10_000 + b"]" * 10_000, "invalid-json", 1, 65, "nesting deeper than 64"),
        (b'{"a":' * 10_000 + b"1" + b"}" * 10_000, "invalid-json", 1, 321, "nesting deeper"),
        (_huge(), "invalid-json", 1, 1, "over the 4 MiB limit"),
        (b"{\x00}", "invalid-json", 1, 2, "control character '\\x00' between tokens"),
    ],
    ids=[
        "empty",
        "blank",
        "comment-only",
        "array",
        "string",
        "null",
        "latin-1",
        "utf-16",
        "deep-arrays",
        "deep-objects",
        "over-4MiB",
        "nul-byte",
    ],
)
def test_bad_input_is_a_finding_never_a_traceback(
    project: Path, content: bytes, rule: str, line: int, column: int, message: str
) -> None:
    # under a configured spec path, a file that does not parse is a spec whatever it says
    (project / "kcompat.toml").write_text('paths = ["."]\n')
    (project / "Input.json").write_bytes(content)
    real = message.startswith(
        ("file is empty;", "not valid UTF-8 (byte 0xe9", "nesting deeper than")
    )
    run = kcompat("lint", "-f", "json", "Input.json", cwd=project, real=real)
    assert run.code == 1, run.err
    assert run.err == ""
    (finding,) = json.loads(run.out)["findings"]
    assert (finding["rule"], finding["line"], finding["column"]) == (rule, line, column)
    assert message in finding["message"]
    assert "\n" not in finding["message"]


def test_bad_inputs_in_a_directory_do_not_stop_the_run(project: Path, write: Write) -> None:
    write("specs/ExtendLeaseRequest.json", REQUEST)
    write("specs/ExtendLeaseResponse.json", RESPONSE)
    deep = b'{"validVersions": "0", "fields": ' + b"[" * 10_000 + b"]" * 10_000 + b"}"
    (project / "specs" / "Deep.json").write_bytes(deep)
    (project / "specs" / "Latin.json").write_bytes(b'{"validVersions": "0", "name": "\xe9"}')
    (project / "specs" / "Page.json").write_bytes(b'{"apiKey": {{ key }}}')  # a template
    run = kcompat("lint", "specs", cwd=project, real=True)
    assert run.code == 1 and "Traceback" not in run.err
    assert run.err == (
        "kcompat: note: left out 1 .json file that does not parse and never names "
        "validVersions (not specs: templates?): specs/Page.json; list their folder in "
        "kcompat.toml's paths to check them as specs\n"
    )
    rules = sorted(FINDING_LINE.match(x)["rule"] for x in run.lines if FINDING_LINE.match(x))  # type: ignore[index]
    assert rules == ["invalid-json", "invalid-json"]
    assert run.lines[-1] == "Found 2 errors in 4 spec files."


def test_missing_path_among_good_ones_is_exit_2(project: Path, write: Write) -> None:
    write("LeaseState.json", TAG_CLASH)
    run = kcompat("lint", "LeaseState.json", "ghost/Spec.json", cwd=project, real=True)
    assert one_error_line(run) == "kcompat: error: ghost/Spec.json: no such file or directory"
    assert run.out == ""
