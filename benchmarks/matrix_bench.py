"""CPU of ``kcompat matrix`` over Kafka's whole release history (goal: under 3 s).

43 release tags and trunk, every client API (66) and every API of any role (88), in text,
JSON (every cell) and HTML (the heat map page), with and without ``--what-if
drop-deprecated``, each from a fresh process on a clone of Kafka's spec history, from this
tree, with bytecode cached (``--as-set`` keeps the environment's PYTHONDONTWRITEBYTECODE).
``kcompat --version`` is measured beside them: the floor every command pays. Commands
alternate within each round (the order reversed every other round), so a machine whose
load drifts weighs on all alike; each figure is the CPU of the process and its git
children, median and minimum over the rounds, quoted with the calibration.

    python benchmarks/matrix_bench.py                  # 7 rounds
    python benchmarks/matrix_bench.py --rounds 15 --json benchmarks/results/matrix.json
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
GOAL = 3.0  # seconds of CPU, whole matrix

COMMANDS: dict[str, list[str]] = {
    "--version (the floor)": ["--version"],
    "matrix": ["matrix"],
    "matrix --format json": ["matrix", "--format", "json"],
    "matrix --format html": ["matrix", "--format", "html"],
    "matrix --what-if drop-deprecated": ["matrix", "--what-if", "drop-deprecated"],
    "matrix (every role) --format json": [
        "matrix", "--controller-apis", "--inter-broker-apis", "--format", "json",
    ],
}  # fmt: skip


@dataclass(frozen=True)
class Figures:
    command: str
    cpu_median: float
    cpu_min: float
    wall_median: float
    rounds: int


def measure(checkout: Path, env: dict[str, str], rounds: int) -> list[Figures]:
    figures = rounds_of(COMMANDS, lambda args: run_kcompat(args, checkout, env), rounds)
    return [Figures(name, *figures[name], rounds) for name in COMMANDS]


def main() -> int:
    options = cold_options(__doc__.split("\n\n")[0], 7)
    with kafka_checkout("kcompat-matrix-bench-") as (temp, checkout):
        before = calibration()
        figures = measure(checkout, kcompat_env(temp, options.as_set), options.rounds)
        after = calibration()
    print(f"calibration: {before:.3f} s before, {after:.3f} s after (10,000,000-step loop)")
    print(f"{'command':<36} {'cpu median':>10} {'cpu min':>8} {'wall':>7}  calibrations")
    floor = figures[0].cpu_median
    failed = False
    for row in figures:
        over = row.command.startswith("matrix") and row.cpu_median > GOAL
        failed |= over
        print(
            f"{row.command:<36} {row.cpu_median:9.3f}s {row.cpu_min:7.3f}s {row.wall_median:6.3f}s"
            f"  {row.cpu_median / before:5.2f}"
            + (f"  ({row.cpu_median / floor:.1f}x --version)" if row.cpu_median != floor else "")
            + ("  OVER" if over else "")
        )
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs")
    if options.json:
        options.json.parent.mkdir(parents=True, exist_ok=True)
        document = {"calibration": [before, after], "figures": [asdict(f) for f in figures]}
        options.json.write_text(json.dumps(document, indent=2) + "\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
