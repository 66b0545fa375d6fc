"""Benchmark ``kcompat strands`` over Kafka's trunk (every commit that changed a
spec, against every client release from 2.2.0 on), on 1 and 2 cores.

Each Spark run is a fresh ``kcompat`` process (JVM start-up included, as a user sees it);
the peer is the same work in one process without Spark (the plan, every text parsed,
every commit judged against every client release: the pipeline's own functions), and
``kcompat matrix`` (release tags only, the local command). Wall time on a shared machine
is noise: each run also reports the CPU time of its whole process tree, sampled from
/proc (see benchmarks/history_bench.py), and the calibration is printed beside.

    python benchmarks/strands_bench.py                 # clones ../shared's bundle
    python benchmarks/strands_bench.py --repeat 3 --json benchmarks/results/mh.json
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from calibration import calibration
from history_bench import KCOMPAT, TreeCpu, become_subreaper, load, reap_all
from kafka_bundle import clone_kafka


def spark_run(repo: Path, master: str, out: Path) -> tuple[float, float, dict[str, Any]]:
    """One ``kcompat strands`` in a fresh process: wall, tree CPU, its summary."""
    command = [
        str(KCOMPAT), "strands", "--repo", str(repo), "--master", master,
        "--out", str(out), "--format", "json",
    ]  # fmt: skip
    with TreeCpu() as tree:
        started = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        seconds = time.perf_counter() - started
        reap_all()
    if done.returncode != 0:
        raise SystemExit(f"kcompat strands failed: {done.stderr[-2000:]}")
    return seconds, tree.seconds, json.loads(done.stdout)


def in_process(repo: Path) -> tuple[float, float, int]:
    """The same work without Spark: (wall, CPU of this process, stranded pairs)."""
    from kcompat.config import Config
    from kcompat.negotiation.apis import ReleaseApis, Role
    from kcompat.negotiation.grid import Memo, against, apis_of, chosen, ranges_of
    from kcompat.negotiation.negotiate import STRANDED
    from kcompat.pipeline.strands_driver import apis_at, judged_commits
    from kcompat.pipeline.strands_plan import plan_trunk
    from kcompat.pipeline.strands_tasks import facts_of, spec_of
    from kcompat.sources.git import GitRepo

    started, cpu = time.perf_counter(), time.process_time()
    config = Config()
    plan = plan_trunk(GitRepo.open(repo), None, [], config.is_fixture, config.release_tags, None)
    facts = {d: spec_of(facts_of(d, text)) for d, text in plan.texts.items()}
    brokers = [apis_at(plan, i, facts) for i in range(len(plan.commits))]
    every = apis_of([*plan.clients, ReleaseApis.of("HEAD", list(brokers[-1]))])
    apis = chosen(every, frozenset({Role.CLIENT}), None)
    offered = [ranges_of(client, apis)[0] for client in plan.clients]
    memo: Memo = {}
    stranded = 0
    for judged in judged_commits(plan, brokers, apis, False):
        broker = ReleaseApis.of(judged.commit, list(judged.apis))
        for cell in against(offered, broker, apis, judged.served_before, memo):
            stranded += STRANDED in cell
    return time.perf_counter() - started, time.process_time() - cpu, stranded


def matrix_run(repo: Path) -> tuple[float, float]:
    """``kcompat matrix`` (release tags and HEAD) in a fresh process: wall, tree CPU."""
    with TreeCpu() as tree:
        started = time.perf_counter()
        subprocess.run([str(KCOMPAT), "matrix"], cwd=repo, capture_output=True, check=True)
        seconds = time.perf_counter() - started
        reap_all()
    return seconds, tree.seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repo", type=Path, help="a clone of the bundle (default: clone it)")
    parser.add_argument("--repeat", type=int, default=1, help="runs per master")
    parser.add_argument("--masters", default="local[1],local[2]", help="Spark masters to run")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    become_subreaper()
    masters = [m.strip() for m in args.masters.split(",") if m.strip()]
    figures: dict[str, Any] = {"calibration": [calibration()]}
    with tempfile.TemporaryDirectory(prefix="kcompat-mh-bench-") as temp:
        repo = args.repo or clone_kafka(Path(temp) / "kafka")
        runs: dict[str, list[tuple[float, float]]] = {m: [] for m in masters}
        for attempt in range(args.repeat):
            for master in masters:
                print(f"{master} run {attempt + 1}: load {load()}", flush=True)
                wall, cpu, summary = spark_run(repo, master, Path(temp) / f"out-{attempt}")
                runs[master].append((wall, cpu))
                print(
                    f"  {wall:6.1f} s wall, {cpu:6.1f} s CPU; {len(summary['commits'])} commits x "
                    f"{len(summary['clients'])} clients; in-run timings {summary['timings']}",
                    flush=True,
                )
        print(f"in-process, no Spark: load {load()}", flush=True)
        wall, cpu, stranded = in_process(repo)
        print(f"  {wall:6.1f} s wall, {cpu:6.1f} s CPU, {stranded} pairs stranded")
        matrix_wall, matrix_cpu = matrix_run(repo)
        print(f"kcompat matrix (tags only): {matrix_wall:5.2f} s wall, {matrix_cpu:5.2f} s CPU")
        figures["calibration"].append(calibration())
    before, after = figures["calibration"]
    print(f"calibration: {before:.3f} s before, {after:.3f} s after (10,000,000-step loop)")
    for master in masters:
        walls = [w for w, _c in runs[master]]
        cpus = [c for _w, c in runs[master]]
        median = statistics.median(cpus)
        print(
            f"  {master:9s} wall median {statistics.median(walls):6.1f} s, CPU median "
            f"{median:6.1f} s ({median / before:.0f} calibrations)"
        )
        figures[master] = {"wall": walls, "cpu": cpus}
    figures["in_process"] = {"wall": wall, "cpu": cpu}
    figures["matrix"] = {"wall": matrix_wall, "cpu": matrix_cpu}
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    main()
