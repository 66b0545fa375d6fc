"""How fast ``read_spec`` (parse + build) reads Kafka trunk's 186 client specs, CPU, in process.

    python benchmarks/read_spec_speed.py [--rounds 7] [--before TREE]

``read_spec`` is the part of ``kcompat lint`` that turns bytes into documents and
messages; this times it alone, without the interpreter's start-up or the rules, so a
change to the loader or the builder shows in a figure that its own noise does not drown.

Clones ../shared/corpus/kafka-spec-history.bundle to a temp dir (trunk checked out). Each
round runs one child process per tree (this one, and ``--before TREE``, a checkout of an
older kcompat such as a ``git worktree`` at the commit to compare with), alternating
which goes first; a child reads the files, warms up, then prints the fastest of 5 CPU
times (``time.process_time``) of three things over all files: ``read_spec``, the parse
alone (``load_bytes``) and the build alone (``build_message`` of the parsed documents).
Printed: the median over the rounds of each, with the calibration
(``benchmarks/calibration.py``) measured in the same run, before and after.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from calibration import describe

ROOT = Path(__file__).resolve().parent.parent
BUNDLE = ROOT.parent / "shared" / "corpus" / "kafka-spec-history.bundle"
CLIENTS = "clients/src/main/resources/common/message"
FIGURES = ("read_spec", "parse", "build")
#: What a child process runs: the fastest of 5 CPU times of each figure, as JSON.
CHILD = """
import json, sys, time
from pathlib import Path
from kcompat.spec.build import build_message
from kcompat.spec.load import load_bytes
from kcompat.spec.specfile import read_spec
files = [(str(p), p.read_bytes()) for p in sorted(Path(sys.argv[1]).glob("*.json"))]
documents = [load_bytes(d, p) for p, d in files]
def fastest(work):
    work()  # warm: imports, regex and version-range caches, bytecode
    best = float("inf")
    for _ in range(5):
        start = time.process_time()
        work()
        best = min(best, time.process_time() - start)
    return best
print(json.dumps({
    "read_spec": fastest(lambda: [read_spec(p, d) for p, d in files]),
    "parse": fastest(lambda: [load_bytes(d, p) for p, d in files]),
    "build": fastest(lambda: [build_message(doc) for doc in documents]),
}))
"""


def child_figures(tree: Path, folder: Path) -> dict[str, float]:
    """One child's fastest-of-5 CPU seconds for each figure, with ``tree`` on its path."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run(  # run in the corpus: `-c` puts the working directory first
        [sys.executable, "-c", CHILD, str(folder)],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    figures: dict[str, float] = json.loads(done.stdout)
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=7, help="paired rounds (default 7)")
    parser.add_argument("--before", type=Path, help="a checkout of an older kcompat to pair")
    args = parser.parse_args()
    if not BUNDLE.is_file():
        print(f"no corpus at {BUNDLE}", file=sys.stderr)
        return 2
    print(describe())
    trees = {"now": ROOT}
    if args.before is not None:
        trees["before"] = args.before.resolve()
    samples: dict[str, dict[str, list[float]]] = {
        name: {figure: [] for figure in FIGURES} for name in trees
    }
    with tempfile.TemporaryDirectory(prefix="kcompat-read-spec-") as tmp:
        checkout = Path(tmp) / "kafka"
        subprocess.run(["git", "clone", "-q", str(BUNDLE), str(checkout)], check=True)
        folder = checkout / CLIENTS
        order = list(trees)
        for _ in range(args.rounds):
            for name in order:
                for figure, seconds in child_figures(trees[name], folder).items():
                    samples[name][figure].append(seconds)
            order.reverse()  # neither tree always runs first
    print(f"CPU seconds over the 186 client specs, median (min) of {args.rounds} rounds:")
    for name in trees:
        for figure in FIGURES:
            values = samples[name][figure]
            label = f"{name}: {figure}"
            print(f"  {label:<20} {statistics.median(values):.4f} ({min(values):.4f})")
    if "before" in trees:
        for figure in FIGURES:
            gain = statistics.median(samples["before"][figure]) / statistics.median(
                samples["now"][figure]
            )
            print(f"{figure}: {gain:.2f}x faster than --before")
    print(describe())
    return 0


if __name__ == "__main__":
    sys.exit(main())
