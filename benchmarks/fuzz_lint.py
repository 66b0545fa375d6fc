"""Long fuzzing run of read_spec + lint_specs + resolve (the checks of tests/test_fuzz_lint.py).

    python benchmarks/fuzz_lint.py --seconds 600

Seeds: specs/examples plus every spec at Kafka's trunk (from ../shared/corpus, cloned to a
temp dir; read from git objects, never copied). Runs the four input families in rounds
until the time is up, with a fresh random seed each round, and stops at the first
failure with hypothesis's shrunk example. Exit status: 0 clean, 1 a failure was found.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hypothesis import HealthCheck, Phase, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from tests.test_fuzz_lint import (  # noqa: E402
    check_spec_bytes,
    example_seeds,
    jsonish_text,
    kafka_seeds,
    mutated,
    spec_documents,
)

BUNDLE = ROOT.parent / "shared" / "corpus" / "kafka-spec-history.bundle"


def trunk_seeds(workdir: Path) -> list[tuple[str, str]]:
    """Every *.json spec at Kafka's trunk, read through a temporary clone."""
    if not BUNDLE.is_file():
        print(f"no corpus at {BUNDLE}: fuzzing the examples only", file=sys.stderr)
        return []
    repo = workdir / "kafka"
    subprocess.run(["git", "clone", "-q", "--mirror", str(BUNDLE), str(repo)], check=True)
    subprocess.run(
        ["git", "update-ref", "refs/remotes/origin/trunk", "refs/heads/trunk"], cwd=repo, check=True
    )
    listing = subprocess.run(
        ["git", "ls-tree", "-r", "--name-only", "refs/heads/trunk"],
        cwd=repo,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    return kafka_seeds(repo, [path for path in listing if path.endswith(".json")])


def families(seeds: list[tuple[str, str]], counts: Counter[str]) -> dict[str, Callable[..., None]]:
    """One hypothesis-free body per input family; each counts its cases."""

    def random_bytes(data: bytes) -> None:
        counts["random bytes"] += 1
        check_spec_bytes(data)

    def jsonish(text: str) -> None:
        counts["json-ish text"] += 1
        check_spec_bytes(text.encode("utf-8", errors="surrogatepass"))

    def documents(text: str) -> None:
        counts["spec documents"] += 1
        check_spec_bytes(text.encode())

    def mutations(case: tuple[str, str]) -> None:
        counts["mutated specs"] += 1
        path, text = case
        check_spec_bytes(text.encode("utf-8", errors="surrogatepass"), path)

    return {
        "random bytes": given(st.binary(max_size=2000))(random_bytes),
        "json-ish text": given(jsonish_text())(jsonish),
        "spec documents": given(spec_documents())(documents),
        "mutated specs": given(mutated(seeds))(mutations),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="how long to fuzz")
    parser.add_argument("--round", type=int, default=200, help="examples per family per round")
    args = parser.parse_args()
    counts: Counter[str] = Counter()
    with tempfile.TemporaryDirectory(prefix="kcompat-fuzz-") as tmp:
        seeds = example_seeds() + trunk_seeds(Path(tmp))
    print(f"{len(seeds)} seed specs; fuzzing for {args.seconds:.0f} s")
    round_settings = settings(
        max_examples=args.round,
        deadline=None,
        database=None,
        phases=[Phase.generate, Phase.shrink],
        suppress_health_check=list(HealthCheck),
    )
    tests = {name: round_settings(test) for name, test in families(seeds, counts).items()}
    started = time.monotonic()
    rounds = 0
    while time.monotonic() - started < args.seconds:
        for name, test in tests.items():
            try:
                test()
            except Exception:
                print(f"\nFAILED in family {name!r} after {sum(counts.values())} cases")
                raise
        rounds += 1
    elapsed = time.monotonic() - started
    total = sum(counts.values())
    print(
        f"{total} cases in {elapsed:.1f} s ({total / elapsed:.0f}/s), {rounds} rounds, no failure"
    )
    for name, count in counts.items():
        print(f"  {name:16} {count}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
