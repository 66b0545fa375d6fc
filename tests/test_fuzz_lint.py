"""Fuzzing: nothing a user can put in a file makes lint raise or point outside the file.

Four sources of input: random bytes, JSON-ish token soup, random spec-shaped documents,
and real specs (the examples, plus a few Kafka trunk specs when the corpus is around)
with characters deleted, duplicated and swapped, comments inserted and values changed.
Each goes through read_spec, lint_specs and resolve. ``benchmarks/fuzz_lint.py`` runs
the same checks for as long as you like.
"""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from kcompat.findings import Finding
from kcompat.lint.check import lint_specs
from kcompat.spec.resolve import resolve
from kcompat.spec.specfile import SpecFile, read_spec

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "specs" / "examples"
FUZZ_PATH = "fuzz/FuzzRequest.json"
#: A few Kafka trunk specs with the format's corners: a field-level flexibleVersions,
#: deep nesting, tagged nullable structs, duplicate keys, lowerCamel names, records.
KAFKA_SEEDS = (
    "clients/src/main/resources/common/message/RequestHeader.json",
    "clients/src/main/resources/common/message/FetchRequest.json",
    "clients/src/main/resources/common/message/MetadataResponse.json",
    "clients/src/main/resources/common/message/DescribeTopicPartitionsRequest.json",
    "clients/src/main/resources/common/message/ConsumerGroupHeartbeatRequest.json",
    "metadata/src/main/resources/common/metadata/RegisterBrokerRecord.json",
    "streams/src/main/resources/common/message/SubscriptionInfoData.json",
)

# -- the check every input goes through --------------------------------------------------------


#: Where a line ends, as Jackson (Kafka's parser) counts lines: CR LF, a lone CR, or LF.
LINE_END = re.compile(r"\r\n|\r|\n")


def line_lengths(data: bytes, spec: SpecFile) -> list[int]:
    """Length of each line in the units positions use (characters, or bytes if undecodable)."""
    if spec.document is not None:
        return [len(line) for line in LINE_END.split(spec.document.text)]
    try:
        text = data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError:
        return [len(line) for line in re.split(rb"\r\n|\r|\n", data)]
    return [len(line) for line in LINE_END.split(text)]


def check_location(finding: Finding, lengths: Sequence[int]) -> None:
    line, column = finding.location.line, finding.location.column
    assert 1 <= line <= len(lengths), (finding, len(lengths))
    assert 1 <= column <= lengths[line - 1] + 1, (finding, lengths[line - 1])


def check_spec_bytes(
    data: bytes, path: str = FUZZ_PATH, context: Sequence[tuple[str, bytes]] = ()
) -> list[Finding]:
    """read_spec + lint_specs (+ resolve) on one input: no exception, every location valid."""
    spec = read_spec(path, data)
    others = [read_spec(other_path, other) for other_path, other in context]
    findings = lint_specs([spec, *others])
    lengths = {path: line_lengths(data, spec)}
    for (other_path, other), other_spec in zip(context, others, strict=True):
        lengths[other_path] = line_lengths(other, other_spec)
    for finding in findings:
        assert finding.location.path in lengths, finding
        check_location(finding, lengths[finding.location.path])
        assert finding.rule and finding.message
    if spec.message is not None:
        for version in list(spec.message.valid_versions.clip(40))[:4]:
            layout = resolve(spec.message, version)
            assert layout.version == version
    return findings


# -- strategies --------------------------------------------------------------------------------

JSON_TOKENS = (
    *"{}[]:,",
    '"',
    " ",
    "\n",
    "\t",
    "//",
    "/*",
    "*/",
    "\\",
    "true",
    "false",
    "null",
    "0",
    "-1",
    "1.5e3",
    "0x10",
    "'x'",
    '"name"',
    '"type"',
    '"fields"',
    '"versions"',
    '"validVersions"',
    '"0+"',
    '"int32"',
    '"[]Foo"',
    "\ufeff",
    "\u00e9",
    "\x00",
    "\r",
    "\r\n",
    "\x0b",
    "\x0c",
    "\u2028",
    "1e400",
    "-0",
)
KEYS = (
    "name",
    "type",
    "versions",
    "validVersions",
    "flexibleVersions",
    "deprecatedVersions",
    "nullableVersions",
    "taggedVersions",
    "tag",
    "default",
    "fields",
    "commonStructs",
    "apiKey",
    "about",
    "mapKey",
    "ignorable",
    "entityType",
    "zeroCopy",
    "encoding",
    "listeners",
    "latestVersionUnstable",
    "optionalFields",
    "versionsWithOptional",
    "nullable",
    "headerVersions",
    "bogus",
)
VERSIONS = (
    "0+",
    "0",
    "1+",
    "0-2",
    "2+",
    "none",
    "3-1",
    "1 - 3",
    "",
    "0-32767",
    "99999",
    "a",
    "1,2",
)
TYPES = (
    "bool",
    "int8",
    "int16",
    "uint16",
    "int32",
    "uint32",
    "int64",
    "float64",
    "string",
    "bytes",
    "records",
    "uuid",
    "[]int32",
    "[]string",
    "[]uuid",
    "[]records",
    "[][]int8",
    "Foo",
    "[]Foo",
    "Bar",
    "[]Bar",
    "FuzzRequest",
    "int",
    "",
    "[]",
)
NAMES = ("Foo", "Bar", "A", "a", "Foo_Bar", "1x", "", "FuzzRequest", "FuzzResponse", "Fields")
#: Defaults Java reads as Infinity, NaN or the smallest double, or one past a long's range.
HOSTILE_NUMBERS: tuple[Any, ...] = (
    "0x1p1024",
    "-0x1p1024",
    "0x1.fffffffffffff8p1023",
    "1e400",
    "-1e400",
    "Infinity",
    "-Infinity",
    "NaN",
    "4.9e-324",
    "0x1p-1075",
    "9223372036854775808",
    "-9223372036854775809",
    "0x8000000000000000",
    "0xffffffffffffffff",
    "1.0f",
    " 1 ",
    "1_000",
    "0x",
    1e308,
    2**63,
    -(2**63) - 1,
)
SCALARS: tuple[Any, ...] = (
    None,
    True,
    False,
    0,
    -1,
    1,
    65536,
    1.5,
    "0",
    "-1",
    "null",
    "0x7fffffff",
    "010",
    "true",
    "AAAAAAAAAAAAAAAAAAAAAA",
    "fixed32",
    "unsigned32",
    "broker",
    "topicName",
    "brokerId",
    "request",
    "\u00b2",
    "9" * 30,
    *HOSTILE_NUMBERS,
)


def jsonish_text() -> st.SearchStrategy[str]:
    """Token soup: mostly the characters and words a spec is made of."""
    token = st.one_of(st.sampled_from(JSON_TOKENS), st.text(max_size=3))
    return st.lists(token, max_size=120).map("".join)


def json_values() -> st.SearchStrategy[Any]:
    return st.recursive(
        st.sampled_from(SCALARS) | st.sampled_from(VERSIONS) | st.sampled_from(TYPES),
        lambda inner: (
            st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(KEYS), inner, max_size=3)
        ),
        max_leaves=6,
    )


@st.composite
def fields(draw: st.DrawFn, depth: int = 0) -> dict[str, Any]:
    """A field object: usually plausible, with any key possibly odd or missing."""
    field: dict[str, Any] = {
        "name": draw(st.sampled_from(NAMES)),
        "type": draw(st.sampled_from(TYPES)),
        "versions": draw(st.sampled_from(VERSIONS)),
    }
    optional: dict[str, st.SearchStrategy[Any]] = {
        "nullableVersions": st.sampled_from(VERSIONS),
        "taggedVersions": st.sampled_from(VERSIONS),
        "tag": st.integers(-2, 4) | st.sampled_from(["1", "0x1", None]),
        "default": st.sampled_from(SCALARS),
        "mapKey": st.booleans(),
        "ignorable": st.booleans() | st.just("false"),
        "entityType": st.sampled_from(["topicName", "brokerId", "groupId", "nope"]),
        "flexibleVersions": st.sampled_from(VERSIONS),
        "encoding": st.sampled_from(["fixed32", "packed64", "upacked16", "unsigned32", 3])
        | st.dictionaries(st.sampled_from(VERSIONS), st.sampled_from(["fixed32", "packed64"])),
        "zeroCopy": st.booleans(),
        "about": st.text(max_size=5),
        "bogus": st.sampled_from(SCALARS),
    }
    for key in draw(st.lists(st.sampled_from(sorted(optional)), max_size=4, unique=True)):
        field[key] = draw(optional[key])
    for key in draw(st.lists(st.sampled_from(["name", "type", "versions"]), max_size=1)):
        del field[key]
    if depth < 3 and draw(st.integers(0, 3)) == 0:
        field["fields"] = draw(st.lists(fields(depth + 1), max_size=3))
    return field


@st.composite
def spec_documents(draw: st.DrawFn) -> str:
    """A random spec-shaped document, serialised with random layout."""
    spec: dict[str, Any] = {
        "apiKey": draw(st.sampled_from([0, 1, -1, "2", None, 70000])),
        "type": draw(st.sampled_from(["request", "response", "header", "data", "metadata", "x"])),
        "name": draw(st.sampled_from(["FuzzRequest", "FuzzResponse", "Fuzz", "fuzz", ""])),
        "validVersions": draw(st.sampled_from(VERSIONS)),
        "flexibleVersions": draw(st.sampled_from(VERSIONS)),
        "fields": draw(st.lists(fields(), max_size=5)),
    }
    if draw(st.booleans()):
        spec["commonStructs"] = [
            {
                "name": name,
                "versions": draw(st.sampled_from(VERSIONS)),
                "fields": draw(st.lists(fields(1), max_size=3)),
            }
            for name in draw(st.lists(st.sampled_from(NAMES), max_size=2))
        ]
    for key in draw(st.lists(st.sampled_from(sorted(spec)), max_size=2, unique=True)):
        del spec[key]
    if draw(st.booleans()):
        spec[draw(st.sampled_from(KEYS))] = draw(json_values())
    indent = draw(st.sampled_from([None, 2]))
    return json.dumps(spec, indent=indent)


#: What a "change a value" mutation may write instead of a string or number token.
REPLACEMENTS = tuple(
    json.dumps(value)
    for value in (
        *VERSIONS,
        *TYPES,
        *KEYS,
        *SCALARS,
        [],
        {},
        {"0-1": "fixed32", "2+": "packed64"},
        [{"name": "X", "type": "int8", "versions": "0+"}],
    )
)
INSERTIONS = (
    "/* c */",
    "// c\n",
    "/*",
    "//",
    "*/",
    "\n",
    ",",
    '"',
    "{",
    "}",
    "[",
    "]",
    ':"x"',
    "// kcompat: ignore[invalid-type]\n",
    "/* kcompat: ignore-file[unknown-key] */",
    # line ends as Jackson reads them: a lone CR ends a // comment too
    "// c\r",
    "\r",
    "\r\n",
    "/* c\r */",
    "// kcompat: ignore[invalid-type]\r",
    "/* kcompat: ignore[duplicate-key] why\n more\n */",
    "\x0b",
    "// \x0c\n",
)
#: Number tokens no JSON writer produces but a hand-edited spec may hold.
NUMBER_TOKENS = ("1e400", "-1e400", "123456789012345678901234567890", "-0", "1e-400", "0.0")
VALUE_TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"|-?[0-9]+(?:\.[0-9]+)?|true|false|null')


@st.composite
def mutated(draw: st.DrawFn, seeds: Sequence[tuple[str, str]]) -> tuple[str, str]:
    """One of the seed specs with 1-4 mutations: (path, text)."""
    path, text = draw(st.sampled_from(seeds))
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(
            st.sampled_from(["delete", "duplicate", "swap", "insert", "value", "value", "ends"])
        )
        size = len(text)
        start = draw(st.integers(0, size))
        end = draw(st.integers(start, min(size, start + 40)))
        if kind == "delete":
            text = text[:start] + text[end:]
        elif kind == "duplicate":
            text = text[:end] + text[start:end] + text[end:]
        elif kind == "swap" and size >= 2:
            i, j = sorted((min(start, size - 1), draw(st.integers(0, size - 1))))
            text = text[:i] + text[j] + text[i + 1 : j] + text[i] + text[j + 1 :]
        elif kind == "insert":
            text = text[:start] + draw(st.sampled_from(INSERTIONS)) + text[start:]
        elif kind == "value":
            tokens = list(VALUE_TOKEN.finditer(text))
            if tokens:
                token = draw(st.sampled_from(tokens))
                text = (
                    text[: token.start()]
                    + draw(st.sampled_from(REPLACEMENTS + NUMBER_TOKENS))
                    + text[token.end() :]
                )
        else:
            text = line_ends(text, draw(st.sampled_from(LINE_ENDS)), draw(st.booleans()))
    return path, text


LINE_ENDS = ("\r", "\r\n", "\n\r")


def line_ends(text: str, end: str, every: bool) -> str:
    """``text`` with every LF (or only the first, ``every`` false) written as ``end``."""
    return text.replace("\n", end) if every else text.replace("\n", end, 1)


# -- seeds -------------------------------------------------------------------------------------


def example_seeds() -> list[tuple[str, str]]:
    return [
        (f"specs/examples/{path.name}", path.read_text(encoding="utf-8"))
        for path in sorted(EXAMPLES.glob("*.json"))
    ]


def kafka_seeds(repo: Path, paths: Sequence[str] = KAFKA_SEEDS) -> list[tuple[str, str]]:
    """Specs read from trunk's git objects (never copied into the project)."""
    seeds = []
    for path in paths:
        done = subprocess.run(
            ["git", "show", f"refs/remotes/origin/trunk:{path}"],
            cwd=repo,
            capture_output=True,
            check=False,
        )
        if done.returncode == 0:
            seeds.append((path, done.stdout.decode("utf-8")))
    return seeds


@pytest.fixture(scope="module")
def seeds(request: pytest.FixtureRequest) -> list[tuple[str, str]]:
    """The examples, plus a handful of Kafka trunk specs when the corpus is available."""
    found = example_seeds()
    assert len(found) >= 3
    try:
        repo = request.getfixturevalue("kafka_repo")
    except pytest.skip.Exception:
        return found
    kafka = kafka_seeds(repo)
    assert len(kafka) == len(KAFKA_SEEDS)
    return found + kafka


FUZZ = settings(
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


# -- the tests ---------------------------------------------------------------------------------


def test_the_seeds_themselves_are_clean(seeds: list[tuple[str, str]]) -> None:
    for path, text in seeds:
        findings = check_spec_bytes(text.encode(), path)
        errors = [f for f in findings if f.severity.label == "error"]
        # linted alone, a request misses its response; nothing else may be wrong
        assert {f.rule for f in errors} <= {"unpaired-request-response"}, (path, errors)


@pytest.mark.slow
@settings(FUZZ, max_examples=1000)
@given(st.binary(max_size=400) | st.binary(max_size=20).map(lambda b: b'{"name": "' + b))
def test_random_bytes(data: bytes) -> None:
    check_spec_bytes(data)


@pytest.mark.slow
@settings(FUZZ, max_examples=1000)
@given(jsonish_text())
def test_jsonish_text(text: str) -> None:
    check_spec_bytes(text.encode("utf-8", errors="surrogatepass"))


@pytest.mark.slow
@settings(FUZZ, max_examples=300)
@given(spec_documents(), st.booleans())
def test_random_spec_documents(text: str, with_response: bool) -> None:
    context = [("fuzz/FuzzResponse.json", text.replace("Request", "Response").encode())]
    check_spec_bytes(text.encode(), context=context if with_response else ())


@pytest.mark.slow
@settings(FUZZ, max_examples=1000)
@given(st.data())
def test_mutated_real_specs(seeds: list[tuple[str, str]], data: st.DataObject) -> None:
    path, text = data.draw(mutated(seeds))
    check_spec_bytes(text.encode("utf-8", errors="surrogatepass"), path)


def _as_seen(findings: Sequence[Finding]) -> list[tuple[str, ...]]:
    """Findings by rule, line, column and message; an unreadable file's by rule alone (why
    Kafka cannot read it depends on the line end: an LF ends an unterminated string, a CR
    in one is a control character)."""
    return sorted(
        (f.rule,)
        if f.rule == "invalid-json"
        else (f.rule, str(f.location.line), str(f.location.column), f.message)
        for f in findings
    )


@settings(FUZZ, max_examples=200)
@given(st.data())
def test_line_ends_change_no_finding(seeds: list[tuple[str, str]], data: st.DataObject) -> None:
    """LF, CR and CR LF are each one line end to Jackson: a spec (mutated, comments and
    ignores included) written with any of them has the same findings at the same lines
    and columns."""
    path, text = data.draw(mutated(seeds))
    assume("\r" not in text)
    plain = _as_seen(check_spec_bytes(text.encode("utf-8", errors="surrogatepass"), path))
    for end in ("\r", "\r\n"):
        other = check_spec_bytes(line_ends(text, end, True).encode("utf-8", "surrogatepass"), path)
        assert _as_seen(other) == plain, end


def test_known_crashers_stay_fixed() -> None:
    """Inputs that once raised from read_spec or lint (kept as regressions)."""
    cases = [
        b'{"name": "A", "type": "data", "validVersions": "' + b"1" * 5000 + b'", "fields": []}',
        b'{"name": "A", "type": "data", "apiKey": ' + b"1" * 5000 + b', "fields": []}',
        '{"name": "A", "type": "request", "apiKey": "\u00b2", "fields": []}'.encode(),
        '{"validVersions": "0", "flexibleVersions": "0+", "fields": [{"name": "X", '
        '"type": "int32", "versions": "0+", "tag": "\u00b2", "taggedVersions": "0+"}]}'.encode(),
        b'{"validVersions": "0", "fields": [{"name": "X", "type": "int64", "versions": "0+",'
        b' "default": "' + b"9" * 5000 + b'"}]}',
        b'{"validVersions": "0", "fields": [{"name": "N", "type": "Node", "versions": "0+"}],'
        b' "commonStructs": [{"name": "Node", "versions": "0+", "fields": [{"name": "C",'
        b' "type": "Node", "versions": "0+", "nullableVersions": "0+"}]}]}',
    ]
    for data in cases:
        check_spec_bytes(data)


def test_nested_array_in_an_enum_key_does_not_crash_lint() -> None:
    """Found by this fuzzer: the schema rules' shape memo hashed a nested JArray."""
    data = b'{"name": "A", "type": [[]], "validVersions": "0", "flexibleVersions": "none",'
    data += b' "listeners": [{"a": 1}], "fields": []}'
    check_spec_bytes(data)
