"""No name or value from a spec file reaches the reader raw, in any command or format.

Specs whose message, field and type names, file name, defaults and decoded strings hold
escape sequences (CSI, OSC), bidi overrides and isolates, line and paragraph separators,
C1 controls, DEL and ``<script>`` go through every command and format via the CLI. Human
formats must show them escaped (``\\x1b``, ``\\u202e``); JUnit must stay valid XML;
Markdown must not carry raw HTML; the JSON formats keep the real values, as valid JSON
with nothing raw a terminal would act on.
"""

from __future__ import annotations

import io
import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.diff_runner import CliRun, commit_tree, init_repo, run_cli, write_files

#: What every name below carries: CSI (clear screen), OSC (set the title), BEL, bidi
#: override and isolate, line and paragraph separators, C1 CSI, DEL, SOH, HTML, and the
#: two characters Markdown tables and code spans are made of.
HOSTILE = "\x1b[2J\x1b]0;pwn\x07\u202e\u2066\u2028\u2029\x9b\x7f\x01<script>alert(1)</script>`|"
FILE = "Evil\x1b[31m\u202eRequest.json"
#: Characters no human-facing output may hold raw (newline aside).
RAW = re.compile(
    "[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]"
)
SGR = re.compile("\x1b\\[[0-9;]*m")


def spec(*, changed: bool, name: str = "EvilRequest") -> str:
    """A request whose names are hostile; ``changed`` retypes a field and adds two (one
    a struct array of a hostile type), so diff and drift have findings to tell."""
    fields: list[dict[str, Any]] = [
        {"name": "Lease" + HOSTILE, "type": "string", "versions": "0+", "about": HOSTILE},
        {"name": "Count", "type": "int32", "versions": "0+", "about": "A count."},
    ]
    if changed:
        fields[1]["type"] = "int64"
        fields.append(
            {"name": "Added" + HOSTILE, "type": "string", "versions": "0+", "default": HOSTILE}
        )
        fields.append(
            {
                "name": "Items",
                "type": "[]Item" + HOSTILE,
                "versions": "0+",
                "fields": [{"name": "Id" + HOSTILE, "type": "int8", "versions": "0+"}],
            }
        )
    document = {
        "apiKey": 1100,
        "type": "request",
        "listeners": ["broker"],
        "name": name,
        "validVersions": "0-1",
        "flexibleVersions": "1+",
        "fields": fields,
    }
    return json.dumps(document, indent=2, ensure_ascii=False)


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """BASE commits the plain spec; the working tree holds the changed one. Two more
    directories hold the same two for drift."""
    root = init_repo(tmp_path_factory.mktemp("safety") / "repo")
    commit_tree(root, {FILE: spec(changed=False, name="Evil" + HOSTILE + "Request")}, "base")
    write_files(root, {FILE: spec(changed=True, name="Evil" + HOSTILE + "Request")})
    # drift pairs by API key: the local copy's message has the hostile name of its own
    for side, changed, name in (
        ("upstream", False, "EvilRequest"),
        ("local", True, "Evil" + HOSTILE + "Request"),
    ):
        (root.parent / side).mkdir(exist_ok=True)
        (root.parent / side / FILE).write_text(spec(changed=changed, name=name), encoding="utf-8")
    return root


def raw(text: str, *, colour: bool = False) -> list[str]:
    """The characters of ``text`` a terminal would act on (colour codes allowed when
    ``colour``: kcompat's own styling)."""
    return sorted(set(RAW.findall(SGR.sub("", text) if colour else text)))


def human(run: CliRun, *, colour: bool = False) -> str:
    assert run.code in (0, 1), run
    assert not raw(run.stdout, colour=colour), raw(run.stdout, colour=colour)
    assert not raw(run.stderr), raw(run.stderr)
    return run.stdout


def shows_escaped(out: str) -> None:
    """The hostile characters are there to read, escaped, not dropped."""
    assert "\\x1b[2J" in out and "\\u202e" in out, out


def machine_json(run: CliRun) -> Any:
    assert run.code in (0, 1), run
    assert not raw(run.stdout.replace("\t", " ")), raw(run.stdout)
    document = json.loads(run.stdout)
    assert any(HOSTILE in value for value in strings(document))  # the real values, kept
    return document


def strings(value: Any) -> list[str]:
    """Every string in a JSON value, keys included."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for key, item in value.items() for s in (key, *strings(item))]
    if isinstance(value, list):
        return [s for item in value for s in strings(item)]
    return []


def junit(run: CliRun) -> None:
    out = human(run)
    ET.fromstring(out.encode("utf-8"))
    shows_escaped(out)


def outside_code(text: str) -> str:
    """Markdown less its code blocks and code spans (where ``<`` is literal, not HTML)."""
    text = re.sub(r"^(`{3,})\n.*?^\1$", "", text, flags=re.M | re.S)
    return re.sub(r"(`+)(?!`).*?(?<!`)\1(?!`)", "", text)


def markdown(run: CliRun) -> None:
    out = human(run)
    assert "<script>" not in outside_code(out), outside_code(out)
    shows_escaped(out)


def text(run: CliRun) -> None:
    shows_escaped(human(run))


def coloured(run: CliRun) -> None:
    out = human(run, colour=True)
    assert SGR.search(out)
    shows_escaped(out)


def github(run: CliRun) -> None:
    out = human(run)
    assert all(line.startswith(("::", "kcompat ")) for line in out.splitlines()), out
    shows_escaped(out)


CHECKS: dict[str, tuple[tuple[str, ...], Callable[[CliRun], Any]]] = {
    "text": (("--color", "never"), text),
    "text-colour": (("--color", "always"), coloured),
    "github": (("-f", "github"), github),
    "markdown": (("-f", "markdown"), markdown),
    "junit": (("-f", "junit"), junit),
    "json": (("-f", "json"), machine_json),
    "sarif": (("-f", "sarif"), machine_json),
    "gitlab": (("-f", "gitlab"), machine_json),
}


@pytest.mark.parametrize("fmt", sorted(CHECKS))
def test_lint(repo: Path, fmt: str) -> None:
    args, check = CHECKS[fmt]
    check(run_cli(["lint", *args, FILE], repo))


@pytest.mark.parametrize("fmt", sorted(CHECKS))
def test_diff(repo: Path, fmt: str) -> None:
    args, check = CHECKS[fmt]
    run = run_cli(["diff", "HEAD", *args], repo)
    assert run.code == 1, run  # the retyped field is a break
    check(run)


@pytest.mark.parametrize("fmt", sorted(CHECKS))
def test_drift(repo: Path, fmt: str) -> None:
    args, check = CHECKS[fmt]
    check(run_cli(["drift", *args, "--fail-on", "never", "../upstream", "../local"], repo))


EXPLAIN = ("explain", "1100", "-t", "request", "--specs", FILE, "--width", "120")


@pytest.mark.parametrize("against", [(), ("--against", "HEAD")], ids=["matrix", "against"])
@pytest.mark.parametrize("fmt", ["text", "markdown", "json", "svg", "html"])
def test_explain(repo: Path, fmt: str, against: tuple[str, ...]) -> None:
    run = run_cli([*EXPLAIN, "-f", fmt, "--color", "never", *against], repo)
    if fmt == "json":
        machine_json(run)
        return
    out = human(run)
    shows_escaped(out)
    if fmt == "svg":
        ET.fromstring(out.encode("utf-8"))
    if fmt in ("svg", "html"):
        assert "<script>" not in out


def test_explain_version_grammar(repo: Path) -> None:
    shows_escaped(human(run_cli([*EXPLAIN, "--version", "1", "--color", "never"], repo)))


#: EvilRequest v0 as BASE writes it: the string field holds the hostile text, Count is 7.
PAYLOAD = HOSTILE.encode("utf-8")
HEX = (len(PAYLOAD).to_bytes(2, "big") + PAYLOAD + (7).to_bytes(4, "big")).hex()


def test_decode_annotate(repo: Path) -> None:
    base = repo.parent / "upstream"
    run = run_cli(["decode", "1100", "-t", "request", "--specs", str(base), "--version", "0",
                   "--annotate", HEX], repo)  # fmt: skip
    shows_escaped(human(run))


def test_decode_json_keeps_the_value(repo: Path) -> None:
    base = repo.parent / "upstream"
    run = run_cli(["decode", "1100", "-t", "request", "--specs", str(base), "--version", "0",
                   HEX], repo)  # fmt: skip
    document = machine_json(run)
    assert HOSTILE in document.values()


def test_error_lines(repo: Path) -> None:
    run = run_cli(["lint", "Missing" + HOSTILE + ".json"], repo)
    assert run.code == 2, run
    assert not raw(run.stderr), run.stderr
    assert "\\x1b[2J" in run.stderr
    run = run_cli(["explain", "No" + HOSTILE, "--specs", FILE], repo)
    assert run.code == 2, run
    assert not raw(run.stderr), run.stderr


@pytest.mark.parametrize("terminal", [False, True], ids=["plain", "rich"])
def test_summary_tables(terminal: bool) -> None:
    """history and corpus verify print their tables through these (Spark-free here)."""
    from rich.console import Console

    from kcompat.report.tables import TableDocument, markdown_tables
    from kcompat.terminal import draw_document

    tables = [("Breaks" + HOSTILE, ["message", "field"], [["Evil" + HOSTILE, "F" + HOSTILE]])]
    buffer = io.StringIO()
    console = Console(file=buffer, force_terminal=terminal, no_color=True, width=400)
    draw_document(TableDocument({}, "head" + HOSTILE, tuple(tables)), console)
    out = buffer.getvalue()
    assert not raw(out, colour=True), raw(out, colour=True)
    shows_escaped(out)
    lines = "\n".join(markdown_tables("kcompat history", "head" + HOSTILE, tables))
    assert not raw(lines) and "<script>" not in lines
    shows_escaped(lines)


def test_markdown_code_spans_hold_backticks() -> None:
    """A backtick in a name cannot end the code span around it."""
    from kcompat.report.markdown import code

    assert code("a`b") == "``a`b``"
    assert code("`x`") == "`` `x` ``"
