"""What a reader sees of a page at a given width, measured in headless Chromium.

The phone tests (the audit report, strands, matrix, explain) share this: the page is
copied with a probe script before ``</body>`` (a page whose policy allows no script gets
``script-src 'unsafe-inline'`` in its copy only), shown in an iframe of the width asked
(a phone's 375 px is narrower than Chromium's headless window), and the probe's JSON is
read back from the DOM. A screenshot of the page as served is left beside it.
"""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

#: A page of the given width (a phone's 375 CSS px, say) inside a browser window: an
#: iframe is a viewport of its own, as a phone's screen is (Chromium's headless window is
#: at least 500 px wide), and its media queries follow its width.
HARNESS = """<!DOCTYPE html>
<html><body style="margin: 0">
<iframe src="{page}" style="width: {width}px; height: 1800px; border: 0; display: block"></iframe>
<script>
window.addEventListener("message", function (event) {{
  var probe = document.createElement("pre");
  probe.id = "probe";
  probe.textContent = event.data;
  document.body.appendChild(probe);
}});
</script>
</body></html>
"""


def chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    pytest.skip("Chromium is not installed (apt-get install chromium): no browser to render in")


def browse(page: Path, profile: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Headless Chromium on a local file, with everything that would reach out turned off."""
    command = [
        chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--disable-extensions", "--no-first-run", "--no-default-browser-check",
        f"--user-data-dir={profile}", "--window-size=1400,1800", "--virtual-time-budget=10000",
        *args, page.as_uri(),
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=180, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return done


#: What every probe may call: whether a node is laid out and inside the view, and what a
#: figure shows of its drawing (there may be one drawing per width; the others are not
#: laid out): does its box scroll, and each text of it as large as it shows on screen.
MEASURES = """
  function viewWidth() { return document.documentElement.clientWidth; }
  function laidOut(node) { return node.getBoundingClientRect().width > 0; }
  function inView(node) {
    var box = node.getBoundingClientRect();
    return box.width > 0 && box.left >= -0.5 && box.right <= viewWidth() + 0.5;
  }
  function drawing(figure, section) {
    var shown = Array.prototype.filter.call(figure.querySelectorAll("svg"), laidOut);
    var svg = shown[0];
    var box = svg.getBoundingClientRect();
    var scale = box.width / svg.viewBox.baseVal.width;  // screen px per unit of the drawing
    var texts = Array.prototype.map.call(svg.querySelectorAll("text"), function (t) {
      var r = t.getBoundingClientRect();
      return {text: t.textContent, left: r.left, right: r.right, top: r.top,
              bottom: r.bottom, px: parseFloat(getComputedStyle(t).fontSize) * scale};
    });
    return {drawings: shown.length, frame: figure.clientWidth, scroll: figure.scrollWidth,
            sectionFrame: section.clientWidth, sectionScroll: section.scrollWidth,
            left: box.left, right: box.right, shownWidth: box.width,
            naturalWidth: svg.width.baseVal.value, texts: texts};
  }
"""


def probe(body: str) -> str:
    """A probe: ``body`` (JavaScript that ends by posting its JSON to the harness) run
    once the page has loaded, with :data:`MEASURES` at hand."""
    return (
        '\n<script>\nwindow.addEventListener("load", function () {'
        + MEASURES
        + body
        + "});\n</script>\n"
    )


def rendered_report(audit: Path, out: Path) -> Path:
    """``kcompat report AUDIT -o OUT``, as a user runs it; OUT back."""
    from tests.diff_runner import run_cli

    run = run_cli(["report", str(audit), "-o", str(out)], out.parent)
    assert run.code == 0, run.stderr
    return out


#: Added to a copy's policy so the probe may run (the page served keeps its own).
PROBE_ALLOWED = "; script-src 'unsafe-inline'"


def seen_at(
    text: str,
    where: Path,
    width: int,
    probe: str,
    *,
    policy: str | None = None,
    name: str = "page",
    screenshot: bool = True,
) -> dict[str, Any]:
    """What the probe reports of ``text`` shown ``width`` px wide. ``policy``: the page's
    Content-Security-Policy as written, which must occur once (no script of its own); the
    probe's copy extends it. A screenshot lands at ``where/NAME-WIDTHpx.png``."""
    probed = text
    if policy is not None:
        assert text.count(policy) == 1, "the page's policy changed"
        probed = text.replace(policy, policy + PROBE_ALLOWED)
    (where / f"{name}.html").write_text(text, "utf-8")
    (where / "probed.html").write_text(probed.replace("</body>", probe + "</body>"), "utf-8")
    window = f"--window-size={max(width, 500)},1800"
    harness = where / "harness.html"
    harness.write_text(HARNESS.format(page="probed.html", width=width), "utf-8")
    dom = browse(harness, where / "profile", window, "--dump-dom").stdout
    found = re.search(r'<pre id="probe">(.*?)</pre>', dom, re.S)
    assert found, dom[-3000:]
    if screenshot:
        showing = where / "showing.html"
        showing.write_text(HARNESS.format(page=f"{name}.html", width=width), "utf-8")
        shot = where / f"{name}-{width}px.png"
        browse(showing, where / "profile", window, f"--screenshot={shot}")
        print(f"screenshot at {width} px: {shot}")  # pytest -rP shows where, for a person
    seen: dict[str, Any] = json.loads(html.unescape(found.group(1)))
    return seen
