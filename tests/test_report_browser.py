"""The HTML report of a real audit (Kafka's releases, on Spark), in a real browser.

Headless Chromium (Debian's ``chromium``; ``.ci/run`` installs it) opens the page with
no network: a screenshot must show the plot's coloured bars, and a probe script, added
to a copy of the page, reports from the rendered DOM that the plot and the tables are
visible (laid out, non-zero size, not hidden), that the script filled the findings table
and that the filters and pages work.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import kcompat.commands
from kcompat.app import app
from tests.browser_view import browse, chromium, seen_at

kcompat.commands.register_all()

pytestmark = [pytest.mark.spark, pytest.mark.corpus]

#: Four releases: 3.5.0..3.8.0 (three pairs), each with errors and round-trip proofs.
TAGS = r"^3\.[5-8]\.0$"

#: Runs in the page once it has loaded; writes what it saw into <pre id="probe">.
PROBE = """
<script>
window.addEventListener("load", function () {
  function shown(node) {
    if (!node) { return false; }
    var box = node.getBoundingClientRect();
    return box.width > 0 && box.height > 0 && node.checkVisibility();
  }
  var out = {};
  var svg = document.querySelector("#timeline figure svg");
  out.plot = shown(svg);
  out.bars = svg ? svg.querySelectorAll("g[id^=patch]").length : 0;
  out.messages = shown(document.querySelector("table.messages"));
  out.messageRows = document.querySelectorAll("#message-rows tr").length;
  out.findings = shown(document.querySelector("table.findings"));
  var rows = function () { return document.querySelectorAll("#finding-rows tr"); };
  out.rows = rows().length;
  out.firstRowShown = shown(rows()[0]);
  out.filters = shown(document.getElementById("filters"));
  out.status = document.getElementById("findings-status").textContent;
  out.page = document.getElementById("page-label").textContent;
  var next = document.getElementById("page-next");
  if (!next.disabled) {
    next.click();
    out.nextPage = document.getElementById("page-label").textContent;
  }
  var severity = document.getElementById("filter-severity");
  severity.value = "error";
  severity.dispatchEvent(new Event("change"));
  out.errorRows = Array.prototype.map.call(rows(), function (r) { return r.className; });
  var rule = document.getElementById("filter-rule");
  rule.value = "roundtrip-mismatch";
  rule.dispatchEvent(new Event("change"));
  var proof = document.querySelector("#finding-rows details.proof");
  out.proof = proof ? proof.querySelector("p.hex").textContent : null;
  var message = document.getElementById("filter-message");
  message.value = "no such message";
  message.dispatchEvent(new Event("input"));
  out.noMatch = document.getElementById("findings-status").textContent;
  var probe = document.createElement("pre");
  probe.id = "probe";
  probe.textContent = JSON.stringify(out);
  document.body.appendChild(probe);
});
</script>
"""


@pytest.fixture(scope="module")
def audit_report(
    spark: Any, kafka_repo: Path, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Path, dict[str, Any]]:
    """``kcompat history --mode releases --report`` over four Kafka releases."""
    chromium()  # skip before the audit when there is no browser
    where = tmp_path_factory.mktemp("report")
    page = where / "audit.html"
    run = CliRunner().invoke(
        app,
        ["history", "--repo", str(kafka_repo), "--mode", "releases", "--tags", TAGS,
         "--samples", "5", "--out", str(where / "audit"), "--report", str(page),
         "--format", "json"],
    )  # fmt: skip
    assert run.exit_code == 1, run.output  # these releases break released versions
    return page, json.loads(run.stdout)


def test_the_page_shows_the_plot_and_the_tables(
    audit_report: tuple[Path, dict[str, Any]], tmp_path: Path
) -> None:
    page, summary = audit_report
    assert summary["comparisons"] == 3 and summary["pairs"] == [
        ["3.5.0", "3.6.0"], ["3.6.0", "3.7.0"], ["3.7.0", "3.8.0"]
    ]  # fmt: skip
    probed = tmp_path / "probed.html"
    probed.write_text(page.read_text("utf-8").replace("</body>", PROBE + "</body>"), "utf-8")
    dom = browse(probed, tmp_path / "profile", "--dump-dom").stdout
    found = re.search(r'<pre id="probe">(.*?)</pre>', dom, re.S)
    assert found, dom[-3000:]
    seen = json.loads(found.group(1).replace("&quot;", '"').replace("&amp;", "&"))
    assert seen["plot"] and seen["bars"] > 3  # bars of the stacked plot
    assert seen["messages"] and seen["messageRows"] > 3
    assert seen["findings"] and seen["filters"] and seen["firstRowShown"]
    errors = sum(r["count"] for r in summary["per_rule"] if r["severity"] == "error")
    assert errors > 0
    assert seen["rows"] == 50  # the script's first page (the audit has more findings)
    assert re.match(r"\d+ of \d+ distinct findings match \(\d+ findings in all\)", seen["status"])
    assert seen["page"].startswith("page 1 of ") and seen["nextPage"].startswith("page 2 of ")
    assert seen["errorRows"] and set(seen["errorRows"]) == {"error"}
    assert re.fullmatch(r"hex [0-9a-f]+", seen["proof"])  # a counterexample's bytes
    assert seen["noMatch"].startswith("0 of ")


#: The same questions of a page whose own script did not run (JavaScript off).
STATIC_PROBE = """
<script>
window.addEventListener("load", function () {
  function shown(node) {
    if (!node) { return false; }
    var box = node.getBoundingClientRect();
    return box.width > 0 && box.height > 0 && node.checkVisibility();
  }
  var rows = document.querySelectorAll("#finding-rows tr");
  var out = {plot: shown(document.querySelector("#timeline figure svg")),
             messages: shown(document.querySelector("table.messages")),
             rows: rows.length, firstRowShown: shown(rows[0]),
             filters: shown(document.getElementById("filters"))};
  var probe = document.createElement("pre");
  probe.id = "probe";
  probe.textContent = JSON.stringify(out);
  document.body.appendChild(probe);
});
</script>
"""


def test_without_javascript_the_page_still_reads(
    audit_report: tuple[Path, dict[str, Any]], tmp_path: Path
) -> None:
    page, _ = audit_report
    text = page.read_text("utf-8")
    code = text.rindex("<script>")  # the report's own script, the last one
    static = text[:code] + text[text.index("</script>", code) + len("</script>") :]
    probed = tmp_path / "static.html"
    probed.write_text(static.replace("</body>", STATIC_PROBE + "</body>"), "utf-8")
    dom = browse(probed, tmp_path / "profile", "--dump-dom").stdout
    found = re.search(r'<pre id="probe">(.*?)</pre>', dom, re.S)
    assert found, dom[-3000:]
    seen = json.loads(found.group(1).replace("&quot;", '"').replace("&amp;", "&"))
    assert seen == {"plot": True, "messages": True, "rows": 50, "firstRowShown": True,
                    "filters": False}  # fmt: skip


def test_a_screenshot_shows_the_coloured_bars(
    audit_report: tuple[Path, dict[str, Any]], tmp_path: Path
) -> None:
    from matplotlib.image import imread

    page, _ = audit_report
    shot = tmp_path / "page.png"
    browse(page, tmp_path / "profile", f"--screenshot={shot}")
    pixels = imread(shot)
    assert pixels.shape[0] == 1800 and pixels.shape[1] == 1400
    top = pixels[:900, :, :3]  # the heading and the plot
    coloured = top[(top.max(axis=2) - top.min(axis=2)) > 0.25]  # grey and white are not
    colours = Counter(tuple(round(float(c) * 8) for c in rgb) for rgb in coloured)
    # Bars of several rules (a link's blue alone would be one colour).
    assert len([c for c, n in colours.items() if n >= 50]) >= 4, colours.most_common(8)


#: How the page is laid out at its viewport's width: the page's own overflow, the plot's
#: text size on screen, whether the plot scrolls in its frame, its edges and its texts'
#: (of the drawing shown: a phone has one of its own), and the tables' edges. Told to
#: the harness around the page (a message crosses from a file's frame).
LAYOUT_PROBE = """
<script>
window.addEventListener("load", function () {
  var figure = document.querySelector("#timeline figure");
  var svg = Array.prototype.filter.call(figure.querySelectorAll("svg"), function (s) {
    return s.getBoundingClientRect().width > 0;
  })[0];
  var box = svg.getBoundingClientRect();
  var edges = Array.prototype.map.call(svg.querySelectorAll("text"), function (t) {
    return t.getBoundingClientRect();
  });
  var scale = box.width / svg.viewBox.baseVal.width;  // screen px per unit of the drawing
  var sizes = Array.prototype.map.call(svg.querySelectorAll("text"), function (t) {
    return parseFloat(getComputedStyle(t).fontSize) * scale;
  });
  var right = Array.prototype.map.call(document.querySelectorAll("main > section > table"),
    function (t) { return t.getBoundingClientRect().right; });
  var out = {width: document.documentElement.clientWidth,
             pageWidth: document.documentElement.scrollWidth,
             plotShown: box.width, plotNatural: svg.width.baseVal.value,
             plotFrame: figure.clientWidth, plotScroll: figure.scrollWidth,
             plotLeft: box.left, plotRight: box.right,
             textsLeft: Math.min.apply(null, edges.map(function (r) { return r.left; })),
             textsRight: Math.max.apply(null, edges.map(function (r) { return r.right; })),
             texts: sizes.length, smallestText: Math.min.apply(null, sizes),
             tablesRight: Math.max.apply(null, right)};
  parent.postMessage(JSON.stringify(out), "*");
});
</script>
"""


@pytest.mark.parametrize("width", [375, 768, 1280, 1440])
def test_the_page_reads_on_a_phone_a_tablet_and_a_desktop(
    audit_report: tuple[Path, dict[str, Any]], tmp_path: Path, width: int
) -> None:
    """At a phone's 375 px the plot's text is at least 10 px (it was about 4: a 650 pt
    drawing scaled to fit) and all of the plot is in view: it was kept legible by
    scrolling sideways in its frame, and now a phone has a narrower drawing of its own
    (legends below the bars, fewer tick labels). At 1,440 px the wide drawing fits.
    At no width does the page itself scroll sideways (wide tables scroll in place below
    1,100 px; long file paths wrap). Screenshots stay in the test's temp directory (the
    path is printed, ``pytest -rP`` shows it) for a person to look at."""
    from matplotlib.image import imread

    page, _ = audit_report
    seen = seen_at(page.read_text("utf-8"), tmp_path, width, LAYOUT_PROBE, name="audit")
    shot = tmp_path / f"audit-{width}px.png"
    assert imread(shot).shape[1] == max(width, 500)
    scrollbar = width - seen["width"]  # the frame's own vertical scroll bar, if it draws one
    assert 0 <= scrollbar <= 20, seen
    assert seen["texts"] > 10 and seen["smallestText"] >= 9.9, (seen, shot)
    assert seen["pageWidth"] <= seen["width"] + 1, (seen, shot)  # no sideways page scroll
    assert seen["tablesRight"] <= seen["width"] + 1, (seen, shot)
    if width == 375:  # the whole plot in view: no scroll in its frame, no text cut
        assert seen["plotScroll"] <= seen["plotFrame"], (seen, shot)
        assert seen["plotLeft"] >= -0.5 and seen["plotRight"] <= seen["width"] + 0.5, seen
        assert seen["textsLeft"] >= -0.5 and seen["textsRight"] <= seen["width"] + 0.5, seen
    if width == 1440:
        assert seen["plotShown"] <= seen["plotFrame"] + 1, seen  # all of it in view
