"""Benchmark ``kcompat corpus``: build at 3.7.0, verify against 3.8.0 and trunk.

One SparkSession for the three steps (its start-up is reported apart). Prints rows per
second for the build and each verify, and the mismatches found per message.

    python benchmarks/corpus_bench.py                     # clones ../shared's bundle
    python benchmarks/corpus_bench.py --repo /tmp/kafka --samples 100 --master 'local[2]'
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from history_bench import load
from kafka_bundle import clone_kafka


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repo", type=Path, help="a clone of the bundle (default: clone it)")
    parser.add_argument("--rev", default="3.7.0", help="the revision to build the corpus at")
    parser.add_argument("--verify", nargs="+", default=["3.8.0", "trunk"])
    parser.add_argument("--samples", type=int, default=100, help="samples per message version")
    parser.add_argument("--master", default="local[2]")
    args = parser.parse_args()

    from kcompat.pipeline.corpus_build import BuildRequest, build
    from kcompat.pipeline.corpus_verify import VerifyRequest, verify
    from kcompat.pipeline.session import spark_session

    with tempfile.TemporaryDirectory(prefix="kcompat-corpus-bench-") as temp:
        repo = args.repo or clone_kafka(Path(temp) / "kafka")
        started = time.perf_counter()
        spark = spark_session(args.master, "kcompat-corpus-bench")
        print(f"Spark {args.master} up in {time.perf_counter() - started:.1f} s; load {load()}")
        out = Path(temp) / "corpus"
        built = build(BuildRequest(args.rev, out, args.samples, 0, repo), spark)
        manifest = built.manifest
        print(
            f"build {args.rev}: {manifest['rows']} rows ({manifest['message_versions']} "
            f"versions of {manifest['messages']} messages, {manifest['skipped_samples']} "
            f"samples not encodable) in {built.seconds:.1f} s = "
            f"{manifest['rows'] / built.seconds:.0f} rows/s; "
            f"{sum(f.stat().st_size for f in (out / 'samples').glob('*.parquet')) / 1e6:.1f} MB"
        )
        for rev in args.verify:
            print(f"verify against {rev}: load {load()}", flush=True)
            result = verify(VerifyRequest(out, rev, repo, Path(temp) / f"verify-{rev}"), spark)
            summary = result.summary.to_json()
            print(
                f"  {summary['rows']} rows in {result.seconds:.1f} s = "
                f"{summary['rows'] / result.seconds:.0f} rows/s; {summary['mismatches']} "
                f"mismatches ({result.errors} in released versions)"
            )
            for rule in summary["per_rule"]:
                print(f"    {rule['rule']:<24} {rule['severity']:<8} {rule['count']}")
            for entry in summary["per_message"]:
                print(
                    f"    {entry['message']:<45} {entry['mismatches']:>5} of "
                    f"{entry['samples']:>5} samples, versions {entry['versions']}"
                )
        spark.stop()


if __name__ == "__main__":
    main()
