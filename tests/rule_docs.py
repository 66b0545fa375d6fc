"""Read the rule pages in ``rules/<rule-id>.md`` and run their examples.

A page looks like this (the tests hold every page to it)::

    # <rule-id>

    | kind | category | severity |
    |---|---|---|
    | lint | <category> | <severity> |

    <the one-line summary, exactly as registered>

    ## Why it matters
    ...
    ## How to fix
    ...
    ## Configuration      (optional: kcompat.toml lines for turning it down or accepting it)
    ## Known problems     (optional: documented limitations)
    ## Related rules      (optional: `rule-id`: the neighbouring edit it reports)
    ## Examples
    ### Failing
    ```json fail [FileName.json]
    ...
    ```

    `kcompat lint` reports:

    ```text finding
    FileName.json:7:5: error [<rule-id>] <message>
    ```

Example blocks are fenced code blocks whose info string is ``json <role> [<filename>]``.
Lint pages use the roles ``fail`` and ``pass``; diff pages use ``fail-base``,
``fail-head``, ``pass-base`` and ``pass-head``, and optionally ``fail-release`` and
``pass-release``: files a release shipped (tagged ``1.0.0`` on a release branch, as
Kafka does, before BASE). Several blocks with one role form a multi-file example. A block
without a file name is named after its message (its ``"name"``), or ``Example.json``. A
``toml <role> kcompat.toml`` block is the configuration that example runs with.

One ``text finding`` block, after the failing example and before the passing one, holds
the finding lines kcompat prints for the failing example: the text format's
``path:line:col: severity [rule-id] message`` lines of the page's rule, in printed order
(the tests run the example and compare them exactly).
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from kcompat.config import Config
from kcompat.findings import Finding
from kcompat.lint.check import lint_specs
from kcompat.rules.registry import rule_categories
from kcompat.sources.reading import read_targets
from kcompat.sources.sides import path_side
from kcompat.spec.load import JObject, LoadError, parse_document

ROOT = Path(__file__).resolve().parent.parent
RULES_DIR = ROOT / "rules"

LINT_ROLES = ("fail", "pass")
DIFF_ROLES = ("fail-base", "fail-head", "pass-base", "pass-head")
RELEASE_ROLES = ("fail-release", "pass-release")
ROLES = LINT_ROLES + DIFF_ROLES + RELEASE_ROLES
CONFIG_FILE = "kcompat.toml"
FINDING_INFO = ("text", "finding")

_FENCE = re.compile(r"^(`{3,})(.*)$")
_FILE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*\.json\Z")
_NAME_KEY = re.compile(r'"name"\s*:\s*"([A-Za-z][A-Za-z0-9]*)"')
_HEADER = ("kind", "category", "severity")
#: The sections a page may have, in the order it must have them.
SECTIONS = (
    "Why it matters",
    "How to fix",
    "Configuration",
    "Known problems",
    "Related rules",
    "Examples",
)
REQUIRED_SECTIONS = ("Why it matters", "How to fix", "Examples")

Fail = Callable[[int, str], "RuleDocError"]


class RuleDocError(ValueError):
    """A rule page that does not follow the format; the message names file and line."""


@dataclass(frozen=True)
class ExampleFile:
    """One fenced example block: the file it stands for and its text."""

    role: str
    filename: str
    text: str
    line: int  # line of the opening fence in the page


@dataclass(frozen=True)
class RuleDoc:
    """A parsed rule page."""

    path: Path
    id: str
    kind: str
    category: str
    severity: str
    summary: str
    why: str
    fix: str
    examples: dict[str, list[ExampleFile]] = field(default_factory=dict)
    finding: tuple[str, ...] = ()  # the finding lines the failing example prints
    extra: dict[str, str] = field(default_factory=dict)  # the optional sections' text

    def files(self, role: str) -> list[tuple[str, str]]:
        """The example of one role as (filename, text) pairs, in page order."""
        return [(example.filename, example.text) for example in self.examples.get(role, [])]


def default_filename(text: str) -> str:
    """``<name>.json`` from the spec's top-level name, or ``Example.json``."""
    try:
        root = parse_document(text).root
    except LoadError:
        root = None
    if isinstance(root, JObject):
        name = root.get("name")
        if isinstance(name, str) and re.fullmatch(r"[A-Za-z][A-Za-z0-9_-]*", name):
            return f"{name}.json"
        return "Example.json"
    match = _NAME_KEY.search(text)  # a broken file: its first name is the message's
    return f"{match.group(1)}.json" if match else "Example.json"


def parse_rule_doc(path: Path) -> RuleDoc:
    """Parse one page; raises :class:`RuleDocError` on any departure from the format."""
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()

    def fail(line_no: int, message: str) -> RuleDocError:
        return RuleDocError(f"{path.name}:{line_no}: {message}")

    if not lines or not lines[0].startswith("# "):
        raise fail(1, "the page must start with '# <rule-id>'")
    rule_id = lines[0][2:].strip()
    # The metadata table: header, separator, one row.
    index = _skip_blank(lines, 1)
    if index + 2 >= len(lines):
        raise fail(index + 1, "missing the kind/category/severity table")
    header = _cells(lines[index])
    if tuple(header) != _HEADER:
        raise fail(index + 1, f"table header must be | kind | category | severity |, not {header}")
    if not re.fullmatch(r"\|(\s*:?-{3,}:?\s*\|){3}", lines[index + 1].replace(" ", "")):
        raise fail(index + 2, "table separator must be |---|---|---|")
    row = _cells(lines[index + 2])
    if len(row) != 3:
        raise fail(index + 3, "the table row must have three cells")
    kind, category, severity = row
    # The summary: the paragraph before the first '## ' heading.
    index = _skip_blank(lines, index + 3)
    summary_lines = []
    while index < len(lines) and lines[index].strip() and not lines[index].startswith("#"):
        summary_lines.append(lines[index].strip())
        index += 1
    if not summary_lines:
        raise fail(index + 1, "missing the one-line summary after the table")
    summary = " ".join(summary_lines)
    sections = _sections(lines, index, fail)
    for heading in REQUIRED_SECTIONS:
        if heading not in sections:
            raise fail(len(lines), f"missing section '## {heading}'")
    _check_order(sections, fail)
    why = "\n".join(sections["Why it matters"][1]).strip()
    fix = "\n".join(sections["How to fix"][1]).strip()
    if not why:
        raise fail(sections["Why it matters"][0], "'Why it matters' is empty")
    if not fix:
        raise fail(sections["How to fix"][0], "'How to fix' is empty")
    start, body = sections["Examples"]
    examples, finding = _examples(body, start, fail)
    extra = {
        name: "\n".join(sections[name][1]).strip()
        for name in SECTIONS
        if name in sections and name not in REQUIRED_SECTIONS
    }
    for name, text in extra.items():
        if not text:
            raise fail(sections[name][0], f"'{name}' is empty")
    return RuleDoc(
        path, rule_id, kind, category, severity, summary, why, fix, examples, finding, extra
    )


def _check_order(sections: dict[str, tuple[int, list[str]]], fail: Fail) -> None:
    """Only the known sections, in the order of :data:`SECTIONS`."""
    rank = -1
    for name, (line_no, _body) in sections.items():
        if name not in SECTIONS:
            raise fail(line_no, f"unknown section '## {name}' (one of {', '.join(SECTIONS)})")
        if SECTIONS.index(name) < rank:
            raise fail(line_no, f"section '## {name}' is out of order ({', '.join(SECTIONS)})")
        rank = SECTIONS.index(name)


def _skip_blank(lines: Sequence[str], index: int) -> int:
    while index < len(lines) and not lines[index].strip():
        index += 1
    return index


def _cells(line: str) -> list[str]:
    stripped = line.strip()
    if not (stripped.startswith("|") and stripped.endswith("|")):
        return []
    return [cell.strip() for cell in stripped[1:-1].split("|")]


def _sections(lines: Sequence[str], index: int, fail: Fail) -> dict[str, tuple[int, list[str]]]:
    """'## Heading' -> (line number of the heading, the lines under it), outside code."""
    sections: dict[str, tuple[int, list[str]]] = {}
    current: list[str] | None = None
    fence = ""
    for number, line in enumerate(lines[index:], start=index + 1):
        match = _FENCE.match(line)
        if match and (not fence or (match.group(1) == fence and not match.group(2).strip())):
            fence = "" if fence else match.group(1)
        elif not fence and line.startswith("## "):
            name = line[3:].strip()
            if name in sections:
                raise fail(number, f"section '## {name}' appears twice")
            current = []
            sections[name] = (number, current)
            continue
        if current is not None:
            current.append(line)
    return sections


def _examples(
    body: Sequence[str], start: int, fail: Fail
) -> tuple[dict[str, list[ExampleFile]], tuple[str, ...]]:
    examples: dict[str, list[ExampleFile]] = {}
    finding: tuple[str, ...] | None = None
    index = 0
    while index < len(body):
        match = _FENCE.match(body[index])
        if not match:
            index += 1
            continue
        fence, info = match.group(1), match.group(2).split()
        opened = start + index + 1
        content: list[str] = []
        index += 1
        while index < len(body) and body[index].rstrip() != fence:
            content.append(body[index])
            index += 1
        if index >= len(body):
            raise fail(opened, "unclosed code block")
        index += 1
        if tuple(info) == FINDING_INFO:
            if finding is not None:
                raise fail(opened, "a page has one `text finding` block")
            if not any(role.startswith("fail") for role in examples) or any(
                role.startswith("pass") for role in examples
            ):
                raise fail(opened, "the `text finding` block goes after the failing example")
            finding = tuple(content)
            if not finding or not all(line.strip() for line in finding):
                raise fail(opened, "the `text finding` block holds finding lines, one a line")
            continue
        if not info or info[0] not in ("json", "toml"):
            continue  # not an example: an illustration in another language
        if info[0] == "toml" and (len(info) != 3 or info[2] != CONFIG_FILE):
            raise fail(opened, f"a toml example block is `toml <role> {CONFIG_FILE}`")
        if len(info) < 2 or info[1] not in ROLES:
            raise fail(opened, f"an example block needs a role ({', '.join(ROLES)}): {info}")
        if len(info) > 3:
            raise fail(opened, f"too many words in the info string: {' '.join(info)}")
        role = info[1]
        if finding is not None and role.startswith("fail"):
            raise fail(opened, "the `text finding` block goes after the failing example")
        text = "\n".join(content) + "\n"
        if len(info) == 3:
            if not _FILE_NAME.match(info[2]) and info[2] != CONFIG_FILE:
                raise fail(opened, f"bad example file name {info[2]!r}")
            filename = info[2]
        else:
            filename = default_filename(text)
        same_role = examples.setdefault(role, [])
        if any(example.filename == filename for example in same_role):
            raise fail(opened, f"two {role!r} blocks are both named {filename}; name them")
        same_role.append(ExampleFile(role, filename, text, opened))
    return examples, finding or ()


def all_rule_docs() -> list[Path]:
    return sorted(RULES_DIR.glob("*.md"))


def finding_lines(output: str, rule_id: str) -> tuple[str, ...]:
    """The lines of one rule's findings in kcompat's text output, in printed order (what is
    indented under a finding, its hint and notes, is left out)."""
    return tuple(
        line
        for line in output.splitlines()
        if not line.startswith(" ") and f" [{rule_id}] " in line
    )


@dataclass(frozen=True)
class LintRun:
    """The findings of one linted example and the files it consisted of."""

    findings: list[Finding]
    files: dict[str, str]  # file name -> text

    def of_rule(self, rule_id: str) -> list[Finding]:
        return [f for f in self.findings if f.rule == rule_id]

    def file_of(self, finding: Finding) -> str:
        """The example file name a finding points at."""
        return Path(finding.location.path).name


def lint_example(
    files: Sequence[tuple[str, str]], directory: Path | None = None, config: Config | None = None
) -> LintRun:
    """Write the files into a fresh directory and lint them all as targets."""
    if directory is None:
        with tempfile.TemporaryDirectory(prefix="kcompat-doc-") as temp:
            return lint_example(files, Path(temp), config)
    paths = []
    for name, text in files:
        target = directory / name
        target.write_text(text, encoding="utf-8")
        if name == CONFIG_FILE:
            if config is None:
                from kcompat.config import load_config

                config = load_config(explicit=target, rules=rule_categories)
            continue
        paths.append(str(target))
    read = read_targets([path_side(p) for p in paths])
    findings = lint_specs(read.targets, read.context, config)
    return LintRun(findings, dict(files))
