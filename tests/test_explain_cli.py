"""``kcompat explain`` end to end: real processes, exit codes, errors, formats, git.

Exit status: 0 shown, 2 for anything the user must fix (unknown message, version,
revision or path), with one line on stderr and nothing on stdout.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import git
from tests.unit.explain.test_explain import check_markdown_tables

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "specs" / "examples"


def kcompat(
    *args: str, cwd: Path = ROOT, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    full_env = {**os.environ, "COLUMNS": "100", "PYTHONIOENCODING": "utf-8", **(env or {})}
    full_env.pop("NO_COLOR", None)
    return subprocess.run(
        [sys.executable, "-m", "kcompat", "explain", *args],
        cwd=cwd,
        env=full_env,
        capture_output=True,
        text=True,
        check=False,
    )


def usage_error(done: subprocess.CompletedProcess[str]) -> str:
    """The one stderr line of an exit-2 run."""
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    return lines[0]


# -- the example specs ----------------------------------------------------------------------
def test_text_output() -> None:
    done = kcompat("WidgetRequest", "--specs", "specs/examples", "--color", "never")
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    lines = done.stdout.splitlines()
    assert lines[0] == "WidgetRequest · request · apiKey 200"
    assert lines[1] == "specs/examples/WidgetRequest.json"
    assert "valid 0-4 · flexible 2+ · deprecated 0 · v4 unstable" in lines[2]
    assert "timeline" in lines
    assert "\x1b[" not in done.stdout


def test_api_key_shows_request_and_response() -> None:
    done = kcompat("200", "--specs", "specs/examples", "-f", "json")
    assert done.returncode == 0, done.stderr
    names = [m["name"] for m in json.loads(done.stdout)["messages"]]
    assert names == ["WidgetRequest", "WidgetResponse"]
    done = kcompat("200", "--type", "response", "--specs", "specs/examples", "-f", "json")
    assert [m["name"] for m in json.loads(done.stdout)["messages"]] == ["WidgetResponse"]


def test_markdown_and_version_grammar() -> None:
    done = kcompat("widget", "--specs", "specs/examples", "-f", "markdown", "--version", "2")
    assert done.returncode == 0, done.stderr
    assert check_markdown_tables(done.stdout) == 2
    assert "Widget Request (Version: 2) => " in done.stdout
    assert "Widget Response (Version: 2) => " in done.stdout


@pytest.mark.parametrize(("fmt", "marker"), [("svg", "<svg"), ("html", "<html")])
def test_svg_and_html_exports(fmt: str, marker: str) -> None:
    done = kcompat("WidgetResponseHeader", "--specs", "specs/examples", "-f", fmt)
    assert done.returncode == 0, done.stderr
    assert done.stdout.lstrip().startswith(marker) or marker in done.stdout[:200]
    assert "WidgetResponseHeader" in done.stdout


def test_the_svg_fetches_nothing() -> None:
    """Like the HTML report, the image works offline and tells no third party it was
    opened: no web font (rich's default loads Fira Code from a CDN), no URL but the SVG
    namespace, and a font stack of fonts installed locally."""
    import xml.etree.ElementTree as ET

    done = kcompat("WidgetRequest", "--specs", "specs/examples", "-f", "svg")
    assert done.returncode == 0, done.stderr
    ET.fromstring(done.stdout)  # well-formed
    urls = set(re.findall(r"(?:https?:)?//[\w.-]+[^\s\"')]*", done.stdout))
    assert urls == {"http://www.w3.org/2000/svg"}
    assert "@font-face" not in done.stdout and "@import" not in done.stdout
    assert not re.search(r"url\((?!#)", done.stdout)  # only references inside the image
    stacks = set(re.findall(r"font-family: ([^;]+);", done.stdout))
    assert stacks and all(s.endswith(("monospace", "sans-serif")) for s in stacks), stacks
    assert any("'DejaVu Sans Mono'" in s and "Menlo" in s for s in stacks), stacks


def test_ascii_on_request_and_when_the_terminal_cannot_show_unicode() -> None:
    done = kcompat("WidgetRequest", "--specs", "specs/examples", "--ascii")
    assert done.returncode == 0 and done.stdout.isascii()
    done = kcompat("WidgetRequest", "--specs", "specs/examples", env={"PYTHONIOENCODING": "ascii"})
    assert done.returncode == 0, done.stderr
    assert done.stdout.isascii()
    assert "#T1" in done.stdout  # DryRun, a tagged bool


def test_colour_follows_the_option() -> None:
    done = kcompat("WidgetRequest", "--specs", "specs/examples", "--color", "always")
    assert "\x1b[" in done.stdout
    done = kcompat("WidgetRequest", "--specs", "specs/examples", env={"NO_COLOR": "1"})
    assert "\x1b[" not in done.stdout


def test_width_option() -> None:
    done = kcompat("WidgetRequest", "--specs", "specs/examples", "--width", "60")
    assert done.returncode == 0, done.stderr
    assert max(len(line) for line in done.stdout.splitlines()) <= 60


# -- usage errors ---------------------------------------------------------------------------
def test_unknown_name_suggests_and_exits_2() -> None:
    line = usage_error(kcompat("WidgetRequets", "--specs", "specs/examples"))
    assert line == (
        "kcompat: error: no message named 'WidgetRequets' in specs/examples; "
        "did you mean 'WidgetRequest' or 'WidgetRequestHeader'?"
    )


def test_unknown_api_key_and_version() -> None:
    line = usage_error(kcompat("7", "--specs", "specs/examples"))
    assert line == "kcompat: error: no message with apiKey 7 in specs/examples"
    line = usage_error(kcompat("WidgetRequest", "--specs", "specs/examples", "--version", "9"))
    assert line == "kcompat: error: WidgetRequest has no version 9 (valid versions: 0-4)"


def test_bad_paths_and_options() -> None:
    line = usage_error(kcompat("WidgetRequest", "--specs", "no/such/dir"))
    assert "no/such/dir: no such file or directory" in line
    line = usage_error(kcompat("Widget", "--specs", "tests/snapshots"))
    assert "no spec files found in tests/snapshots" in line
    line = usage_error(
        kcompat("WidgetRequest", "--specs", "specs/examples", "--version", "1", "--against", ".")
    )
    assert "does not combine with --against" in line
    done = kcompat("WidgetRequest", "--type", "query")
    assert done.returncode == 2 and "query" in done.stderr


def test_configured_paths_are_the_default(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()  # stop configuration lookup here
    shutil.copytree(EXAMPLES, tmp_path / "proto")
    (tmp_path / "kcompat.toml").write_text('paths = ["proto"]\n')
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "WidgetRequest.json").write_text("not a spec, and not read")
    done = kcompat("WidgetRequest", "-f", "json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["messages"][0]["path"] == "proto/WidgetRequest.json"


# -- git: --rev and --against ---------------------------------------------------------------
@pytest.fixture()
def project(repo: Path) -> Path:
    """The examples committed under specs/, then WidgetResponse edited in the working tree."""
    shutil.copytree(EXAMPLES, repo / "specs", ignore=shutil.ignore_patterns("*.md"))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "widgets")
    spec = repo / "specs" / "WidgetResponse.json"
    text = spec.read_text()
    text = text.replace('"validVersions": "0-4"', '"validVersions": "0-5"')
    text = text.replace(
        '"name": "ErrorCode", "type": "int16", "versions": "0+",\n      "about": "The top',
        '"name": "ErrorCode", "type": "int32", "versions": "0+",\n      "about": "The top',
    )
    spec.write_text(text)
    return repo


def test_rev_shows_the_message_at_a_revision(project: Path) -> None:
    now = json.loads(kcompat("WidgetResponse", "-f", "json", cwd=project).stdout)
    then = kcompat("WidgetResponse", "--rev", "HEAD", "-f", "json", cwd=project)
    assert then.returncode == 0, then.stderr
    old = json.loads(then.stdout)["messages"][0]
    assert (now["messages"][0]["valid_versions"], old["valid_versions"]) == ("0-5", "0-4")
    assert old["path"] == "HEAD:specs/WidgetResponse.json"


def test_against_highlights_changes_and_lists_findings(project: Path) -> None:
    done = kcompat("WidgetResponse", "--against", "HEAD", "--no-proof", cwd=project)
    assert done.returncode == 0, done.stderr
    assert "changes since HEAD (HEAD:specs/WidgetResponse.json) in the working tree" in done.stdout
    assert "+v5" in done.stdout
    assert "~ ErrorCode" in done.stdout
    assert "[field-type-changed]" in done.stdout
    document = json.loads(
        kcompat(
            "WidgetResponse", "--against", "HEAD", "--no-proof", "-f", "json", cwd=project
        ).stdout
    )
    against = document["messages"][0]["against"]
    assert against["base"] == "HEAD" and against["head"] == "the working tree"
    rules = {f["rule"] for f in against["findings"]}
    assert "field-type-changed" in rules and "version-added" in rules
    error_code = next(r for r in document["messages"][0]["rows"] if r["path"] == "ErrorCode")
    assert error_code["change"] == "changed"
    assert [c["change"] for c in error_code["cells"]] == ["changed"] * 5 + [None]


def test_against_an_unchanged_message(project: Path) -> None:
    done = kcompat("WidgetRequest", "--against", "HEAD", "-f", "markdown", cwd=project)
    assert done.returncode == 0, done.stderr
    assert "`kcompat diff`: no findings for `WidgetRequest`." in done.stdout
    assert check_markdown_tables(done.stdout) == 1


def test_against_a_message_new_since_base(project: Path) -> None:
    text = (project / "specs" / "WidgetResponseHeader.json").read_text()
    new = text.replace('"WidgetResponseHeader"', '"GadgetResponseHeader"')
    (project / "specs" / "GadgetResponseHeader.json").write_text(new)
    done = kcompat("GadgetResponseHeader", "--against", "HEAD", cwd=project)
    assert done.returncode == 0, done.stderr
    assert "(not there: a new message)" in done.stdout
    assert "+ CallId" in done.stdout


def test_rev_errors(project: Path, tmp_path: Path) -> None:
    line = usage_error(kcompat("WidgetResponse", "--rev", "nosuchrev", cwd=project))
    assert "unknown revision 'nosuchrev'" in line
    outside = tmp_path / "plain"
    outside.mkdir()
    (outside / ".git").write_text("")  # not a repository, but stops the search upwards
    line = usage_error(kcompat("WidgetResponse", "--rev", "HEAD", cwd=outside))
    assert "not inside a git repository" in line or "git" in line


# -- widths, legends, exports, findings with their bytes (issue 14) ------------------------


def _grammar_table(text: str) -> list[str]:
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("field ") and "notes" in line)
    return lines[start:]


def test_grammar_notes_wrap_inside_their_column_at_80() -> None:
    done = kcompat("WidgetRequest", "--specs", "specs/examples", "--version", "2", "--width", "80",
                   "--color", "never")  # fmt: skip
    assert done.returncode == 0, done.stderr
    table = _grammar_table(done.stdout)
    notes_at = table[0].index("notes")
    assert all(len(line) <= 80 for line in done.stdout.splitlines())
    continued = [line for line in table[1:] if not line[:notes_at].strip()]
    assert continued, "expected a note long enough to wrap at 80 columns"
    for line in continued:  # a continuation starts in the notes column, never at column 0
        assert len(line) - len(line.lstrip()) == notes_at, line
    assert "1 dry_run" in "\n".join(continued)


def test_grammar_type_column_is_whole_at_100() -> None:
    done = kcompat("WidgetRequest", "--specs", "specs/examples", "--version", "2", "--width",
                   "100", "--color", "never")  # fmt: skip
    table = _grammar_table(done.stdout)
    assert not [line for line in table if "~" in line]
    assert any("COMPACT_ARRAY[STRUCT WidgetSpec]" in line for line in table)


def test_a_terminal_narrower_than_the_minimum_is_clamped() -> None:
    narrow = kcompat("WidgetRequest", "--specs", "specs/examples", "--color", "never",
                     env={"COLUMNS": "12"})  # fmt: skip
    assert narrow.returncode == 0, narrow.stderr
    forty = kcompat("WidgetRequest", "--specs", "specs/examples", "--color", "never",
                    "--width", "40")  # fmt: skip
    assert narrow.stdout == forty.stdout
    assert max(len(line) for line in narrow.stdout.splitlines()) <= 40
    clamped = kcompat("WidgetRequest", "--specs", "specs/examples", "--color", "never",
                      "--width", "10")  # fmt: skip
    assert (clamped.returncode, clamped.stdout) == (0, forty.stdout)


def test_text_and_markdown_legends_show_the_same_glyphs() -> None:
    from kcompat.explain.matrix import CHANGES_LEGEND, LEGEND

    args = ("WidgetRequest", "--specs", "specs/examples-v2", "--against", "specs/examples",
            "--no-proof", "--color", "never")  # fmt: skip
    text = kcompat(*args, "--ascii").stdout
    markdown = kcompat(*args, "-f", "markdown").stdout
    legend_text = " ".join(
        line.strip() for line in text.split("\nlegend: ", 1)[1].split("\n\n", 1)[0].splitlines()
    )
    legend_md = next(line for line in markdown.splitlines() if line.startswith("Legend: "))
    for _unicode, ascii_, _meaning in LEGEND:
        assert f"{ascii_} " in legend_text and f"`{ascii_}` " in legend_md
    assert CHANGES_LEGEND in legend_text and f"`{CHANGES_LEGEND}`" in legend_md
    unicode_text = kcompat(*args).stdout
    for glyph, _ascii, _meaning in LEGEND:
        assert f"{glyph} " in unicode_text.split("legend: ", 1)[1]


def test_html_has_a_title_and_the_terminal_s_blocks() -> None:
    """The page draws the picture a terminal of --width columns draws (issue 35.2: the
    SVG's picture too, tests/test_explain_page.py), its blocks of versions included."""
    done = kcompat("WidgetRequest", "--specs", "specs/examples", "-f", "html", "--width", "40")
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("<title>kcompat explain WidgetRequest</title>") == 1
    text = re.sub(r"<[^>]+>", "", done.stdout)
    header_lines = [line for line in text.splitlines() if line.startswith("field ")]
    blocks = kcompat("WidgetRequest", "--specs", "specs/examples", "--width", "40").stdout
    terminal = [line for line in blocks.splitlines() if line.startswith("field ")]
    assert len(terminal) > 1 and header_lines == terminal


def test_against_shows_the_bytes_its_hints_speak_of() -> None:
    done = kcompat("WidgetResponse", "--specs", "specs/examples-v2", "--against",
                   "specs/examples", "--color", "never", "--width", "100")  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    # every counterexample sits on the finding that explains it (no standalone proof
    # finding here since issue 23): each shows its bytes
    proofs = [i for i, line in enumerate(lines) if " base->head: " in line]
    assert proofs
    for at in proofs:
        assert any(line.strip().startswith("0000  ") for line in lines[at : at + 4])
    hints = [i for i, line in enumerate(lines) if "the bytes below" in line]
    for at in hints:
        assert any(line.strip().startswith("0000  ") for line in lines[at : at + 12])
    markdown = kcompat("WidgetResponse", "--specs", "specs/examples-v2", "--against",
                       "specs/examples", "-f", "markdown").stdout  # fmt: skip
    md_lines = markdown.splitlines()
    for at in [i for i, line in enumerate(md_lines) if "the bytes below" in line]:
        assert any(line.strip().startswith("0000  ") for line in md_lines[at : at + 12])
