"""Values read the way Kafka's generator reads them: Jackson's string coercion, the
version ranges of ``headerVersions`` keys (Kafka's ``Versions.parse`` on one range), and
the text itself as Jackson reads it (line ends, comments, control characters), checked
against a table measured with Jackson and, when Java 17 and Jackson's jars are here,
against Jackson itself."""

from __future__ import annotations

import importlib.util
import json
import math
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from kcompat.rules.lint.headers import kafka_range
from kcompat.spec.jackson import scalar_text
from kcompat.spec.load import JArray, JObject, LoadError, load_bytes
from kcompat.spec.specfile import read_spec


@pytest.mark.parametrize(
    ("value", "text"),
    [
        ("int32", "int32"),
        (5, "5"),
        (True, "true"),
        (False, "false"),
        (1.5, "1.5"),
        (None, None),
        ([1], None),
        ({"a": 1}, None),
    ],
)
def test_scalar_text(value: object, text: str | None) -> None:
    assert scalar_text(value) == text


@pytest.mark.parametrize(
    ("key", "parsed"),
    [
        ("0+", (0, 0x7FFF)),
        (" 3 ", (3, 3)),
        ("0-1", (0, 1)),
        ("+1+", (1, 0x7FFF)),  # Java's Short.parseShort takes a leading plus
        ("0-32767", (0, 0x7FFF)),
        ("none", None),  # the empty range: no header version to map
        ("2-1", None),  # reversed: Kafka reads the empty range
        ("1--2", None),  # a negative bound throws
        ("-1", None),
        ("32768", None),
        ("1 - 2", None),  # parseShort("1 ") throws
        ("1,2", None),
        ("", None),
        ("x", None),
    ],
)
def test_header_range_keys_as_kafka_parses_them(key: str, parsed: tuple[int, int] | None) -> None:
    assert kafka_range(key) == parsed


def test_the_model_reads_coerced_names_and_types() -> None:
    spec = read_spec(
        "x/ProbeRecord.json",
        b'{"name": "ProbeRecord", "type": "metadata", "validVersions": 1,'
        b' "flexibleVersions": "0+", "fields": [{"name": 7, "type": 5, "versions": true,'
        b' "about": 3, "flexibleVersions": 0}]}',
    )
    assert spec.message is not None
    (field,) = spec.message.fields
    assert (field.name, field.type.text, field.about) == ("7", "5", "3")
    assert str(spec.message.valid_versions) == "1"
    assert field.versions.empty  # "true" is no range: invalid-versions says so
    assert str(field.flexible_versions) == "0"


# -- text as Jackson reads it ------------------------------------------------------------------

#: Texts whose reading decides what Kafka's generator sees, and what Jackson (configured as
#: Kafka configures it: comments allowed) makes of each: its tree, or the line where it
#: stops. Measured with Jackson 2.21; ``test_the_table_is_what_jackson_reads`` measures it
#: again whenever Java and Jackson's jars are here.
JACKSON_READS: dict[str, tuple[str, dict[str, Any] | int]] = {
    "lone-cr-ends-a-line-comment": ('{"a": 1, // x\r "b": 2}', {"a": 1, "b": 2}),
    "crlf-ends-a-line-comment": ('{"a": 1, // x\r\n "b": 2}', {"a": 1, "b": 2}),
    "lf-ends-a-line-comment": ('{"a": 1, // x\n "b": 2}', {"a": 1, "b": 2}),
    "a-hidden-field": (
        '{"fields": [{"name": "A"}, // tidy-up\r {"name": "Hidden", "type": "int64"}\n]}',
        {"fields": [{"name": "A"}, {"name": "Hidden", "type": "int64"}]},
    ),
    "cr-lines": ('{\r"a":\r\r 1, "b": x}', 4),
    "crlf-lines": ('{\r\n"a":\r\n\r\n 1, "b": x}', 4),
    "lf-cr-is-two-line-ends": ('{\n\r"a": 1, "b": x}', 3),
    "cr-in-a-block-comment": ('{"a": 1, /* x\r y */\r"b": 2,\r"c": x}', 4),
    "u2028-is-no-line-end": ('{"a": 1, // x\u2028 "b": 2,\n"c": x}', 2),
    "form-feed-is-no-line-end": ('{"a": 1, \x0c"b": 2}', 1),
    "vertical-tab-in-a-line-comment": ('{"a": 1, // x\x0b\n "b": 2}', 1),
    "nul-in-a-line-comment": ('{"a": 1, // x\x00\n "b": 2}', 1),
    "soh-in-a-block-comment": ('{"a": 1,\n /* x\x01 */ "b": 2}', 2),
    "tab-and-del-in-comments": ('{"a": 1, // x\t\x7f\n /* \t\x7f */ "b": 2}', {"a": 1, "b": 2}),
    "block-comments-do-not-nest": ('{"a": 1, /* /* */ "b": 2}', {"a": 1, "b": 2}),
    "hash-is-no-comment": ('{"a": 1, # x\n "b": 2}', 1),
    "the-last-duplicate-key-wins": ('{"a": 1, "a": 2}', {"a": 2}),
    "a-huge-float-is-infinite": ('{"a": 1e400, "b": -1e400}', {"a": math.inf, "b": -math.inf}),
    "trailing-content-is-never-read": ('{"a": 1} x', {"a": 1}),
    "a-comment-at-the-end": ('{"a": 1} // x\r', {"a": 1}),
    "a-byte-order-mark": ('\ufeff{"a": 1}', {"a": 1}),
}


def kcompat_reads(text: str) -> dict[str, Any] | int:
    """What kcompat's loader makes of ``text``: the tree, or the line of its error (a
    trailing comma, which Kafka refuses and lint reports, counts as an error)."""
    try:
        document = load_bytes(text.encode(), "Read.json")  # as a file is read
    except LoadError as err:
        return err.pos[0]
    commas = [note.pos[0] for note in document.notes if note.kind == "trailing-comma"]
    if commas:
        return commas[0]
    assert isinstance(document.root, dict)
    return document.root


@pytest.mark.parametrize("name", sorted(JACKSON_READS))
def test_kcompat_reads_text_as_jackson_does(name: str) -> None:
    text, jackson = JACKSON_READS[name]
    assert kcompat_reads(text) == jackson


def key_positions(value: Any) -> list[tuple[str, int, int]]:
    """Every object key kcompat read, with its line and column, in document order."""
    found: list[tuple[str, int, int]] = []
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, JObject):
            found += [(key, *node.key_pos[key]) for key in node]
            stack += reversed(list(node.values()))
        elif isinstance(node, JArray):
            stack += reversed(node)
    return sorted(found)


@pytest.fixture(scope="module")
def jackson(tmp_path_factory: pytest.TempPathFactory) -> Callable[[list[bytes]], list[Any]]:
    """Jackson itself, as Kafka's generator configures it (``tests/java/JacksonRead.java``
    compiled against the Jackson jars the spark extra's pyspark ships): a function from
    file contents to what Jackson reads in each. Skipped when Java 17 or the jars are
    missing."""
    javac, java = shutil.which("javac"), shutil.which("java")
    if javac is None or java is None:
        pytest.skip("no Java (javac and java 17+) to run Jackson with")
    spark = importlib.util.find_spec("pyspark")
    if spark is None or not spark.submodule_search_locations:
        pytest.skip("pyspark (the spark extra), which ships Jackson's jars, is not installed")
    jars_dir = Path(next(iter(spark.submodule_search_locations))) / "jars"
    jars = [
        next(iter(sorted(jars_dir.glob(f"jackson-{part}-2*.jar"))), None)
        for part in ("core", "databind", "annotations")
    ]
    if None in jars:
        pytest.skip(f"Jackson's jars are not in {jars_dir}")
    classpath = ":".join(str(jar) for jar in jars)
    out = tmp_path_factory.mktemp("jackson")
    source = Path(__file__).parent / "java" / "JacksonRead.java"
    subprocess.run([javac, "-d", str(out), "-cp", classpath, str(source)], check=True)

    def read(texts: list[bytes]) -> list[Any]:
        inputs = tmp_path_factory.mktemp("jackson-inputs")
        paths = []
        for index, data in enumerate(texts):
            paths.append(inputs / f"{index}.json")
            paths[-1].write_bytes(data)
        done = subprocess.run(
            [java, "-cp", f"{classpath}:{out}", "JacksonRead", *map(str, paths)],
            capture_output=True,
            text=True,
            check=True,
        )
        return [json.loads(line) for line in done.stdout.splitlines()]

    return read


def as_jackson_writes(value: Any) -> Any:
    """A kcompat tree as Jackson's tree prints (infinities quoted, as Jackson writes them)."""
    if isinstance(value, dict):
        return {key: as_jackson_writes(item) for key, item in value.items()}
    if isinstance(value, list):
        return [as_jackson_writes(item) for item in value]
    if isinstance(value, float) and math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    return value


def check_against_jackson(texts: list[str], read: Callable[[list[bytes]], list[Any]]) -> None:
    """kcompat reads each text as Jackson does: the same tree and every key at the same
    line and column, or an error (at the same line, when Jackson's is one kcompat raises
    too)."""
    for text, jackson in zip(texts, read([t.encode() for t in texts]), strict=True):
        ours = kcompat_reads(text)
        if "error" in jackson:
            assert isinstance(ours, int), (text, jackson)
            continue
        assert as_jackson_writes(ours) == jackson["tree"], text
        document = load_bytes(text.encode(), "Read.json")
        if not any(note.kind == "duplicate-key" for note in document.notes):
            assert key_positions(document.root) == sorted(map(tuple, jackson["keys"])), text


@pytest.mark.spark
def test_the_table_is_what_jackson_reads(jackson: Callable[[list[bytes]], list[Any]]) -> None:
    names = sorted(JACKSON_READS)
    results = jackson([JACKSON_READS[name][0].encode() for name in names])
    for name, result in zip(names, results, strict=True):
        expected = JACKSON_READS[name][1]
        if isinstance(expected, int):
            assert result.get("line") == expected, (name, result)
        else:
            assert result.get("tree") == as_jackson_writes(expected), (name, result)
    check_against_jackson([JACKSON_READS[name][0] for name in names], jackson)


@pytest.mark.spark
@pytest.mark.corpus
def test_kafka_specs_read_as_jackson_reads_them_with_any_line_ends(
    kafka_repo: Path, jackson: Callable[[list[bytes]], list[Any]]
) -> None:
    """Every spec at Kafka's trunk, with LF, CR and CR LF line ends: kcompat's tree and
    key positions are Jackson's."""
    texts = [
        path.read_text(encoding="utf-8").replace("\r\n", "\n")
        for path in sorted(kafka_repo.rglob("*.json"))
        if ".git" not in path.parts
    ]
    assert len(texts) > 200
    check_against_jackson(
        [t.replace("\n", end) for t in texts for end in ("\n", "\r", "\r\n")], jackson
    )
