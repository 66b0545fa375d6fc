"""CPU of ``kcompat changelog A B`` against ``kcompat diff A B --no-proof`` (goal: the
changelog costs no more).

Both run as fresh processes on a clone of Kafka's spec history, from this tree, with
bytecode cached (in a temp directory; ``--as-set`` keeps the environment's
PYTHONDONTWRITEBYTECODE) and kcompat's code cache in the temp directory, one warm-up run
each first. The two commands alternate within each round (their order swapped every
round), so a machine whose load drifts weighs on both alike; each figure is the CPU time
of the process and its children (git included), median and minimum over the rounds,
quoted with the calibration measured in the same run.

    python benchmarks/changelog_bench.py                   # 15 rounds per pair
    python benchmarks/changelog_bench.py --rounds 31 --json benchmarks/results/changelog.json
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from calibration import calibration
from child import cold_options, kcompat_env, rounds_of, run_kcompat
from kafka_bundle import kafka_checkout

ROOT = Path(__file__).resolve().parent.parent
PAIRS = (("2.2.0", "trunk"), ("3.7.0", "3.8.0"))


@dataclass(frozen=True)
class Figures:
    pair: str
    command: str
    cpu_median: float
    cpu_min: float
    wall_median: float
    rounds: int


def measure(checkout: Path, env: dict[str, str], rounds: int) -> list[Figures]:
    out = []
    for base, head in PAIRS:
        commands = {
            "diff --no-proof": ["diff", base, head, "--no-proof", "--color", "never"],
            "changelog": ["changelog", base, head, "--color", "never"],
        }
        figures = rounds_of(commands, lambda args: run_kcompat(args, checkout, env, (0, 1)), rounds)
        out += [Figures(f"{base} {head}", name, *figures[name], rounds) for name in commands]
    return out


def main() -> int:
    options = cold_options(__doc__.split("\n\n")[0], 15, "rounds per pair")
    with kafka_checkout("kcompat-changelog-bench-") as (temp, checkout):
        before = calibration()
        figures = measure(checkout, kcompat_env(temp, options.as_set), options.rounds)
        after = calibration()
    print(f"calibration: {before:.3f} s before, {after:.3f} s after (10,000,000-step loop)")
    print(f"{'pair':<14} {'command':<16} {'cpu median':>10} {'cpu min':>8} {'wall':>7}")
    failed = False
    for row in figures:
        print(
            f"{row.pair:<14} {row.command:<16} {row.cpu_median:9.3f}s {row.cpu_min:7.3f}s "
            f"{row.wall_median:6.3f}s"
        )
    for index in range(0, len(figures), 2):
        diff, log = figures[index], figures[index + 1]
        ratio = log.cpu_median / diff.cpu_median
        ok = log.cpu_median <= diff.cpu_median
        failed |= not ok
        print(
            f"{diff.pair}: changelog / diff --no-proof = {ratio:.3f} (median CPU; "
            f"{'ok' if ok else 'OVER'}); in calibrations: {log.cpu_median / before:.2f} vs "
            f"{diff.cpu_median / before:.2f}"
        )
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs")
    if options.json:
        options.json.parent.mkdir(parents=True, exist_ok=True)
        document = {
            "calibration": [before, after],
            "figures": [asdict(f) for f in figures],
        }
        options.json.write_text(json.dumps(document, indent=2) + "\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
