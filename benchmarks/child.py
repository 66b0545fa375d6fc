"""A fresh ``kcompat`` process, as a benchmark starts and times one.

Every benchmark that times the command line starts the same child (this tree's
``kcompat.cli``, bytecode as an installed kcompat has it: :mod:`installed`), counts the
CPU it spent from the children's resource usage (what it and its git processes used,
whatever else runs on the machine), and alternates the order of its commands round by
round, so a warming page cache favours none of them.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from installed import as_installed

#: What the child runs: this tree's command line.
ENTRY = "import sys; from kcompat.cli import run; sys.exit(run())"
ROOT = Path(__file__).resolve().parent.parent


def children_cpu() -> float:
    """CPU seconds (user + system) of every child process that has ended so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def kcompat_env(temp: Path, as_set: bool) -> dict[str, str]:
    """The child's environment: this tree first on the path, no colour, its own codec
    cache under ``temp``, and bytecode as installed (unless ``as_set``)."""
    paths = [str(ROOT), *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(paths),
        "NO_COLOR": "1",
        "KCOMPAT_CODE_CACHE": str(temp / "codecache"),
    }
    return env if as_set else as_installed(env, temp / "pycache")


def run_kcompat(
    args: Sequence[str], cwd: Path, env: Mapping[str, str], ok: Sequence[int] = (0,)
) -> tuple[float, float]:
    """(CPU, wall) seconds of one fresh ``kcompat ARGS``; stops the benchmark when it
    exits with a status not in ``ok``."""
    cpu, started = children_cpu(), time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", ENTRY, *args], cwd=cwd, env=env, capture_output=True, check=False
    )
    wall = time.perf_counter() - started
    if done.returncode not in ok:
        raise SystemExit(f"kcompat {' '.join(args)}: exit {done.returncode}: {done.stderr!r}")
    return children_cpu() - cpu, wall


def rounds_of(
    commands: Mapping[str, Sequence[str]],
    run: Callable[[Sequence[str]], tuple[float, float]],
    rounds: int,
) -> dict[str, tuple[float, float, float]]:
    """Each command's (median CPU, least CPU, median wall) over ``rounds`` runs after one
    warm-up run each (bytecode, codec cache, page cache), every other round reversed."""
    for args in commands.values():
        run(args)
    cpus: dict[str, list[float]] = {name: [] for name in commands}
    walls: dict[str, list[float]] = {name: [] for name in commands}
    for index in range(rounds):
        order = list(commands) if index % 2 == 0 else list(reversed(list(commands)))
        for name in order:
            cpu, wall = run(commands[name])
            cpus[name].append(cpu)
            walls[name].append(wall)
    return {
        name: (statistics.median(cpus[name]), min(cpus[name]), statistics.median(walls[name]))
        for name in commands
    }


def cold_options(description: str, rounds: int, unit: str = "rounds") -> argparse.Namespace:
    """The options of a benchmark of cold processes: ``--rounds``, ``--json`` (where to
    write the figures too) and ``--as-set`` (bytecode as the environment sets it)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--rounds", type=int, default=rounds, help=f"{unit} (default {rounds})")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument(
        "--as-set",
        action="store_true",
        help="keep PYTHONDONTWRITEBYTECODE as the environment sets it",
    )
    return parser.parse_args()
