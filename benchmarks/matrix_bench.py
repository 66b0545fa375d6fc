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

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from calibration import calibration
from installed import as_installed

ROOT = Path(__file__).resolve().parent.parent
BUNDLE = ROOT.parent / "shared" / "corpus" / "kafka-spec-history.bundle"
ENTRY = "import sys; from kcompat.cli import run; sys.exit(run())"
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


def _env(temp: Path, as_set: bool) -> dict[str, str]:
    paths = [str(ROOT), *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(paths),
        "NO_COLOR": "1",
        "KCOMPAT_CODE_CACHE": str(temp / "codecache"),
    }
    return env if as_set else as_installed(env, temp / "pycache")


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _run(args: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, float]:
    """(CPU, wall) seconds of one fresh ``kcompat ARGS``."""
    cpu, started = _children_cpu(), time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", ENTRY, *args], cwd=cwd, env=env, capture_output=True, check=False
    )
    wall = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"kcompat {' '.join(args)}: exit {done.returncode}: {done.stderr!r}")
    return _children_cpu() - cpu, wall


def measure(checkout: Path, env: dict[str, str], rounds: int) -> list[Figures]:
    for args in COMMANDS.values():
        _run(args, checkout, env)  # warm-up: bytecode, page cache
    cpus: dict[str, list[float]] = {name: [] for name in COMMANDS}
    walls: dict[str, list[float]] = {name: [] for name in COMMANDS}
    for index in range(rounds):
        order = list(COMMANDS) if index % 2 == 0 else list(reversed(COMMANDS))
        for name in order:
            cpu, wall = _run(COMMANDS[name], checkout, env)
            cpus[name].append(cpu)
            walls[name].append(wall)
    return [
        Figures(
            name,
            statistics.median(cpus[name]),
            min(cpus[name]),
            statistics.median(walls[name]),
            rounds,
        )
        for name in COMMANDS
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=7, help="rounds (default 7)")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument(
        "--as-set",
        action="store_true",
        help="keep PYTHONDONTWRITEBYTECODE as the environment sets it",
    )
    options = parser.parse_args()
    if not BUNDLE.is_file():
        raise SystemExit(f"no corpus at {BUNDLE}")
    with tempfile.TemporaryDirectory(prefix="kcompat-matrix-bench-") as temp_name:
        temp = Path(temp_name)
        checkout = temp / "kafka"
        subprocess.run(["git", "clone", "-q", str(BUNDLE), str(checkout)], check=True)
        before = calibration()
        figures = measure(checkout, _env(temp, options.as_set), options.rounds)
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
