"""How fast is `kcompat diff` from a cold process, on Kafka's real spec history?

    python benchmarks/diff_bench.py [--runs 5] [--json results.json]
    python benchmarks/diff_bench.py --synthetic [--runs 3] [--timeout 600]

1. Clones ../shared/corpus/kafka-spec-history.bundle to a temp dir (trunk checked out,
   release tags included).
2. Release to release: `kcompat diff 3.7.0 3.8.0` over every spec the two releases hold
   (33 files differ). Goal: median under 2 s.
3. Pre-commit: one spec file changed and staged, `kcompat diff --staged`. Goal: median
   CPU time (the process and its git children) at most 0.25 s, judged on CPU (issue 17:
   steadier than wall time on a shared machine). Compiled codecs are kept between runs
   (kcompat.cache) in the temp dir, as for a user's second commit: the warm-up run
   fills it.
4. Each with the defaults, `--no-history` (no tag ledger from git history), `--no-proof`
   (no round trips) and both. Every run is a new interpreter, as a user or a hook sees it
   (imports included); one warm-up run first, then the median and minimum of N runs, and
   the median CPU time (user + system, less sensitive to a busy machine than wall time).
   Bytecode is cached in a temp dir (as for an installed package) even when the
   environment sets PYTHONDONTWRITEBYTECODE; `--as-set` keeps the environment's choice.
5. `--synthetic`: instead of Kafka, generated messages (benchmarks/synthetic_specs.py) of
   1,600 fields over 200 versions with field ranges starting and ending everywhere, and
   2,000 fields over 0-32766 with about 20 distinct boundaries or all `0+`, each as a
   BASE and a HEAD directory: `kcompat diff BASE HEAD` with the proof and `--no-proof`,
   median wall and CPU time over cold processes. Goal: every median under 2 s (these
   once took minutes, or did not finish: diff grew with fields squared times versions).
   A run past `--timeout` seconds is stopped and shown as not finished.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from calibration import describe
from child import ENTRY, children_cpu
from installed import as_installed

ROOT = Path(__file__).resolve().parent.parent
BUNDLE = ROOT.parent / "shared" / "corpus" / "kafka-spec-history.bundle"
STAGED_FILE = "clients/src/main/resources/common/message/MetadataResponse.json"
VARIANTS: dict[str, list[str]] = {
    "default": [],
    "--no-history": ["--no-history"],
    "--no-proof": ["--no-proof"],
    "--no-history --no-proof": ["--no-history", "--no-proof"],
}
#: Each scenario's arguments, goal in seconds, and what the goal is judged on.
SCENARIOS: dict[str, tuple[list[str], float, str]] = {
    "diff 3.7.0 3.8.0": (["3.7.0", "3.8.0"], 2.0, "median"),
    "diff --staged (1 file)": (["--staged"], 0.25, "cpu"),
}


#: kcompat as its console script starts it, from the tree this benchmark lives in (the
#: virtualenv's own ``kcompat`` script may be an editable install of another checkout).


def kcompat_command() -> list[str]:
    return [sys.executable, "-c", ENTRY]


def tree_env() -> dict[str, str]:
    """The environment that makes ``kcompat_command`` import this tree's kcompat."""
    paths = [str(ROOT), *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(paths), "NO_COLOR": "1"}


def measured_package() -> str:
    """Where the measured kcompat comes from (checked: it must be this tree's)."""
    out = subprocess.run(
        [sys.executable, "-c", "import kcompat; print(kcompat.__file__)"],
        env=tree_env(),
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    if not Path(out).resolve().is_relative_to(ROOT):
        raise SystemExit(f"measuring {out}, not this tree ({ROOT})")
    return str(Path(out).parent)


def prepare(checkout: Path) -> None:
    subprocess.run(["git", "clone", "-q", str(BUNDLE), str(checkout)], check=True)
    # One staged change: ClusterId loses its nullability in version 2+ (a real break).
    spec = checkout / STAGED_FILE
    text = spec.read_text(encoding="utf-8")
    old = '"name": "ClusterId", "type": "string", "nullableVersions": "2+"'
    assert old in text, "MetadataResponse changed shape; pick another edit"
    spec.write_text(text.replace(old, old.replace('"2+"', '"3+"')), encoding="utf-8")
    subprocess.run(["git", "add", STAGED_FILE], cwd=checkout, check=True)


def cold_runs(
    checkout: Path,
    args: list[str],
    runs: int,
    pycache: Path | None,
    timeout: float | None = None,
) -> tuple[list[float], list[float], str]:
    """Wall and CPU seconds of each run, and the last output line (no figures, and
    "did not finish", when a run takes longer than ``timeout``)."""
    command = [*kcompat_command(), "diff", *args, "--fail-on", "never", "--color", "never"]
    env = tree_env()
    # Compiled codecs are kept between runs (kcompat.cache), as for a user's second
    # commit: here in the temp dir (the warm-up run fills it), never in the user's home.
    env["KCOMPAT_CODE_CACHE"] = str(checkout.parent / "codecache")
    if pycache is not None:
        env = as_installed(env, pycache)
    walls: list[float] = []
    cpus: list[float] = []
    last = ""
    try:  # one warm-up run first
        subprocess.run(
            command, cwd=checkout, env=env, capture_output=True, check=True, timeout=timeout
        )
        for _ in range(runs):
            cpu = children_cpu()
            started = time.perf_counter()
            done = subprocess.run(
                command,
                cwd=checkout,
                env=env,
                capture_output=True,
                text=True,
                check=True,
                timeout=timeout,
            )
            walls.append(time.perf_counter() - started)
            cpus.append(children_cpu() - cpu)
            last = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ""
    except subprocess.TimeoutExpired:
        return [], [], f"did not finish in {timeout:.0f} s"
    return walls, cpus, last


SYNTHETIC_VARIANTS: dict[str, list[str]] = {"proof": [], "--no-proof": ["--no-proof"]}
SYNTHETIC_GOAL = 2.0


def synthetic_rows(
    temp: Path, runs: int, pycache: Path | None, timeout: float
) -> list[dict[str, Any]]:
    """Median wall and CPU of `kcompat diff BASE HEAD` on each generated message."""
    from synthetic_specs import CASES, write_cases

    written = write_cases(temp / "synthetic")
    rows: list[dict[str, Any]] = []
    for case in CASES:
        base, head = written[case.name]
        for variant, variant_args in SYNTHETIC_VARIANTS.items():
            args = [str(base), str(head), *variant_args]
            walls, cpus, last = cold_runs(temp, args, runs, pycache, timeout)
            rows.append(
                {
                    "scenario": case.about,
                    "variant": variant,
                    "median": statistics.median(walls) if walls else None,
                    "min": min(walls) if walls else None,
                    "cpu": statistics.median(cpus) if cpus else None,
                    "cpu_min": min(cpus) if cpus else None,
                    "goal": SYNTHETIC_GOAL,
                    "summary": last,
                }
            )
            print(f"  {case.about} {variant}: {last or 'done'}", file=sys.stderr)
    return rows


def _seconds(value: float | None) -> str:
    return f"{value:6.3f} s" if value is not None else "   n/a  "


def _fast(row: dict[str, Any]) -> bool:
    value = row[row.get("judged_by", "median")]
    return value is not None and bool(
        value <= row["goal"] if row.get("judged_by") == "cpu" else value < row["goal"]
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="cold runs per cell (default 5)")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    parser.add_argument(
        "--synthetic",
        action="store_true",
        help="generated messages with many fields and versions instead of Kafka",
    )
    parser.add_argument(
        "--timeout", type=float, default=600.0, help="stop a run after this many seconds"
    )
    parser.add_argument(
        "--staged-only", action="store_true", help="only the `diff --staged` scenario"
    )
    parser.add_argument(
        "--as-set",
        action="store_true",
        help="keep PYTHONDONTWRITEBYTECODE as the environment sets it",
    )
    args = parser.parse_args()
    if not args.synthetic and not BUNDLE.is_file():
        print(f"no corpus at {BUNDLE}", file=sys.stderr)
        return 2
    rows: list[dict[str, Any]] = []
    before = describe()
    with tempfile.TemporaryDirectory(prefix="kcompat-diff-bench-") as temp:
        checkout = Path(temp) / "kafka"
        if args.synthetic:
            pycache = None if args.as_set else Path(temp) / "pycache"
            rows = synthetic_rows(Path(temp), args.runs, pycache, args.timeout)
        else:
            prepare(checkout)
        scenarios = {} if args.synthetic else SCENARIOS
        if args.staged_only:
            scenarios = {k: v for k, v in scenarios.items() if "--staged" in v[0]}
        for scenario, (scenario_args, goal, judged_by) in scenarios.items():
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
                        "cpu_min": min(cpus),
                        "goal": goal,
                        "judged_by": judged_by,
                        "summary": last,
                    }
                )
                print(f"  {scenario} {variant}: {last}", file=sys.stderr)
    width = max(len(r["scenario"]) for r in rows)
    vwidth = max(len(r["variant"]) for r in rows)
    head = "median    min       cpu       cpu min   goal"
    print(f"{'scenario':<{width}}  {'variant':<{vwidth}}  {head}")
    for r in rows:
        verdict = "ok" if _fast(r) else "SLOW"
        print(
            f"{r['scenario']:<{width}}  {r['variant']:<{vwidth}}  {_seconds(r['median'])}  "
            f"{_seconds(r['min'])}  {_seconds(r['cpu'])}  {_seconds(r['cpu_min'])}  "
            f"{'<=' if r.get('judged_by') == 'cpu' else '< '} {r['goal']:.2f} s "
            f"{'cpu ' if r.get('judged_by') == 'cpu' else 'wall'}  {verdict}"
        )
    bytecode = "as the environment sets it" if args.as_set else "bytecode cached"
    print(f"({args.runs} cold runs per row, {bytecode}, kcompat from {measured_package()})")
    print(f"{before} (before the runs); {describe()} (after)")
    if args.json is not None:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({"runs": args.runs, "rows": rows}, indent=2) + "\n")
    judged = rows if args.synthetic else [r for r in rows if r["variant"] == "default"]
    return 0 if all(_fast(r) for r in judged) else 1


if __name__ == "__main__":
    sys.exit(main())
