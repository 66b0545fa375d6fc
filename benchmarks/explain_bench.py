"""Cold-process timing of ``kcompat explain`` (goal: one message under 0.5 s).

Each case runs ``python -m kcompat explain ...`` in a fresh process N times and reports
the median and minimum wall time, and the median CPU time of the child (user + system):
on a busy machine wall time mostly measures waiting for a core, and CPU time shows what
kcompat itself costs. ``kcompat --help`` is measured too, as the floor every command
pays (interpreter, typer, imports).

    python benchmarks/explain_bench.py                 # 10 runs per case
    python benchmarks/explain_bench.py --runs 20 --json benchmarks/results/explain.json

Needs ../shared/corpus/kafka-spec-history.bundle for the trunk cases (cloned to a temp
dir); without it only the example specs are measured.
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

ROOT = Path(__file__).resolve().parent.parent
BUNDLE = ROOT.parent / "shared" / "corpus" / "kafka-spec-history.bundle"
GOAL_SECONDS = 0.5


@dataclass(frozen=True)
class Case:
    name: str
    args: tuple[str, ...]
    cwd: str
    goal: bool  # held to the 0.5 s goal (one message found by name)
    exit: int = 0  # the expected exit status


@dataclass(frozen=True)
class Result:
    name: str
    median_s: float
    min_s: float
    cpu_median_s: float
    runs: int
    goal: bool


def measure(case: Case, runs: int) -> Result:
    walls: list[float] = []
    cpus: list[float] = []
    command = [sys.executable, "-m", "kcompat", *case.args]
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "100"}
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run(command, cwd=case.cwd, env=env, capture_output=True, check=False)
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime))
        if done.returncode != case.exit:
            raise SystemExit(
                f"{case.name}: exit {done.returncode}: {done.stderr.decode(errors='replace')}"
            )
    return Result(
        case.name,
        statistics.median(walls),
        min(walls),
        statistics.median(cpus),
        runs,
        case.goal,
    )


def cases(trunk: Path | None) -> list[Case]:
    root = str(ROOT)
    out = [
        Case("kcompat --help (floor)", ("--help",), root, False),
        Case(
            "examples: WidgetRequest",
            ("explain", "WidgetRequest", "--specs", "specs/examples"),
            root,
            True,
        ),
        Case(
            "examples: Widget (both), markdown",
            ("explain", "Widget", "--specs", "specs/examples", "-f", "markdown"),
            root,
            True,
        ),
    ]
    if trunk is not None:
        where = str(trunk)
        out += [
            Case("trunk: MetadataResponse", ("explain", "MetadataResponse"), where, True),
            Case("trunk: fetchrequest (any case)", ("explain", "fetchrequest"), where, True),
            Case(
                "trunk: FetchRequest --version 17",
                ("explain", "FetchRequest", "--version", "17"),
                where,
                True,
            ),
            Case(
                "trunk: FetchRequest json", ("explain", "FetchRequest", "-f", "json"), where, True
            ),
            Case("trunk: apiKey 1 (reads every spec)", ("explain", "1"), where, False),
            Case("trunk: unknown name (did-you-mean)", ("explain", "Fetchh"), where, False, 2),
        ]
    return out


def clone_trunk(into: Path) -> Path | None:
    if not BUNDLE.is_file():
        print(f"no corpus at {BUNDLE}: measuring the example specs only", file=sys.stderr)
        return None
    target = into / "kafka"
    subprocess.run(["git", "clone", "-q", str(BUNDLE), str(target)], check=True)
    return target


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--json", type=Path, help="write the results here")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as temp:
        trunk = clone_trunk(Path(temp))
        results = [measure(case, options.runs) for case in cases(trunk)]
    width = max(len(r.name) for r in results)
    print(f"{'case':<{width}}  median   min      cpu      goal")
    failed = False
    for r in results:
        verdict = ""
        if r.goal:
            ok = r.median_s < GOAL_SECONDS
            failed |= not ok
            verdict = "ok" if ok else f"OVER {GOAL_SECONDS}s"
        print(
            f"{r.name:<{width}}  {r.median_s:6.3f}s  {r.min_s:6.3f}s  {r.cpu_median_s:6.3f}s  "
            f"{verdict}"
        )
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs")
    if options.json:
        options.json.parent.mkdir(parents=True, exist_ok=True)
        options.json.write_text(json.dumps([asdict(r) for r in results], indent=2) + "\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
