"""resolve(): the version-resolved wire layout every command reads."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kcompat.lint.check import lint_specs
from kcompat.sources.directory import DirectorySource
from kcompat.sources.reading import read_side
from kcompat.spec.model import PRIMITIVE_TYPES, Message
from kcompat.spec.resolve import Kind, Layout, LayoutField, StructLayout, Wire, layouts, resolve
from kcompat.spec.specfile import read_spec
from kcompat.spec.versions import Versions

EXAMPLES = Path(__file__).resolve().parents[3] / "specs" / "examples"


@pytest.fixture(scope="module")
def examples() -> dict[str, Message]:
    specs = read_side(DirectorySource(str(EXAMPLES), EXAMPLES)).specs
    messages = {spec.message.name: spec.message for spec in specs if spec.message is not None}
    assert set(messages) >= {"WidgetRequest", "WidgetResponse", "WidgetRequestHeader"}
    return messages


def message_of(spec: dict[str, Any]) -> Message:
    base = {"name": "TestRequest", "type": "request", "apiKey": 1}
    built = read_spec("inline/TestRequest.json", json.dumps({**base, **spec}).encode())
    assert built.message is not None, built.error
    return built.message


def field(struct: StructLayout, name: str) -> LayoutField:
    for entry in struct.all_fields():
        if entry.name == name:
            return entry
    raise AssertionError(f"{name} not in {[f.name for f in struct.all_fields()]}")


def names(struct: StructLayout) -> list[str]:
    return [entry.name for entry in struct.fields]


def struct_of(wire: Wire) -> StructLayout:
    inner = wire.element.struct if wire.element is not None else wire.struct
    assert inner is not None
    return inner


# -- field order and presence ----------------------------------------------------------------


def test_examples_field_order_by_version(examples: dict[str, Message]) -> None:
    request = examples["WidgetRequest"]
    common = ["CatalogId", "OwnerGroup", "TimeoutMs", "Priority"]
    tail = ["Weight", "Widgets", "Attachments", "Requester"]
    assert names(resolve(request, 0).root) == [*common, "LegacyMode", "Revision", "Quantity", *tail]
    assert names(resolve(request, 1).root) == [
        *common,
        "LegacyMode",
        "Revision",
        "Quantity",
        "ShardCount",
        "QuotaBytes",
        *tail,
    ]
    # LegacyMode ("0-2") is gone from version 3
    assert names(resolve(request, 3).root) == [
        *common,
        "Revision",
        "Quantity",
        "ShardCount",
        "QuotaBytes",
        *tail,
    ]


def test_nested_fields_follow_their_own_versions(examples: dict[str, Message]) -> None:
    request = examples["WidgetRequest"]
    v0 = struct_of(field(resolve(request, 0).root, "Widgets").wire)
    v3 = struct_of(field(resolve(request, 3).root, "Widgets").wire)
    assert v0.name == "WidgetSpec" and v0.path == "Widgets"
    assert names(v0) == ["Name", "Kind", "Labels", "PartIds", "Payload", "Owner"]
    assert names(v3) == [
        "Name",
        "Kind",
        "Labels",
        "PartIds",
        "RelatedIds",
        "Payload",
        "Dimensions",
        "Owner",
    ]
    assert [entry.path for entry in v3.tagged] == ["Widgets.Note", "Widgets.Audit"]


def test_declaration_order_is_wire_order() -> None:
    message = message_of(
        {
            "validVersions": "0",
            "flexibleVersions": "none",
            "fields": [
                {"name": name, "type": "int32", "versions": "0+"} for name in ("Zed", "Alpha", "Mu")
            ],
        }
    )
    assert names(resolve(message, 0).root) == ["Zed", "Alpha", "Mu"]


# -- tagged fields ---------------------------------------------------------------------------


def test_tagged_fields_are_sorted_by_tag_and_kept_apart() -> None:
    tagged = {"versions": "1+", "taggedVersions": "1+"}
    message = message_of(
        {
            "validVersions": "0-1",
            "flexibleVersions": "1+",
            "fields": [
                {"name": "Two", "type": "int32", "tag": 2, **tagged},
                {"name": "Plain", "type": "int32", "versions": "0+"},
                {"name": "Zero", "type": "string", "tag": 0, **tagged},
                {"name": "One", "type": "bool", "tag": 1, **tagged},
            ],
        }
    )
    v0 = resolve(message, 0).root
    v1 = resolve(message, 1).root
    assert names(v0) == ["Plain"] and v0.tagged == () and not v0.flexible
    assert names(v1) == ["Plain"] and v1.flexible
    assert [(entry.name, entry.tag) for entry in v1.tagged] == [("Zero", 0), ("One", 1), ("Two", 2)]
    assert all(entry.tagged for entry in v1.tagged)
    assert not field(v1, "Plain").tagged and field(v1, "Plain").tag is None
    assert [entry.name for entry in v1.all_fields()] == ["Plain", "Zero", "One", "Two"]
    assert field(v1, "Zero").wire.compact  # tagged values always use compact encodings


def test_field_tagged_only_in_later_versions_is_regular_before() -> None:
    message = message_of(
        {
            "validVersions": "0-3",
            "flexibleVersions": "2+",
            "fields": [
                {
                    "name": "Late",
                    "type": "int32",
                    "versions": "0+",
                    "taggedVersions": "3+",
                    "tag": 0,
                }
            ],
        }
    )
    assert field(resolve(message, 2).root, "Late").tag is None
    assert field(resolve(message, 3).root, "Late").tag == 0


def test_tagged_fields_in_nested_structs(examples: dict[str, Message]) -> None:
    widgets = struct_of(field(resolve(examples["WidgetRequest"], 2).root, "Widgets").wire)
    dimensions = struct_of(field(widgets, "Dimensions").wire)
    assert dimensions.flexible
    assert [(entry.path, entry.tag) for entry in dimensions.tagged] == [
        ("Widgets.Dimensions.Unit", 0)
    ]


# -- compact and classic encodings -----------------------------------------------------------


@pytest.mark.parametrize(
    ("version", "flexible", "described"),
    [
        (0, False, "STRING"),
        (1, False, "STRING"),
        (2, True, "COMPACT_STRING"),
        (4, True, "COMPACT_STRING"),
    ],
)
def test_compact_encodings_follow_flexible_versions(
    examples: dict[str, Message], version: int, flexible: bool, described: str
) -> None:
    layout = resolve(examples["WidgetRequest"], version)
    assert layout.flexible is flexible and layout.root.flexible is flexible
    owner = field(layout.root, "OwnerGroup").wire
    assert owner.kind is Kind.STRING and owner.compact is flexible
    assert owner.describe() == described
    widgets = field(layout.root, "Widgets").wire
    assert widgets.kind is Kind.ARRAY and widgets.compact is flexible
    labels = field(struct_of(widgets), "Labels").wire
    assert labels.compact is flexible
    assert labels.element is not None and labels.element.compact is flexible
    attachments = field(layout.root, "Attachments").wire
    assert attachments.kind is Kind.RECORDS and attachments.compact is flexible


def test_every_primitive_kind(examples: dict[str, Message]) -> None:
    root = resolve(examples["WidgetRequest"], 2).root
    widgets = struct_of(field(root, "Widgets").wire)
    expected = {
        "CatalogId": "UUID",
        "TimeoutMs": "INT32",
        "Priority": "INT8",
        "LegacyMode": "BOOLEAN",
        "ShardCount": "UINT16",
        "QuotaBytes": "UINT32",
        "Weight": "FLOAT64",
        "Attachments": "COMPACT_RECORDS",
        "TraceContext": "COMPACT_BYTES",
    }
    assert {name: field(root, name).wire.describe() for name in expected} == expected
    assert field(widgets, "PartIds").wire.describe() == "COMPACT_ARRAY[INT32]"
    assert field(widgets, "RelatedIds").wire.describe() == "COMPACT_ARRAY[UUID]"
    assert field(widgets, "Labels").wire.describe() == "COMPACT_ARRAY[COMPACT_STRING]"
    assert field(widgets, "Payload").wire.describe() == "COMPACT_NULLABLE_BYTES"
    assert field(root, "ShardCount").wire.signed is False
    assert field(root, "Priority").wire.fixed_size == 1
    assert field(root, "CatalogId").wire.fixed_size == 16
    assert field(root, "OwnerGroup").wire.fixed_size is None


def test_nullable_versions_that_start_later(examples: dict[str, Message]) -> None:
    request = examples["WidgetRequest"]
    payload = {
        v: field(struct_of(field(resolve(request, v).root, "Widgets").wire), "Payload")
        for v in (0, 1, 2)
    }
    assert not payload[0].nullable and payload[0].wire.describe() == "BYTES"
    assert payload[1].nullable and payload[1].wire.describe() == "NULLABLE_BYTES"
    assert payload[2].wire.describe() == "COMPACT_NULLABLE_BYTES"


def test_field_level_flexible_versions_override(examples: dict[str, Message]) -> None:
    header = examples["WidgetRequestHeader"]
    v2 = resolve(header, 2)
    assert v2.flexible
    caller = field(v2.root, "CallerName")
    # stays a classic int16-length nullable string in a flexible version (like ClientId)
    assert caller.wire.kind is Kind.STRING
    assert caller.wire.compact is False
    assert caller.wire.nullable and caller.wire.describe() == "NULLABLE_STRING"
    assert [entry.name for entry in v2.root.tagged] == ["DeadlineMs"]
    assert field(resolve(header, 1).root, "CallerName").wire.describe() == "NULLABLE_STRING"


def test_override_that_keeps_some_flexible_versions() -> None:
    message = message_of(
        {
            "validVersions": "0-3",
            "flexibleVersions": "1+",
            "fields": [
                {"name": "Name", "type": "string", "versions": "0+", "flexibleVersions": "3+"}
            ],
        }
    )
    compact = {v: field(resolve(message, v).root, "Name").wire.compact for v in range(4)}
    assert compact == {0: False, 1: False, 2: False, 3: True}


# -- nullable structs (KIP-893) --------------------------------------------------------------


def test_nullable_struct_markers(examples: dict[str, Message]) -> None:
    widgets = struct_of(field(resolve(examples["WidgetRequest"], 3).root, "Widgets").wire)
    dimensions = field(widgets, "Dimensions")
    assert not dimensions.tagged and dimensions.nullable
    assert dimensions.wire.kind is Kind.STRUCT
    assert dimensions.wire.null_marker == "int8"
    assert dimensions.wire.describe() == "NULLABLE_STRUCT Dimensions"
    audit = field(widgets, "Audit")
    assert audit.tagged and audit.nullable
    assert audit.wire.null_marker == "uvarint"
    assert audit.default.value is None
    owner = field(widgets, "Owner")
    assert owner.wire.null_marker == "" and not owner.wire.nullable


def test_response_tagged_nullable_struct_uses_common_struct(examples: dict[str, Message]) -> None:
    coordinator = field(resolve(examples["WidgetResponse"], 2).root, "Coordinator")
    assert coordinator.tag == 1 and coordinator.wire.null_marker == "uvarint"
    endpoint = struct_of(coordinator.wire)
    assert endpoint.name == "Endpoint" and names(endpoint) == ["NodeId", "Host", "Port"]


# -- integer encodings ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "version", "form", "bits", "type_bits", "described"),
    [
        ("Revision", 0, "fixed", 32, 64, "INT32(of int64)"),
        ("Revision", 1, "fixed", 32, 64, "INT32(of int64)"),
        ("Revision", 2, "packed", 64, 64, "VARLONG"),
        ("Revision", 4, "packed", 64, 64, "VARLONG"),
        ("Quantity", 0, "upacked", 32, 32, "UNSIGNED_VARINT"),
        ("Quantity", 3, "upacked", 32, 32, "UNSIGNED_VARINT"),
        ("TimeoutMs", 0, "fixed", 32, 32, "INT32"),  # no encoding: fixed at its own width
    ],
)
def test_encodings(
    examples: dict[str, Message],
    name: str,
    version: int,
    form: str,
    bits: int,
    type_bits: int,
    described: str,
) -> None:
    wire = field(resolve(examples["WidgetRequest"], version).root, name).wire
    assert wire.kind is Kind.INT
    assert (wire.form, wire.bits, wire.type_bits) == (form, bits, type_bits)
    assert wire.is_varint is (form != "fixed")
    assert wire.describe() == described
    assert wire.fixed_size == (bits // 8 if form == "fixed" else None)


def test_packed16_in_a_struct_array(examples: dict[str, Message]) -> None:
    widgets = struct_of(field(resolve(examples["WidgetRequest"], 0).root, "Widgets").wire)
    kind = field(widgets, "Kind").wire
    assert (kind.form, kind.bits, kind.type_bits) == ("packed", 16, 16)
    assert kind.describe() == "VARINT16"


def test_unknown_encoding_name_falls_back_to_fixed() -> None:
    message = message_of(
        {
            "validVersions": "0",
            "flexibleVersions": "none",
            "fields": [{"name": "A", "type": "int32", "versions": "0+", "encoding": "unsigned32"}],
        }
    )
    wire = field(resolve(message, 0).root, "A").wire
    assert (wire.form, wire.bits) == ("fixed", 32)  # lint reports the name


# -- structs ---------------------------------------------------------------------------------


def test_common_struct_used_from_several_places(examples: dict[str, Message]) -> None:
    root = resolve(examples["WidgetRequest"], 3).root
    requester = struct_of(field(root, "Requester").wire)
    widgets = struct_of(field(root, "Widgets").wire)
    owner = struct_of(field(widgets, "Owner").wire)
    approved = struct_of(field(struct_of(field(widgets, "Audit").wire), "ApprovedBy").wire)
    for struct, path in (
        (requester, "Requester"),
        (owner, "Widgets.Owner"),
        (approved, "Widgets.Audit.ApprovedBy"),
    ):
        assert struct.name == "Principal" and struct.defined
        assert struct.path == path
        assert names(struct) == ["PrincipalType", "PrincipalName", "SessionId"]
        assert struct.fields[0].path == f"{path}.PrincipalType"
        assert struct.flexible


def test_struct_array_elements_and_map_keys(examples: dict[str, Message]) -> None:
    results = field(resolve(examples["WidgetResponse"], 4).root, "Results")
    assert results.wire.kind is Kind.ARRAY
    assert results.wire.element is not None and results.wire.element.kind is Kind.STRUCT
    element = struct_of(results.wire)
    assert field(element, "Name").field.map_key
    assert field(element, "LeaderEpoch").default.value == -1
    placement = struct_of(field(element, "Placement").wire)
    assert names(placement) == ["ShardId", "NodeId"]


def test_undefined_struct_resolves_as_undefined() -> None:
    message = message_of(
        {
            "validVersions": "0",
            "flexibleVersions": "none",
            "fields": [{"name": "Missing", "type": "Nowhere", "versions": "0+"}],
        }
    )
    struct = struct_of(field(resolve(message, 0).root, "Missing").wire)
    assert not struct.defined and struct.fields == ()


def test_recursive_struct_does_not_recurse_forever() -> None:
    message = message_of(
        {
            "validVersions": "0",
            "flexibleVersions": "0+",
            "fields": [{"name": "Root", "type": "Node", "versions": "0+"}],
            "commonStructs": [
                {
                    "name": "Node",
                    "versions": "0+",
                    "fields": [
                        {"name": "Value", "type": "int32", "versions": "0+"},
                        {
                            "name": "Child",
                            "type": "Node",
                            "versions": "0+",
                            "nullableVersions": "0+",
                        },
                    ],
                }
            ],
        }
    )
    node = struct_of(field(resolve(message, 0).root, "Root").wire)
    child = struct_of(field(node, "Child").wire)
    assert names(node) == ["Value", "Child"]
    assert child.fields == ()  # the cycle stops here


def test_inline_struct_versions_narrow_the_fields() -> None:
    message = message_of(
        {
            "validVersions": "0-2",
            "flexibleVersions": "none",
            "fields": [
                {
                    "name": "Items",
                    "type": "[]Item",
                    "versions": "0+",
                    "fields": [
                        {"name": "A", "type": "int8", "versions": "0+"},
                        {"name": "B", "type": "int8", "versions": "1"},
                        {"name": "C", "type": "int8", "versions": "2+"},
                    ],
                }
            ],
        }
    )
    got = {v: names(struct_of(field(resolve(message, v).root, "Items").wire)) for v in range(3)}
    assert got == {0: ["A"], 1: ["A", "B"], 2: ["A", "C"]}


# -- versions and memoisation ----------------------------------------------------------------


@pytest.mark.parametrize("version", [-1, 5, 32767])
def test_version_outside_valid_versions_raises(examples: dict[str, Message], version: int) -> None:
    with pytest.raises(ValueError, match="no version"):
        resolve(examples["WidgetRequest"], version)


def test_resolve_is_memoised(examples: dict[str, Message]) -> None:
    request = examples["WidgetRequest"]
    first = resolve(request, 2)
    assert resolve(request, 2) is first
    assert resolve(request, 3) is not first
    assert isinstance(first, Layout) and first.message is request and first.version == 2


def test_layouts_cover_valid_versions(examples: dict[str, Message]) -> None:
    request = examples["WidgetRequest"]
    assert [layout.version for layout in layouts(request)] == [0, 1, 2, 3, 4]
    assert [layout.version for layout in layouts(request, Versions.parse("3+"))] == [3, 4]
    assert layouts(request)[2] is resolve(request, 2)


def test_equal_specs_give_equal_layouts() -> None:
    spec = {
        "validVersions": "0-1",
        "flexibleVersions": "1+",
        "fields": [{"name": "A", "type": "string", "versions": "0+"}],
    }
    one, two = message_of(spec), message_of(spec)
    assert one is not two
    assert resolve(one, 1).root == resolve(two, 1).root
    assert resolve(one, 0).root != resolve(one, 1).root


# -- the examples themselves -----------------------------------------------------------------


def test_examples_lint_without_findings() -> None:
    assert lint_specs(read_side(DirectorySource(str(EXAMPLES), EXAMPLES)).specs) == []


def test_examples_use_every_feature(examples: dict[str, Message]) -> None:
    """specs/examples promises to exercise the whole format; keep it that way."""
    fields = [f for message in examples.values() for _path, f in message.walk()]
    types = {f.type.text for f in fields}
    assert types >= PRIMITIVE_TYPES
    assert {"[]string", "[]int32", "[]uuid"} <= types
    assert any(f.type.is_struct_array for f in fields)
    kinds = {message.kind for message in examples.values()}
    assert {"request", "response", "header"} <= kinds
    request, response = examples["WidgetRequest"], examples["WidgetResponse"]
    assert request.api_key == response.api_key
    assert request.latest_version_unstable and request.listeners
    assert not request.deprecated_versions.empty
    assert any(not m.flexible_versions.empty for m in examples.values())
    assert all(m.valid_versions - m.flexible_versions for m in examples.values())
    tagged = [f for f in fields if f.is_tagged]
    assert tagged and any(f.type.is_struct and not f.nullable_versions.empty for f in tagged)
    assert any(f.default.text == "null" and f.type.is_struct for f in tagged)
    assert any(
        f.type.is_struct and not f.is_tagged and not f.nullable_versions.empty for f in fields
    )
    encodings = [f.node.get("encoding") for f in fields if f.node is not None and f.encoding]
    assert any(isinstance(e, str) for e in encodings)
    assert any(isinstance(e, dict) for e in encodings)
    forms = {(rule.form, rule.bits) for f in fields for rule in f.encoding}
    assert {("fixed", 32), ("packed", 64)} <= forms and any(form == "upacked" for form, _ in forms)
    defaults = {f.default.text for f in fields if f.default.explicit}
    assert {"-1", "null"} <= defaults and any(d and d.startswith("0x") for d in defaults)
    assert any(f.type.text == "uuid" and f.default.explicit for f in fields)
    assert any(f.flexible_versions is not None and f.flexible_versions.empty for f in fields)
    assert any(f.entity_type for f in fields) and any(f.ignorable for f in fields)
    assert any(f.map_key for f in fields) and any(f.zero_copy for f in fields)
    assert any(
        not f.nullable_versions.empty and f.nullable_versions.lowest > f.versions.lowest
        for f in fields
    )
    assert any(str(f.versions) == "0-2" for f in fields)
    for message in examples.values():
        used = {f.type.base for _path, f in message.walk()}
        assert all(struct.name in used for struct in message.common_structs)
    assert sum(f.type.base == "Principal" for _path, f in request.walk()) >= 2


@pytest.mark.parametrize(
    ("written", "described"), [(" int32 ", "INT32"), ("[] string", "ARRAY[STRING]")]
)
def test_type_text_is_trimmed_as_kafka_does(written: str, described: str) -> None:
    message = message_of(
        {
            "validVersions": "0",
            "flexibleVersions": "none",
            "fields": [{"name": "A", "type": written, "versions": "0+"}],
        }
    )
    assert field(resolve(message, 0).root, "A").wire.describe() == described
