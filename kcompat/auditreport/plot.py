"""The timeline as an SVG drawing (matplotlib), inlined in the page.

matplotlib draws offline and writes SVG whose text stays text (``svg.fonttype: none``):
the page shows the plot without JavaScript, it scales, and it can be searched and read
by screen readers. Only bars that are not zero are drawn, so a trunk of 300 commits
stays a small drawing. The output is deterministic (fixed ids, no date), so two reports
of one audit are byte for byte the same.
"""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from kcompat.auditreport.views import Timeline
from kcompat.errors import UsageError

if TYPE_CHECKING:
    from matplotlib.axes import Axes

#: At most this many tick labels on the x axis (every n-th one beyond that).
MAX_TICKS = 48
#: The legend's text, the plot's smallest (the rest is 9 pt).
LEGEND_PT = 8
#: The plot's text is never shrunk below 10 CSS px (the legend's 8 pt are 10.7 px at the
#: drawing's natural size): on a narrow screen the plot keeps this share of its natural
#: width and scrolls sideways.
LEGIBLE_SCALE = 10 / (LEGEND_PT * 4 / 3)
#: Colours for rules, in order of first use (matplotlib's tab20, then its tab20b).
_PALETTE_NAMES = ("tab20", "tab20b")


def timeline_svg(timeline: Timeline) -> str:
    """The stacked bars of ``timeline`` (errors above, warnings below) as an SVG element."""
    try:
        import matplotlib
        from matplotlib.figure import Figure
    except ImportError:
        from kcompat.provenance import installed

        raise UsageError(
            f"matplotlib is not installed: {installed().install_line('report')} for HTML reports"
        ) from None
    panels = [s for s in ("error", "warning") if any(x.severity == s for x in timeline.series)]
    colours = _colours([x.rule for x in timeline.series], matplotlib)
    count = len(timeline.labels)
    width = min(16.0, max(7.5, 4.0 + 0.12 * count))
    rc: dict[str, Any] = {
        "svg.fonttype": "none",  # text stays text
        "svg.hashsalt": "kcompat",  # stable element ids
        "text.parse_math": False,  # a tag or message named "$x$" is text, not TeX
        "font.size": 9,
        "font.family": "sans-serif",
    }
    with matplotlib.rc_context(rc):  # type: ignore[arg-type]
        figure = Figure(figsize=(width, 1.2 + 2.6 * max(1, len(panels))), layout="constrained")
        if not panels:
            axes = figure.subplots(1, 1)
            axes.text(0.5, 0.5, "no errors or warnings", ha="center", va="center")
            axes.set_axis_off()
        else:
            grid = figure.subplots(len(panels), 1, sharex=True, squeeze=False)
            for row, severity in enumerate(panels):
                _panel(grid[row][0], timeline, severity, colours, last=row == len(panels) - 1)
        out = io.StringIO()
        figure.savefig(out, format="svg", metadata={"Date": None, "Creator": "kcompat"})
    text = out.getvalue()
    return text[text.index("<svg") :]  # the element alone: the page is the document


def legible_width(svg: str) -> int:
    """The narrowest the drawing may be shown (CSS px) with its text still legible: its
    natural width (matplotlib writes it in pt, 4/3 px each) times :data:`LEGIBLE_SCALE`."""
    found = re.search(r'<svg[^>]*?\swidth="([\d.]+)pt"', svg)
    natural = float(found.group(1)) * 4 / 3 if found else 0.0
    return round(natural * LEGIBLE_SCALE)


def _panel(
    axes: Axes, timeline: Timeline, severity: str, colours: dict[str, Any], *, last: bool
) -> None:
    from matplotlib.ticker import MaxNLocator

    series = [s for s in timeline.series if s.severity == severity]
    count = len(timeline.labels)
    bottom = [0] * count
    for item in series:
        xs = [i for i, n in enumerate(item.counts) if n]
        axes.bar(
            xs,
            [item.counts[i] for i in xs],
            bottom=[bottom[i] for i in xs],
            width=0.8,
            color=colours[item.rule],
            label=f"{item.rule} ({sum(item.counts)})",
            linewidth=0,
        )
        for i in xs:
            bottom[i] += item.counts[i]
    axes.set_ylabel(f"{severity}s")
    axes.set_xlim(-0.6, count - 0.4)
    axes.grid(axis="y", linewidth=0.4, alpha=0.5)
    axes.set_axisbelow(True)
    axes.yaxis.set_major_locator(MaxNLocator(integer=True))
    axes.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=LEGEND_PT, frameon=False)
    if last:
        ticks = _ticks(timeline.labels)
        axes.set_xticks(ticks, [timeline.labels[i] for i in ticks], rotation=90)
        axes.set_xlabel(f"{timeline.axis}s, in audit order")


def _ticks(labels: Sequence[str]) -> list[int]:
    step = max(1, -(-len(labels) // MAX_TICKS))
    return list(range(0, len(labels), step))


def _colours(rules: Sequence[str], matplotlib: Any) -> dict[str, Any]:
    """One colour per rule, the same in both panels."""
    colormaps = matplotlib.colormaps
    palette = [c for name in _PALETTE_NAMES for c in colormaps[name].colors]
    out: dict[str, Any] = {}
    for rule in rules:
        if rule not in out:
            out[rule] = palette[len(out) % len(palette)]
    return out
