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
from pathlib import Path
from typing import Any

import pytest

from tests.diff_runner import run_cli

pytest.importorskip("pyarrow", reason="pyarrow is not installed (the report extra)")
pytest.importorskip("matplotlib", reason="matplotlib is not installed (the report extra)")

from tests.browser_view import chromium, probe, rendered_report, seen_at
from tests.test_report import EVIDENCE, finding, write_audit

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
    return rendered_report(write_audit(where / "audit", summary, _rows()), where / "audit.html")


#: Runs after the report's own script built its rows; says what the reader sees.
PROBE = probe("""
  var width = viewWidth();
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
  function timeline() {  // the drawing the reader sees, and its box
    return drawing(document.querySelector("#timeline figure"),
                   document.getElementById("timeline"));
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
    labels: getComputedStyle(message.querySelector("td:nth-child(2)"), "::before").content,
    timeline: timeline()
  };
  parent.postMessage(JSON.stringify(out), "*");
""")


def _seen(page: Path, where: Path, width: int) -> dict[str, Any]:
    return seen_at(page.read_text("utf-8"), where, width, PROBE, name="audit")


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


def _whole_timeline(seen: dict[str, Any]) -> dict[str, Any]:
    """What a reader of a phone sees of the timeline: all of it, none of it a scroll away
    (inside its box or the page), and every label of it legible and apart from the
    others. Returns the timeline's part of ``seen``."""
    timeline: dict[str, Any] = seen["timeline"]
    width = seen["width"]
    assert timeline["drawings"] == 1, timeline  # one drawing shown, the other not laid out
    assert timeline["scroll"] <= timeline["frame"], timeline  # no scroll inside its box
    assert timeline["sectionScroll"] <= timeline["sectionFrame"], timeline
    assert seen["pageWidth"] <= width + 1, seen  # nor on the page
    assert timeline["left"] >= -0.5 and timeline["right"] <= width + 0.5, timeline
    texts = timeline["texts"]
    outside = [t for t in texts if t["left"] < -0.5 or t["right"] > width + 0.5]
    assert texts and not outside, outside  # each label on screen, none cut
    assert min(t["px"] for t in texts) >= 9.9, texts  # legible: 10 px or more
    for a, b in itertools.combinations(texts, 2):  # no two labels drawn over each other
        across = min(a["right"], b["right"]) - max(a["left"], b["left"])
        down = min(a["bottom"], b["bottom"]) - max(a["top"], b["top"])
        assert across <= 1 or down <= 1, (a, b)
    return timeline


def test_on_a_phone_the_whole_timeline_is_in_view(page: Path, tmp_path: Path) -> None:
    """At 375 px the timeline was a 675 px wide drawing scrolling in its box (its text
    kept at 10 px): a reader saw its left half. Now it is drawn for a phone's width."""
    seen = _seen(page, tmp_path, 375)
    timeline = _whole_timeline(seen)
    shown = {t["text"] for t in timeline["texts"]}
    assert set(RELEASES[1:]) <= shown, shown  # every release's tick label
    assert {f"{rule} (3)" for rule in RULES} <= shown, shown  # and every rule in the legend


@pytest.mark.parametrize("width", [1280, 1440])
def test_on_a_desktop_the_timeline_is_drawn_as_before(
    page: Path, tmp_path: Path, width: int
) -> None:
    timeline = _seen(page, tmp_path, width)["timeline"]
    assert timeline["drawings"] == 1 and timeline["scroll"] <= timeline["frame"], timeline
    assert timeline["naturalWidth"] >= 700, timeline  # the wide drawing, legend at its right
    assert abs(timeline["shownWidth"] - timeline["naturalWidth"]) <= 1, timeline  # not scaled


#: A trunk's consecutive audit: a commit per pair, many of them, and many rules.
COMMITS = [f"{n:03d}c0ffee{n:03d}"[:10] for n in range(161)]
TRUNK_RULES = [*RULES, "field-renamed", "nullable-changed", "default-changed",
               "tag-reused", "version-removed"]  # fmt: skip


@pytest.fixture(scope="module")
def trunk(tmp_path_factory: pytest.TempPathFactory) -> Path:
    chromium()
    where = tmp_path_factory.mktemp("trunk")
    pairs = [[a, b] for a, b in itertools.pairwise(COMMITS)]
    rows = [
        finding(
            pair, COMMITS[pair], COMMITS[pair + 1], rule=rule,
            severity="error" if number % 3 else "warning", field_path=f"F{pair}",
            message=f"finding {number} of commit {pair}",
        )
        for pair in range(0, len(pairs), 7)
        for number, rule in enumerate(TRUNK_RULES[: 1 + pair % len(TRUNK_RULES)])
    ]  # fmt: skip
    summary = {"mode": "consecutive", "released": "tags", "comparisons": len(pairs),
               "pairs": pairs}  # fmt: skip
    audit = write_audit(where / "audit", summary, rows)
    out = where / "audit.html"
    run = run_cli(["report", str(audit), "-o", str(out)], where)
    assert run.code == 0, run.stderr
    return out


def test_on_a_phone_a_trunks_timeline_is_in_view_with_fewer_ticks(
    trunk: Path, tmp_path: Path
) -> None:
    """160 commits: on a phone every n-th commit is named (names a line apart), each
    rule still in the legend."""
    timeline = _whole_timeline(_seen(trunk, tmp_path, 375))
    shown = {t["text"] for t in timeline["texts"]}
    ticks = shown & set(COMMITS)
    assert COMMITS[1] in ticks and 5 <= len(ticks) <= 24, sorted(ticks)
    assert {t.split(" (")[0] for t in shown if t.endswith(")")} == set(TRUNK_RULES), shown


def test_on_a_desktop_it_is_still_a_table(page: Path, tmp_path: Path) -> None:
    seen = _seen(page, tmp_path, 1440)
    assert seen["pageWidth"] <= seen["width"] + 1, seen
    assert {row["display"] for row in seen["findings"]} == {"table-row"}
    assert seen["findingText"] and set(seen["ruleLines"]) == {1}, seen
    assert seen["labels"] in ("none", "normal"), seen  # the table's header names the columns
