"""``kcompat changelog`` on Kafka's own history, checked against the specs themselves.

What each release added, removed and re-versioned is worked out here from the parsed
JSON of both sides (Python's json, comments blanked out; no kcompat code), and the
changelog must name every such message (a re-versioned one with its new highest
version) and no message whose spec means the same on both sides. Like Jackson, the root
object is read and anything after it ignored: Kafka 2.8.0's DescribeProducersRequest
closes its fields twice.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.diff_runner import run_cli

pytestmark = pytest.mark.corpus


def _spec_texts(repo: Path, rev: str) -> dict[str, str]:
    """Every spec file's text at ``rev`` (files with ``validVersions``), by path."""
    listing = subprocess.run(
        ["git", "ls-tree", "-r", "-z", "--name-only", rev],
        cwd=repo,
        capture_output=True,
        check=True,
    ).stdout.decode()
    paths = [p for p in listing.split("\0") if p.endswith(".json") and "/resources/" in p]
    request = "".join(f"{rev}:{p}\n" for p in paths).encode()
    out = subprocess.run(
        ["git", "cat-file", "--batch"], cwd=repo, input=request, capture_output=True, check=True
    ).stdout
    texts: dict[str, str] = {}
    for path in paths:
        header, _, out = out.partition(b"\n")
        size = int(header.split()[2])
        texts[path], out = out[:size].decode("utf-8"), out[size + 1 :]
    return {p: t for p, t in texts.items() if "validVersions" in t}


_STRING_OR_COMMENT = re.compile(r'"(?:[^"\\\n]|\\.)*"|//[^\r\n]*|/\*.*?\*/', re.DOTALL)


def _parsed(text: str) -> Any:
    """A spec's root object: comments blanked, the first JSON value read."""
    plain = _STRING_OR_COMMENT.sub(
        lambda m: m.group(0) if m.group(0).startswith('"') else " ", text
    )
    return json.JSONDecoder().raw_decode(plain.strip())[0]


def _messages(repo: Path, rev: str) -> dict[str, dict[str, Any]]:
    """Message name -> its parsed JSON object."""
    out = {}
    for text in _spec_texts(repo, rev).values():
        document = _parsed(text)
        out[document["name"]] = document
    return out


def _highest(versions: str) -> int | None:
    """The highest version of a Kafka range (None for ``N+`` and ``none``)."""
    text = versions.strip()
    if text == "none" or text.endswith("+"):
        return None
    return int(text.split("-")[-1])


def _facts(repo: Path, base: str, head: str) -> dict[str, Any]:
    before, after = _messages(repo, base), _messages(repo, head)
    both = before.keys() & after.keys()
    return {
        "added": after.keys() - before.keys(),
        "removed": before.keys() - after.keys(),
        "reversioned": {
            name: after[name]["validVersions"]
            for name in both
            if before[name]["validVersions"] != after[name]["validVersions"]
        },
        "same": {name for name in both if before[name] == after[name]},
    }


@pytest.mark.parametrize(("base", "head"), [("3.7.0", "3.8.0"), ("2.8.0", "3.0.0")])
def test_a_release_s_changelog_names_what_its_specs_say(
    kafka_repo: Path, base: str, head: str
) -> None:
    facts = _facts(kafka_repo, base, head)
    assert facts["added"] and facts["reversioned"] and facts["same"]  # the test has teeth
    done = run_cli(["changelog", base, head, "--format", "json"], kafka_repo)
    assert done.code == 0, done.stderr
    changes = json.loads(done.stdout)["changes"]
    by_kind: dict[str, list[dict[str, Any]]] = {}
    for change in changes:
        by_kind.setdefault(change["kind"], []).append(change)
    renames = {c["before"]: c["message"] for c in by_kind.get("message-renamed", [])}
    added = {c["message"] for c in by_kind.get("message-added", [])}
    removed = {c["message"] for c in by_kind.get("message-removed", [])}
    assert added | (set(renames.values()) & facts["added"]) == facts["added"]
    assert removed | (set(renames) & facts["removed"]) == facts["removed"]
    versioned = {
        c["message"]: c["after"]
        for kind in ("versions-added", "versions-removed")
        for c in by_kind.get(kind, [])
    }
    assert versioned.keys() == facts["reversioned"].keys()
    for name, valid in facts["reversioned"].items():
        highest = _highest(valid)
        assert _highest(versioned[name]) == highest, name
        assert highest is None or str(highest) in versioned[name]
    named = {c["message"] for c in changes} | set(renames)
    assert not named & facts["same"], sorted(named & facts["same"])


def test_the_text_says_each_new_highest_version(kafka_repo: Path) -> None:
    facts = _facts(kafka_repo, "3.7.0", "3.8.0")
    done = run_cli(["changelog", "3.7.0", "3.8.0", "--color", "never"], kafka_repo)
    assert done.code == 0, done.stderr
    text = done.stdout
    for name, valid in facts["reversioned"].items():
        section = text.split(f"\n{name} ", 1)[1].split("\n\n", 1)[0]
        assert f"(validVersions now {valid})" in section, name
    for name in facts["added"]:
        assert f"\n{name} " in text, name
    first = text.splitlines()[0]
    assert first.startswith("3.7.0 -> 3.8.0: 4 messages added, 19 re-versioned")
    assert first.endswith(" 11 breaks")
