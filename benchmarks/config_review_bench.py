"""What the review of a change's own configuration (config-weakened) costs `kcompat diff`.

    python benchmarks/config_review_bench.py [--runs 5] [--json results.json]

1. Clones ../shared/corpus/kafka-spec-history.bundle to a temp dir.
2. Builds, per scenario, two commits on a branch: BASE holds the specs of 3.7.0 and HEAD
   those of 3.8.0 (33 files differ), each with a `kcompat.toml`:
   - `same configuration`: the same file on both sides (the review reads BASE's file
     and finds nothing to weigh: the cost every diff pays);
   - `disable added`: HEAD adds `disable = ["category:fields"]` (the raw findings run
     once more with every rule, then are finished again: the cost of a weakening that
     only finishing can see);
   - `release-tags narrowed`: HEAD's `release-tags` matches only 3.x tags (both sides
     are read again, releases included, under BASE's setting: the dearest kind).
3. `kcompat diff HEAD~1 HEAD` from cold processes (one warm-up run, then the median and
   minimum wall time and the median CPU time of the process and its git children over
   N runs), with the proof on, as CI runs it. Goal: a weakening at most doubles the
   diff's time (it runs the comparison about once more), and the same configuration
   costs nothing measurable.
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

from calibration import describe
from child import children_cpu
from diff_bench import BUNDLE, kcompat_command, measured_package, tree_env

BASE_CONFIG = 'fail-on = "error"\n'
SCENARIOS: dict[str, str] = {
    "same configuration": BASE_CONFIG,
    "disable added": BASE_CONFIG + 'disable = ["category:fields"]\n',
    "release-tags narrowed": BASE_CONFIG + "release-tags = '^3\\.\\d+\\.\\d+$'\n",
}


def git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


def build(checkout: Path, head_config: str) -> None:
    """BASE: 3.7.0's tree and BASE_CONFIG; HEAD: 3.8.0's tree and ``head_config``."""
    identity = ["-c", "user.name=bench", "-c", "user.email=bench@kcompat.invalid"]
    git(checkout, "checkout", "-q", "--detach", "3.7.0")
    (checkout / "kcompat.toml").write_text(BASE_CONFIG, encoding="utf-8")
    git(checkout, "add", "-A")
    git(checkout, *identity, "commit", "-q", "-m", "base")
    git(checkout, "rm", "-q", "-r", "--cached", ".")
    git(checkout, "checkout", "3.8.0", "--", ".")
    (checkout / "kcompat.toml").write_text(head_config, encoding="utf-8")
    git(checkout, "add", "-A")
    git(checkout, *identity, "commit", "-q", "-m", "head")


def cold(checkout: Path, runs: int) -> dict[str, Any]:
    command = [*kcompat_command(), "diff", "HEAD~1", "HEAD", "--fail-on", "never"]
    env = tree_env()
    env["KCOMPAT_CODE_CACHE"] = str(checkout.parent / "codecache")
    subprocess.run(command, cwd=checkout, env=env, capture_output=True, check=True)
    walls, cpus, last = [], [], ""
    for _ in range(runs):
        cpu = children_cpu()
        started = time.perf_counter()
        done = subprocess.run(
            command, cwd=checkout, env=env, capture_output=True, text=True, check=True
        )
        walls.append(time.perf_counter() - started)
        cpus.append(children_cpu() - cpu)
        last = done.stdout.strip().splitlines()[-1]
        weakened = sum(" [config-weakened] " in line for line in done.stdout.splitlines())
    return {
        "median": statistics.median(walls),
        "min": min(walls),
        "cpu": statistics.median(cpus),
        "config-weakened": weakened,
        "summary": last,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", type=Path)
    options = parser.parse_args()
    print(f"measuring {measured_package()}")
    print(describe())
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="kcompat-config-review-") as temp:
        for name, config in SCENARIOS.items():
            checkout = Path(temp) / name.replace(" ", "-")
            subprocess.run(["git", "clone", "-q", str(BUNDLE), str(checkout)], check=True)
            build(checkout, config)
            results[name] = found = cold(checkout, options.runs)
            print(
                f"{name:24} median {found['median']:.2f} s  min {found['min']:.2f} s  "
                f"cpu {found['cpu']:.2f} s  config-weakened: {found['config-weakened']}  "
                f"| {found['summary']}"
            )
    results["calibration"] = describe()
    if options.json is not None:
        options.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
