"""A vendored copy of Kafka's specs, as its maintainers try kcompat on it (issue 31).

Builds, from the bundle, the repository of a Kafka-compatible broker that vendored Kafka
3.4.0 (``tests/vendored.py``: 84 snake_case specs, a subset of versions, ListOffset and
ElectPreferredLeaders under their 2.x names, six fields renamed, two APIs of its own,
ten ``{{placeholder}}`` templates, ``v`` tags on release branches), then runs, with each
tree given (its own sources first on the path, as ``same_behaviour.py`` does):

- ``kcompat drift --repo KAFKA 3.8.0 COPY``: findings by severity and by rule, the CPU
  time of the process, and the summary's closest release;
- ``kcompat diff v1.0.0 v1.1.0`` in the copy (a release audit): findings by rule;
- ``kcompat lint COPY``: findings by rule.

    python benchmarks/vendored_drift.py --tree /tmp/kc-before --tree .

CPU times come with this machine's calibration (``benchmarks/calibration.py``).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
ENTRY = "import sys; from kcompat.cli import run; sys.exit(run())"
sys.path.insert(0, str(ROOT))

from calibration import describe  # noqa: E402
from kafka_bundle import BUNDLE, clone_kafka  # noqa: E402

from tests.vendored import SPEC_DIR, vendor_from_kafka  # noqa: E402


def kcompat(tree: Path, args: list[str], cwd: Path) -> tuple[dict[str, Any], float]:
    """A tree's ``kcompat ARGS --format json`` (its JSON document) and its CPU seconds."""
    env = {**os.environ, "PYTHONPATH": str(tree), "NO_COLOR": "1"}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(
        [sys.executable, "-c", ENTRY, *args, "--format", "json"],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode > 1:
        raise SystemExit(f"{tree}: kcompat {' '.join(args)}: {done.stderr.strip()}")
    document = json.loads(done.stdout)
    assert isinstance(document, dict)
    return document, cpu


def by(findings: list[dict[str, Any]], key: str) -> dict[str, int]:
    return dict(sorted(Counter(f[key] for f in findings).items()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", type=Path, action="append", required=True)
    args = parser.parse_args()
    print(describe())
    with tempfile.TemporaryDirectory(prefix="kcompat-vendored-") as temp:
        kafka = Path(temp) / "kafka"
        clone_kafka(kafka, BUNDLE)
        broker = vendor_from_kafka(kafka, Path(temp) / "broker")
        copy = str(broker / SPEC_DIR)
        for tree in args.tree:
            tree = tree.resolve()
            drift, cpu = kcompat(tree, ["drift", "--repo", str(kafka), "3.8.0", copy], broker)
            audit, _ = kcompat(tree, ["diff", "v1.0.0", "v1.1.0"], broker)
            lint, _ = kcompat(tree, ["lint", copy], broker)
            print(f"\n{tree}")
            print(f"  drift 3.8.0 COPY: {by(drift['findings'], 'severity')}, {cpu:.2f} s CPU")
            print(f"    by rule: {by(drift['findings'], 'rule')}")
            closest = (drift.get("drift") or {}).get("closest")
            if closest:
                print(f"    closest: about {closest['about']} ({closest['release']})")
            print(f"  diff v1.0.0 v1.1.0: {by(audit['findings'], 'rule')}")
            print(f"  lint COPY: {by(lint['findings'], 'rule')}")


if __name__ == "__main__":
    main()
