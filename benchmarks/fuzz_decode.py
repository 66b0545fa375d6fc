"""Long decoder fuzz: mutated real encodings, compiled decoder against the reference.

    python benchmarks/fuzz_decode.py --cases 1000000

Seeds: the sample generator's values for every version of every message in specs/examples,
of a message at the codec's corners (defaults Java reads as Infinity and NaN, tags spread
far apart: tests/decode_fuzz.py's hostile_messages), and in Kafka's trunk (from
../shared/corpus, cloned to a temp dir; read from git objects, never copied), encoded.
Each case mutates a seed (see tests/decode_fuzz.py) and decodes it strictly and as
Kafka's Java readers do, with the compiled decoder and the reference interpreter: any
exception but DecodeError, any disagreement, Java reading otherwise what strict reading
accepts, or a decoded value that does not write and read back the same,
stops the run with the case. Exit status: 0 clean, 1 a failure was found.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kcompat.spec.model import Message  # noqa: E402
from kcompat.spec.specfile import read_spec  # noqa: E402
from tests.codec_helpers import EXAMPLES, load_dir  # noqa: E402
from tests.decode_fuzz import OUTCOMES, hostile_messages, run_cases, seed_cases  # noqa: E402

BUNDLE = ROOT.parent / "shared" / "corpus" / "kafka-spec-history.bundle"


def trunk_messages(workdir: Path) -> list[Message]:
    """Every message spec at Kafka's trunk, read through a temporary clone."""
    if not BUNDLE.is_file():
        print(f"no corpus at {BUNDLE}: fuzzing the examples only", file=sys.stderr)
        return []
    repo = workdir / "kafka"
    subprocess.run(["git", "clone", "-q", "--mirror", str(BUNDLE), str(repo)], check=True)
    listing = subprocess.run(
        ["git", "ls-tree", "-r", "--name-only", "refs/heads/trunk"],
        cwd=repo, capture_output=True, text=True, check=True,
    ).stdout.split()  # fmt: skip
    messages = []
    for path in listing:
        if not path.endswith(".json"):
            continue
        text = subprocess.run(
            ["git", "show", f"refs/heads/trunk:{path}"], cwd=repo, capture_output=True, check=True
        ).stdout
        spec = read_spec(path, text)
        if spec.message is not None and spec.message.name and spec.document is not None:
            root = spec.document.root
            if isinstance(root, dict) and "validVersions" in root:
                messages.append(spec.message)
    return messages


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=100_000, help="how many cases to run")
    parser.add_argument("--samples", type=int, default=6, help="seed samples per version")
    parser.add_argument("--seed", type=int, default=None, help="random seed (default: random)")
    parser.add_argument("--round", type=int, default=10_000, help="cases between reports")
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else random.randrange(1 << 32)
    with tempfile.TemporaryDirectory(prefix="kcompat-fuzz-") as tmp:
        messages = load_dir(EXAMPLES) + hostile_messages() + trunk_messages(Path(tmp))
    seeds = seed_cases(messages, args.samples)
    versions = len({(layout.message.name, layout.version) for layout, _ in seeds})
    print(f"{len(seeds)} seed encodings of {versions} message versions; seed {seed}")
    rng = random.Random(seed)
    tally = dict.fromkeys(OUTCOMES.values(), 0)
    wall, cpu = time.monotonic(), time.process_time()
    done = 0
    while done < args.cases:
        batch = min(args.round, args.cases - done)
        try:
            for name, count in run_cases(seeds, batch, rng).items():
                tally[name] += count
        except BaseException:
            print(f"\nFAILED after {done} clean cases (seed {seed})", file=sys.stderr)
            raise
        done += batch
        elapsed = time.monotonic() - wall
        print(f"  {done} cases, {elapsed:.0f} s, {done / elapsed:.0f}/s", flush=True)
    elapsed, used = time.monotonic() - wall, time.process_time() - cpu
    print(
        f"{done} cases in {elapsed:.1f} s ({done / elapsed:.0f}/s; {used:.1f} s CPU, "
        f"{done / used:.0f} per CPU second), no failure"
    )
    for name, count in tally.items():
        print(f"  {name:16} {count}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
