"""Every spec at Kafka's trunk explains: text, JSON, markdown, and every version's grammar.

In-process and quick (a few seconds for 258 specs): reading, the matrix and the
renderers are what a user runs; the subprocess start-up is measured by
benchmarks/explain_bench.py instead.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from kcompat.explain import render_json, render_markdown, render_text
from kcompat.explain.explanation import explain
from kcompat.explain.find import FileSource, find_messages
from kcompat.sources.files import json_files, read_file
from kcompat.spec.model import Message
from tests.unit.explain.test_explain import check_markdown_tables

pytestmark = pytest.mark.corpus
WIDTH = 100


@pytest.fixture(scope="module")
def trunk(kafka_repo: Path) -> list[tuple[str, Message]]:
    head = subprocess.run(
        ["git", "rev-parse", "--abbrev-ref", "HEAD"],
        cwd=kafka_repo,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    assert head == "trunk"
    messages = []
    for path in json_files(kafka_repo):
        spec = read_file(path, str(path.relative_to(kafka_repo)))
        if spec.message is not None:
            messages.append((spec.path, spec.message))
    assert len(messages) >= 250
    return messages


def test_every_trunk_spec_explains(trunk: list[tuple[str, Message]]) -> None:
    for path, message in trunk:
        item = explain(message, path)
        assert len(item.timelines) == len(item.matrix.rows), path
        text = render_text.to_string(render_text.render([item], width=WIDTH), width=WIDTH)
        matrix_lines = text.split("\ntimeline\n")[0].splitlines()[3:]
        assert all(len(line) <= WIDTH for line in matrix_lines), path
        document = json.loads(render_json.render([item]))
        shown = document["messages"][0]
        assert len(shown["rows"]) == len(item.matrix.rows), path
        assert all(len(r["cells"]) == len(shown["columns"]) for r in shown["rows"]), path
        assert check_markdown_tables(render_markdown.render([item])) == 1, path


def test_every_trunk_version_has_a_grammar(trunk: list[tuple[str, Message]]) -> None:
    grammars = 0
    for path, message in trunk:
        for version in message.valid_versions:
            item = explain(message, path, version=version)
            assert item.grammar is not None
            assert item.grammar.lines[0].name.endswith(f"(Version: {version})"), path
            grammars += 1
            if version == message.valid_versions.highest:
                lines = render_text.render([item], width=WIDTH)
                render_text.to_string(lines, width=WIDTH)
                json.loads(render_json.render([item]))
    assert grammars > 700


def test_every_trunk_request_is_found_by_key_and_bare_name(kafka_repo: Path) -> None:
    source = FileSource([str(kafka_repo / "clients/src/main/resources/common/message")])
    fetch = find_messages(source, "1")
    assert [f.message.name for f in fetch] == ["FetchRequest", "FetchResponse"]
    assert [f.message.name for f in find_messages(source, "metadata", "response")] == [
        "MetadataResponse"
    ]
