"""kcompat explain's pure core: matrix cells, timelines, grammar, comparison, lookup.

Runs in-process on the example specs and small inline specs; the rendered output is
covered by the snapshot tests, the real corpus by test_explain_corpus.py and the
command line by test_explain_cli.py.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from kcompat.errors import UsageError
from kcompat.explain import render_json, render_markdown, render_text
from kcompat.explain.changes import compare
from kcompat.explain.explanation import Against, explain
from kcompat.explain.find import FileSource, did_you_mean, find_messages
from kcompat.explain.grammar import build_grammar, snake, title
from kcompat.explain.matrix import LEGEND, Matrix, Row, Shape, build_matrix
from kcompat.explain.timeline import timeline
from kcompat.sources.directory import DirectorySource
from kcompat.sources.reading import read_side
from kcompat.spec.model import Message
from kcompat.spec.specfile import read_spec

EXAMPLES = Path(__file__).resolve().parents[3] / "specs" / "examples"


@pytest.fixture(scope="module")
def examples() -> dict[str, Message]:
    specs = read_side(DirectorySource(str(EXAMPLES), EXAMPLES)).specs
    return {s.message.name: s.message for s in specs if s.message is not None}


def inline(spec: dict[str, Any], name: str = "TestRequest") -> Message:
    base = {"name": name, "type": "request", "apiKey": 1}
    built = read_spec(f"inline/{name}.json", json.dumps({**base, **spec}).encode())
    assert built.message is not None, built.error
    return built.message


def row(matrix: Matrix, path: str) -> Row:
    found = [r for r in matrix.rows if r.path == path]
    assert found, f"{path} not in {[r.path for r in matrix.rows]}"
    return found[0]


def symbols(matrix: Matrix, path: str, ascii_only: bool = False) -> list[str]:
    return [c.symbol(ascii_only) for c in row(matrix, path).cells]


def phrase(matrix: Matrix, path: str) -> str:
    return timeline(row(matrix, path), matrix.columns)


# -- markdown tables (also used by the corpus test) -----------------------------------------
_SEPARATOR = re.compile(r"^\|(\s*:?-+:?\s*\|)+$")


def split_row(line: str) -> list[str]:
    """The cells of a markdown table row (escaped pipes stay inside their cell)."""
    assert line.startswith("|") and line.endswith("|"), line
    cells = re.split(r"(?<!\\)\|", line[1:-1])
    return [c.strip() for c in cells]


def check_markdown_tables(text: str) -> int:
    """Every table: a header, a separator, rows with as many cells; returns the count."""
    tables = 0
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        if not lines[i].startswith("|"):
            i += 1
            continue
        block = []
        while i < len(lines) and lines[i].startswith("|"):
            block.append(lines[i])
            i += 1
        assert len(block) >= 2, block
        assert _SEPARATOR.match(block[1]), block[1]
        width = len(split_row(block[0]))
        assert len(split_row(block[1])) == width
        for line in block[2:]:
            assert len(split_row(line)) == width, line
        assert i == len(lines) or lines[i] == "", "a table must end with a blank line"
        tables += 1
    return tables


# -- matrix ---------------------------------------------------------------------------------
def test_matrix_columns_carry_version_flags(examples: dict[str, Message]) -> None:
    matrix = build_matrix(examples["WidgetRequest"])
    assert [c.label for c in matrix.columns] == ["0", "1", "2", "3", "4"]
    assert [c.flags for c in matrix.columns] == ["D", "", "F", "F", "FU"]
    assert matrix.unstable_version == 4


def test_matrix_cells_say_how_each_version_is_written(examples: dict[str, Message]) -> None:
    matrix = build_matrix(examples["WidgetRequest"])
    assert symbols(matrix, "CatalogId") == ["●"] * 5
    assert symbols(matrix, "OwnerGroup") == ["○", "○", "◆", "◆", "◆"]
    assert symbols(matrix, "LegacyMode") == ["●", "●", "●", "·", "·"]
    assert symbols(matrix, "Revision") == ["◐", "◐", "v", "v", "v"]  # fixed32 on int64
    assert symbols(matrix, "Quantity") == ["u"] * 5
    assert symbols(matrix, "Widgets.Payload") == ["○", "○?", "◆?", "◆?", "◆?"]
    assert symbols(matrix, "Widgets.Dimensions") == ["·", "■?", "■?", "■?", "■?"]
    assert symbols(matrix, "Widgets.Dimensions.Unit") == ["·", "·", "◆T0", "◆T0", "◆T0"]
    assert symbols(matrix, "Widgets.Audit") == ["·", "·", "·", "■?T1", "■?T1"]
    assert symbols(matrix, "DryRun", ascii_only=True) == [".", ".", "#T1", "#T1", "#T1"]


def test_matrix_cells_keep_wire_details(examples: dict[str, Message]) -> None:
    matrix = build_matrix(examples["WidgetRequest"])
    revision = row(matrix, "Revision").cells
    assert (revision[0].wire, revision[0].encoding, revision[0].fixed_size) == (
        "INT32(of int64)",
        "fixed32",
        4,
    )
    assert (revision[2].wire, revision[2].encoding, revision[2].fixed_size) == (
        "VARLONG",
        "packed64",
        None,
    )
    assert row(matrix, "OwnerGroup").cells[2].compact
    assert row(matrix, "Widgets.Kind").cells[0].shape is Shape.PACKED


def test_matrix_expands_common_structs_everywhere(examples: dict[str, Message]) -> None:
    matrix = build_matrix(examples["WidgetRequest"])
    owners = [r for r in matrix.rows if r.path.endswith(".SessionId") or r.path == "SessionId"]
    assert [r.path for r in owners] == [
        "Widgets.Owner.SessionId",
        "Widgets.Audit.ApprovedBy.SessionId",
        "Requester.SessionId",
    ]
    assert all(r.within == "Principal" for r in owners)
    assert row(matrix, "Requester").common == "Principal"
    assert [r.depth for r in owners] == [2, 3, 1]
    # a common struct's field is absent wherever the field that uses it is
    assert symbols(matrix, "Widgets.Audit.ApprovedBy.SessionId") == ["·", "·", "·", "●", "●"]


def test_field_level_flexible_override_stays_classic(examples: dict[str, Message]) -> None:
    matrix = build_matrix(examples["WidgetRequestHeader"])
    assert symbols(matrix, "CallerName") == ["·", "○?", "○?"]
    assert phrase(matrix, "CallerName") == (
        "added in v1, nullable, non-compact in flexible versions"
    )


def test_open_ended_valid_versions_collapse_to_a_last_column() -> None:
    message = inline(
        {
            "validVersions": "0+",
            "flexibleVersions": "2+",
            "fields": [
                {"name": "A", "type": "int32", "versions": "0+"},
                {"name": "B", "type": "string", "versions": "3+"},
            ],
        }
    )
    matrix = build_matrix(message)
    assert [c.label for c in matrix.columns] == ["0", "1", "2", "3+"]
    assert phrase(matrix, "B") == "added in v3+"


def test_recursive_struct_is_not_expanded_forever() -> None:
    message = inline(
        {
            "validVersions": "0",
            "flexibleVersions": "none",
            "fields": [{"name": "Node", "type": "Tree", "versions": "0+"}],
            "commonStructs": [
                {
                    "name": "Tree",
                    "versions": "0+",
                    "fields": [{"name": "Child", "type": "Tree", "versions": "0+"}],
                }
            ],
        }
    )
    matrix = build_matrix(message)
    assert [r.path for r in matrix.rows] == ["Node", "Node.Child"]
    assert row(matrix, "Node.Child").recursive


def test_message_without_valid_versions_has_no_columns() -> None:
    message = inline(
        {
            "validVersions": "none",
            "flexibleVersions": "none",
            "fields": [{"name": "A", "type": "int32", "versions": "0+"}],
        }
    )
    matrix = build_matrix(message)
    assert matrix.columns == ()
    assert phrase(matrix, "A") == "no valid versions"
    text = render_text.to_string(render_text.render([explain(message, "x")], width=80), width=80)
    assert "A" in text


# -- timeline -------------------------------------------------------------------------------
def test_timelines_of_the_examples(examples: dict[str, Message]) -> None:
    request = build_matrix(examples["WidgetRequest"])
    assert phrase(request, "CatalogId") == "in every version, default Xx08KotOT2qcfS4bCp-OfQ"
    assert phrase(request, "LegacyMode") == "removed after v2"
    assert (
        phrase(request, "Revision")
        == "in every version, encoded fixed32 in v0-1, packed64 since v2"
    )
    assert phrase(request, "Quantity") == "in every version, encoded upacked32"
    assert phrase(request, "TimeoutMs") == "in every version, default 30000"
    assert phrase(request, "Widgets.Payload") == "in every version, nullable since v1"
    assert phrase(request, "Widgets.Note") == "added in v2, nullable, tagged (tag 0), default null"
    response = build_matrix(examples["WidgetResponse"])
    assert phrase(response, "ErrorMessage") == "added in v1, nullable since v2"


def test_timeline_reads_like_the_issue() -> None:
    message = inline(
        {
            "validVersions": "0-12",
            "flexibleVersions": "9+",
            "fields": [
                {
                    "name": "Epoch",
                    "type": "string",
                    "versions": "3-11",
                    "nullableVersions": "5+",
                    "taggedVersions": "9+",
                    "tag": 0,
                    "default": "null",
                },
                {"name": "Gap", "type": "int32", "versions": "0-2", "default": "-1"},
            ],
        }
    )
    matrix = build_matrix(message)
    assert phrase(matrix, "Epoch") == (
        "added in v3, nullable since v5, tagged (tag 0) since v9, removed after v11, default null"
    )
    assert phrase(matrix, "Gap") == "removed after v2, default -1"


# -- grammar --------------------------------------------------------------------------------
def test_names_follow_the_protocol_guide() -> None:
    assert snake("ThrottleTimeMs") == "throttle_time_ms"
    assert snake("IsrNodes") == "isr_nodes"
    assert snake("topicName") == "topic_name"
    assert snake("ACLs") == "ac_ls" or snake("ACLs") == "acls"


def test_grammar_of_a_flexible_version(examples: dict[str, Message]) -> None:
    message = examples["WidgetRequest"]
    assert title(message) == "Widget Request"
    grammar = build_grammar(message, 3)
    texts = [t for line in grammar.lines for t in line.texts()]
    assert texts[0] == (
        "Widget Request (Version: 3) => catalog_id owner_group timeout_ms priority revision "
        "quantity shard_count quota_bytes weight [widgets] attachments requester _tagged_fields"
    )
    assert texts[1] == "  tagged fields: 0 trace_context, 1 dry_run"
    assert (
        "widgets => name kind [labels] [part_ids] [related_ids] payload dimensions owner "
        "_tagged_fields" in texts
    )
    names = [line.name for line in grammar.lines]
    assert names == [
        "Widget Request (Version: 3)",
        "widgets",
        "dimensions",
        "owner",
        "audit",
        "approved_by",
        "requester",
    ]
    rows = {r.path: r for r in grammar.rows if r.path}
    assert (rows["Revision"].wire, rows["Revision"].size) == ("VARLONG", "1-10")
    assert (rows["CatalogId"].wire, rows["CatalogId"].size) == ("UUID", "16")
    assert (rows["Widgets.Kind"].wire, rows["Widgets.Kind"].size) == ("VARINT16", "1-3")
    assert rows["Widgets.Audit"].notes == "tag 1, default null"
    assert rows["Widgets.Dimensions"].wire == "NULLABLE_STRUCT Dimensions"


def test_grammar_of_a_classic_version_has_no_tag_sections(examples: dict[str, Message]) -> None:
    grammar = build_grammar(examples["WidgetRequest"], 0)
    assert not grammar.flexible
    assert all("_tagged_fields" not in line.text for line in grammar.lines)
    rows = {r.path: r for r in grammar.rows if r.path}
    assert rows["Revision"].wire == "INT32(of int64)"
    assert rows["OwnerGroup"].wire == "STRING"
    # a struct of fixed-size fields has a fixed size, its own null marker included
    assert rows["Requester"].size == "var"


def test_grammar_fixed_size_struct() -> None:
    message = inline(
        {
            "validVersions": "0",
            "flexibleVersions": "none",
            "fields": [
                {
                    "name": "Point",
                    "type": "Point",
                    "versions": "0+",
                    "nullableVersions": "0+",
                    "fields": [
                        {"name": "X", "type": "int32", "versions": "0+"},
                        {"name": "Y", "type": "int64", "versions": "0+"},
                    ],
                }
            ],
        }
    )
    grammar = build_grammar(message, 0)
    assert grammar.rows[0].size == "13"  # int8 marker + 4 + 8


def test_grammar_disambiguates_nested_lines_with_one_name() -> None:
    message = inline(
        {
            "validVersions": "0",
            "flexibleVersions": "none",
            "fields": [
                {
                    "name": "A",
                    "type": "[]A",
                    "versions": "0+",
                    "fields": [
                        {
                            "name": "Items",
                            "type": "[]AItem",
                            "versions": "0+",
                            "fields": [{"name": "X", "type": "int8", "versions": "0+"}],
                        }
                    ],
                },
                {
                    "name": "B",
                    "type": "[]B",
                    "versions": "0+",
                    "fields": [
                        {
                            "name": "Items",
                            "type": "[]BItem",
                            "versions": "0+",
                            "fields": [{"name": "Y", "type": "int8", "versions": "0+"}],
                        }
                    ],
                },
            ],
        }
    )
    names = [line.name for line in build_grammar(message, 0).lines]
    assert names == ["Test Request (Version: 0)", "a", "a.items", "b", "b.items"]


# -- comparison -----------------------------------------------------------------------------
BASE_SPEC: dict[str, Any] = {
    "validVersions": "0-1",
    "flexibleVersions": "1+",
    "fields": [
        {"name": "A", "type": "int32", "versions": "0+"},
        {"name": "Gone", "type": "string", "versions": "0+"},
        {"name": "S", "type": "[]S", "versions": "0+", "fields": [
            {"name": "X", "type": "int16", "versions": "0+"},
        ]},
        {"name": "D", "type": "int32", "versions": "0+", "default": "1"},
    ],
}  # fmt: skip


def test_compare_marks_rows_cells_and_columns() -> None:
    base = inline(BASE_SPEC)
    head = inline(
        {
            "validVersions": "0-2",
            "flexibleVersions": "1+",
            "fields": [
                {"name": "A", "type": "int64", "versions": "0+"},
                {"name": "S", "type": "[]S", "versions": "0+", "fields": [
                    {"name": "X", "type": "int16", "versions": "0+"},
                    {"name": "New", "type": "string", "versions": "2+"},
                ]},
                {"name": "D", "type": "int32", "versions": "0+", "default": "2"},
            ],
        }
    )  # fmt: skip
    merged = compare(build_matrix(base), build_matrix(head))
    assert [(c.label, c.change) for c in merged.columns] == [("0", ""), ("1", ""), ("2", "added")]
    changes = {r.path: r.change for r in merged.rows}
    assert changes == {
        "A": "changed",
        "Gone": "removed",
        "S": "",
        "S.X": "",
        "S.New": "added",
        "D": "changed",  # a default changed: same bytes, different meaning
    }
    assert [r.path for r in merged.rows] == ["A", "Gone", "S", "S.X", "S.New", "D"]
    assert [c.change for c in row(merged, "A").cells] == ["changed", "changed", ""]
    assert [c.symbol() for c in row(merged, "Gone").cells] == ["○-", "◆-", "·"]


def test_compare_with_no_base_marks_everything_new(examples: dict[str, Message]) -> None:
    merged = compare(None, build_matrix(examples["WidgetResponseHeader"]))
    assert all(c.change == "added" for c in merged.columns)
    assert all(r.change == "added" for r in merged.rows)


def test_removed_row_keeps_its_base_timeline() -> None:
    base, head = inline(BASE_SPEC), inline({**BASE_SPEC, "fields": BASE_SPEC["fields"][:1]})
    against = Against("BASE", "HEAD", "inline/TestRequest.json", ())
    item = explain(head, "inline/TestRequest.json", base=base, against=against)
    phrases = dict(zip((r.path for r in item.matrix.rows), item.timelines, strict=True))
    assert phrases["Gone"] == "removed since BASE (was: in every version)"
    assert phrases["D"] == "removed since BASE (was: in every version, default 1)"


# -- finding the message --------------------------------------------------------------------
@pytest.fixture()
def source() -> FileSource:
    return FileSource([str(EXAMPLES)])


def names_of(found: list[Any]) -> list[str]:
    return [f.message.name for f in found]


def test_find_by_exact_and_folded_name(source: FileSource) -> None:
    assert names_of(find_messages(source, "WidgetRequest")) == ["WidgetRequest"]
    assert names_of(find_messages(source, "widgetrequest")) == ["WidgetRequest"]
    assert names_of(find_messages(source, "WIDGETRESPONSEHEADER")) == ["WidgetResponseHeader"]


def test_find_by_bare_name_gives_request_and_response(source: FileSource) -> None:
    assert names_of(find_messages(source, "Widget")) == ["WidgetRequest", "WidgetResponse"]
    assert names_of(find_messages(source, "widget", "response")) == ["WidgetResponse"]


def test_find_by_api_key(source: FileSource) -> None:
    assert names_of(find_messages(source, "200")) == ["WidgetRequest", "WidgetResponse"]
    assert names_of(find_messages(source, "200", "request")) == ["WidgetRequest"]
    with pytest.raises(UsageError, match="no message with apiKey 7"):
        find_messages(source, "7")


def test_find_unknown_name_suggests(source: FileSource) -> None:
    with pytest.raises(UsageError) as err:
        find_messages(source, "WidgetRequets")
    assert "did you mean 'WidgetRequest'" in str(err.value)
    with pytest.raises(UsageError, match=r"no header named 'Widget'.*did you mean"):
        find_messages(source, "Widget", "header")
    with pytest.raises(UsageError, match="no message named 'Zebra'"):
        find_messages(source, "Zebra")


def test_find_reads_the_named_file_first(tmp_path: Path) -> None:
    """A file named after the message answers without parsing the others."""
    (tmp_path / "FooRequest.json").write_text(
        '{"apiKey": 1, "type": "request", "name": "FooRequest", "validVersions": "0",'
        ' "flexibleVersions": "none", "fields": []}'
    )
    (tmp_path / "Broken.json").write_text('{"validVersions": ')
    loaded: list[str] = []

    class Counting(FileSource):
        def load(self, key: str) -> Any:
            loaded.append(Path(key).name)
            return super().load(key)

    found = find_messages(Counting([str(tmp_path)]), "foo")
    assert names_of(found) == ["FooRequest"]
    assert loaded == ["FooRequest.json"]


def test_did_you_mean_ignores_a_shared_suffix() -> None:
    names = ["MetadataRequest", "MetadataResponse", "HeartbeatResponse", "UpdateMetadataResponse"]
    assert did_you_mean("MetdataResponse", names)[0] == "MetadataResponse"
    assert "HeartbeatResponse" not in did_you_mean("MetdataResponse", names)
    assert set(did_you_mean("Metdata", names)) == {"MetadataRequest", "MetadataResponse"}


# -- renderers ------------------------------------------------------------------------------
def test_markdown_is_one_valid_table_per_message(examples: dict[str, Message]) -> None:
    items = [explain(m, f"specs/examples/{m.name}.json") for m in examples.values()]
    text = render_markdown.render(items)
    assert check_markdown_tables(text) == len(items)
    assert "●" not in text and "◆" not in text  # ASCII cells in markdown


def test_markdown_escapes_pipes() -> None:
    assert render_markdown.cell("a|b") == "a\\|b"
    assert split_row("| a\\|b | c |") == ["a\\|b", "c"]


def test_json_document_shape(examples: dict[str, Message]) -> None:
    item = explain(examples["WidgetRequest"], "specs/examples/WidgetRequest.json", version=2)
    document = render_json.document([item])
    assert (document["schema"], document["version"]) == ("kcompat-explain", 1)
    assert len(document["legend"]) == len(LEGEND)
    message = document["messages"][0]
    assert message["unstable_version"] == 4
    assert len(message["columns"]) == 5
    assert all(len(r["cells"]) == 5 for r in message["rows"])
    revision = next(r for r in message["rows"] if r["path"] == "Revision")
    assert [c["encoding"] for c in revision["cells"]] == ["fixed32", "fixed32", "packed64"] + [
        "packed64"
    ] * 2
    assert message["layout"]["version"] == 2
    assert message["layout"]["grammar"][0].startswith("Widget Request (Version: 2) => ")
    assert message["against"] is None
    json.dumps(document)  # serialisable


@pytest.mark.parametrize("width", [40, 60, 80, 100, 120])
def test_text_fits_the_width(examples: dict[str, Message], width: int) -> None:
    item = explain(examples["WidgetRequest"], "specs/examples/WidgetRequest.json")
    text = render_text.to_string(render_text.render([item], width=width), width=width)
    assert max(len(line) for line in text.splitlines()) <= width


def test_ascii_text_has_no_unicode(examples: dict[str, Message]) -> None:
    item = explain(examples["WidgetRequest"], "specs/examples/WidgetRequest.json")
    text = render_text.to_string(render_text.render([item], width=100, ascii_only=True), width=100)
    assert text.isascii()
