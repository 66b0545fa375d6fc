"""``kcompat matrix --format html`` on Kafka's history, in a real browser (headless
Chromium, no network): at a phone's 375 px and a desktop's 1,280 px the page never
scrolls sideways (the heat map scrolls in its own frame), the map's cells are laid out
and coloured, and following a cell's link opens its ``<details>``."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.diff_runner import run_cli
from tests.test_report_browser import HARNESS, browse, chromium

pytestmark = [pytest.mark.corpus, pytest.mark.slow]

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
def page(kafka_repo: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
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


@pytest.mark.parametrize("width", [375, 1280])
def test_the_page_reads_on_a_phone_and_a_desktop(page: Path, tmp_path: Path, width: int) -> None:
    cell = "c19-b20"  # client 3.0.0 against broker 3.0.1: UnregisterBroker stranded
    harness = tmp_path / "harness.html"
    harness.write_text(HARNESS.format(page=f"{page.as_uri()}#{cell}", width=width), "utf-8")
    window = f"--window-size={max(width, 500)},1800"
    dom = browse(harness, tmp_path / "profile", window, "--dump-dom").stdout
    found = re.search(r'<pre id="probe">(.*?)</pre>', dom, re.S)
    assert found, dom[-2000:]
    seen = json.loads(found.group(1).replace("&quot;", '"').replace("&amp;", "&"))
    assert seen["cells"] == 44 * 44
    assert seen["pageWidth"] <= seen["width"] + 1, seen  # the page never scrolls sideways
    if width == 375:  # 44 columns: on a phone the map scrolls in place
        assert seen["frameScroll"] > seen["frame"], seen
    else:  # and on a desktop it fits
        assert seen["frameScroll"] <= seen["frame"] + 1, seen
    assert seen["cellWidth"] >= 18, seen  # a cell a finger can follow
    assert seen["colours"] == 2, seen  # none, and one API stranded
    assert seen["opened"] is True and seen["text"] > 0, seen
