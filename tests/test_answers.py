"""Answers that misled a new user (issue 35, points 11 to 15), asked as a user asks them:
the command line in temp repositories (remotes and tags laid out as Kafka's clones have
them), and the language server as an editor drives it."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from tests.diff_runner import GIT_ENV, commit_tree, git, init_repo, run_cli, run_process

TOPIC_REQUEST = {
    "apiKey": 90,
    "type": "request",
    "name": "TopicRequest",
    "validVersions": "0-1",
    "flexibleVersions": "1+",
    "fields": [
        {"name": "Topic", "type": "string", "versions": "0+", "entityType": "topicName",
         "about": "The topic."},
        {"name": "Size", "type": "int32", "versions": "0+", "about": "The size."},
    ],
}  # fmt: skip
TOPIC_RESPONSE = {
    "apiKey": 90,
    "type": "response",
    "name": "TopicResponse",
    "validVersions": "0-1",
    "flexibleVersions": "1+",
    "fields": [{"name": "ErrorCode", "type": "int16", "versions": "0+", "about": "The error."}],
}


def spec_text(spec: dict[str, object]) -> str:
    return json.dumps(spec, indent=2) + "\n"


def _findings(stdout: str) -> list[str]:
    """``file:line:col: severity [rule] ...`` lines: the rules, in order."""
    return [line.split("[", 1)[1].split("]", 1)[0] for line in stdout.splitlines() if "] " in line]


# -- 11: a message without "type" ----------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "hint"),
    [
        ("TopicRequest", 'add "type": "request" (its name ends in Request)'),
        ("TopicResponse", 'add "type": "response" (its name ends in Response)'),
        ("TopicRecord", 'add "type": the kind of message, one of request, response, header'),
    ],
)
def test_a_message_without_type_is_told_the_kinds_of_message(
    tmp_path: Path, name: str, hint: str
) -> None:
    spec = {k: v for k, v in TOPIC_REQUEST.items() if k != "type"}
    spec["name"] = name
    (tmp_path / f"{name}.json").write_text(spec_text(spec), encoding="utf-8")
    run = run_cli(["lint", f"{name}.json"], tmp_path)
    assert run.code == 1
    lines = run.stdout.splitlines()
    found = lines.index(next(line for line in lines if "[missing-key]" in line))
    assert lines[found].endswith(f"message '{name}' has no 'type'")
    shown = lines[found + 1].strip()
    assert shown.startswith(f"hint: {hint}"), shown
    for kind in ("request", "response", "header", "metadata", "data"):
        assert kind in shown
    assert "primitive" not in shown and "[]T" not in shown  # a field's kinds, not a message's


def test_a_field_without_type_still_gets_the_field_types(tmp_path: Path) -> None:
    spec = json.loads(json.dumps(TOPIC_REQUEST))
    del spec["fields"][1]["type"]
    (tmp_path / "TopicRequest.json").write_text(spec_text(spec), encoding="utf-8")
    (tmp_path / "TopicResponse.json").write_text(spec_text(TOPIC_RESPONSE), encoding="utf-8")
    run = run_cli(["lint", "."], tmp_path)
    assert 'hint: add "type": one of the primitive types, a struct name or []T' in run.stdout


# -- 15: one typo, one finding --------------------------------------------------------------


def _one_typo() -> str:
    spec = json.loads(json.dumps(TOPIC_REQUEST))
    spec["fields"][0]["type"] = "strin"  # the typo; entityType topicName wants a string
    spec["fields"][1].update(type="int33", encoding="packed32", zeroCopy=True)
    return spec_text(spec)


def test_a_mistyped_type_is_one_finding_not_two(tmp_path: Path) -> None:
    (tmp_path / "TopicRequest.json").write_text(_one_typo(), encoding="utf-8")
    (tmp_path / "TopicResponse.json").write_text(spec_text(TOPIC_RESPONSE), encoding="utf-8")
    run = run_cli(["lint", "."], tmp_path)
    assert run.code == 1
    # entityType, zeroCopy and encoding on a type Kafka cannot parse are not findings of
    # their own: the type is (with its did-you-mean), and fixing it settles the rest.
    assert _findings(run.stdout) == ["invalid-type", "invalid-type"], run.stdout
    assert "did you mean 'string'?" in run.stdout and "did you mean 'int32'?" in run.stdout
    fixed = _one_typo().replace('"strin"', '"int32"')  # a real type that entityType refuses
    (tmp_path / "TopicRequest.json").write_text(fixed, encoding="utf-8")
    assert "entity-type-mismatch" in _findings(run_cli(["lint", "."], tmp_path).stdout)


def test_the_editor_offers_no_accept_for_a_consequence(tmp_path: Path) -> None:
    pytest.importorskip("pygls", reason="the lsp extra")
    from tests.lsp_client import editing

    folder = tmp_path / "message"
    folder.mkdir()
    (folder / "TopicRequest.json").write_text(_one_typo(), encoding="utf-8")
    (folder / "TopicResponse.json").write_text(spec_text(TOPIC_RESPONSE), encoding="utf-8")

    async def session() -> None:
        async with editing(folder) as editor:
            uri = editor.open(folder / "TopicRequest.json")
            found = await editor.diagnostics(uri, 1)
            assert sorted(str(d.code) for d in found) == ["invalid-type", "invalid-type"]
            typo = next(d for d in found if "strin" in d.message)
            actions = await editor.code_actions(uri, typo.range, list(found))
            titles = [a.title for a in actions]
            assert not [t for t in titles if "entity-type-mismatch" in t], titles
            assert any("invalid-type" in t for t in titles), titles

    asyncio.run(session())
