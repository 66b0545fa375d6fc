"""``kcompat strands``: every commit of a line as a broker against every client
release, on Spark; since which commit each release is stranded; ``kcompat report``
draws it. The line below is built so that each commit's outcome is known by hand."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import kcompat.commands
from kcompat.app import app
from kcompat.config import Config
from kcompat.matrix.releases import Span
from kcompat.naming import release_order
from kcompat.pipeline.strands_plan import plan_trunk
from kcompat.report.strands_summary import ClientLine, Run
from kcompat.sources.git import GitRepo
from tests.diff_runner import commit_tree, git, run_process
from tests.matrix_repos import HEAD, SPECS, kafka_like

kcompat.commands.register_all()

LIST_OFFSETS = f"{SPECS}/list_offsets_request.json"


def line(path: Path) -> Path:
    """tests/matrix_repos.py's releases, then main goes on: (3) HEAD drops Produce 0-3,
    (4) removes ListOffsets, (5) puts it back, then a commit that changes no spec.

    By hand, with the clients v1.0.0 (Produce 0-3, ListOffsets 0-2), v1.1.0 (0-4, 0-3)
    and v2.0.0 (0-5, 0-5): commits 0-2 (each release's specs) strand nobody; 3 strands
    v1.0.0 on Produce; 4 strands every client on ListOffsets (and v1.0.0 on Produce too);
    5 strands v1.0.0 on Produce again: v1.0.0 is stranded since commit 3, the others
    were stranded at commit 4 only."""
    repo = kafka_like(path)
    without = {name: text for name, text in HEAD.items() if name != LIST_OFFSETS}
    commit_tree(repo, without, "remove ListOffsets")
    commit_tree(repo, dict(HEAD), "put ListOffsets back")
    commit_tree(repo, {**HEAD, "NOTES.md": "not a spec\n"}, "notes")
    return repo


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return line(tmp_path_factory.mktemp("line") / "repo")


def test_the_plan_reads_the_line_with_two_git_calls_and_each_text_once(repo: Path) -> None:
    opened = GitRepo.open(repo)
    plan = plan_trunk(opened, None, [], Config().is_fixture, Config().release_tags, None)
    assert [c.name for c in plan.clients] == ["v1.0.0", "v1.1.0", "v2.0.0"]
    assert len(plan.commits) == 6  # the notes commit changes no spec
    assert plan.subjects[-2:] == ("remove ListOffsets", "put ListOffsets back")
    assert LIST_OFFSETS not in dict(plan.trees[4]) and LIST_OFFSETS in dict(plan.trees[5])
    assert dict(plan.trees[3]) == dict(plan.trees[5])
    assert "README.json" not in dict(plan.trees[0])  # not a request: not even read twice
    assert len(plan.texts) == len({d for tree in plan.trees for _p, d in tree})
    later = plan_trunk(
        opened, "HEAD~2..", [], Config().is_fixture, Config().release_tags, Span.parse("v1.1.0..")
    )
    assert [c.name for c in later.clients] == ["v1.1.0", "v2.0.0"]
    # the range starts after HEAD~2: its state is the start's, changed by the two commits
    assert len(later.commits) == 1 and dict(later.trees[0]) == dict(plan.trees[5])


def test_since_is_the_start_of_the_last_stretch() -> None:
    stretch = ClientLine("v1.0.0", (Run(3, 3, (0,)), Run(4, 4, (0, 2)), Run(5, 5, (0,))))
    assert stretch.since(6) == 3 and stretch.earlier(6) == ()
    once = ClientLine("v1.1.0", (Run(1, 2, (2,)), Run(4, 4, (2,))))
    assert once.since(6) is None and once.earlier(6) == once.runs
    again = ClientLine("v2.0.0", (Run(1, 2, (2,)), Run(4, 5, (2,))))
    assert again.since(6) == 4 and again.earlier(6) == (Run(1, 2, (2,)),)


def test_bad_input_is_one_line_before_spark(tmp_path: Path) -> None:
    untagged = tmp_path / "untagged"
    commit_tree(kafka_like(untagged), dict(HEAD), "again")
    for tag in ("0.9.0", "v1.0.0", "v1.1.0", "v1.1.0-rc1", "v2.0.0"):
        git(untagged, "tag", "-d", tag)
    cases = [
        (untagged, [], "no release tags (none matches release-tags"),
        (tmp_path / "line", ["--clients", "5.0.."], "--range 5.0..: no release in it"),
        (tmp_path / "line", ["--range", "HEAD..HEAD"], "HEAD..HEAD: no commit on its first-parent"),
        (tmp_path / "line", ["--apis", "Nope"], "--apis: no API named 'Nope'"),
        (tmp_path / "line", ["--tags", "["], "--tags '[' is not a valid regular expression"),
    ]
    line(tmp_path / "line")
    for where, args, says in cases:
        done = run_process(["strands", "--master", "local[1]", *args], where)
        assert done.code == 2, (args, done.stderr)
        assert len(done.stderr.strip().splitlines()) == 1 and says in done.stderr, done.stderr


@pytest.mark.spark
def test_every_commit_against_every_client_release(spark: Any, repo: Path, tmp_path: Path) -> None:
    out, page = tmp_path / "out", tmp_path / "line.html"
    run = CliRunner().invoke(
        app,
        ["strands", "--repo", str(repo), "--out", str(out), "--report", str(page),
         "--format", "json", "--partitions", "3"],
    )  # fmt: skip
    assert run.exit_code == 0, run.output
    summary = json.loads(run.stdout)
    assert json.loads((out / "summary.json").read_text())["lines"] == summary["lines"]
    assert summary["clients"] == ["v1.0.0", "v1.1.0", "v2.0.0"]
    assert [k for k, _n in summary["apis"]] == [0, 2, 91]
    assert len(summary["commits"]) == 6
    lines = {entry["client"]: entry for entry in summary["lines"]}
    commits = summary["commits"]
    assert lines["v1.0.0"]["runs"] == [[3, 3, [0]], [4, 4, [0, 2]], [5, 5, [0]]]
    assert lines["v1.0.0"]["since"] == commits[3]
    for client in ("v1.1.0", "v2.0.0"):
        assert lines[client] == {"client": client, "since": None, "runs": [[4, 4, [2]]]}
    import pyarrow.parquet as pq

    rows = pq.read_table(out / "strandings").to_pylist()
    assert len(rows) == 18  # 6 commits x 3 client releases
    stranded = sorted((r["commit_index"], r["client"], r["stranded"]) for r in rows if r["count"])
    assert stranded == [
        (3, "v1.0.0", [0]),
        (4, "v1.0.0", [0, 2]),
        (4, "v1.1.0", [2]),
        (4, "v2.0.0", [2]),
        (5, "v1.0.0", [0]),
    ]
    html = page.read_text("utf-8")
    assert "default-src 'none'" in html and "<script" not in html and "<svg" in html
    assert not any(f'{attr}="http' in html for attr in ("src", "href"))  # nothing fetched
    assert (
        f'data-label="stranded since">{commits[3]} HEAD</td><td class="apis" '
        'data-label="on APIs"><span class="api">Produce</span>, '
        '<span class="api">ListOffsets</span></td>'
    ) in html
    text = CliRunner().invoke(app, ["report", str(out), "-o", str(tmp_path / "again.html")])
    assert text.exit_code == 0, text.output
    assert (tmp_path / "again.html").read_text("utf-8") == html
    shown = CliRunner().invoke(
        app, ["strands", "--repo", str(repo), "--out", str(out), "--color", "never"]
    )
    assert shown.exit_code == 0, shown.output
    pad = " " * 36
    once = f"1 commit, from {commits[4]}: ListOffsets"
    assert shown.stdout.splitlines()[4:7] == [
        f"  v1.0.0  {commits[3]} HEAD  Produce, ListOffsets  never",
        f"  v1.1.0  never{pad}{once}",
        f"  v2.0.0  never{pad}{once}",
    ]


@pytest.mark.spark
@pytest.mark.corpus
def test_kafka_trunk_stranded_admin_clients_on_unregister_broker_for_21_commits(
    spark: Any, kafka_repo: Path, tmp_path: Path
) -> None:
    """By hand, from ``git log -- UnregisterBrokerRequest.json``: 991d731 (KAFKA-13057)
    left the API to the controller alone, ca11b1b gave it back to brokers; clients from
    2.8.0 on have it. No client release from 2.2.0 on is stranded by trunk's last commit,
    as ``kcompat matrix`` says of HEAD."""
    out = tmp_path / "out"
    run = CliRunner().invoke(
        app, ["strands", "--repo", str(kafka_repo), "--out", str(out), "--format", "json"]
    )
    assert run.exit_code == 0, run.output
    summary = json.loads(run.stdout)
    commits = summary["commits"]
    for entry in summary["lines"]:
        assert entry["since"] is None, entry
        if release_order(entry["client"]) < release_order("2.8.0"):
            assert entry["runs"] == [], entry
            continue
        ((first, last, keys),) = entry["runs"]
        assert keys == [64]  # UnregisterBroker
        assert commits[first].startswith("991d731") and commits[last + 1].startswith("ca11b1b")
        assert last - first + 1 == 21
    matrix = json.loads(
        CliRunner().invoke(app, ["matrix", "--repo", str(kafka_repo), "-f", "json"]).stdout
    )
    assert matrix["brokers"][-1]["stranded"] == []


def test_names_and_subjects_are_escaped_in_the_text_and_the_page() -> None:
    from kcompat.auditreport.strands import STRANDS
    from kcompat.auditreport.strands_page import render_strands
    from kcompat.report.strands_summary import StrandsSummary, render_json, render_text

    pytest.importorskip("matplotlib")
    hostile = "Evil\x1b[31m\u202e<b>Request"
    summary = StrandsSummary(
        "HEAD",
        ("0123456789ab", "ba9876543210"),
        ("first", "drop \x1b]8;;x\x07<script>"),
        ("1.0.0",),
        ((7000, hostile),),
        ("client",),
        (ClientLine("1.0.0", (Run(1, 1, (7000,)),)),),
    )
    text = render_text(summary)
    assert "\x1b" not in text and "\u202e" not in text and "\\x1b[31m" in text
    assert "ba9876543210 drop \\x1b]8;;x\\x07<script>" in text
    page = render_strands(
        STRANDS.audit(
            summary, [{"commit_index": 1, "client": "1.0.0", "count": 1, "stranded": [7000]}], "x"
        )
    )
    assert "\x1b" not in page and "<script>" not in page and "&lt;b&gt;" in page
    assert page.count('<span class="api">Evil\\x1b[31m\\u202e&lt;b&gt;</span>') == 1
    assert page.count("<svg") == 2  # the wide map and a phone's, each id in the page once
    ids = re.findall(r'\sid="([^"]+)"', page)
    assert ids and len(ids) == len(set(ids)), [i for i in ids if ids.count(i) > 1]
    document = json.loads(render_json(summary))
    assert document["apis"] == [[7000, hostile]] and "\x1b" not in render_json(summary)
    assert StrandsSummary.from_json(document).lines == summary.lines
