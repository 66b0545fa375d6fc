"""How fast is `kcompat lint` on Kafka's 258 trunk specs, and how fast is its JSON loader?

    python benchmarks/lint_corpus.py [--runs 10] [--json results.json]

1. Clones ../shared/corpus/kafka-spec-history.bundle to a temp dir (trunk checked out).
2. Runs `kcompat lint <checkout>` in a fresh Python process N times: the wall time a user
   or a pre-commit hook sees, imports included. Goal: median under 0.5 s.
3. In this process: loads every trunk spec with kcompat's loader and with json5 (the
   reference parser for JSON with comments) and prints the ratio; then times lint of the
   whole set in-process (warm: imports and schemas already loaded).
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
from collections.abc import Callable
from pathlib import Path
from typing import Any

import json5
from child import children_cpu
from installed import as_installed

from kcompat.lint.check import lint_specs
from kcompat.sources.files import json_files
from kcompat.spec.load import load_bytes
from kcompat.spec.specfile import read_spec

ROOT = Path(__file__).resolve().parent.parent
BUNDLE = ROOT.parent / "shared" / "corpus" / "kafka-spec-history.bundle"
GOAL_SECONDS = 0.5


def best_of(repeat: int, action: Callable[[], Any]) -> float:
    """The fastest of ``repeat`` timings of ``action`` (seconds)."""
    timings = []
    for _ in range(repeat):
        started = time.perf_counter()
        action()
        timings.append(time.perf_counter() - started)
    return min(timings)


def cold_lint(checkout: Path, runs: int, pycache: Path | None) -> tuple[list[float], list[float]]:
    """Wall time of `kcompat lint .` in a new interpreter each run.

    With ``pycache``, bytecode is cached there (as it is for an installed package) even
    when the environment sets PYTHONDONTWRITEBYTECODE; without, the environment decides.
    """
    command = [sys.executable, "-m", "kcompat", "lint", "--fail-on", "never", "."]
    env = dict(os.environ) if pycache is None else as_installed(os.environ, pycache)
    # warm-up: the disk cache, and the bytecode cache when there is one
    subprocess.run(command, cwd=checkout, env=env, capture_output=True, check=True)
    timings, cpu_times = [], []
    for _ in range(runs):
        cpu_before = children_cpu()
        started = time.perf_counter()
        done = subprocess.run(
            command, cwd=checkout, env=env, capture_output=True, text=True, check=True
        )
        timings.append(time.perf_counter() - started)
        cpu_times.append(children_cpu() - cpu_before)
    print(f"  last output line: {done.stdout.strip().splitlines()[-1]}")
    print(
        f"  CPU time (user+sys) median {statistics.median(cpu_times) * 1000:.0f} ms, "
        f"min {min(cpu_times) * 1000:.0f} ms: close to the wall time on an idle machine"
    )
    return timings, cpu_times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=10, help="cold lint runs (default 10)")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args()
    if not BUNDLE.is_file():
        print(f"no corpus at {BUNDLE}", file=sys.stderr)
        return 2
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="kcompat-bench-") as tmp:
        checkout = Path(tmp) / "kafka"
        subprocess.run(["git", "clone", "-q", str(BUNDLE), str(checkout)], check=True)
        paths = json_files(checkout)
        files = [(str(path.relative_to(checkout)), path.read_bytes()) for path in paths]
        total_kb = sum(len(data) for _, data in files) / 1024
        print(f"trunk: {len(files)} spec files, {total_kb:.0f} KiB")

        variants: list[tuple[str, Path | None]] = [
            ("bytecode cached, as installed", Path(tmp) / "pycache")
        ]
        if os.environ.get("PYTHONDONTWRITEBYTECODE"):
            variants.append(("PYTHONDONTWRITEBYTECODE as set here: recompiled each run", None))
        for label, pycache in variants:
            print(
                f"\n`kcompat lint` on the trunk checkout, cold process, {args.runs} runs, {label}:"
            )
            timings, cpu_times = cold_lint(checkout, args.runs, pycache)
            median, fastest = statistics.median(timings), min(timings)
            verdict = "meets" if median < GOAL_SECONDS else "MISSES"
            print(
                f"  median {median * 1000:.0f} ms, min {fastest * 1000:.0f} ms ({verdict} the "
                f"{GOAL_SECONDS * 1000:.0f} ms goal)"
            )
            key = "cold_lint_seconds" if pycache is not None else "cold_lint_no_bytecode_seconds"
            results[key] = {"median": median, "min": fastest, "runs": timings, "cpu": cpu_times}

        texts = [data.decode("utf-8") for _, data in files]
        ours = best_of(5, lambda: [load_bytes(data, path) for path, data in files])
        theirs = best_of(2, lambda: [json5.loads(text) for text in texts])
        print(f"\nparsing all {len(files)} files (best of several runs):")
        print(f"  kcompat loader  {ours * 1000:8.1f} ms  ({ours / len(files) * 1e6:.0f} us/file)")
        print(
            f"  json5           {theirs * 1000:8.1f} ms  ({theirs / len(files) * 1e6:.0f} us/file)"
        )
        print(f"  kcompat is {theirs / ours:.0f}x faster, with positions and notes")
        results["parse_seconds"] = {"kcompat": ours, "json5": theirs, "ratio": theirs / ours}

        read = best_of(3, lambda: [read_spec(path, data) for path, data in files])
        specs = [read_spec(path, data) for path, data in files]
        lint_warm = best_of(
            3,
            lambda: lint_specs(
                [read_spec(s.path, d) for s, (_, d) in zip(specs, files, strict=True)]
            ),
        )
        findings = lint_specs(specs)
        print(
            f"\nin-process (warm): read+build {read * 1000:.0f} ms, read+build+lint "
            f"{lint_warm * 1000:.0f} ms, {len(findings)} findings"
        )
        results["warm_seconds"] = {"read_build": read, "read_build_lint": lint_warm}
    if args.json is not None:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
