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
from pathlib import Path
from typing import Any

from tests.test_report_browser import HARNESS, browse

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
