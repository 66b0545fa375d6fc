"""Errors per break on the mutation table: how many errors one single-edit break produces.

Runs every breaking mutation of ``tests/test_mutations.py`` (real Kafka specs, one edit,
committed in a temp repository) through ``kcompat diff HEAD~1 HEAD --format json`` with
the round-trip proof on, and counts the errors of each. One finding per break is the
goal: the proof's counterexample belongs under the rule finding that explains it.

    python benchmarks/mutation_errors.py [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kafka_bundle import BUNDLE, clone_kafka  # noqa: E402

from tests.diff_runner import diff_last_commit  # noqa: E402
from tests.test_mutations import BREAKING, FILES, build  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="kcompat-mutations-") as temp:
        kafka = Path(temp) / "kafka"
        clone_kafka(kafka, BUNDLE)
        texts = {
            name: subprocess.run(
                ["git", "show", f"{rev}:{path}"],
                cwd=kafka,
                check=True,
                capture_output=True,
                text=True,
            ).stdout
            for name, (rev, path) in FILES.items()
        }
        rows: list[dict[str, Any]] = []
        for mutation in BREAKING:
            repo = build(mutation, texts, Path(temp) / mutation.id)
            findings = diff_last_commit(repo, proof=True).findings()
            errors = [f for f in findings if f["severity"] == "error"]
            expected = {path for _rule, path in mutation.expect}
            rows.append(
                {
                    "mutation": mutation.id,
                    "errors": len(errors),
                    "rules": sorted(f["rule"] for f in errors),
                    "with_evidence": sum(1 for f in errors if f["evidence"]),
                    "on_changed_field": all(f["field_path"] in expected for f in errors),
                }
            )
    counts = [r["errors"] for r in rows if r["errors"]]
    summary = {
        "breaks": len(rows),
        "with_errors": len(counts),
        "mean_errors": round(statistics.mean(counts), 3) if counts else 0.0,
        "max_errors": max(counts, default=0),
        "all_on_changed_field": all(r["on_changed_field"] for r in rows),
    }
    if args.json:
        print(json.dumps({"summary": summary, "mutations": rows}, indent=2))
        return
    for row in rows:
        print(f"{row['mutation']:40} {row['errors']}  {', '.join(row['rules'])}")
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
