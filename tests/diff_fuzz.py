"""The diff fuzz: a real spec against a mutated copy, through everything ``kcompat diff`` does.

Shared by the test suite (a bounded run, fixed seed) and ``benchmarks/fuzz_lint.py`` (a
long campaign). A case pairs a seed spec with a copy changed by one family of edits:
characters (deleted, duplicated, swapped, inserted, a value replaced, line ends made CR or
CR LF) or structure (fields swapped, dropped, duplicated, retyped, re-versioned, re-tagged,
renamed, nested into a new struct, given hostile names: escape sequences, bidi overrides,
line separators, HTML; or given defaults Java reads as Infinity, NaN or past a long).
:func:`check_case` writes the two files into two directories, prepares and checks the pair
with the functions ``kcompat diff`` calls (proof on), renders every output format and
fails on an exception or on output that breaks a promise: a finding's file (and BASE
location) must name one of the two files, JSON and SARIF must parse, JUnit must be valid
XML, and no human format may hold a character a terminal acts on.
"""

from __future__ import annotations

import copy
import io
import json
import random
import re
import shutil
import xml.etree.ElementTree as ET
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kcompat.diff.check import CheckOptions, check
from kcompat.diff.prepared import prepare_pair
from kcompat.modes import ReleasedMode
from kcompat.report.document import Report
from kcompat.report.formats import FindingsFormat
from kcompat.report.lines import plain, styled
from kcompat.report.text import render_text
from kcompat.sources.directory import DirectorySource
from kcompat.sources.files import display_path
from tests.test_fuzz_lint import (
    HOSTILE_NUMBERS,
    INSERTIONS,
    LINE_ENDS,
    NAMES,
    NUMBER_TOKENS,
    REPLACEMENTS,
    TYPES,
    VALUE_TOKEN,
    VERSIONS,
    line_ends,
)

#: Names that try to act on a terminal or a page: CSI, OSC, bidi override and isolate,
#: line and paragraph separators, C1 CSI, DEL, tab, newline, HTML, Markdown's own marks.
HOSTILE = (
    "\x1b[2J",
    "\x1b]0;pwned\x07",
    "\u202e",
    "\u2066",
    "\u2028",
    "\u2029",
    "\x9b31m",
    "\x7f",
    "\x01",
    "\t",
    "\n",
    "<script>alert(1)</script>",
    "`|*_",
)
#: Hostile names another change handles (issue 12, defect 9): a NUL in a message name, a
#: lone surrogate in a field name. Cases using them are marked, so their failures are
#: counted as known, not as new.
KNOWN_HOSTILE = ("\x00", "\ud800")
#: What no human-facing output may hold raw (its own newlines aside).
RAW = re.compile(
    "[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]"
)
SGR = re.compile("\x1b\\[[0-9;]*m")
#: every document format (text, styled lines, is checked apart)
FORMATS = tuple(f.value for f in FindingsFormat if f is not FindingsFormat.text)


class Violation(AssertionError):
    """Output that breaks a promise (``kind`` names which, for grouping)."""

    def __init__(self, kind: str, detail: str) -> None:
        super().__init__(f"{kind}: {detail}")
        self.kind = kind


@dataclass(frozen=True)
class Case:
    """One comparison: BASE's file and HEAD's, and how HEAD (or BASE) was made."""

    family: str
    edits: tuple[str, ...]
    base_name: str
    base: bytes
    head_name: str
    head: bytes
    known: str = ""  # the KNOWN_ELSEWHERE class this case exercises, if any

    def to_json(self) -> dict[str, Any]:
        return {
            "family": self.family,
            "edits": list(self.edits),
            "base_name": self.base_name,
            "head_name": self.head_name,
            "known": self.known,
        }


# -- seeds and parsing -------------------------------------------------------------------------

_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|//[^\n]*|/\*.*?\*/', re.S)


def strip_comments(text: str) -> str:
    """A spec's text without its ``//`` and ``/* */`` comments (strings untouched)."""
    return _TOKEN.sub(lambda m: m.group() if m.group().startswith('"') else "", text)


def parse(text: str) -> dict[str, Any] | None:
    """A seed as a JSON object (None when it is not one)."""
    try:
        value = json.loads(strip_comments(text))
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


# -- structural edits --------------------------------------------------------------------------


def field_lists(doc: dict[str, Any]) -> list[list[Any]]:
    """Every list of fields in a spec: the message's, each struct's, each common struct's."""
    out: list[list[Any]] = []

    def walk(fields: Any) -> None:
        if not isinstance(fields, list):
            return
        out.append(fields)
        for field in fields:
            if isinstance(field, dict):
                walk(field.get("fields"))

    walk(doc.get("fields"))
    for struct in doc.get("commonStructs") or []:
        if isinstance(struct, dict):
            walk(struct.get("fields"))
    return out


def all_fields(doc: dict[str, Any]) -> list[dict[str, Any]]:
    return [f for fields in field_lists(doc) for f in fields if isinstance(f, dict)]


def _some_list(rng: random.Random, doc: dict[str, Any], at_least: int) -> list[Any] | None:
    lists = [fields for fields in field_lists(doc) if len(fields) >= at_least]
    return rng.choice(lists) if lists else None


def _some_field(rng: random.Random, doc: dict[str, Any]) -> dict[str, Any] | None:
    fields = all_fields(doc)
    return rng.choice(fields) if fields else None


def swap(rng: random.Random, doc: dict[str, Any]) -> str:
    fields = _some_list(rng, doc, 2)
    if fields is None:
        return "swap: nothing"
    i, j = rng.sample(range(len(fields)), 2)
    fields[i], fields[j] = fields[j], fields[i]
    return f"swap {i} {j}"


def drop(rng: random.Random, doc: dict[str, Any]) -> str:
    fields = _some_list(rng, doc, 1)
    if fields is None:
        return "drop: nothing"
    index = rng.randrange(len(fields))
    del fields[index]
    return f"drop {index}"


def duplicate(rng: random.Random, doc: dict[str, Any]) -> str:
    fields = _some_list(rng, doc, 1)
    if fields is None:
        return "duplicate: nothing"
    index = rng.randrange(len(fields))
    fields.insert(rng.randrange(len(fields) + 1), copy.deepcopy(fields[index]))
    return f"duplicate {index}"


def struct_types(doc: dict[str, Any]) -> list[str]:
    names = [f.get("type") for f in all_fields(doc) if f.get("fields") is not None]
    names += [s.get("name") for s in doc.get("commonStructs") or [] if isinstance(s, dict)]
    return [n.removeprefix("[]") for n in names if isinstance(n, str)]


def retype(rng: random.Random, doc: dict[str, Any]) -> str:
    field = _some_field(rng, doc)
    if field is None:
        return "retype: nothing"
    structs = struct_types(doc)
    choices = [*TYPES, *structs, *(f"[]{s}" for s in structs)]
    field["type"] = rng.choice(choices)
    return f"retype {field.get('name')!r} {field['type']!r}"


_VERSION_KEYS = ("versions", "nullableVersions", "taggedVersions", "flexibleVersions")
_TOP_VERSION_KEYS = ("validVersions", "flexibleVersions", "deprecatedVersions")


def reversion(rng: random.Random, doc: dict[str, Any]) -> str:
    field = _some_field(rng, doc)
    value = rng.choice(VERSIONS)
    if field is None or rng.random() < 0.3:
        key = rng.choice(_TOP_VERSION_KEYS)
        doc[key] = value
        return f"reversion message {key} {value!r}"
    key = rng.choice(_VERSION_KEYS)
    field[key] = value
    return f"reversion {field.get('name')!r} {key} {value!r}"


def retag(rng: random.Random, doc: dict[str, Any]) -> str:
    field = _some_field(rng, doc)
    if field is None:
        return "retag: nothing"
    if "tag" in field and rng.random() < 0.3:
        del field["tag"]
        field.pop("taggedVersions", None)
        return f"untag {field.get('name')!r}"
    field["tag"] = rng.choice([0, 1, 2, 3, 10000, -1, "0x1"])
    field["taggedVersions"] = rng.choice(["0+", "1+", "2+", "none", field.get("versions", "0+")])
    return f"retag {field.get('name')!r} {field['tag']!r} {field['taggedVersions']!r}"


def rename(rng: random.Random, doc: dict[str, Any]) -> str:
    roll = rng.random()
    if roll < 0.2:
        doc["name"] = rng.choice([*NAMES, str(doc.get("name", "")) + "V2"])
        return f"rename message {doc['name']!r}"
    structs = struct_types(doc)
    if roll < 0.4 and structs:
        old = rng.choice(structs)
        new = rng.choice([*NAMES, old + "V2"])
        for item in all_fields(doc):
            if item.get("type") in (old, f"[]{old}"):
                item["type"] = item["type"].replace(old, new)
        for struct in doc.get("commonStructs") or []:
            if isinstance(struct, dict) and struct.get("name") == old:
                struct["name"] = new
        return f"rename struct {old!r} {new!r}"
    field = _some_field(rng, doc)
    if field is None:
        return "rename: nothing"
    field["name"] = rng.choice([*NAMES, str(field.get("name", "")) + "V2"])
    return f"rename field {field['name']!r}"


def nest(rng: random.Random, doc: dict[str, Any]) -> str:
    fields = _some_list(rng, doc, 1)
    if fields is None:
        return "nest: nothing"
    start = rng.randrange(len(fields))
    end = rng.randrange(start, len(fields)) + 1
    inner = fields[start:end]
    kind = rng.choice(["Nested", "[]Nested"])
    fields[start:end] = [{"name": "Nested", "type": kind, "versions": "0+", "fields": inner}]
    return f"nest {start}:{end} in {kind}"


def hostile(rng: random.Random, doc: dict[str, Any], known: bool = False) -> str:
    """A hostile character in a message, field or struct type name (or its about)."""
    char = rng.choice(KNOWN_HOSTILE if known else HOSTILE)
    roll = rng.random()
    if roll < 0.25:
        doc["name"] = str(doc.get("name", "")) + char
        return f"hostile message name {char!r}"
    structs = struct_types(doc)
    if roll < 0.45 and structs:
        old = rng.choice(structs)
        for item in all_fields(doc):
            if item.get("type") in (old, f"[]{old}"):
                item["type"] = item["type"].replace(old, old + char)
        return f"hostile struct type {old!r} {char!r}"
    field = _some_field(rng, doc)
    if field is None:
        return "hostile: nothing"
    key = rng.choice(["name", "name", "name", "about", "default"])
    field[key] = str(field.get(key, "")) + char
    return f"hostile field {key} {char!r}"


def renumber(rng: random.Random, doc: dict[str, Any]) -> str:
    """A number Java reads otherwise than it looks (Infinity, NaN, past a long's range) as
    a field's default, the field made a float64 or an int64 half the time."""
    field = _some_field(rng, doc)
    if field is None:
        return "renumber: nothing"
    if rng.random() < 0.5:
        field["type"] = rng.choice(["float64", "int64", "int32", "uint32"])
    field["default"] = rng.choice(HOSTILE_NUMBERS)
    return f"renumber {field.get('name')!r} {field['type']!r} default {field['default']!r}"


STRUCTURAL: dict[str, Callable[[random.Random, dict[str, Any]], str]] = {
    "swap": swap,
    "drop": drop,
    "duplicate": duplicate,
    "retype": retype,
    "reversion": reversion,
    "retag": retag,
    "rename": rename,
    "nest": nest,
    "hostile": hostile,
    "renumber": renumber,
}
FAMILIES = ("chars", *STRUCTURAL, "mixed")


# -- character edits ---------------------------------------------------------------------------


def char_edit(rng: random.Random, text: str) -> tuple[str, str]:
    """One character-level edit, as ``tests.test_fuzz_lint.mutated`` makes them."""
    kind = rng.choice(["delete", "duplicate", "swap", "insert", "value", "value", "ends"])
    if kind == "ends":  # as Jackson reads them: CR, CR LF, or LF CR (two ends)
        ending, every = rng.choice(LINE_ENDS), rng.random() < 0.5
        where = " everywhere" if every else ""
        return line_ends(text, ending, every), f"line ends {ending!r}{where}"
    size = len(text)
    start = rng.randint(0, size)
    end = rng.randint(start, min(size, start + 40))
    if kind == "delete":
        return text[:start] + text[end:], f"delete {start}:{end}"
    if kind == "duplicate":
        return text[:end] + text[start:end] + text[end:], f"duplicate {start}:{end}"
    if kind == "swap" and size >= 2:
        i, j = sorted((min(start, size - 1), rng.randrange(size)))
        return text[:i] + text[j] + text[i + 1 : j] + text[i] + text[j + 1 :], f"swap {i} {j}"
    if kind == "insert":
        piece = rng.choice(INSERTIONS)
        return text[:start] + piece + text[start:], f"insert {start} {piece!r}"
    tokens = list(VALUE_TOKEN.finditer(text))
    if not tokens:
        return text, "value: nothing"
    token = rng.choice(tokens)
    value = rng.choice(REPLACEMENTS + NUMBER_TOKENS)
    return text[: token.start()] + value + text[token.end() :], f"value {token.start()} {value}"


# -- making cases ------------------------------------------------------------------------------


def make_case(rng: random.Random, seeds: Sequence[tuple[str, str]], family: str) -> Case:
    """A seed and a copy changed by ``family``; one case in four compares them the other
    way round (the mutant is BASE), one hostile case in five renames the file too."""
    path, text = rng.choice(seeds)
    name = path.rsplit("/", 1)[-1]
    edits: list[str] = []
    known = ""
    doc = parse(text) if family != "chars" else None
    if doc is None:
        mutant = text
        for _ in range(rng.randint(1, 4)):
            mutant, edit = char_edit(rng, mutant)
            edits.append(edit)
        family = "chars"
    else:
        chosen = (
            [rng.choice(list(STRUCTURAL)) for _ in range(rng.randint(2, 4))]
            if family == "mixed"
            else [family]
        )
        for kind in chosen:
            if kind == "hostile" and rng.random() < 0.05:
                edits.append(hostile(rng, doc, known=True))
                known = "defect 9: NUL or lone surrogate in a name"
            else:
                edits.append(STRUCTURAL[kind](rng, doc))
        mutant = json.dumps(doc, indent=2, ensure_ascii=rng.random() < 0.5)
    mutant_name = name
    if family == "hostile" and rng.random() < 0.2:
        char = rng.choice([c for c in HOSTILE if c not in "\n/"])
        mutant_name = name.removesuffix(".json") + char.replace("/", "") + ".json"
        edits.append(f"hostile file name {char!r}")
    base = text.encode("utf-8")
    head = mutant.encode("utf-8", errors="surrogatepass")
    if rng.random() < 0.25:
        return Case(family, tuple(edits), mutant_name, head, name, base, known)
    return Case(family, tuple(edits), name, base, mutant_name, head, known)


# -- the check ---------------------------------------------------------------------------------


def write_pair(case: Case, workdir: Path) -> tuple[Path, Path]:
    """BASE's and HEAD's directories, each holding only its file."""
    sides = []
    for side, name, data in (
        ("base", case.base_name, case.base),
        ("head", case.head_name, case.head),
    ):
        directory = workdir / side
        shutil.rmtree(directory, ignore_errors=True)
        directory.mkdir(parents=True)
        (directory / name).write_bytes(data)
        sides.append(directory)
    return sides[0], sides[1]


def check_case(case: Case, workdir: Path, *, samples: int = 4) -> int:
    """Diff the pair as ``kcompat diff BASE_DIR HEAD_DIR`` does (proof on) and render every
    format; raises on an internal error or a broken promise. Returns the findings' count."""
    base_dir, head_dir = write_pair(case, workdir)
    prepared = prepare_pair(
        DirectorySource("BASE", base_dir),
        DirectorySource("HEAD", head_dir),
        released_mode=ReleasedMode.BASE,
        history=False,
    )
    outcome = check(prepared, CheckOptions(proof=True, samples=samples))
    files = {display_path(base_dir / case.base_name), display_path(head_dir / case.head_name)}
    for finding in (*outcome.findings, *outcome.suppressed):
        if finding.location.path not in files:
            raise Violation("finding outside the compared files", repr(finding.location))
        if finding.base_location is not None and finding.base_location.path not in files:
            raise Violation("BASE location outside the compared files", repr(finding))
    report = Report.of("diff", outcome, files=prepared.compared, base="BASE", head="HEAD")
    check_renders(report)
    return len(outcome.findings)


def check_renders(report: Report) -> None:
    """Every format of a report keeps its promises."""
    from rich.console import Console

    lines = render_text(report)
    _no_raw("text", "\n".join(plain(line) for line in lines))
    buffer = io.StringIO()
    console = Console(file=buffer, force_terminal=True, color_system="standard", width=120)
    for line in lines:
        console.print(styled(line))
    _no_raw("coloured text", SGR.sub("", buffer.getvalue()))
    for fmt in FORMATS:
        out = FindingsFormat[fmt].renderer()(report)
        assert isinstance(out, str)
        _no_raw(fmt, out)
        try:
            if fmt in ("json", "sarif", "gitlab"):
                json.loads(out)
            elif fmt == "junit":
                ET.fromstring(out.encode("utf-8"))
        except (ValueError, ET.ParseError) as err:
            raise Violation(f"{fmt} does not parse", str(err)) from None


def _no_raw(fmt: str, out: str) -> None:
    found = RAW.search(out)
    if found:
        at = found.start()
        raise Violation(f"raw control in {fmt}", repr(out[max(0, at - 40) : at + 10]))
