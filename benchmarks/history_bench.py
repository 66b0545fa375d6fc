"""Benchmark ``kcompat history`` over Kafka's history (default: consecutive over trunk),
on 1 and 2 cores.

Each Spark run is a fresh ``kcompat`` process (JVM start-up included, as a user sees it);
the baseline is a plain in-process loop of ``kcompat diff`` (prepare + check, the same
code) over the same commit pairs. Goals: under 60 s with ``local[2]`` on two cores, and
``local[2]`` at least 1.6x faster than ``local[1]``.

    python benchmarks/history_bench.py                    # clones ../shared's bundle
    python benchmarks/history_bench.py --repo /tmp/kafka --repeat 2 --skip-diff
    python benchmarks/history_bench.py --repo /tmp/kafka --mode transitive --skip-diff

Measure on a quiet machine: the script prints the load average before every run. Wall
time on a shared machine is noise; each run also reports the CPU time of its whole
process tree (the driver, its preparation workers, the JVM, Spark's Python workers),
which load from other processes changes far less. It is sampled from /proc (Linux) ten
times a second: Spark's Python daemon ignores SIGCHLD, so its workers' CPU time never
reaches anyone's ``RUSAGE_CHILDREN``. The benchmark makes itself a child subreaper, so
processes that outlive the driver (the JVM shuts down after it) stay in its tree.
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from kafka_bundle import clone_kafka

ROOT = Path(__file__).resolve().parent.parent
KCOMPAT = Path(sys.executable).with_name("kcompat")


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def become_subreaper() -> bool:
    """Orphaned descendants (the JVM after the driver exits) are re-parented to this
    process, so their CPU time reaches ``RUSAGE_CHILDREN`` when they are reaped."""
    try:
        done: int = ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)  # SUBREAPER
        return done == 0
    except (OSError, AttributeError):
        return False


def reap_all() -> None:
    """Wait for every descendant left (they end once the driver has gone)."""
    while True:
        try:
            os.waitpid(-1, 0)
        except ChildProcessError:
            return


class TreeCpu:
    """CPU seconds of every process below this one, sampled from /proc: each process's
    last seen user + system time (a process's last tenth of a second may be missed)."""

    def __init__(self, interval: float = 0.1) -> None:
        self.interval = interval
        self.seen: dict[tuple[int, int], int] = {}  # (pid, start time) -> clock ticks
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.tick = os.sysconf("SC_CLK_TCK")

    def _sample(self) -> None:
        parents: dict[int, int] = {}
        stats: dict[int, tuple[int, int]] = {}
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open(f"/proc/{entry}/stat", "rb") as handle:
                    text = handle.read().decode("ascii", "replace")
            except OSError:
                continue
            fields = text[text.rindex(")") + 2 :].split()
            pid = int(entry)
            parents[pid] = int(fields[1])
            stats[pid] = (int(fields[19]), int(fields[11]) + int(fields[12]))
        me = os.getpid()
        for pid, (started, ticks) in stats.items():
            parent, hops = parents.get(pid), 0
            while parent not in (None, 0, 1, me) and hops < 64:
                parent, hops = parents.get(parent), hops + 1
            if parent == me:
                self.seen[(pid, started)] = max(ticks, self.seen.get((pid, started), 0))

    def _run(self) -> None:
        while not self.stop.wait(self.interval):
            self._sample()

    def __enter__(self) -> TreeCpu:
        if os.path.isdir("/proc"):
            self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        if self.thread.is_alive():
            self.thread.join()

    @property
    def seconds(self) -> float:
        return sum(self.seen.values()) / self.tick


def history_run(
    repo: Path, master: str, samples: int, out: Path, mode: str = "consecutive"
) -> tuple[float, float, dict[str, Any]]:
    """One audit in a fresh process; wall seconds, CPU seconds of all its processes, and
    its summary."""
    command = [
        str(KCOMPAT), "history", "--repo", str(repo), "--mode", mode, "--master",
        master, "--samples", str(samples), "--out", str(out), "--format", "json",
    ]  # fmt: skip
    with TreeCpu() as tree:
        started = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        seconds = time.perf_counter() - started
        reap_all()
    cpu = tree.seconds
    if done.returncode not in (0, 1):
        raise SystemExit(f"kcompat history failed ({done.returncode}): {done.stderr[-2000:]}")
    return seconds, cpu, json.loads(done.stdout)


def diff_loop(repo: Path, samples: int) -> tuple[float, int, int]:
    """``kcompat diff PARENT COMMIT`` for every pair the audit compares, in one process."""
    from kcompat.diff.options import RunOptions
    from kcompat.diff.run import DiffRequest, run_diff
    from kcompat.modes import ReleasedMode
    from kcompat.pipeline.revisions import consecutive
    from kcompat.sources.git import GitRepo

    git_repo = GitRepo.open(repo)
    pairs = consecutive(git_repo, None)
    started = time.perf_counter()
    findings = 0
    for pair in pairs:
        result = run_diff(
            DiffRequest(
                base=pair.base,
                head=pair.head,
                repo=repo,
                options=RunOptions(samples=samples, released=ReleasedMode.TAGS),
            )
        )
        findings += len(result.outcome.findings)
    return time.perf_counter() - started, len(pairs), findings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repo", type=Path, help="a clone of the bundle (default: clone it)")
    parser.add_argument("--samples", type=int, default=20, help="proof samples per version")
    parser.add_argument("--repeat", type=int, default=1, help="runs per master (best kept)")
    parser.add_argument("--skip-diff", action="store_true", help="no plain diff loop")
    parser.add_argument(
        "--masters",
        default="local[1],local[2]",
        help="comma-separated Spark masters to run (default: local[1],local[2])",
    )
    parser.add_argument(
        "--mode",
        default="consecutive",
        choices=("consecutive", "releases", "transitive"),
        help="the audit (the plain diff loop is for consecutive only)",
    )
    args = parser.parse_args()
    if not become_subreaper():
        print("(not Linux: CPU times miss processes that outlive the driver)", flush=True)
    masters = [m.strip() for m in args.masters.split(",") if m.strip()]
    with tempfile.TemporaryDirectory(prefix="kcompat-bench-") as temp:
        repo = args.repo or clone_kafka(Path(temp) / "kafka")
        walls: dict[str, list[float]] = {m: [] for m in masters}
        cpus: dict[str, list[float]] = {m: [] for m in masters}
        for attempt in range(args.repeat):
            for master in masters:  # interleaved: drifting load hits every master alike
                print(f"{master} run {attempt + 1}: load {load()}", flush=True)
                seconds, cpu, summary = history_run(
                    repo, master, args.samples, Path(temp) / f"out-{attempt}", args.mode
                )
                walls[master].append(seconds)
                cpus[master].append(cpu)
                timings = summary.get("timings", {})
                print(
                    f"  {seconds:6.1f} s wall, {cpu:6.1f} s CPU; {summary['comparisons']} pairs, "
                    f"{summary['findings']} findings; in-run timings {timings}",
                    flush=True,
                )
        print(f"\n{args.mode} audit, proofs on ({args.samples} samples), {args.repeat} runs:")
        for master in masters:
            print(
                f"  {master:9s} wall best {min(walls[master]):6.1f} s, median "
                f"{statistics.median(walls[master]):6.1f} s; CPU median "
                f"{statistics.median(cpus[master]):6.1f} s"
            )
        if "local[1]" in walls and "local[2]" in walls:
            one, two = min(walls["local[1]"]), min(walls["local[2]"])
            print(f"  speed-up local[2] vs local[1]: {one / two:.2f}x (goal >= 1.6x)")
        two = min(walls[masters[-1]])
        if not args.skip_diff and args.mode == "consecutive":
            print(f"plain kcompat diff loop: load {load()}", flush=True)
            seconds, pairs, findings = diff_loop(repo, args.samples)
            print(f"  diff loop {seconds:6.1f} s for {pairs} pairs, {findings} findings")
            print(f"  {masters[-1]} vs the loop: {seconds / two:.2f}x")


if __name__ == "__main__":
    main()
