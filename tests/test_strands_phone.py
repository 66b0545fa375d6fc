"""``kcompat report`` of a ``kcompat strands`` audit on a phone, as a reader sees it in
headless Chromium. At 375 px the heat map (a trunk's commits across) scrolled sideways
in its box, so a reader saw its oldest commits and not the ones that strand releases,
and the table of client releases squeezed API names mid-word ("Prod" / "uce"). Below
600 px the map is now drawn for a phone's width and each client release is a card:
since which commit it is stranded, and on which APIs, all in view. The audit is written
with pyarrow as ``kcompat strands`` writes it (no Spark needed to report it): a trunk of
Kafka's length in commits that change specs, Kafka's client releases and API names."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest

pa = pytest.importorskip("pyarrow", reason="pyarrow is not installed (the report extra)")
pytest.importorskip("matplotlib", reason="matplotlib is not installed (the report extra)")

import pyarrow.parquet as pq  # noqa: E402

from kcompat.auditreport.strands import StrandingsTable  # noqa: E402
from kcompat.report.columns import arrow_schema  # noqa: E402
from kcompat.report.strands_summary import ClientLine, Run, StrandsSummary  # noqa: E402
from tests.browser_view import chromium, probe, rendered_report, seen_at  # noqa: E402

#: Kafka's client releases from 2.2.0 (the first with specs) to 3.9.0.
CLIENTS = [f"2.{minor}.{patch}" for minor in range(2, 9) for patch in range(3)] + [
    f"3.{minor}.{patch}" for minor in range(10) for patch in range(2)
]
COMMITS = [f"{n:05x}c0ffee{n % 97:02d}"[:12] for n in range(420)]
#: Kafka's longest request names, with their keys.
APIS = (
    (0, "ProduceRequest"),
    (2, "ListOffsetsRequest"),
    (64, "UnregisterBrokerRequest"),
    (68, "ConsumerGroupHeartbeatRequest"),
    (75, "DescribeTopicPartitionsRequest"),
    (77, "DescribeTopicPartitionsIncrementalRequest"),
)
#: The commit that strands the oldest clients: its subject a spec author wrote.
HOSTILE = 'KAFKA-18000: drop <b>old</b> "ListOffsets" & Produce v0-v2'


def _line(index: int) -> ClientLine:
    """The older half of the releases is stranded since a late commit (each a commit
    later than the one before; the oldest on every API), after a run of UnregisterBroker
    years earlier; every third of the newer half was stranded for a while only; the rest
    never."""
    client = CLIENTS[index]
    if index < len(CLIENTS) // 2:
        since = 300 + index
        apis: tuple[int, ...] = (0, 2, 75, 77) if index % 2 else (0, 68)
        apis = tuple(key for key, _name in APIS) if index == 0 else apis  # six: "5+"
        return ClientLine(client, (Run(90 + index, 110 + index, (64,)), Run(since, 419, apis)))
    if index % 3 == 0:
        return ClientLine(client, (Run(200, 200, (68,)), Run(240, 260, (75, 77))))
    return ClientLine(client)


def _summary() -> StrandsSummary:
    subjects = [f"KAFKA-{15000 + n}: bump a request's version" for n in range(len(COMMITS))]
    subjects[300] = HOSTILE
    lines = tuple(_line(i) for i in range(len(CLIENTS)))
    return StrandsSummary(
        "trunk", tuple(COMMITS), tuple(subjects), tuple(CLIENTS), APIS, ("client",), lines
    )


def _write(directory: Path, summary: StrandsSummary) -> Path:
    """The audit directory ``kcompat strands --out`` writes: the summary and the rows."""
    rows = [
        {"commit_index": i, "commit": COMMITS[i], "client": line.client,
         "stranded": list(run.apis), "count": len(run.apis)}
        for line in summary.lines
        for run in line.runs
        for i in range(run.first, run.last + 1)
    ]  # fmt: skip
    (directory / "strandings").mkdir(parents=True)
    table = pa.Table.from_pylist(rows, schema=arrow_schema(StrandingsTable.ddl))
    pq.write_table(table, directory / "strandings" / "part-00000.parquet")
    (directory / "summary.json").write_text(json.dumps(summary.to_json()), "utf-8")
    return directory


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    chromium()  # skip before the work when there is no browser
    where = tmp_path_factory.mktemp("strands-phone")
    return rendered_report(_write(where / "audit", _summary()), where / "strands.html")


#: Says what the reader sees: the heat map's box and text, and each client release's row.
PROBE = probe("""
  var width = viewWidth();
  function map() {  // the drawing the reader sees, its box, and its image of cells
    var figure = document.querySelector("#map figure");
    var shown = drawing(figure, document.getElementById("map"));
    var svg = Array.prototype.filter.call(figure.querySelectorAll("svg"), laidOut)[0];
    var image = svg.querySelector("image").getBoundingClientRect();
    shown.image = {left: image.left, right: image.right, width: image.width};
    return shown;
  }
  function smallest(node) {  // the smallest text of a node, in px
    var sizes = [parseFloat(getComputedStyle(node).fontSize)];
    Array.prototype.forEach.call(node.querySelectorAll("*"), function (e) {
      if (laidOut(e)) { sizes.push(parseFloat(getComputedStyle(e).fontSize)); }
    });
    return Math.min.apply(null, sizes);
  }
  var rows = Array.prototype.map.call(document.querySelectorAll("#clients tbody > tr"),
    function (tr) {
      var cells = Array.prototype.filter.call(tr.children, laidOut);
      var since = tr.cells[1];  // by place: the page before the cards had no classes
      return {
        display: getComputedStyle(tr).display, client: tr.cells[0].textContent,
        since: since.textContent, sinceLabel: getComputedStyle(since, "::before").content,
        apis: Array.prototype.map.call(tr.cells[2].querySelectorAll(".api"), function (a) {
          return {name: a.textContent, lines: a.getClientRects().length, inView: inView(a)};
        }),
        inView: cells.length > 0 && cells.every(inView), px: smallest(tr)
      };
    });
  var frame = document.querySelector("#clients .frame");
  var out = {width: width, pageWidth: document.documentElement.scrollWidth, map: map(),
             rows: rows, frame: frame.clientWidth, frameScroll: frame.scrollWidth};
  parent.postMessage(JSON.stringify(out), "*");
""")


def _seen(page: Path, where: Path, width: int) -> dict[str, Any]:
    """What the page shows in an iframe ``width`` px wide (a screenshot beside it)."""
    policy = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"
    return seen_at(page.read_text("utf-8"), where, width, PROBE, policy=policy, name="strands")


def _expected() -> dict[str, tuple[str, list[str]]]:
    """Per client release stranded to the end: the commit since which, and the APIs."""
    summary = _summary()
    out = {}
    for line in summary.lines:
        since = line.since(len(COMMITS))
        if since is not None:
            keys = dict.fromkeys(k for run in line.final(len(COMMITS)) for k in run.apis)
            names = [summary.name_of(k).removesuffix("Request") for k in keys]
            out[line.client] = (f"{COMMITS[since]} {summary.subjects[since]}", names)
    return out


def test_on_a_phone_each_client_release_is_a_card_in_view(page: Path, tmp_path: Path) -> None:
    """Since which commit each release is stranded and on which APIs: on screen, each
    API name whole on one line, the text 10 px or more, nothing scrolls sideways."""
    seen = _seen(page, tmp_path, 375)
    assert seen["pageWidth"] <= seen["width"] + 1, seen  # no sideways scroll on the page
    assert seen["frameScroll"] <= seen["frame"], seen  # nor in the table's box
    rows = {row["client"]: row for row in seen["rows"]}
    assert list(rows) == CLIENTS, list(rows)
    for row in seen["rows"]:
        assert row["display"] != "table-row" and row["inView"], row  # a card, all of it shown
        assert row["px"] >= 10, row
        assert row["sinceLabel"] == '"stranded since: "', row  # a card says what it shows
    expected = _expected()
    assert len(expected) == len(CLIENTS) // 2
    for client, (since, apis) in expected.items():
        row = rows[client]
        assert row["since"] == since, row  # the subject as its author wrote it (escaped)
        assert [a["name"] for a in row["apis"]] == apis, row
        assert all(a["lines"] == 1 and a["inView"] for a in row["apis"]), row
    assert {row["since"] for c, row in rows.items() if c not in expected} == {"never"}


def test_on_a_phone_the_whole_heat_map_is_in_view(page: Path, tmp_path: Path) -> None:
    """Every commit and every client release of the map on screen, none of it a scroll
    away, its labels legible (10 px or more) and apart."""
    seen = _seen(page, tmp_path, 375)
    drawn = seen["map"]
    width = seen["width"]
    assert drawn["drawings"] == 1, drawn  # one drawing shown, the other not laid out
    assert drawn["scroll"] <= drawn["frame"], drawn  # no scroll inside its box
    assert drawn["sectionScroll"] <= drawn["sectionFrame"], drawn
    assert seen["pageWidth"] <= width + 1, seen
    assert drawn["left"] >= -0.5 and drawn["right"] <= width + 0.5, drawn
    image = drawn["image"]  # the cells: every commit's column on screen
    assert image["left"] >= -0.5 and image["right"] <= width + 0.5 and image["width"] >= 150
    texts = drawn["texts"]
    outside = [t for t in texts if t["left"] < -0.5 or t["right"] > width + 0.5]
    assert texts and not outside, outside
    assert min(t["px"] for t in texts) >= 9.9, texts
    for a, b in itertools.combinations(texts, 2):  # no two labels drawn over each other
        across = min(a["right"], b["right"]) - max(a["left"], b["left"])
        down = min(a["bottom"], b["bottom"]) - max(a["top"], b["top"])
        assert across <= 1 or down <= 1, (a, b)
    shown = {t["text"] for t in texts}
    assert set(CLIENTS) <= shown, set(CLIENTS) - shown  # each release names its row
    assert COMMITS[0] in shown and "APIs stranded" in shown, shown
    assert {"0", "1", "2", "3", "4", "5+"} <= shown, shown  # the colour bar's bands
    assert 5 <= len(shown & set(COMMITS)) <= 16, sorted(shown & set(COMMITS))


@pytest.mark.parametrize("width", [1280, 1440])
def test_on_a_desktop_the_heat_map_and_the_table_are_as_before(
    page: Path, tmp_path: Path, width: int
) -> None:
    seen = _seen(page, tmp_path, width)
    drawn = seen["map"]
    assert drawn["drawings"] == 1 and drawn["naturalWidth"] >= 900, drawn  # the wide map
    assert min(t["px"] for t in drawn["texts"]) >= 9.9, drawn
    assert seen["pageWidth"] <= seen["width"] + 1, seen
    assert {row["display"] for row in seen["rows"]} == {"table-row"}, seen["rows"][0]
    assert {row["sinceLabel"] for row in seen["rows"]} <= {"none", "normal"}  # a header says
    assert all(row["inView"] for row in seen["rows"]), seen["rows"]
