"""The long oracle run: kcompat against kafka-python and kio, many values per version.

The test suite (tests/test_codec_oracles.py) runs 50 values per message version in about
half a minute; this script runs as many as you ask for, on kafka-python's bundled specs
or on any directory of Kafka specs (a corpus revision, for instance), and reports every
disagreement by kind instead of stopping at the first::

    python benchmarks/oracle_long.py --samples 200 --seeds 5
    python benchmarks/oracle_long.py --spec-dir /tmp/kafka/clients/src/main/resources/common/message

kio is asked only where its generated class has the spec's layout (it was generated from
one Kafka release). Exit status 1 if anything disagreed.
"""

from __future__ import annotations

import argparse
import collections
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kcompat.codec import codec_for  # noqa: E402
from kcompat.codec.samples import generate_samples  # noqa: E402
from kcompat.spec.resolve import resolve  # noqa: E402
from kcompat.spec.specfile import read_spec  # noqa: E402
from tests.oracles import Oracles, kafka_python_spec_dir  # noqa: E402


def check(oracles: Oracles, name: str, version: int, value: dict[str, Any], kio: bool,
          codec: Any) -> str | None:  # fmt: skip
    """The kind of disagreement for one value, or None."""
    try:
        ours = codec.encode(value)
    except Exception as err:
        return f"kcompat encode: {type(err).__name__}"
    steps: list[tuple[str, Callable[[], bool]]] = [
        ("kafka-python encode", lambda: oracles.kp_encode(name, version, value) == ours),
        ("kafka-python decode", lambda: oracles.kp_decode(name, version, ours) == value),
        ("kcompat decode", lambda: codec.decode(ours) == value),
    ]
    if kio:
        steps += [
            ("kio encode", lambda: oracles.kio_encode(name, version, value) == ours),
            ("kio decode", lambda: oracles.kio_decode(name, version, ours) == value),
        ]
    for label, step in steps:
        try:
            if not step():
                return f"{label}: differs"
        except Exception as err:
            return f"{label}: {type(err).__name__}: {str(err)[:80]}"
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spec-dir", type=Path, help="default: kafka-python's bundled specs")
    parser.add_argument("--samples", type=int, default=100, help="values per version and seed")
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--show", type=int, default=10, help="problems to print in full")
    args = parser.parse_args()

    spec_dir = args.spec_dir or Path(kafka_python_spec_dir())
    oracles = Oracles(str(spec_dir))
    counts: collections.Counter[str] = collections.Counter()
    problems: dict[str, list[tuple[str, int, dict[str, Any]]]] = collections.defaultdict(list)
    kio_skipped: list[tuple[str, int, str]] = []
    start = time.perf_counter()
    for path in sorted(spec_dir.glob("*.json")):
        spec = read_spec(str(path), path.read_bytes())
        message = spec.message
        if message is None or not message.name or message.valid_versions.empty:
            continue
        if path.stem != message.name:
            continue  # the adapters find specs by file name
        for version in message.valid_versions:
            layout = resolve(message, version)
            codec = codec_for(layout)
            mismatch = oracles.kio_layout_mismatch(message.name, version)
            if mismatch is not None:
                kio_skipped.append((message.name, version, mismatch))
            for seed in range(args.seeds):
                for value in generate_samples(layout, args.samples, seed):
                    problem = check(oracles, message.name, version, value, mismatch is None,
                                    codec)  # fmt: skip
                    counts["values"] += 1
                    counts["with kio"] += mismatch is None
                    if problem is None:
                        continue
                    counts["problems"] += 1
                    problems[f"{message.name}: {problem}"].append((message.name, version, value))
    elapsed = time.perf_counter() - start
    print(f"{spec_dir}: {counts['values']} values ({counts['with kio']} also through kio) "
          f"in {elapsed:.0f} s; {counts['problems']} disagreements")  # fmt: skip
    if kio_skipped:
        print(f"kio has no matching class for {len(kio_skipped)} message versions, e.g.:")
        for name, version, reason in kio_skipped[:5]:
            print(f"  {name} v{version}: {reason[:100]}")
    shown = 0
    for kind, cases in sorted(problems.items()):
        versions = sorted({version for _, version, _ in cases})
        print(f"PROBLEM {kind} ({len(cases)} values; versions {versions})")
        if shown < args.show:
            name, version, value = cases[0]
            print(f"  first: {name} v{version}: {str(value)[:300]}")
            shown += 1
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
