"""The timeline as an SVG drawing (matplotlib), inlined in the page.

matplotlib draws offline and writes SVG whose text stays text (``svg.fonttype: none``):
the page shows the plot without JavaScript, it scales, and it can be searched and read
by screen readers. Only bars that are not zero are drawn, so a trunk of 300 commits
stays a small drawing. The output is deterministic (fixed ids, no date), so two reports
of one audit are byte for byte the same.

A phone gets a drawing of its own (``narrow``): the wide one, scaled to a phone's
width, would have 4 px text, and kept legible it scrolled sideways in its box, so a
reader saw half of it. The narrow one is drawn at a phone's width with each legend
below its panel and fewer tick labels; the page shows one or the other by its width.
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
    from matplotlib.figure import Figure

#: At most this many tick labels on the x axis (every n-th one beyond that).
MAX_TICKS = 48
#: The legend's text, the plot's smallest (the rest is 9 pt).
LEGEND_PT = 8
#: The plot's text is never shrunk below 10 CSS px (the legend's 8 pt are 10.7 px at the
#: drawing's natural size): on a narrow screen the plot keeps this share of its natural
#: width and scrolls sideways.
LEGIBLE_SCALE = 10 / (LEGEND_PT * 4 / 3)
#: The narrow drawing's width: about a phone's (375 CSS px less the page's margins), so
#: it shows at about its natural size, its text 12 px (9 pt) and none of it smaller.
NARROW_INCHES = 3.5
#: At most this many tick labels on the narrow drawing (a label and a gap each 18 px).
NARROW_TICKS = 16
#: The narrow drawing's panel of bars, and a row of its legend (9 pt and spacing), tall.
NARROW_BARS_INCHES = 2.0
LEGEND_ROW_INCHES = 0.22
#: A character of a rotated tick label (9 pt), tall: the narrow figure grows by the
#: longest label so its bars are not squeezed by it.
TICK_CHAR_INCHES = 0.075
#: The narrow drawing's element ids start with this: two drawings in one page, each of
#: matplotlib's ids (``figure_1``, clip paths, markers) once.
NARROW_IDS = "narrow-"
#: Colours for rules, in order of first use (matplotlib's tab20, then its tab20b).
_PALETTE_NAMES = ("tab20", "tab20b")


def timeline_svg(timeline: Timeline, *, narrow: bool = False) -> str:
    """The stacked bars of ``timeline`` (errors above, warnings below) as an SVG element
    (``narrow``: the drawing for a phone, legends below, ids prefixed by NARROW_IDS)."""
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
    rc: dict[str, Any] = {
        "svg.fonttype": "none",  # text stays text
        "svg.hashsalt": "kcompat",  # stable element ids
        "text.parse_math": False,  # a tag or message named "$x$" is text, not TeX
        "font.size": 9,
        "font.family": "sans-serif",
    }
    with matplotlib.rc_context(rc):  # type: ignore[arg-type]
        draw = _narrow if narrow else _wide
        figure = draw(Figure, timeline, panels, colours)
        out = io.StringIO()
        figure.savefig(out, format="svg", metadata={"Date": None, "Creator": "kcompat"})
    text = out.getvalue()
    svg = text[text.index("<svg") :]  # the element alone: the page is the document
    return scoped(svg, NARROW_IDS) if narrow else svg


def _wide(
    figure_type: type[Figure], timeline: Timeline, panels: list[str], colours: dict[str, Any]
) -> Figure:
    """The desktop's drawing: as wide as the timeline is long, legends at the right."""
    count = len(timeline.labels)
    width = min(16.0, max(7.5, 4.0 + 0.12 * count))
    figure = figure_type(figsize=(width, 1.2 + 2.6 * max(1, len(panels))), layout="constrained")
    if not panels:
        _empty(figure)
    else:
        grid = figure.subplots(len(panels), 1, sharex=True, squeeze=False)
        for row, severity in enumerate(panels):
            last = row == len(panels) - 1
            _panel(grid[row][0], timeline, severity, colours, last=last)
    return figure


def _narrow(
    figure_type: type[Figure], timeline: Timeline, panels: list[str], colours: dict[str, Any]
) -> Figure:
    """A phone's drawing: a phone's width, each panel's legend in a row of its own below
    it (at the right it took half the width), at most NARROW_TICKS tick labels."""
    if not panels:
        figure = figure_type(figsize=(NARROW_INCHES, 1.2), layout="constrained")
        _empty(figure)
        return figure
    rules = [sum(1 for s in timeline.series if s.severity == p) for p in panels]
    heights = [h for n in rules for h in (NARROW_BARS_INCHES, LEGEND_ROW_INCHES * n)]
    named = tick_indices(timeline.labels, NARROW_TICKS)
    ticks_tall = TICK_CHAR_INCHES * max((len(timeline.labels[i]) for i in named), default=0)
    figure = figure_type(
        figsize=(NARROW_INCHES, sum(heights) + ticks_tall + 0.6), layout="constrained"
    )
    grid = figure.add_gridspec(len(heights), 1, height_ratios=heights)
    first: Axes | None = None
    for row, severity in enumerate(panels):
        axes = figure.add_subplot(grid[2 * row], sharex=first)
        first = first or axes
        key = figure.add_subplot(grid[2 * row + 1])
        last = row == len(panels) - 1
        _panel(axes, timeline, severity, colours, last=last, key=key, most=NARROW_TICKS)
        if not last:
            axes.tick_params(labelbottom=False)
    return figure


def _empty(figure: Figure) -> None:
    axes = figure.subplots(1, 1)
    axes.text(0.5, 0.5, "no errors or warnings", ha="center", va="center")
    axes.set_axis_off()


def scoped(svg: str, prefix: str) -> str:
    """``svg`` with each id, and each reference to one, prefixed: inside tags only (a
    label's text is escaped, so ``<`` only opens a tag)."""

    def tag(found: re.Match[str]) -> str:
        text = re.sub(r'\sid="', lambda m: m.group(0) + prefix, found.group(0))
        return text.replace("url(#", f"url(#{prefix}").replace('href="#', f'href="#{prefix}')

    return re.sub(r"<[^>]*>", tag, svg)


def legible_width(svg: str) -> int:
    """The narrowest the drawing may be shown (CSS px) with its text still legible: its
    natural width (matplotlib writes it in pt, 4/3 px each) times :data:`LEGIBLE_SCALE`."""
    found = re.search(r'<svg[^>]*?\swidth="([\d.]+)pt"', svg)
    natural = float(found.group(1)) * 4 / 3 if found else 0.0
    return round(natural * LEGIBLE_SCALE)


def _panel(
    axes: Axes,
    timeline: Timeline,
    severity: str,
    colours: dict[str, Any],
    *,
    last: bool,
    key: Axes | None = None,
    most: int = MAX_TICKS,
) -> None:
    """One severity's stacked bars; its legend at the right, or in ``key`` (axes of
    their own below it); tick labels (at most ``most``) when ``last``."""
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
    if key is None:
        axes.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=LEGEND_PT, frameon=False)
    else:
        handles, labels = axes.get_legend_handles_labels()
        key.legend(
            handles, labels, loc="upper left", bbox_to_anchor=(0.0, 1.0), borderaxespad=0,
            frameon=False,
        )  # fmt: skip
        key.set_axis_off()
    if last:
        ticks = tick_indices(timeline.labels, most)
        axes.set_xticks(ticks, [timeline.labels[i] for i in ticks], rotation=90)
        axes.set_xlabel(f"{timeline.axis}s, in audit order")


def tick_indices(labels: Sequence[str], most: int = MAX_TICKS) -> list[int]:
    step = max(1, -(-len(labels) // most))
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
