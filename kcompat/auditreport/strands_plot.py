"""The ``strands`` heat map as SVG (matplotlib): commits of a line across, client
releases down, each cell coloured by how many APIs that commit strands that release on.

Its cells are one raster inline (``img-src data:``), its text stays text. A phone gets
a drawing of its own (``narrow``): the wide one, kept legible, is over a thousand px
wide for a trunk and scrolled sideways in its box, so a reader saw the oldest commits
and not the ones that strand releases. The narrow one is a phone's width: each column a
stretch of commits (coloured by the most APIs any of them strands), fewer tick labels,
the colour bar below; its ids are prefixed so both drawings fit in one page.
"""

from __future__ import annotations

import io
import itertools
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from kcompat.auditreport.plot import (
    MAX_TICKS,
    NARROW_IDS,
    NARROW_INCHES,
    TICK_CHAR_INCHES,
    scoped,
    tick_indices,
)
from kcompat.errors import UsageError
from kcompat.report.strands_summary import StrandsSummary

if TYPE_CHECKING:
    from matplotlib.figure import Figure

#: A band per count of APIs stranded: none (green) to five or more (red).
COLOURS = ("#d8efdd", "#fff1b8", "#ffd39e", "#f9a98b", "#e4736b", "#b3261e")
#: The narrow drawing's columns at most (its cells are about 2.6 in, 190 pt, wide): more
#: commits than this share a column, so a stranding one commit long is not lost.
NARROW_COLUMNS = 180
#: At most this many commits named on the narrow drawing (a 12 px label and a gap each).
NARROW_TICKS = 12
#: A client release's row on the narrow drawing, tall (its 9 pt label and a gap).
ROW_INCHES = 0.17

Grid = list[list[int]]


def heat_svg(
    summary: StrandsSummary, rows: Sequence[dict[str, Any]], *, narrow: bool = False
) -> str:
    """The heat map of ``rows`` (the strandings that strand an API) as an SVG element
    (``narrow``: the phone's drawing, its ids prefixed by NARROW_IDS)."""
    try:
        import matplotlib
        from matplotlib.figure import Figure
    except ImportError:
        raise UsageError(
            "matplotlib is not installed: pip install 'kcompat[report]' for HTML reports"
        ) from None
    grid = _grid(summary, rows)
    rc: dict[str, Any] = {
        "svg.fonttype": "none",
        "svg.hashsalt": "kcompat",
        "text.parse_math": False,
        "font.size": 9,
        "font.family": "sans-serif",
    }
    with matplotlib.rc_context(rc):  # type: ignore[arg-type]
        figure = (_narrow if narrow else _wide)(Figure, summary, grid)
        out = io.StringIO()
        figure.savefig(out, format="svg", metadata={"Date": None, "Creator": "kcompat"})
    text = out.getvalue()
    svg = text[text.index("<svg") :]
    return scoped(svg, NARROW_IDS) if narrow else svg


def _grid(summary: StrandsSummary, rows: Sequence[dict[str, Any]]) -> Grid:
    """Per client release (down), per commit (across): the APIs stranded."""
    position = {name: i for i, name in enumerate(summary.clients)}
    grid = [[0] * len(summary.commits) for _ in summary.clients]
    for row in rows:
        grid[position[row["client"]]][int(row["commit_index"])] = int(row["count"])
    return grid


def _scale(grid: Grid) -> tuple[Any, int]:
    """The colour map (as many bands as the counts need) and its highest band."""
    from matplotlib.colors import ListedColormap

    top = max((max(line) for line in grid), default=0)
    scale = ListedColormap(list(COLOURS[: min(len(COLOURS), top + 1)] if top else COLOURS[:1]))
    return scale, max(1, min(top, len(COLOURS) - 1))


def _banded(grid: Grid) -> Grid:
    return [[min(v, len(COLOURS) - 1) for v in line] for line in grid]


def _wide(figure_type: type[Figure], summary: StrandsSummary, grid: Grid) -> Figure:
    """The desktop's drawing: as wide as the line is long, the colour bar at the right."""
    clients, count = list(summary.clients), len(summary.commits)
    scale, top = _scale(grid)
    figure = figure_type(
        figsize=(min(16.0, max(7.5, 4.0 + 0.03 * count)), 1.6 + ROW_INCHES * len(clients)),
        layout="constrained",
    )
    axes = figure.subplots(1, 1)
    image = axes.imshow(
        _banded(grid), aspect="auto", interpolation="nearest", cmap=scale, vmin=0, vmax=top
    )
    axes.set_yticks(range(len(clients)), clients)
    ticks = tick_indices(summary.commits, MAX_TICKS)
    axes.set_xticks(ticks, [summary.commits[i] for i in ticks], rotation=90)
    axes.set_xlabel(f"commits of {summary.line or 'HEAD'}, oldest first")
    axes.set_ylabel("client releases")
    bar = figure.colorbar(image, ax=axes, shrink=0.8)
    bar.set_label("APIs stranded")
    return figure


def _narrow(figure_type: type[Figure], summary: StrandsSummary, grid: Grid) -> Figure:
    """A phone's drawing: a phone's width, at most NARROW_COLUMNS columns (each the most
    any of its commits strands), NARROW_TICKS commits named, the colour bar below."""
    clients, count = list(summary.clients), len(summary.commits)
    scale, top = _scale(grid)
    named = tick_indices(summary.commits, NARROW_TICKS)
    labels_tall = TICK_CHAR_INCHES * max((len(summary.commits[i]) for i in named), default=0)
    figure = figure_type(
        figsize=(NARROW_INCHES, 1.5 + ROW_INCHES * len(clients) + labels_tall),
        layout="constrained",
    )
    axes = figure.subplots(1, 1)
    image = axes.imshow(
        _pooled(_banded(grid), NARROW_COLUMNS),
        aspect="auto",
        interpolation="nearest",
        cmap=scale,
        vmin=0,
        vmax=top,
        extent=(-0.5, count - 0.5, len(clients) - 0.5, -0.5),
    )
    axes.set_yticks(range(len(clients)), clients)
    axes.set_xticks(named, [summary.commits[i] for i in named], rotation=90)
    axes.set_xlabel(f"commits of {summary.line or 'HEAD'}")
    axes.set_ylabel("client releases")
    bar = figure.colorbar(image, ax=axes, location="bottom", shrink=0.8, aspect=25)
    bar.set_label("APIs stranded")
    bands = len(scale.colors)  # a tick in the middle of each band, saying its count
    last = len(COLOURS) - 1
    bar.set_ticks(
        [(i + 0.5) * top / bands for i in range(bands)],
        labels=[f"{i}+" if i == last else str(i) for i in range(bands)],
    )
    bar.ax.tick_params(length=0)
    return figure


def _pooled(grid: Grid, most: int) -> Grid:
    """``grid`` in at most ``most`` columns, each the highest of the columns it stands for."""
    width = len(grid[0]) if grid else 0
    if width <= most:
        return grid
    edges = [width * i // most for i in range(most + 1)]
    return [[max(line[a:b]) for a, b in itertools.pairwise(edges)] for line in grid]
