"""``kcompat changelog`` byte for byte against an older tree: every format, many releases.

A speed-up of the changelog must not change a byte of what it prints. This runs
``kcompat changelog A B --format F`` for every format and every pair below, from this tree
and from ``--before TREE`` (a checkout of the kcompat to compare with, e.g. ``git worktree
add /tmp/before main`` or ``git archive main | tar -x -C /tmp/before``), each as a fresh
process on a clone of Kafka's spec history, and compares stdout, stderr and the exit
status. Prints one line per pair and format; exits 1 if any differs.

    python benchmarks/changelog_same.py --before /tmp/before
    python benchmarks/changelog_same.py --before /tmp/before --pairs 3.7.0..3.8.0 --keep /tmp/out
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parent.parent
BUNDLE = ROOT.parent / "shared" / "corpus" / "kafka-spec-history.bundle"
ENTRY = "import sys; from kcompat.cli import run; sys.exit(run())"
FORMATS = ("text", "markdown", "json", "html")
#: Consecutive releases, releases across a major version, and long spans to trunk.
PAIRS = (
    "2.2.0..trunk",
    "3.7.0..3.8.0",
    "3.0.0..3.1.0",
    "2.8.0..3.0.0",
    "2.2.0..2.3.0",
    "3.4.1..3.5.0",
    "3.5.0..3.6.0",
    "3.6.2..3.7.0",
    "3.8.0..trunk",
)


class Output(NamedTuple):
    status: int
    stdout: bytes
    stderr: bytes


def changelog(tree: Path, checkout: Path, base: str, head: str, fmt: str) -> Output:
    """``kcompat changelog BASE HEAD --format FMT`` as ``tree``'s code prints it."""
    env = {**os.environ, "PYTHONPATH": str(tree), "NO_COLOR": "1", "COLUMNS": "100"}
    done = subprocess.run(
        [sys.executable, "-c", ENTRY, "changelog", base, head, "--format", fmt],
        cwd=checkout,
        env=env,
        capture_output=True,
        check=False,
    )
    return Output(done.returncode, done.stdout, done.stderr)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", type=Path, required=True, help="the older kcompat tree")
    parser.add_argument("--pairs", nargs="+", default=list(PAIRS), help="BASE..HEAD pairs")
    parser.add_argument("--keep", type=Path, help="write both outputs of each run here")
    options = parser.parse_args()
    before = options.before.resolve()
    if not (before / "kcompat" / "changelog").is_dir():
        raise SystemExit(f"{before}: not a kcompat tree with a changelog")
    if not BUNDLE.is_file():
        raise SystemExit(f"no corpus at {BUNDLE}")
    differ = 0
    with tempfile.TemporaryDirectory(prefix="kcompat-changelog-same-") as temp:
        checkout = Path(temp) / "kafka"
        subprocess.run(["git", "clone", "-q", str(BUNDLE), str(checkout)], check=True)
        for pair in options.pairs:
            base, _, head = pair.partition("..")
            for fmt in FORMATS:
                old = changelog(before, checkout, base, head, fmt)
                new = changelog(ROOT, checkout, base, head, fmt)
                same = old == new
                differ += not same
                print(
                    f"{pair:<16} {fmt:<9} {'same' if same else 'DIFFERS'}: exit {new.status}, "
                    f"{len(new.stdout):,} bytes out, {len(new.stderr):,} bytes err"
                )
                if options.keep is not None:
                    folder = options.keep / pair / fmt
                    folder.mkdir(parents=True, exist_ok=True)
                    for name, output in (("before", old), ("after", new)):
                        (folder / f"{name}.out").write_bytes(output.stdout)
                        (folder / f"{name}.err").write_bytes(output.stderr)
    runs = len(options.pairs) * len(FORMATS)
    print(f"{runs - differ} of {runs} runs byte-identical to {before}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
