"""``same_layout`` (:mod:`kcompat.spec.shape`) says exactly what comparing two
``version_signature`` values says, without building them, whether or not the versions
whose wire signatures differ were worked out first (``wire_changes``, as reading releases
does): the changelog skips the runs it finds unchanged with it, so one wrong answer would
hide or invent a change."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from kcompat.spec.model import Message
from kcompat.spec.shape import same_layout, version_signature, wire_changes, wire_signature
from kcompat.spec.specfile import read_spec
from tests.conftest import EXAMPLES

WIDGET = (EXAMPLES / "WidgetRequest.json").read_text(encoding="utf-8")

#: One edit each: what it changes, and the edit (old text, new text).
EDITS = {
    "a default of an untagged field": ('"default": "0x7530"', '"default": "0x7531"'),
    "a default inside an array of structs": (
        '"name": "Kind", "type": "int16", "versions": "0+",',
        '"name": "Kind", "type": "int16", "versions": "0+", "default": "3",',
    ),
    "a type": ('"name": "TimeoutMs", "type": "int32"', '"name": "TimeoutMs", "type": "int64"'),
    "a name": ('"name": "Priority"', '"name": "Urgency"'),
    "an encoding": ('"encoding": "upacked32"', '"encoding": "packed32"'),
    "the versions of a field": (
        '"name": "LegacyMode", "type": "bool", "versions": "0-2"',
        '"name": "LegacyMode", "type": "bool", "versions": "0-1"',
    ),
    "nothing but a comment": ("// Version 0 is the first", "// Version zero is the first"),
}


def _message(path: str, data: bytes) -> Message:
    message = read_spec(path, data).message
    assert message is not None
    return message


def _agrees(path: str, base: bytes, head: bytes) -> dict[int, bool]:
    """same_layout at every version both sides have, on messages fresh and on messages
    whose wire changes were worked out first, each checked against the signatures (of
    messages read apart, so no answer reads another's memos)."""
    out: dict[int, bool] = {}
    for primed in (False, True):
        old, new = _message(path, base), _message(path, head)
        if primed:
            changed = wire_changes(old, new)
            assert wire_changes(old, new) is changed  # once per pair of messages
        for version in old.valid_versions & new.valid_versions:
            found = same_layout(old, new, version)
            signatures = [version_signature(_message(path, data), version) for data in (base, head)]
            assert found == (signatures[0] == signatures[1]), version
            assert out.setdefault(version, found) == found
    return out


def test_wire_changes_are_the_versions_whose_wire_signatures_differ() -> None:
    edited = WIDGET.replace(*EDITS["the versions of a field"])  # LegacyMode ends before 2
    edited = edited.replace(*EDITS["a default of an untagged field"])  # not on the wire
    old = _message("WidgetRequest.json", WIDGET.encode("utf-8"))
    new = _message("WidgetRequest.json", edited.encode("utf-8"))
    expected = [v for v in range(5) if wire_signature(old, v) != wire_signature(new, v)]
    assert list(wire_changes(old, new)) == expected == [2]
    assert not same_layout(old, new, 0)  # the default still tells the layouts apart
    again = _message("WidgetRequest.json", WIDGET.encode("utf-8"))
    assert wire_changes(again, old).empty
    assert list(wire_changes(again, new)) == [2]
    assert wire_changes(again, new) is not wire_changes(old, new)  # kept per older message


def _widget(text: str) -> dict[int, bool]:
    return _agrees("WidgetRequest.json", WIDGET.encode("utf-8"), text.encode("utf-8"))


@pytest.mark.parametrize("what", EDITS)
def test_same_layout_says_what_the_signatures_say(what: str) -> None:
    old, new = EDITS[what]
    assert old in WIDGET
    verdicts = _widget(WIDGET.replace(old, new))
    if what == "nothing but a comment":
        assert all(verdicts.values())
    else:
        assert not all(verdicts.values()), "the edit changes some version"


def test_a_default_changes_only_the_versions_that_hold_the_field() -> None:
    edited = WIDGET.replace(
        '"name": "ShardCount", "type": "uint16", "versions": "1+", "default": "8"',
        '"name": "ShardCount", "type": "uint16", "versions": "1+", "default": "9"',
    )
    verdicts = _widget(edited)
    assert verdicts[0] is True  # ShardCount starts at version 1
    assert verdicts[1] is False and verdicts[4] is False


@pytest.mark.corpus
def test_same_layout_agrees_on_kafka_releases(kafka_repo: Path) -> None:
    """Every message both sides have, at every version both have, 2.8.0 against trunk."""

    def texts(revision: str) -> dict[str, bytes]:
        listing = subprocess.run(
            ["git", "ls-tree", "-r", "--name-only", revision],
            cwd=kafka_repo,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()
        return {
            path: subprocess.run(
                ["git", "show", f"{revision}:{path}"],
                cwd=kafka_repo,
                capture_output=True,
                check=True,
            ).stdout
            for path in listing
            if path.endswith(".json") and "/common/message/" in path
        }

    base, head = texts("2.8.0"), texts("trunk")
    verdicts = [
        same
        for path in sorted(base.keys() & head.keys())
        if read_spec(path, base[path]).ok and read_spec(path, head[path]).ok
        for same in _agrees(path, base[path], head[path]).values()
    ]
    assert len(verdicts) > 500 and 0 < verdicts.count(False) < len(verdicts)
