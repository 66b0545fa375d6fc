"""``kcompat history --mode releases --changelog`` writes each release's changelog beside
its audit, and ``kcompat report`` links them."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.diff_runner import run_cli, run_process


@pytest.mark.spark
def test_each_release_s_changelog_is_the_changelog_command_s(
    spark: Any, repo: Path, tmp_path: Path
) -> None:
    from tests.test_pipeline_history import history, shelf_repo

    shelf_repo(repo)
    result = history(spark, repo, tmp_path, mode="releases", changelog=True, proof=False)
    entries = result.summary.to_json()["changelogs"]
    assert [(e["base"], e["head"]) for e in entries] == [
        ("v1.0.0", "v1.1.0"),
        ("v1.1.0", "v2.0.0"),
    ]
    out = tmp_path / "out"
    assert json.loads((out / "summary.json").read_text())["changelogs"] == entries
    for entry in entries:
        by_cli = run_cli(["changelog", entry["base"], entry["head"], "--format", "markdown"], repo)
        assert (out / entry["markdown"]).read_text() == by_cli.stdout
        by_cli = run_cli(["changelog", entry["base"], entry["head"], "--format", "html"], repo)
        assert (out / entry["html"]).read_text() == by_cli.stdout
    assert entries[1]["summary"] == "1 message changed, 2 breaks"
    page = tmp_path / "page.html"
    assert run_cli(["report", str(out), "-o", str(page)], tmp_path).code == 0
    assert 'href="./out/changelog-v1.1.0..v2.0.0.html"' in page.read_text()


def test_changelog_needs_the_releases_mode(tmp_path: Path) -> None:
    done = run_process(["history", "--mode", "consecutive", "--changelog"], tmp_path)
    assert done.code == 2
    assert done.stderr.strip() == (
        "kcompat: error: --changelog writes each release's changelog: use it with --mode releases"
    )


def test_the_report_links_each_changelog_and_nothing_else(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow", reason="pyarrow is not installed (the report extra)")
    pytest.importorskip("matplotlib", reason="matplotlib is not installed (the report extra)")
    from tests.test_report import finding, write_audit

    entries: list[dict[str, Any]] = [
        {"base": "1.0", "head": "1.1", "html": "changelog-1.0..1.1.html", "summary": "1 re"},
        {"base": "<b>", "head": "x", "html": "javascript:alert(1)", "summary": "evil"},
        {"base": "1.1", "head": "2.0", "html": "../../etc/passwd", "summary": "out"},
    ]
    summary = {
        "mode": "releases",
        "released": "tags",
        "comparisons": 1,
        "pairs": [["1.0", "1.1"]],
        "changelogs": entries,
    }
    audit = write_audit(tmp_path / "audit", summary, [finding(0, "1.0", "1.1")])
    (tmp_path / "pages").mkdir()
    page = tmp_path / "pages" / "report.html"
    assert run_cli(["report", str(audit), "-o", str(page)], tmp_path).code == 0
    links = re.findall(r'href="([^"]*)"', page.read_text())
    changelog_links = [link for link in links if not link.startswith("#")]
    assert changelog_links == ["./../audit/changelog-1.0..1.1.html"]
    assert "1.0 → 1.1</a>: 1 re" in page.read_text()
