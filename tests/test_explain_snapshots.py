"""Snapshots of ``kcompat explain``: text, markdown and JSON, byte for byte.

The example specs, a comparison of two example directories, and two real messages at
Kafka's trunk (MetadataResponse, FetchRequest). Text is drawn at a fixed width of 120
without colour, so the files are deterministic. After an intended change, rewrite them
and review the diff::

    KCOMPAT_UPDATE_SNAPSHOTS=1 pytest tests/test_explain_snapshots.py
"""

from __future__ import annotations

import difflib
import json
import os
import shutil
from pathlib import Path

import pytest

from kcompat.explain import render_json, render_markdown, render_text
from kcompat.explain.explanation import Explanation
from kcompat.explain.run import ExplainRequest, run_explain
from tests.unit.explain.test_explain import check_markdown_tables

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "specs" / "examples"
SNAPSHOTS = Path(__file__).resolve().parent / "snapshots" / "explain"
UPDATE = os.environ.get("KCOMPAT_UPDATE_SNAPSHOTS") == "1"
WIDTH = 120


def check_snapshot(name: str, actual: str) -> None:
    """Compare with the stored snapshot (or store it under KCOMPAT_UPDATE_SNAPSHOTS=1)."""
    path = SNAPSHOTS / name
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(actual, encoding="utf-8")
        return
    if not path.is_file():
        pytest.fail(f"no snapshot {path.name}: run with KCOMPAT_UPDATE_SNAPSHOTS=1 and review it")
    expected = path.read_text(encoding="utf-8")
    if actual != expected:
        diff = difflib.unified_diff(
            expected.splitlines(), actual.splitlines(), "snapshot", "now", lineterm="", n=2
        )
        shown = "\n".join(list(diff)[:60])
        pytest.fail(
            f"{path.name} differs (KCOMPAT_UPDATE_SNAPSHOTS=1 rewrites it):\n{shown}",
            pytrace=False,
        )


def text_of(items: list[Explanation]) -> str:
    return render_text.to_string(render_text.render(items, width=WIDTH), width=WIDTH)


def check_all_formats(stem: str, items: list[Explanation]) -> None:
    check_snapshot(f"{stem}.txt", text_of(items))
    markdown = render_markdown.render(items)
    assert check_markdown_tables(markdown) >= len(items)
    check_snapshot(f"{stem}.md", markdown)
    document = render_json.render(items)
    json.loads(document)
    check_snapshot(f"{stem}.json", document)


# -- the example specs ----------------------------------------------------------------------
@pytest.mark.parametrize(
    "name", ["WidgetRequest", "WidgetResponse", "WidgetRequestHeader", "WidgetResponseHeader"]
)
def test_example(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    items = run_explain(ExplainRequest(name, specs=("specs/examples",)))
    assert [i.message.name for i in items] == [name]
    check_all_formats(f"examples-{name}", items)


@pytest.mark.parametrize(("name", "version"), [("WidgetRequest", 3), ("WidgetRequestHeader", 2)])
def test_example_grammar(name: str, version: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    items = run_explain(ExplainRequest(name, version=version, specs=("specs/examples",)))
    stem = f"examples-{name}-v{version}"
    check_snapshot(f"{stem}.txt", text_of(items))
    markdown = render_markdown.render(items)
    assert check_markdown_tables(markdown) == 1
    check_snapshot(f"{stem}.md", markdown)


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new))


def test_example_against_a_base_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """WidgetResponse changed four ways; directories keep the labels deterministic."""
    shutil.copytree(EXAMPLES, tmp_path / "base")
    shutil.copytree(EXAMPLES, tmp_path / "head")
    spec = tmp_path / "head" / "WidgetResponse.json"
    edit(spec, '"validVersions": "0-4"', '"validVersions": "0-5"')
    edit(spec, '"ErrorCode", "type": "int16", "versions": "0+",\n      "about": "The top', (
        '"ErrorCode", "type": "int32", "versions": "0+",\n      "about": "The top'
    ))  # fmt: skip
    edit(spec, '"name": "WidgetId", "type": "uuid", "versions": "1+"', (
        '"name": "WidgetId", "type": "uuid", "versions": "1-4"'
    ))  # fmt: skip
    edit(spec, '"name": "Auditor", "type": "Principal", "versions": "3+",', (
        '"name": "Auditor", "type": "Principal", "versions": "3+",\n'
        '      "nullableVersions": "5+",'
    ))  # fmt: skip
    edit(spec, '{ "name": "Fallbacks"', (
        '{ "name": "Region", "type": "string", "versions": "5+",\n'
        '      "about": "The region." },\n    { "name": "Fallbacks"'
    ))  # fmt: skip
    monkeypatch.chdir(tmp_path)
    items = run_explain(
        ExplainRequest("WidgetResponse", specs=("head",), against="base", proof=False)
    )
    against = items[0].against
    assert against is not None and against.base_path == "base/WidgetResponse.json"
    assert {f.rule for f in against.findings} >= {"field-type-changed"}
    check_all_formats("examples-against", items)


# -- real messages at Kafka's trunk ---------------------------------------------------------
@pytest.mark.corpus
@pytest.mark.parametrize("name", ["MetadataResponse", "FetchRequest"])
def test_kafka_trunk(name: str, kafka_repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(kafka_repo)
    items = run_explain(ExplainRequest(name))
    assert [i.path for i in items] == [f"clients/src/main/resources/common/message/{name}.json"]
    check_all_formats(f"kafka-{name}", items)


@pytest.mark.corpus
def test_kafka_trunk_grammar(kafka_repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(kafka_repo)
    items = run_explain(ExplainRequest("FetchRequest", version=17))
    check_snapshot("kafka-FetchRequest-v17.txt", text_of(items))
    items = run_explain(ExplainRequest("metadata", kind="response", version=12))
    check_snapshot("kafka-MetadataResponse-v12.txt", text_of(items))
