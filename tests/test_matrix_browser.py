"""``kcompat matrix --format html`` in a real browser (headless Chromium, no network).

On Kafka's history (corpus): at 1,280 px the heat map's 44 columns fit its frame, the
cells are coloured, and following a cell's link opens its ``<details>``. On a phone,
44 columns scrolled sideways in the map's frame, so a reader saw a corner of the map;
below 600 px such a map now gives way to its answer, per broker release the oldest
client that talks every API and the clients stranded on which APIs, each a card. On
synthetic Kafka-shaped repositories (tests/matrix_repos.py, fast): at 375 px nothing
scrolls sideways, in a box or the page, every element is inside the screen with every
``<details>`` open, no text is under 10 px, and the cards say what ``kcompat matrix``
says; a map that fits a phone is still shown; at 1,280/1,440 px the page is as before.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.browser_view import HARNESS, browse, chromium, probe, seen_at
from tests.diff_runner import run_cli
from tests.matrix_repos import kafka_like, many_releases

#: What the page looks like once laid out, told to the harness around it.
PROBE = """
<script>
window.addEventListener("load", function () {
  var frame = document.querySelector("#map .frame");
  var cells = document.querySelectorAll("table.heat td");
  var target = document.getElementById(location.hash.slice(1));
  var cell = target ? target.closest("details.cell") : null;
  var out = {width: document.documentElement.clientWidth,
             pageWidth: document.documentElement.scrollWidth,
             frame: frame.clientWidth, frameScroll: frame.scrollWidth,
             cells: cells.length, cellWidth: cells[0].getBoundingClientRect().width,
             colours: new Set(Array.prototype.map.call(cells, function (c) {
               return getComputedStyle(c).backgroundColor; })).size,
             opened: cell ? cell.open && cell.parentNode.open : null,
             text: cell ? cell.querySelector("p.apis").getBoundingClientRect().height : 0};
  parent.postMessage(JSON.stringify(out), "*");
});
</script>
"""


@pytest.fixture(scope="module")
def kafka_page(kafka_repo: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    chromium()
    done = run_cli(["matrix", "--format", "html"], kafka_repo)
    assert done.code == 0, done.stderr
    where = tmp_path_factory.mktemp("matrix-page") / "matrix.html"
    # the page runs no script (its policy says so); the probe's copy lets the probe run
    probed = done.stdout.replace(
        "style-src 'unsafe-inline'", "style-src 'unsafe-inline'; script-src 'unsafe-inline'"
    )
    where.write_text(probed.replace("</body>", PROBE + "</body>"), "utf-8")
    return where


@pytest.mark.corpus
@pytest.mark.slow
@pytest.mark.parametrize("width", [375, 1280])
def test_the_page_reads_on_a_phone_and_a_desktop(
    kafka_page: Path, tmp_path: Path, width: int
) -> None:
    cell = "c19-b20"  # client 3.0.0 against broker 3.0.1: UnregisterBroker stranded
    harness = tmp_path / "harness.html"
    harness.write_text(HARNESS.format(page=f"{kafka_page.as_uri()}#{cell}", width=width), "utf-8")
    window = f"--window-size={max(width, 500)},1800"
    dom = browse(harness, tmp_path / "profile", window, "--dump-dom").stdout
    found = re.search(r'<pre id="probe">(.*?)</pre>', dom, re.S)
    assert found, dom[-2000:]
    seen = json.loads(found.group(1).replace("&quot;", '"').replace("&amp;", "&"))
    assert seen["cells"] == 44 * 44
    assert seen["pageWidth"] <= seen["width"] + 1, seen  # the page never scrolls sideways
    if width == 375:  # 44 columns: on a phone the map gives way to the list per broker
        assert seen["frame"] == 0 and seen["cellWidth"] == 0, seen
    else:  # and on a desktop it fits
        assert seen["frameScroll"] <= seen["frame"] + 1, seen
        assert seen["cellWidth"] >= 18, seen  # a cell a finger can follow
    assert seen["colours"] == 2, seen  # none, and one API stranded
    assert seen["opened"] is True and seen["text"] > 0, seen


#: What a reader sees with every ``<details>`` open: what scrolls sideways (a box or the
#: page), what lies outside the screen, the smallest text, the map, and the cards.
READER_PROBE = probe("""
  Array.prototype.forEach.call(document.querySelectorAll("details"), function (d) {
    d.open = true; });
  var width = viewWidth();
  function named(n) { return n.tagName + "." + n.className + ": " +
    n.textContent.slice(0, 60); }
  var all = Array.prototype.filter.call(document.body.querySelectorAll("*"), laidOut);
  var worded = all.filter(function (n) {
    return Array.prototype.some.call(n.childNodes, function (c) {
      return c.nodeType === 3 && c.textContent.trim(); }); });
  var px = worded.map(function (n) { return parseFloat(getComputedStyle(n).fontSize); });
  var frame = document.querySelector("#map .frame");
  var note = document.querySelector("#map p.phone");
  var cards = Array.prototype.map.call(document.querySelectorAll("#brokers tbody > tr"),
    function (tr) {
      return {display: getComputedStyle(tr).display, inView: inView(tr),
              cells: Array.prototype.map.call(tr.cells, function (td) {
                return td.textContent; }),
              label: getComputedStyle(tr.cells[1], "::before").content};
    });
  var ranges = document.querySelectorAll("#apis tbody > tr");
  var out = {width: width, pageWidth: document.documentElement.scrollWidth,
    scrolls: all.filter(function (n) { return n.scrollWidth > n.clientWidth + 1 &&
      getComputedStyle(n).overflowX !== "visible"; }).map(named),
    outside: all.filter(function (n) { return !inView(n); }).map(named),
    smallest: Math.min.apply(null, px), texts: worded.length,
    map: {shown: laidOut(frame), inView: inView(frame), frame: frame.clientWidth,
          scroll: frame.scrollWidth,
          cell: laidOut(frame) ? frame.querySelector("td").getBoundingClientRect().width : 0},
    note: note ? {shown: laidOut(note), inView: inView(note)} : null,
    cards: cards,
    ranges: {rows: ranges.length, inView: Array.prototype.every.call(ranges, inView),
             display: ranges.length ? getComputedStyle(ranges[0]).display : ""}};
  parent.postMessage(JSON.stringify(out), "*");
""")


def _page(repo: Path) -> tuple[Path, list[list[str]]]:
    """The page of ``kcompat matrix --format html`` in ``repo``, and the text format's
    lines per broker release (brokers, oldest client, stranded clients)."""
    chromium()  # skip before the work when there is no browser
    done = run_cli(["matrix", "--format", "html"], repo)
    assert done.code == 0, done.stderr
    where = repo.parent / "matrix.html"
    where.write_text(done.stdout, "utf-8")
    text = run_cli(["matrix"], repo).stdout.split("\n\n")[1].splitlines()
    assert text[1].split() == ["brokers", "oldest", "client", "stranded", "clients", "(and",
                               "on", "which", "APIs)"]  # fmt: skip
    return where, [re.split(r"\s{2,}", line.strip()) for line in text[2:]]


@pytest.fixture(scope="module")
def many(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[list[str]]]:
    """Kafka's release tags, 2.2.0 to 3.9.1 and HEAD: 35 columns, too many for a phone."""
    return _page(many_releases(tmp_path_factory.mktemp("matrix-many") / "repo"))


@pytest.fixture(scope="module")
def few(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[list[str]]]:
    """Three releases and HEAD: a map a phone holds."""
    return _page(kafka_like(tmp_path_factory.mktemp("matrix-few") / "repo"))


def _seen(page: Path, where: Path, width: int) -> dict[str, Any]:
    """What ``page`` shows in an iframe ``width`` px wide (a screenshot beside it)."""
    policy = "default-src 'none'; style-src 'unsafe-inline'"
    text = page.read_text("utf-8")
    return seen_at(text, where, width, READER_PROBE, policy=policy, name="matrix")


def _reads_on_a_phone(seen: dict[str, Any], summary: list[list[str]]) -> None:
    """Nothing scrolls sideways, nothing is off the screen, no text under 10 px, and per
    broker release a card that says what the text format says."""
    assert seen["pageWidth"] <= seen["width"] + 1, seen["pageWidth"]
    assert seen["scrolls"] == [], seen["scrolls"]  # no box scrolls in place
    assert seen["outside"] == [], seen["outside"][:5]
    assert seen["smallest"] >= 10 and seen["texts"] > 100, seen["smallest"]
    cards = seen["cards"]
    assert [card["cells"] for card in cards] == summary, cards
    for card in cards:
        assert card["display"] == "block" and card["inView"], card
        assert card["label"] == '"oldest client: "', card  # a card says what a line is
    ranges = seen["ranges"]
    assert ranges["rows"] > 0 and ranges["inView"] and ranges["display"] == "block", ranges


def test_on_a_phone_a_wide_map_gives_way_to_the_answer_per_broker(
    many: tuple[Path, list[list[str]]], tmp_path: Path
) -> None:
    page, summary = many
    seen = _seen(page, tmp_path, 375)
    _reads_on_a_phone(seen, summary)
    assert len(summary) == 7 and summary[-1][:2] == ["3.8.0–HEAD", "2.8.0"], summary
    assert not seen["map"]["shown"], seen["map"]  # 35 columns: no map scrolled in place
    assert seen["note"] == {"shown": True, "inView": True}, seen["note"]


def test_on_a_phone_a_map_that_fits_is_shown(
    few: tuple[Path, list[list[str]]], tmp_path: Path
) -> None:
    page, summary = few
    seen = _seen(page, tmp_path, 375)
    _reads_on_a_phone(seen, summary)
    drawn = seen["map"]
    assert drawn["shown"] and drawn["inView"] and drawn["scroll"] <= drawn["frame"], drawn
    assert drawn["cell"] >= 18, drawn  # a cell a finger can follow
    assert seen["note"] is None


@pytest.mark.parametrize("tags", [12, 13])
def test_on_a_phone_the_map_shows_while_its_columns_fit(
    tmp_path_factory: pytest.TempPathFactory, tmp_path: Path, tags: int
) -> None:
    """13 columns of Kafka's names (12 releases and HEAD) fit a phone; 14 give way."""
    page, summary = _page(many_releases(tmp_path_factory.mktemp("matrix-edge") / "repo", tags))
    seen = _seen(page, tmp_path, 375)
    _reads_on_a_phone(seen, summary)
    assert seen["map"]["shown"] is (tags == 12), seen["map"]
    assert (seen["note"] is None) is (tags == 12), seen["note"]


@pytest.mark.parametrize("width", [1280, 1440])
def test_on_a_desktop_the_map_and_the_tables_are_as_before(
    many: tuple[Path, list[list[str]]], tmp_path: Path, width: int
) -> None:
    page, summary = many
    seen = _seen(page, tmp_path, width)
    assert seen["pageWidth"] <= seen["width"] + 1 and seen["scrolls"] == [], seen["scrolls"]
    drawn = seen["map"]
    assert drawn["shown"] and drawn["scroll"] <= drawn["frame"] and drawn["cell"] >= 18, drawn
    assert not (seen["note"] or {}).get("shown"), seen["note"]  # a phone's note, if any
    assert {card["display"] for card in seen["cards"]} == {"table-row"}, seen["cards"][0]
    assert {card["label"] for card in seen["cards"]} <= {"none", "normal"}  # a header says
    assert [card["cells"] for card in seen["cards"]] == summary
    assert seen["ranges"]["display"] == "table-row" and seen["smallest"] >= 10
