"""The machine's yardstick: CPU seconds of a fixed 10-million-step Python loop.

Machines here differ by 2x or more, and a shared machine's load moves every figure, so each
benchmark prints this beside its own numbers (measured in the same process, just before):
a figure divided by the calibration compares across machines; a figure alone does not.

    python benchmarks/calibration.py        # prints it (median of 3)
"""

from __future__ import annotations

import statistics
import time

STEPS = 10_000_000


def loop_cpu(steps: int = STEPS) -> float:
    """CPU seconds (this process) of ``steps`` iterations of a fixed integer loop."""
    start = time.process_time()
    total = 0
    for step in range(steps):
        total += step & 7
    elapsed = time.process_time() - start
    assert total >= 0  # keep the loop from being optimised into nothing
    return elapsed


def calibration(runs: int = 3) -> float:
    """The median of ``runs`` loops: the figure each benchmark prints as its calibration."""
    return statistics.median(loop_cpu() for _ in range(runs))


def describe(runs: int = 3) -> str:
    """One line for a benchmark's output."""
    return f"calibration: {calibration(runs):.3f} s CPU for a {STEPS:,}-step Python loop"


if __name__ == "__main__":
    print(describe())
