"""``kcompat report`` on a phone (issue 35, point 1), as a reader sees it in headless
Chromium: at 375 px the findings table put the finding's text off-screen, each row was
about 200 px tall and mostly blank, and rule IDs broke mid-word (``field-`` / ``added``).
Below 600 px each finding is now a card and each row a block. The audit is written with
pyarrow as ``history --mode releases`` writes it (Kafka's long message names, hints,
counterexamples), the page made by ``kcompat report``, and a probe added to a copy of it
reports what the browser laid out (:mod:`tests.test_report_browser` has the harness)."""

from __future__ import annotations

import itertools
import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.diff_runner import run_cli

pytest.importorskip("pyarrow", reason="pyarrow is not installed (the report extra)")
pytest.importorskip("matplotlib", reason="matplotlib is not installed (the report extra)")

from tests.test_report import EVIDENCE, finding, write_audit
from tests.test_report_browser import HARNESS, browse, chromium

RELEASES = ["3.5.0", "3.6.0", "3.7.0", "3.8.0"]
#: Kafka's names, long as they are.
MESSAGES = [
    "ConsumerGroupCurrentMemberAssignmentValue",
    "ConsumerGroupPartitionMetadataValue",
    "DescribeTopicPartitionsResponse",
    "ListGroupsRequest",
]
RULES = ["field-added", "field-removed", "field-type-changed", "tagged-field-untagged"]


def _rows() -> list[dict[str, Any]]:
    rows = []
    for pair in range(len(RELEASES) - 1):
        for number, (message, rule) in enumerate(zip(MESSAGES, RULES, strict=True)):
            field = f"AssignedPartitions{number}"
            rows.append(
                finding(
                    pair, RELEASES[pair], RELEASES[pair + 1],
                    rule=rule, message_name=message, field_path=field,
                    severity="error" if number % 2 == 0 else "warning",
                    message=f"non-tagged field {field} (int8) was added to released version 0 "
                    f"(was line {22 + number} in {RELEASES[pair]})",
                    hint='add it only to a new version ("versions": "1+") or make it a '
                    "tagged field",
                    file=f"group-coordinator/src/main/resources/common/message/{message}.json",
                    line=27 + number,
                    evidence=json.dumps(EVIDENCE) if number == 0 else None,
                )
            )  # fmt: skip
    return rows


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    chromium()  # skip before the work when there is no browser
    where = tmp_path_factory.mktemp("phone")
    pairs = [[a, b] for a, b in itertools.pairwise(RELEASES)]
    summary = {"mode": "releases", "released": "tags", "comparisons": 3, "pairs": pairs}
    audit = write_audit(where / "audit", summary, _rows())
    out = where / "audit.html"
    run = run_cli(["report", str(audit), "-o", str(out)], where)
    assert run.code == 0, run.stderr
    return out


#: Runs after the report's own script built its rows; says what the reader sees.
PROBE = """
<script>
window.addEventListener("load", function () {
  var width = document.documentElement.clientWidth;
  function inView(node) {
    var box = node.getBoundingClientRect();
    return box.width > 0 && box.left >= -0.5 && box.right <= width + 0.5;
  }
  function lines(node) {  // the line boxes of a node's text
    var range = document.createRange();
    range.selectNodeContents(node);
    return Array.prototype.filter.call(range.getClientRects(), function (r) {
      return r.width > 0;
    });
  }
  function lineHeight(element) {
    var style = getComputedStyle(element);
    var value = parseFloat(style.lineHeight);
    return isNaN(value) ? 1.2 * parseFloat(style.fontSize) : value;
  }
  // What the row's text covers: each line of it as wide as it is and as tall as its line,
  // the labels a cell shows before its text (::before, no DOM text) included.
  function textArea(node) {
    var walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
    var area = 0;
    while (walker.nextNode()) {
      var text = walker.currentNode;
      if (!text.textContent.trim()) { continue; }
      var tall = lineHeight(text.parentElement);
      lines(text).forEach(function (r) { area += r.width * tall; });
    }
    Array.prototype.forEach.call(node.querySelectorAll("td"), function (td) {
      if (getComputedStyle(td, "::before").content === "none") { return; }
      var words = lines(td);
      if (words.length) {
        area += (words[0].left - td.getBoundingClientRect().left) * lineHeight(td);
      }
    });
    return area;
  }
  // Each row: the height of its content (its box less the padding and rule between
  // rows) and of its text set solid across the row's width.
  function rows(selector) {
    return Array.prototype.map.call(document.querySelectorAll(selector), function (tr) {
      var box = tr.getBoundingClientRect();
      var style = getComputedStyle(tr);
      var frame = ["paddingTop", "paddingBottom", "borderTopWidth", "borderBottomWidth"]
        .reduce(function (sum, key) { return sum + (parseFloat(style[key]) || 0); }, 0);
      return {height: box.height - frame, text: textArea(tr) / box.width,
              display: style.display};
    });
  }
  var first = document.querySelector("#finding-rows tr");
  var message = document.querySelector("#message-rows tr");
  var out = {
    width: width, pageWidth: document.documentElement.scrollWidth,
    findingText: inView(first.querySelector(".text")),
    findingSubject: inView(first.querySelector(".name")),
    messageName: inView(message.querySelector("td:first-child")),
    messageCounts: Array.prototype.map.call(message.querySelectorAll("td"), inView),
    findings: rows("#finding-rows tr"), messages: rows("#message-rows > tr"),
    ruleLines: Array.prototype.map.call(document.querySelectorAll("#finding-rows td:nth-child(2)"),
      function (td) { return lines(td).length; }),
    labels: getComputedStyle(message.querySelector("td:nth-child(2)"), "::before").content
  };
  parent.postMessage(JSON.stringify(out), "*");
});
</script>
"""


def _seen(page: Path, where: Path, width: int) -> dict[str, Any]:
    shutil.copy(page, where / "audit.html")
    text = page.read_text("utf-8")
    (where / "probed.html").write_text(text.replace("</body>", PROBE + "</body>"), "utf-8")
    harness = where / "harness.html"
    harness.write_text(HARNESS.format(page="probed.html", width=width), "utf-8")
    window = f"--window-size={max(width, 500)},1800"
    dom = browse(harness, where / "profile", window, "--dump-dom").stdout
    found = re.search(r'<pre id="probe">(.*?)</pre>', dom, re.S)
    assert found, dom[-3000:]
    seen: dict[str, Any] = json.loads(found.group(1).replace("&quot;", '"').replace("&amp;", "&"))
    showing = where / "showing.html"
    showing.write_text(HARNESS.format(page="audit.html", width=width), "utf-8")
    shot = where / f"audit-{width}px.png"
    browse(showing, where / "profile", window, f"--screenshot={shot}")
    print(f"screenshot at {width} px: {shot}")  # pytest -rP shows where, for a person
    return seen


def test_on_a_phone_each_finding_is_a_card(page: Path, tmp_path: Path) -> None:
    seen = _seen(page, tmp_path, 375)
    assert seen["pageWidth"] <= seen["width"] + 1, seen  # no sideways scroll, page or table
    assert seen["findingText"] and seen["findingSubject"], seen  # the text is on screen
    assert seen["messageName"] and all(seen["messageCounts"]), seen
    assert seen["labels"] == '"errors: "', seen  # a count says what it counts
    assert len(seen["findings"]) == 12 and seen["findings"][0]["display"] != "table-row"
    for row in seen["findings"] + seen["messages"]:
        assert row["height"] <= 2 * row["text"], row  # not mostly blank
    assert seen["ruleLines"] and set(seen["ruleLines"]) == {1}, seen  # IDs stay whole


def test_on_a_desktop_it_is_still_a_table(page: Path, tmp_path: Path) -> None:
    seen = _seen(page, tmp_path, 1440)
    assert seen["pageWidth"] <= seen["width"] + 1, seen
    assert {row["display"] for row in seen["findings"]} == {"table-row"}
    assert seen["findingText"] and set(seen["ruleLines"]) == {1}, seen
    assert seen["labels"] in ("none", "normal"), seen  # the table's header names the columns
