"""Does `kcompat lint` print the same in two trees, byte for byte, on every input we have?

    git worktree add --detach /tmp/kc-before 19da88a
    python benchmarks/same_lint.py --before /tmp/kc-before [--after TREE] [--fuzz 400]
        [--refs 3.7.0,trunk]

For work that must leave lint's findings as they are (making the rules faster): runs
``kcompat lint`` of each tree on

- every release tag of ../shared/corpus/kafka-spec-history.bundle and trunk (cloned to a
  temp dir, each ref checked out in turn): the whole tree (``.``) in every findings format,
  with ``--report-unused-ignores --show-suppressed`` once more, and each spec directory
  alone (text and JSON);
- every lint rule page's examples (``rules/*.md``, read by ``tests/rule_docs.py``), each
  failing and passing example in a directory of its own with its ``kcompat.toml``, in every
  findings format;
- ``--fuzz N`` spec files made by the lint fuzz tests' strategies (random spec documents,
  mutated Kafka specs), twenty to a directory, in text and JSON.

Each tree runs its own sources (its directory first on PYTHONPATH, this interpreter's
dependencies) in the same working directory with the same arguments and environment
(COLUMNS=100, NO_COLOR=1, each side its own empty caches); stdout, stderr and the exit
status are compared byte for byte. It prints the count of runs compared and each
difference; exit status 0 when there are none.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from same_checks import FINDINGS_FORMATS  # noqa: E402

BUNDLE = ROOT.parent / "shared" / "corpus" / "kafka-spec-history.bundle"
ENTRY = "import sys; from kcompat.cli import run; sys.exit(run())"
FIXED_ENV = {"COLUMNS": "100", "LINES": "40", "NO_COLOR": "1", "TERM": "dumb"}
Run = tuple[Path, tuple[str, ...]]  # working directory, kcompat's arguments


def side_env(tree: Path, work: Path) -> dict[str, str]:
    """The environment one tree runs in: its sources, its own caches."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KCOMPAT_", "PYTHON"))}
    env.update(FIXED_ENV)
    env["PYTHONPATH"] = str(tree)
    env["KCOMPAT_CODE_CACHE"] = "off"
    env["XDG_CACHE_HOME"] = str(work / "xdg-cache")
    return env


def outcome(env: dict[str, str], run: Run) -> tuple[int, bytes, bytes]:
    cwd, argv = run
    done = subprocess.run(
        [sys.executable, "-c", ENTRY, *argv], cwd=cwd, env=env, capture_output=True, timeout=600
    )
    return done.returncode, done.stdout, done.stderr


def spec_directories(tree: Path) -> list[str]:
    """The directories of ``tree`` holding message specs (a file with validVersions)."""
    found = {
        str(path.parent.relative_to(tree))
        for path in tree.rglob("*.json")
        if ".git" not in path.parts and b'"validVersions"' in path.read_bytes()
    }
    return sorted(found)


def ref_runs(kafka: Path) -> Iterator[Run]:
    """What is run on one checked-out ref of Kafka."""
    for fmt in FINDINGS_FORMATS:
        yield kafka, ("lint", "--format", fmt, ".")
    yield kafka, ("lint", "--report-unused-ignores", "--show-suppressed", ".")
    for folder in spec_directories(kafka):
        for fmt in ("text", "json"):
            yield kafka, ("lint", "--format", fmt, folder)


def example_runs(temp: Path) -> Iterator[Run]:
    """Every lint rule page's examples, written out, one directory each."""
    from tests.rule_docs import all_rule_docs, parse_rule_doc

    for page in all_rule_docs():
        doc = parse_rule_doc(page)
        if doc.kind != "lint":
            continue
        for role, files in doc.examples.items():
            folder = temp / "examples" / doc.id / role
            folder.mkdir(parents=True)
            for example in files:
                (folder / example.filename).write_text(example.text, encoding="utf-8")
            for fmt in FINDINGS_FORMATS:
                yield folder, ("lint", "--format", fmt, ".")


def fuzz_runs(temp: Path, kafka: Path, count: int) -> Iterator[Run]:
    """``count`` spec files from the lint fuzz tests' strategies, twenty to a directory."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from tests.test_fuzz_lint import example_seeds, kafka_seeds, mutated, spec_documents

    seeds = [*example_seeds(), *kafka_seeds(kafka)]
    texts: list[str] = []

    @settings(max_examples=count, database=None, suppress_health_check=list(HealthCheck))
    @given(st.one_of(spec_documents(), mutated(seeds).map(lambda pair: pair[1])))
    def collect(text: str) -> None:
        texts.append(text)

    collect()
    for index, text in enumerate(texts):
        folder = temp / "fuzz" / f"{index // 20:03d}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"Spec{index}.json").write_text(text, encoding="utf-8", errors="surrogatepass")
    for folder in sorted((temp / "fuzz").iterdir()):
        for fmt in ("text", "json"):
            yield folder, ("lint", "--format", fmt, ".")


def compare(envs: tuple[dict[str, str], dict[str, str]], runs: list[Run]) -> list[str]:
    """Each run on both sides; a line per run whose outcomes differ."""
    differences = []
    with ThreadPoolExecutor(2) as pool:
        for run in runs:
            before, after = pool.map(lambda env, r=run: outcome(env, r), envs)
            if before != after:
                differences.append(f"{run[0]}: kcompat {' '.join(run[1])}: {where(before, after)}")
    return differences


def where(before: tuple[int, bytes, bytes], after: tuple[int, bytes, bytes]) -> str:
    """The exit statuses, or the first line that differs, and in which stream."""
    if before[0] != after[0]:
        return f"exit {before[0]} before, {after[0]} after"
    for name, old, new in (("stdout", before[1], after[1]), ("stderr", before[2], after[2])):
        for old_line, new_line in zip(old.splitlines(), new.splitlines(), strict=False):
            if old_line != new_line:
                return f"{name}: {old_line[:200]!r} before, {new_line[:200]!r} after"
        if old != new:
            return f"{name}: {len(old.splitlines())} lines before, {len(new.splitlines())} after"
    return "?"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, required=True, help="the tree before")
    parser.add_argument("--after", type=Path, default=ROOT, help="the tree after (this one)")
    parser.add_argument("--fuzz", type=int, default=400, help="fuzzed spec files (default 400)")
    parser.add_argument("--refs", help="only these refs (comma-separated; default every tag)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="kcompat-same-lint-") as tmp:
        temp = Path(tmp)
        kafka = temp / "kafka"
        subprocess.run(["git", "clone", "-q", str(BUNDLE), str(kafka)], check=True)
        envs = (side_env(args.before, temp / "before"), side_env(args.after, temp / "after"))
        tags = subprocess.run(
            ["git", "tag"], cwd=kafka, check=True, capture_output=True, text=True
        ).stdout.split()
        refs = args.refs.split(",") if args.refs else [*tags, "trunk"]
        total, differences = 0, []
        for ref in refs:
            subprocess.run(["git", "checkout", "-q", "--force", ref], cwd=kafka, check=True)
            runs = list(ref_runs(kafka))
            found = compare(envs, runs)
            total += len(runs)
            differences += [f"{ref}: {line}" for line in found]
            print(f"{ref}: {len(runs)} runs, {len(found)} different", flush=True)
        subprocess.run(["git", "checkout", "-q", "--force", "trunk"], cwd=kafka, check=True)
        for name, runs in (
            ("rule pages' examples", list(example_runs(temp))),
            ("fuzzed specs", list(fuzz_runs(temp, kafka, args.fuzz))),
        ):
            found = compare(envs, runs)
            total += len(runs)
            differences += found
            print(f"{name}: {len(runs)} runs, {len(found)} different", flush=True)
    print(f"{total} runs of kcompat lint compared, {len(differences)} different")
    for line in differences:
        print(f"  DIFFERENT {line}")
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
