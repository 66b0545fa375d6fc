"""Long campaign for configured patterns (issue 32.1): random patterns of every construct
the shape check reads, each it accepts compiled by the ``regex`` engine in a process
capped at 1 GiB of address space, and matched against a hostile name within the budget.

    python benchmarks/fuzz_patterns.py --patterns 100000 --seed 32

Printed: how many patterns were made, accepted and refused (by reason), the slowest
compile and match, and the child's peak memory, with the calibration. A MemoryError, a
crash of the child or a compile past a second fails the campaign (exit 1).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from calibration import describe  # noqa: E402

from kcompat.pattern_shape import Refused, check_shape  # noqa: E402
from tests.test_pattern_bounds import _PIECES  # noqa: E402

#: The child: compile and match each pattern, report the slowest of each and the peak.
CHILD = """
import json, resource, sys, time
resource.setrlimit(resource.RLIMIT_AS, (2**30, 2**30))
import regex
name = "1" * 200 + "x"
slowest = {"compile": 0.0, "match": 0.0}
for pattern in json.load(sys.stdin):
    start = time.process_time()
    try:
        found = regex.compile(pattern, flags=regex.VERSION0)
    except regex.error:
        continue
    took = time.process_time() - start
    slowest["compile"] = max(slowest["compile"], took)
    start = time.process_time()
    try:
        found.search(name, timeout=1.0)
    except TimeoutError:
        pass
    slowest["match"] = max(slowest["match"], time.process_time() - start)
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({**slowest, "peak_mb": peak / 1024}))
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--patterns", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else random.randrange(1 << 32)
    rng = random.Random(seed)
    print(describe())
    accepted: list[str] = []
    refused: Counter[str] = Counter()
    for _ in range(args.patterns):
        pattern = "".join(rng.choice(_PIECES) for _ in range(rng.randint(1, 60)))
        try:
            check_shape(pattern)
        except Refused as err:
            refused[re.sub(r"\d[\d,]*", "N", str(err)).split(" (")[0].split(":")[0]] += 1
            continue
        accepted.append(pattern)
    done = subprocess.run(
        [sys.executable, "-c", CHILD],
        input=json.dumps(accepted),
        capture_output=True,
        text=True,
        check=False,
    )
    print(
        f"{args.patterns} patterns, seed {seed}: {len(accepted)} accepted, "
        f"{sum(refused.values())} refused"
    )
    for why, count in refused.most_common(6):
        print(f"  refused {count:>6}: {why}")
    if done.returncode != 0:
        print(f"the child failed ({done.returncode}): {done.stderr[-500:]}")
        return 1
    figures = json.loads(done.stdout)
    print(
        f"accepted ones in a 1 GiB process: slowest compile {figures['compile'] * 1000:.1f} ms "
        f"CPU, slowest match {figures['match'] * 1000:.1f} ms CPU (budget 1 s), peak "
        f"{figures['peak_mb']:.0f} MB"
    )
    print(describe())
    return 0 if figures["compile"] < 1.0 else 1


if __name__ == "__main__":
    sys.exit(main())
