"""Every kind of change ``kcompat changelog`` reports, with the exact lines it prints.

Each test commits a BASE and a HEAD spec in a temp repository and runs the CLI. Without
release tags every BASE version counts as released (less an unstable latest one), as in
``kcompat diff``; unreleased versions are made with ``latestVersionUnstable``.
"""

from __future__ import annotations

from pathlib import Path

from tests.changelog_specs import changelog, field, lines, spec

BYTES = "(bytes: kcompat diff 'HEAD~1' HEAD)"
RELEASED = "Released: every version in BASE (less an unstable latest one)."


def test_a_new_version_its_fields_and_its_kip(tmp_path: Path) -> None:
    base = spec("FooRequest", fields=[field("A")])
    head = spec(
        "FooRequest",
        valid="0-2",
        comment="Version 1 is the same as version 0.\nVersion 2 adds B and T (KIP-123, KAFKA-9).",
        fields=[
            field("A"),
            field("B", "string", "2+", default="x"),
            field("T", "int64", "2+", tag=0, taggedVersions="2+"),
        ],
    )
    assert lines(changelog(tmp_path, {"FooRequest": base}, {"FooRequest": head})) == [
        "HEAD~1 -> HEAD: 1 message re-versioned, 0 breaks",
        "",
        "FooRequest (API key 90)",
        "  + version 2 added (validVersions now 0-2) KIP-123, KAFKA-9",
        "  + version 2 adds B (string, default 'x')",
        "  + version 2 adds tagged field T (tag 0, int64)",
    ]


def test_what_a_new_version_ends_makes_nullable_and_encodes_anew(tmp_path: Path) -> None:
    base = spec(
        "FooRequest",
        fields=[field("A"), field("S", "string"), field("N", encoding="fixed32")],
    )
    head = spec(
        "FooRequest",
        valid="0-3",
        fields=[
            field("A", versions="0-1"),
            field("S", "string", nullableVersions="2"),
            field("N", encoding={"0-1": "fixed32", "2+": "packed32"}),
        ],
    )
    assert lines(changelog(tmp_path, {"FooRequest": base}, {"FooRequest": head}))[2:] == [
        "FooRequest (API key 90)",
        "  + versions 2-3 added (validVersions now 0-3)",
        "  - version 2 drops A (int32)",
        "  ~ version 2 makes S nullable",
        "  ~ version 2: N encoding fixed32 -> packed32",
        "  ~ version 3 makes S not nullable",
    ]


def test_versions_removed_deprecated_first_or_not(tmp_path: Path) -> None:
    base = spec("FooRequest", valid="0-5", deprecatedVersions="0-1", fields=[field("A")])
    head = spec("FooRequest", valid="2-3", fields=[field("A")])
    assert lines(changelog(tmp_path, {"FooRequest": base}, {"FooRequest": head})) == [
        "HEAD~1 -> HEAD: 1 message re-versioned, 1 break",
        "",
        "FooRequest (API key 90)",
        "  - released versions 0-1 removed, deprecated first (validVersions now 2-3)",
        "  - released versions 4-5 removed, not deprecated first (validVersions now 2-3)",
        "  ! break [released-version-removed]: released versions 4-5 of FooRequest were "
        f"removed (validVersions 0-5 -> 2-3) {BYTES}",
        "",
        RELEASED,
    ]


def test_versions_deprecated_undeprecated_and_made_stable(tmp_path: Path) -> None:
    base = spec(
        "FooRequest",
        valid="0-3",
        deprecatedVersions="1",
        latestVersionUnstable=True,
        comment="Version 3 adds nothing yet (KIP-848).",
        fields=[field("A")],
    )
    head = spec(
        "FooRequest",
        valid="0-3",
        deprecatedVersions="0",
        comment="Version 3 adds nothing yet (KIP-848).",
        fields=[field("A")],
    )
    assert lines(changelog(tmp_path, {"FooRequest": base}, {"FooRequest": head})) == [
        "HEAD~1 -> HEAD: 1 message changed, 0 breaks",
        "",
        "FooRequest (API key 90)",
        "  ~ version 0 deprecated (deprecatedVersions now 0)",
        "  ~ version 1 no longer deprecated (deprecatedVersions now 0)",
        "  ~ version 3 made stable (no longer latestVersionUnstable) KIP-848",
    ]


def test_a_released_version_made_unstable_is_a_break(tmp_path: Path) -> None:
    base = spec("FooRequest", valid="0-2", fields=[field("A")])
    head = spec("FooRequest", valid="0-2", latestVersionUnstable=True, fields=[field("A")])
    assert lines(changelog(tmp_path, {"FooRequest": base}, {"FooRequest": head}))[2:] == [
        "FooRequest (API key 90)",
        "  ~ released version 2 made unstable (latestVersionUnstable)",
        "  ! break [released-version-unstable]: version 2 of FooRequest is released but is "
        f"now marked unstable {BYTES}",
        "",
        RELEASED,
    ]


def test_flexible_versions_and_a_new_unstable_version(tmp_path: Path) -> None:
    base = spec("FooRequest", valid="0-1", flexible="none", fields=[field("A", "string")])
    head = spec(
        "FooRequest",
        valid="0-2",
        flexible="2+",
        latestVersionUnstable=True,
        fields=[field("A", "string")],
    )
    assert lines(changelog(tmp_path, {"FooRequest": base}, {"FooRequest": head}))[2:] == [
        "FooRequest (API key 90)",
        "  + version 2 added, unstable (validVersions now 0-2)",
        "  ~ flexibleVersions none -> 2+ (sets version 2)",
    ]


def test_messages_added_removed_renamed_and_their_settings(tmp_path: Path) -> None:
    base = {
        "FooRequest": spec("FooRequest", listeners=["broker"], fields=[field("A")]),
        "GoneRequest": spec("GoneRequest", key=91, fields=[field("A")]),
        "OldNameRequest": spec("OldNameRequest", key=93, fields=[field("A")]),
    }
    head = {
        "FooRequest": spec(
            "FooRequest", key=95, listeners=["broker", "controller"], fields=[field("A")]
        ),
        "NewRequest": spec(
            "NewRequest",
            key=92,
            latestVersionUnstable=True,
            listeners=["controller"],
            comment="The New API (KIP-77).",
            fields=[field("A")],
        ),
        "NewNameRequest": spec("NewNameRequest", key=93, fields=[field("A")]),
    }
    assert lines(changelog(tmp_path, base, head)) == [
        "HEAD~1 -> HEAD: 1 message added, 1 removed, 1 renamed, 1 changed, 2 breaks",
        "",
        "GoneRequest (API key 91)",
        "  - request removed (it had versions 0-1)",
        "  ! break [message-removed]: request GoneRequest was removed; clients of its "
        f"released versions (0-1) can no longer use it {BYTES}",
        "",
        "NewRequest (API key 92)",
        "  + new request, versions 0-1, listeners controller (latest version unstable) KIP-77",
        "",
        "NewNameRequest (API key 93)",
        "  ~ renamed from OldNameRequest",
        "",
        "FooRequest (API key 95)",
        "  ~ apiKey changed from 90 to 95",
        "  ~ listeners changed from broker to broker, controller",
        f"  ! break [api-key-changed]: apiKey of FooRequest changed from 90 to 95 {BYTES}",
        "",
        RELEASED,
    ]


def test_changes_to_unreleased_versions_both_sides_have(tmp_path: Path) -> None:
    base = spec(
        "FooRequest",
        latestVersionUnstable=True,
        fields=[
            field("A", default="1"),
            field("C"),
            field("G", "string"),
            field("Q", "int32", "1+"),
            field("T", "string", tag=0, taggedVersions="0+"),
        ],
    )
    head = spec(
        "FooRequest",
        latestVersionUnstable=True,
        fields=[
            field("A", default="2"),
            field("C", versions="0"),
            field("G", "string", tag=1, taggedVersions="1+"),
            field("Q", "int64", "1+"),
            field("New", "int8", "1+"),
        ],
    )
    assert lines(changelog(tmp_path, {"FooRequest": base}, {"FooRequest": head}))[2:] == [
        "FooRequest (API key 90)",
        "  - tagged field T (tag 0, string) removed from released version 0",
        "  + New (int8) added to unreleased version 1",
        "  - C (int32) removed from unreleased version 1",
        "  - tagged field T (tag 0, string) removed from unreleased version 1",
        "  ~ G tagging untagged -> tag 1 in unreleased version 1",
        "  ~ Q type int32 -> int64 in unreleased version 1",
        # A is written in every released version: its default changes no byte (an info)
        "  ~ A default 1 -> 2 in unreleased version 1",
    ]


def test_released_versions_show_what_keeps_their_bytes(tmp_path: Path) -> None:
    shared = {"name": "Shared", "versions": "0+", "fields": [field("Y")]}
    base = spec(
        "FooRequest",
        fields=[
            field("A"),
            field("Old", "string"),
            field("Items", "[]Item", fields=[field("X")]),
            field("Common", "[]Shared"),
        ],
        commonStructs=[shared],
    )
    head = spec(
        "FooRequest",
        fields=[
            field("A"),
            field("New", "string"),
            field("Items", "[]Entry", fields=[field("X")]),
            field("Common", "[]Shared", fields=[field("Y")]),
            field("Tg", "string", tag=0, taggedVersions="0+"),
        ],
    )
    assert lines(changelog(tmp_path, {"FooRequest": base}, {"FooRequest": head})) == [
        "HEAD~1 -> HEAD: 1 message changed, 0 breaks",
        "",
        "FooRequest (API key 90)",
        "  + tagged field Tg (tag 0, string) added to released versions 0-1",
        "  ~ field Old renamed to New in released versions 0-1 (same bytes)",
        "  ~ struct of Items renamed from Item to Entry in released versions 0-1 (same bytes)",
        "  ~ struct Shared of Common moved from commonStructs to the field's own definition "
        "in released versions 0-1",
    ]


def test_fields_regrouped_without_changing_a_byte(tmp_path: Path) -> None:
    base = spec("FooRequest", flexible="none", fields=[field("A"), field("B")])
    head = spec(
        "FooRequest",
        flexible="none",
        fields=[field("S", "Pair", fields=[field("A"), field("B")])],
    )
    assert lines(changelog(tmp_path, {"FooRequest": base}, {"FooRequest": head}))[2:] == [
        "FooRequest (API key 90)",
        "  ~ fields regrouped in released versions 0-1 (same bytes)",
    ]


def test_breaks_follow_the_configuration_preview_and_ignores(tmp_path: Path) -> None:
    config = (
        'preview = [{ message = "Baz*", reason = "early access (KIP-1)" }]\n'
        '[[ignore]]\nrule = "field-removed"\nmessage = "FooRequest"\n'
        'reason = "KIP-2: nobody used it"\n'
    )
    base = {
        "FooRequest": spec("FooRequest", fields=[field("A"), field("B")]),
        "BazRequest": spec("BazRequest", key=94, fields=[field("A"), field("B")]),
        "kcompat.toml": config,
    }
    head = {
        "FooRequest": spec("FooRequest", fields=[field("A")]),
        "BazRequest": spec("BazRequest", key=94, fields=[field("A")]),
        "kcompat.toml": config,
    }
    assert lines(changelog(tmp_path, base, head)) == [
        "HEAD~1 -> HEAD: 2 messages changed, 0 breaks (1 accepted, 1 warning)",
        "",
        "FooRequest (API key 90)",
        "  = accepted break [field-removed]: field B (int32) was removed from released "
        f"versions 0-1 (accepted: KIP-2: nobody used it) {BYTES}",
        "",
        "BazRequest (API key 94)",
        "  ? warning [field-removed]: field B (int32) was removed from released versions 0-1 "
        f"{BYTES}",
        "",
        RELEASED,
    ]


def test_order_requests_by_api_key_then_headers_then_records(tmp_path: Path) -> None:
    names = {
        "ZetaRequest": spec("ZetaRequest", key=1, fields=[field("A")]),
        "ZetaResponse": spec("ZetaResponse", kind="response", key=1, fields=[field("A")]),
        "AlphaRequest": spec("AlphaRequest", key=7, fields=[field("A")]),
        "RequestHeader": spec("RequestHeader", kind="header", key=None, fields=[field("A")]),
        "AbcRecord": spec("AbcRecord", kind="metadata", key=3, fields=[field("A")]),
        "AbcData": spec("AbcData", kind="data", key=None, fields=[field("A")]),
    }
    out = lines(changelog(tmp_path, {}, names))
    titles = [line for line in out if line and not line.startswith(" ")][1:]
    assert titles == [
        "ZetaRequest (API key 1)",
        "ZetaResponse (API key 1)",
        "AlphaRequest (API key 7)",
        "RequestHeader (header)",
        "AbcData (data)",
        "AbcRecord (metadata)",
    ]


def test_a_spec_change_that_is_no_protocol_change_is_not_listed(tmp_path: Path) -> None:
    base = spec("FooRequest", fields=[field("A")])
    head = spec("FooRequest", comment="Reworded.", fields=[{**field("A"), "about": "Better."}])
    assert lines(changelog(tmp_path, {"FooRequest": base}, {"FooRequest": head})) == [
        "HEAD~1 -> HEAD: no protocol change, 0 breaks",
    ]
