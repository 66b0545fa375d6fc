"""Errors per pair of consecutive Apache Kafka releases, as a release manager runs it.

Clones the Kafka spec history bundle, runs ``kcompat diff OLDER NEWER --format json``
(the round-trip proof on, as by default) for every pair of consecutive release tags from
2.2.0 to 3.8.0, and prints the errors of each pair (rule, message, field, why), then the
total. ``--config FILE`` runs it with a configuration (``examples/kafka.toml``: Kafka's
own early-access episodes).

    python benchmarks/release_audit.py [--config examples/kafka.toml] [--json]
"""

from __future__ import annotations

import argparse
import itertools
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from kafka_bundle import BUNDLE, clone_kafka

ROOT = Path(__file__).resolve().parent.parent
KCOMPAT = Path(sys.executable).with_name("kcompat")
FIRST, LAST = (2, 2, 0), (3, 8, 0)


def numbers(tag: str) -> tuple[int, ...]:
    return tuple(int(n) for n in tag.split("."))


def audit(kafka: Path, options: list[str]) -> dict[str, list[dict[str, Any]]]:
    tags = subprocess.run(["git", "tag"], cwd=kafka, check=True, capture_output=True, text=True)
    chosen = sorted((t for t in tags.stdout.split() if FIRST <= numbers(t) <= LAST), key=numbers)
    out: dict[str, list[dict[str, Any]]] = {}
    for older, newer in itertools.pairwise(chosen):
        done = subprocess.run(
            [str(KCOMPAT), "diff", older, newer, "--format", "json", *options],
            cwd=kafka,
            capture_output=True,
            text=True,
            check=False,
        )
        errors = [f for f in json.loads(done.stdout)["findings"] if f["severity"] == "error"]
        out[f"{older}..{newer}"] = errors
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", type=Path, help="a kcompat.toml to run with")
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    args = parser.parse_args()
    options = ["--config", str(args.config.resolve())] if args.config else []
    with tempfile.TemporaryDirectory(prefix="kcompat-releases-") as temp:
        kafka = Path(temp) / "kafka"
        clone_kafka(kafka, BUNDLE)
        errors = audit(kafka, options)
    total = sum(len(found) for found in errors.values())
    pairs = sum(1 for found in errors.values() if found)
    if args.json:
        per_pair = {pair: len(found) for pair, found in errors.items() if found}
        print(json.dumps({"errors": total, "pairs": pairs, "per_pair": per_pair}))
        return
    for pair, found in errors.items():
        if found:
            print(f"{pair}: {len(found)} error{'s' if len(found) != 1 else ''}")
        for f in found:
            where = f"{f['message_name']}.{f['field_path']}".rstrip(".")
            print(f"  {f['rule']:28} {where:60} {f['released_by']}")
    print(f"{total} errors in {pairs} of {len(errors)} pairs")


if __name__ == "__main__":
    main()
