"""How long do the README's test commands take, and on what machine under what load?

    python benchmarks/suite_times.py                     # fast tier, then the whole suite
    python benchmarks/suite_times.py --tier fast --runs 3 --json benchmarks/results/suite.json
    python benchmarks/suite_times.py --tier unit --runs 3   # the unit tier (one process)

The README states the suite's wall time; a time means little without the machine and
its load (a busy 2-core machine ran the fast tier in 6 minutes that takes about one on
an idle one). For each tier this runs exactly the README's command (``-n auto``: one
pytest-xdist worker per core; the unit tier in one process) in a new process from the
repository root and prints, on one line:

- the wall time, and the CPU time of pytest and everything it started;
- pytest's own summary (passed, skipped, failed): a run with failures is no timing;
- the machine: CPUs, and the load average (1 min) before the run, after it, and its
  mean and maximum sampled every 5 s during it (other work on the machine shows there);
- the calibration (``benchmarks/calibration.py``, the CPU seconds of a fixed loop),
  measured just before and just after the run, with the loop's wall time: a figure
  divided by it compares across machines; a wall time well above the CPU time means
  other work had the cores.

Quote a time with all of it, e.g. "the fast tier took 74 s (``-n auto``, 2 CPUs, load
average 0.3 before, 2.1 mean during; calibration 0.52 s)".
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import threading
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from calibration import calibration
from child import children_cpu

ROOT = Path(__file__).resolve().parent.parent
FAST = "not spark and not corpus and not oracle and not slow"
#: the README's commands, as ``python -m pytest`` arguments
TIERS: dict[str, list[str]] = {
    "unit": ["-q", "tests/unit"],
    "fast": ["-q", "-n", "auto", "-m", FAST],
    "full": ["-q", "-n", "auto"],
}
SAMPLE_SECONDS = 5.0


@dataclass(frozen=True)
class Timing:
    tier: str
    command: str
    wall_s: float
    cpu_s: float  # user + system of pytest and its children (workers, kcompat, Spark)
    summary: str  # pytest's last line: "2581 passed, 12 skipped in 70.12s"
    status: int
    cpus: int
    load_before: float
    load_after: float
    load_mean: float
    load_max: float
    calibration_before_s: float
    calibration_after_s: float
    calibration_wall_before_s: float  # the same loop's wall time: above its CPU time when
    calibration_wall_after_s: float  # the machine's other work took the core from it

    def line(self) -> str:
        return (
            f"{self.tier}: {self.wall_s:.1f} s wall, {self.cpu_s:.0f} s CPU "
            f"({self.command}); {self.summary}; {self.cpus} CPUs, load average "
            f"{self.load_before:.2f} before, {self.load_mean:.2f} mean and "
            f"{self.load_max:.2f} max during, {self.load_after:.2f} after; calibration "
            f"{self.calibration_before_s:.3f} s CPU ({self.calibration_wall_before_s:.3f} s "
            f"wall) before, {self.calibration_after_s:.3f} s CPU "
            f"({self.calibration_wall_after_s:.3f} s wall) after"
        )


class LoadSampler:
    """The 1-minute load average every few seconds while a run lasts."""

    def __init__(self, every: float = SAMPLE_SECONDS) -> None:
        self.every = every
        self.samples: list[float] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def _sample(self) -> None:
        while not self._stop.is_set():
            self.samples.append(os.getloadavg()[0])
            self._stop.wait(self.every)

    def __enter__(self) -> LoadSampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


def _calibrate(runs: int = 3) -> tuple[float, float]:
    """The calibration (median CPU seconds of the loop) and the loop's mean wall time."""
    started = time.perf_counter()
    cpu = calibration(runs)
    return cpu, (time.perf_counter() - started) / runs


def time_tier(tier: str, extra: list[str]) -> Timing:
    """One run of a tier's command, with the machine's conditions around it."""
    args = [sys.executable, "-m", "pytest", *TIERS[tier], *extra]
    shown = "python -m pytest " + " ".join(
        f'"{a}"' if " " in a else a for a in [*TIERS[tier], *extra]
    )
    before_cal, before_wall = _calibrate()
    load_before = os.getloadavg()[0]
    cpu_before = children_cpu()
    started = time.perf_counter()
    with LoadSampler() as sampler:
        done = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - started
    cpu = children_cpu() - cpu_before
    load_after = os.getloadavg()[0]
    after_cal, after_wall = _calibrate()
    lines = [line for line in done.stdout.splitlines() if line.strip()]
    summary = next(
        (line.strip("= ") for line in reversed(lines) if re.search(r"\d+ (passed|failed)", line)),
        f"no pytest summary (exit {done.returncode}): {done.stderr.strip()[-300:]}",
    )
    samples = sampler.samples or [load_after]
    return Timing(
        tier=tier,
        command=shown,
        wall_s=wall,
        cpu_s=cpu,
        summary=summary,
        status=done.returncode,
        cpus=os.cpu_count() or 0,
        load_before=load_before,
        load_after=load_after,
        load_mean=sum(samples) / len(samples),
        load_max=max(samples),
        calibration_before_s=before_cal,
        calibration_after_s=after_cal,
        calibration_wall_before_s=before_wall,
        calibration_wall_after_s=after_wall,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tier", choices=["unit", "fast", "full", "both"], default="both")
    parser.add_argument("--runs", type=int, default=1, help="runs of each tier (default 1)")
    parser.add_argument("--json", type=Path, help="also write the timings to this file")
    parser.add_argument(
        "pytest_args",
        nargs="*",
        help="more pytest arguments, after -- (e.g. -- -p no:cacheprovider)",
    )
    options = parser.parse_args()
    tiers = ["fast", "full"] if options.tier == "both" else [options.tier]
    timings = []
    for tier in tiers:
        for _ in range(options.runs):
            timing = time_tier(tier, options.pytest_args)
            print(timing.line(), flush=True)
            timings.append(timing)
    if options.json is not None:
        options.json.parent.mkdir(parents=True, exist_ok=True)
        options.json.write_text(json.dumps([asdict(t) for t in timings], indent=2) + "\n")
    return 0 if all(t.status == 0 for t in timings) else 1


if __name__ == "__main__":
    sys.exit(main())
