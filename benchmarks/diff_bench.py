"""How fast is `kcompat diff` from a cold process, on Kafka's real spec history?

    python benchmarks/diff_bench.py [--runs 5] [--json results.json]

1. Clones ../shared/corpus/kafka-spec-history.bundle to a temp dir (trunk checked out,
   release tags included).
2. Release to release: `kcompat diff 3.7.0 3.8.0` over every spec the two releases hold
   (33 files differ). Goal: median under 2 s.
3. Pre-commit: one spec file changed and staged, `kcompat diff --staged`. Goal: median
   under 0.3 s.
4. Each with the defaults, `--no-history` (no tag ledger from git history), `--no-proof`
   (no round trips) and both. Every run is a new interpreter, as a user or a hook sees it
   (imports included); one warm-up run first, then the median and minimum of N runs, and
   the median CPU time (user + system, less sensitive to a busy machine than wall time).
   Bytecode is cached in a temp dir (as for an installed package) even when the
   environment sets PYTHONDONTWRITEBYTECODE; `--as-set` keeps the environment's choice.
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
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BUNDLE = ROOT.parent / "shared" / "corpus" / "kafka-spec-history.bundle"
STAGED_FILE = "clients/src/main/resources/common/message/MetadataResponse.json"
VARIANTS: dict[str, list[str]] = {
    "default": [],
    "--no-history": ["--no-history"],
    "--no-proof": ["--no-proof"],
    "--no-history --no-proof": ["--no-history", "--no-proof"],
}
SCENARIOS: dict[str, tuple[list[str], float]] = {
    "diff 3.7.0 3.8.0": (["3.7.0", "3.8.0"], 2.0),
    "diff --staged (1 file)": (["--staged"], 0.3),
}


def kcompat_command() -> list[str]:
    script = Path(sys.executable).with_name("kcompat")
    return [str(script)] if script.is_file() else [sys.executable, "-m", "kcompat"]


def prepare(checkout: Path) -> None:
    subprocess.run(["git", "clone", "-q", str(BUNDLE), str(checkout)], check=True)
    # One staged change: ClusterId loses its nullability in version 2+ (a real break).
    spec = checkout / STAGED_FILE
    text = spec.read_text(encoding="utf-8")
    old = '"name": "ClusterId", "type": "string", "nullableVersions": "2+"'
    assert old in text, "MetadataResponse changed shape; pick another edit"
    spec.write_text(text.replace(old, old.replace('"2+"', '"3+"')), encoding="utf-8")
    subprocess.run(["git", "add", STAGED_FILE], cwd=checkout, check=True)


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def cold_runs(
    checkout: Path, args: list[str], runs: int, pycache: Path | None
) -> tuple[list[float], list[float], str]:
    """Wall and CPU seconds of each run, and the last output line."""
    command = [*kcompat_command(), "diff", *args, "--fail-on", "never", "--color", "never"]
    env = {**os.environ, "NO_COLOR": "1"}
    if pycache is not None:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(pycache)
    subprocess.run(command, cwd=checkout, env=env, capture_output=True, check=True)  # warm-up
    walls, cpus = [], []
    last = ""
    for _ in range(runs):
        cpu = _children_cpu()
        started = time.perf_counter()
        done = subprocess.run(
            command, cwd=checkout, env=env, capture_output=True, text=True, check=True
        )
        walls.append(time.perf_counter() - started)
        cpus.append(_children_cpu() - cpu)
        last = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ""
    return walls, cpus, last


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="cold runs per cell (default 5)")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    parser.add_argument(
        "--as-set",
        action="store_true",
        help="keep PYTHONDONTWRITEBYTECODE as the environment sets it",
    )
    args = parser.parse_args()
    if not BUNDLE.is_file():
        print(f"no corpus at {BUNDLE}", file=sys.stderr)
        return 2
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="kcompat-diff-bench-") as temp:
        checkout = Path(temp) / "kafka"
        prepare(checkout)
        for scenario, (scenario_args, goal) in SCENARIOS.items():
            for variant, variant_args in VARIANTS.items():
                pycache = None if args.as_set else Path(temp) / "pycache"
                walls, cpus, last = cold_runs(
                    checkout, [*scenario_args, *variant_args], args.runs, pycache
                )
                rows.append(
                    {
                        "scenario": scenario,
                        "variant": variant,
                        "median": statistics.median(walls),
                        "min": min(walls),
                        "cpu": statistics.median(cpus),
                        "goal": goal,
                        "summary": last,
                    }
                )
                print(f"  {scenario} {variant}: {last}", file=sys.stderr)
    width = max(len(r["scenario"]) for r in rows)
    vwidth = max(len(r["variant"]) for r in rows)
    print(f"{'scenario':<{width}}  {'variant':<{vwidth}}  median    min       cpu       goal")
    for r in rows:
        verdict = "ok" if r["median"] < r["goal"] else "SLOW"
        print(
            f"{r['scenario']:<{width}}  {r['variant']:<{vwidth}}  {r['median']:6.3f} s  "
            f"{r['min']:6.3f} s  {r['cpu']:6.3f} s  < {r['goal']:.1f} s  {verdict}"
        )
    bytecode = "as the environment sets it" if args.as_set else "bytecode cached"
    print(f"({args.runs} cold runs per row, {bytecode}, {' '.join(kcompat_command())})")
    if args.json is not None:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({"runs": args.runs, "rows": rows}, indent=2) + "\n")
    default_rows = [r for r in rows if r["variant"] == "default"]
    return 0 if all(r["median"] < r["goal"] for r in default_rows) else 1


if __name__ == "__main__":
    sys.exit(main())
