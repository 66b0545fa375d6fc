"""``kcompat explain -f html`` on a phone, and the same picture as ``-f svg`` (issue 35,
point 2). The page had no viewport (a phone laid it out at 980 px) and drew its matrix
in one block as wide as all its versions, while the SVG cut it in blocks: now both draw
the terminal's picture at ``--width`` (60 columns by default), and the page scales it to
the screen. What a reader sees is asked of headless Chromium (as
``tests/test_report_browser.py`` does), at a phone's 375 px and a desktop's 1,440."""

from __future__ import annotations

import json
import re
from html import unescape
from pathlib import Path

import pytest

from tests.browser_view import chromium, seen_at
from tests.diff_runner import run_process

#: 18 versions, nested structs and long names: FetchRequest's shape.
VERSIONS = 17


def _spec(where: Path) -> Path:
    where.mkdir()
    partition = [
        {"name": "PartitionIndex", "type": "int32", "versions": "0+", "about": "x"},
        {"name": "CurrentLeaderEpoch", "type": "int32", "versions": "9+", "default": "-1",
         "about": "x"},
        {"name": "ReplicaDirectoryId", "type": "uuid", "versions": "17+", "taggedVersions": "17+",
         "tag": 0, "about": "x"},
    ]  # fmt: skip
    spec = {
        "apiKey": 72, "type": "request", "name": "GadgetFetchRequest",
        "validVersions": f"0-{VERSIONS}", "flexibleVersions": "12+", "deprecatedVersions": "0-3",
        "listeners": ["broker", "controller"],
        "fields": [
            {"name": "MaxWaitMs", "type": "int32", "versions": "0+", "about": "x"},
            {"name": "Topics", "type": "[]GadgetFetchTopic", "versions": "0+", "about": "x",
             "fields": [
                 {"name": "Topic", "type": "string", "versions": "0-12", "about": "x"},
                 {"name": "TopicId", "type": "uuid", "versions": "13+", "about": "x"},
                 {"name": "Partitions", "type": "[]GadgetFetchPartition", "versions": "0+",
                  "about": "x", "fields": partition}]},
            {"name": "RackId", "type": "string", "versions": "11+", "default": "",
             "about": "x"},
        ],
    }  # fmt: skip
    response = {**spec, "type": "response", "name": "GadgetFetchResponse", "fields": []}
    del response["listeners"]
    (where / "GadgetFetchRequest.json").write_text(json.dumps(spec, indent=2))
    (where / "GadgetFetchResponse.json").write_text(json.dumps(response, indent=2))
    return where


def _export(tmp_path: Path, fmt: str, *more: str) -> str:
    specs = tmp_path / "specs"
    if not specs.exists():
        _spec(specs)
    done = run_process(["explain", "GadgetFetchRequest", "--specs", "specs", "-f", fmt, *more],
                       tmp_path)  # fmt: skip
    assert done.code == 0, done.stderr
    return done.stdout


def _html_lines(page: str) -> list[str]:
    code = page.split("<code", 1)[1].split(">", 1)[1].split("</code>", 1)[0]
    text = unescape(re.sub(r"<[^>]+>", "", code))
    return [line.rstrip() for line in text.splitlines() if line.strip()]


def _svg_lines(svg: str) -> list[str]:
    """The picture's lines as the SVG draws them: its text pieces, each at its column
    (``x`` over the width of a character), by line."""
    lines: dict[int, str] = {}
    pieces = re.findall(
        r'<text [^>]*x="([0-9.]+)" y="[0-9.]+" textLength="([0-9.]+)" '
        r'clip-path="url\(#[^)]*-line-(\d+)\)">([^<]*)</text>',
        svg,
    )
    for x, length, line, text in pieces:
        shown = unescape(text).replace("\xa0", " ")
        column = round(float(x) / (float(length) / len(shown)))
        lines[int(line)] = lines.get(int(line), "").ljust(column) + shown
    drawn = (lines[number].rstrip() for number in sorted(lines))
    return [line for line in drawn if line.strip()]


@pytest.mark.parametrize("width", [[], ["--width", "100"]])
def test_the_page_and_the_image_draw_one_picture(tmp_path: Path, width: list[str]) -> None:
    page = _export(tmp_path, "html", *width)
    svg = _export(tmp_path, "svg", *width)
    assert _html_lines(page) == _svg_lines(svg)
    heads = [line for line in _html_lines(page) if line.startswith("field ")]
    assert len(heads) > 1  # cut into blocks of versions, in both
    columns = int(width[1]) if width else 60
    assert all(len(line) <= columns for line in _html_lines(page))


def test_the_page_has_a_viewport(tmp_path: Path) -> None:
    page = _export(tmp_path, "html")
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in page
    assert page.index('<meta charset="UTF-8">') < page.index("<title>")


#: What the reader sees: the page's own sideways scroll, the picture's frame and its
#: text size on screen (posted to the harness around the page).
PROBE = """
<script>
window.addEventListener("load", function () {
  var pre = document.querySelector("pre");
  var box = pre.getBoundingClientRect();
  var out = {width: document.documentElement.clientWidth,
             pageWidth: document.documentElement.scrollWidth,
             frame: pre.clientWidth, picture: pre.scrollWidth, right: box.right,
             fontSize: parseFloat(getComputedStyle(pre).fontSize)};
  parent.postMessage(JSON.stringify(out), "*");
});
</script>
"""


def _seen(tmp_path: Path, page: str, width: int) -> dict[str, float]:
    return seen_at(page, tmp_path, width, PROBE, screenshot=False)


@pytest.mark.parametrize("width", [375, 1440])
def test_the_matrix_fits_a_phone_and_a_desktop(tmp_path: Path, width: int) -> None:
    chromium()
    seen = _seen(tmp_path, _export(tmp_path, "html"), width)
    assert seen["pageWidth"] <= seen["width"] + 1, seen  # the page never scrolls sideways
    assert seen["picture"] <= seen["frame"] + 1, seen  # the whole picture in view
    assert seen["right"] <= seen["width"] + 1, seen
    assert seen["fontSize"] >= 9, seen  # legible on a phone
    if width == 1440:
        assert seen["fontSize"] == 14, seen  # not blown up on a desktop


def test_a_wider_picture_scrolls_in_its_frame_on_a_phone(tmp_path: Path) -> None:
    """``--width 120`` on a phone: 9 px text at least, the rest a scroll away in the
    picture's own frame; the page itself stays put."""
    chromium()
    seen = _seen(tmp_path, _export(tmp_path, "html", "--width", "120"), 375)
    assert seen["fontSize"] >= 9 and seen["picture"] > seen["frame"], seen
    assert seen["pageWidth"] <= seen["width"] + 1, seen
