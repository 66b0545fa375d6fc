"""What the user's disk cache saves the pre-commit hook, measured in pairs on a busy machine.

    python benchmarks/cache_bench.py [--rounds 25] [--against PATH]

The pre-commit scenario of `diff_bench.py` (Kafka's history, one staged change to
MetadataResponse, `kcompat diff --staged`), run from cold processes with the cache warm
(`KCOMPAT_CODE_CACHE` a directory the warm-up filled; or unset, the platform's cache
directory under a temporary `XDG_CACHE_HOME`, as most users run it) and turned off
(`off`: a hook's very first run). A shared machine's load moves each figure by tens of
milliseconds from one minute to the next, so the variants are not measured one after the
other but in rounds: each round runs every variant once, in turn, and a figure is the
median over the rounds of CPU time (the process and its git children). `--against PATH`
adds the same variants for another checkout of kcompat (say, the main branch exported
with `git archive`), so that a change is compared with its base under the same load.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from calibration import describe
from child import ENTRY
from diff_bench import BUNDLE, ROOT, prepare
from installed import as_installed


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _run(tree: Path, checkout: Path, cache: str, pycache: Path) -> float:
    """CPU seconds of one cold ``kcompat diff --staged`` of ``tree``'s kcompat."""
    env = {**os.environ, "PYTHONPATH": str(tree), "NO_COLOR": "1", "KCOMPAT_CODE_CACHE": cache}
    if cache.startswith("default:"):  # the platform's cache directory, under a home of its own
        env["KCOMPAT_CODE_CACHE"] = ""
        env["XDG_CACHE_HOME"] = cache.removeprefix("default:")
    env = as_installed(env, pycache)
    command = [sys.executable, "-c", ENTRY, "diff", "--staged", "--fail-on", "never"]
    before = _cpu()
    subprocess.run(command, cwd=checkout, env=env, capture_output=True, check=True)
    return _cpu() - before


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=25, help="rounds (default 25)")
    parser.add_argument("--against", type=Path, help="another kcompat checkout to pair with")
    args = parser.parse_args()
    if not BUNDLE.is_file():
        print(f"no corpus at {BUNDLE}", file=sys.stderr)
        return 2
    trees = {"this tree": ROOT, **({"against": args.against.resolve()} if args.against else {})}
    before = describe()
    with tempfile.TemporaryDirectory(prefix="kcompat-cache-bench-") as temp:
        checkout = Path(temp) / "kafka"
        prepare(checkout)
        variants: dict[str, tuple[Path, str, Path]] = {}
        for label, tree in trees.items():
            warm = str(Path(temp) / f"cache-{len(variants)}")
            pycache = Path(temp) / f"pycache-{len(variants)}"
            default = f"default:{temp}/xdg-{len(variants)}"
            _run(tree, checkout, warm, pycache)  # fills the cache and the bytecode
            _run(tree, checkout, default, pycache)
            variants[f"{label}, cache warm"] = (tree, warm, pycache)
            variants[f"{label}, cache warm (default place)"] = (tree, default, pycache)
            variants[f"{label}, cache off"] = (tree, "off", pycache)
        times: dict[str, list[float]] = {name: [] for name in variants}
        for _round in range(args.rounds):
            for name, (tree, cache, pycache) in variants.items():
                times[name].append(_run(tree, checkout, cache, pycache))
    width = max(len(name) for name in times)
    print(f"{'variant':<{width}}  cpu median  cpu min")
    for name, cpus in times.items():
        print(f"{name:<{width}}  {statistics.median(cpus):8.3f} s  {min(cpus):.3f} s")
    for label in trees:
        saved = [
            off - warm
            for warm, off in zip(
                times[f"{label}, cache warm"], times[f"{label}, cache off"], strict=True
            )
        ]
        print(
            f"{label}: the cache saves {statistics.median(saved) * 1000:.0f} ms (median of pairs)"
        )
    print(f"({args.rounds} rounds; {before} (before the runs); {describe()} (after))")
    return 0


if __name__ == "__main__":
    sys.exit(main())
