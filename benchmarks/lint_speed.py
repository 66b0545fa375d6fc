"""How fast `kcompat lint` is against a floor and against other linters, CPU, paired in one run.

    python benchmarks/lint_speed.py [--rounds 9] [--before TREE] [--generator-classpath CP]

Clones ../shared/corpus/kafka-spec-history.bundle to a temp dir (trunk checked out), then
runs, interleaved round by round so that the machine's load falls on every figure alike:

- `kcompat --version` from a cold process: the floor every command pays (the interpreter,
  typer, the app);
- `kcompat lint .` on trunk's 258 specs from a cold process (goal: within 3x the floor),
  and `kcompat lint` of the 186 client specs alone;
- the lint of the 186 client specs in one process (the rules alone, on specs read and
  built anew; the fastest of 5), the figure the field-rule walk and the schema check move;
- with ``--before TREE`` (a checkout of an older kcompat, e.g. a ``git worktree`` at the
  commit to compare with), the same two lint figures of that tree;
- with ``--generator-classpath CP`` (Kafka's ``generator`` jar and its dependencies),
  Kafka's own generator over the same 186 client specs, which is what ``kcompat lint``
  stands in for when a spec is checked before the build (goal: lint at least 10x faster).

Each kcompat tree runs with its bytecode compiled, as an installed kcompat's is (a temp
``PYTHONPYCACHEPREFIX``, even where ``PYTHONDONTWRITEBYTECODE`` is set: see
``installed.py``). CPU is user + system of the process and its children (the JVM's threads
included), the median of the rounds, with the calibration (``benchmarks/calibration.py``)
measured in the same run.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from calibration import describe
from installed import as_installed

ROOT = Path(__file__).resolve().parent.parent

BUNDLE = ROOT.parent / "shared" / "corpus" / "kafka-spec-history.bundle"
CLIENTS = "clients/src/main/resources/common/message"
#: Kafka's generator as its build runs it for the client messages.
GENERATOR = [
    "org.apache.kafka.message.MessageGenerator",
    "-p", "org.apache.kafka.common.message",
    "-t", "ApiMessageTypeGenerator",
    "-m", "MessageDataGenerator", "JsonConverterGenerator",
]  # fmt: skip
#: What a child process runs to time the in-process lint of a folder (CPU seconds out).
IN_PROCESS = """
import sys, time
from pathlib import Path
from kcompat.lint.check import lint_specs
from kcompat.spec.specfile import read_spec
files = [(str(p), p.read_bytes()) for p in sorted(Path(sys.argv[1]).glob("*.json"))]
lint_specs([read_spec(p, d) for p, d in files])  # imports, caches of the code: warm
fastest = float("inf")
for _ in range(5):
    specs = [read_spec(p, d) for p, d in files]  # read and built anew: no memo carries over
    start = time.process_time()
    lint_specs(specs)
    fastest = min(fastest, time.process_time() - start)
print(fastest)
"""


def children_cpu(command: list[str], cwd: Path, env: dict[str, str]) -> float:
    """CPU seconds of one run of ``command`` and everything it started."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, cwd=cwd, env=env, capture_output=True, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def kcompat(tree: Path, pycache: Path) -> tuple[list[str], dict[str, str]]:
    """The command line and environment of the kcompat in ``tree``, no code cache, its
    bytecode compiled once under ``pycache`` as an installed kcompat's is."""
    env = {**os.environ, "PYTHONPATH": str(tree), "KCOMPAT_CODE_CACHE": "off"}
    code = "import sys; sys.argv[0] = 'kcompat'; from kcompat.cli import run; run()"
    return [sys.executable, "-c", code], as_installed(env, pycache)


def in_process(tree: Path, folder: Path, pycache: Path) -> float:
    env = as_installed({**os.environ, "PYTHONPATH": str(tree)}, pycache)
    done = subprocess.run(  # not run from a checkout: `-c` puts the working directory first
        [sys.executable, "-c", IN_PROCESS, str(folder)],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return float(done.stdout.strip())


def measurements(
    checkout: Path, before: Path | None, classpath: str | None, out: Path
) -> dict[str, Callable[[], float]]:
    """Each figure's measurement, by name (one call is one sample)."""
    clients = checkout / CLIENTS
    pycache = out.parent / "pycache"
    now, env = kcompat(ROOT, pycache)
    found: dict[str, Callable[[], float]] = {
        "--version": lambda: children_cpu([*now, "--version"], checkout, env),
        "lint trunk": lambda: children_cpu(
            [*now, "lint", "--fail-on", "never", "."], checkout, env
        ),
        "lint clients": lambda: children_cpu(
            [*now, "lint", "--fail-on", "never", CLIENTS], checkout, env
        ),
        "lint clients, in process": lambda: in_process(ROOT, clients, pycache),
    }
    if before is not None:
        old, old_env = kcompat(before, pycache)
        found["before: lint trunk"] = lambda: children_cpu(
            [*old, "lint", "--fail-on", "never", "."], checkout, old_env
        )
        found["before: lint clients"] = lambda: children_cpu(
            [*old, "lint", "--fail-on", "never", CLIENTS], checkout, old_env
        )
        found["before: lint clients, in process"] = lambda: in_process(before, clients, pycache)
    if classpath is not None:
        java = generator_command(classpath, clients, out)
        found["Kafka's generator, clients"] = lambda: children_cpu(java, checkout, dict(os.environ))
    return found


def generator_command(classpath: str, clients: Path, out: Path) -> list[str]:
    """Kafka's generator over ``clients`` as its build runs it, writing into ``out``."""
    java = ["java", "-cp", classpath, *GENERATOR[:1], "-i", str(clients), "-o", str(out)]
    return [*java, *GENERATOR[1:]]


def generator_problem(classpath: str, clients: Path, out: Path) -> str | None:
    """Why the generator on ``classpath`` cannot be timed, or None when it generates the
    client classes: a run that failed at once (a wrong classpath, a spec it refuses) would
    otherwise be timed as if it had done the work."""
    want = len(list(clients.glob("*.json")))
    try:
        done = subprocess.run(
            generator_command(classpath, clients, out), capture_output=True, text=True
        )
    except OSError as err:
        return f"cannot run java: {err}"
    said = f"processed {want} Kafka message JSON file"
    if done.returncode != 0 or said not in done.stdout:
        last = (done.stderr.strip() or done.stdout.strip()).splitlines()[-3:]
        return f"exit {done.returncode}, not '{said}(s)': " + " | ".join(last)
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=9, help="interleaved rounds (default 9)")
    parser.add_argument("--before", type=Path, help="a checkout of an older kcompat to pair")
    parser.add_argument("--generator-classpath", help="Kafka's generator jar and its deps")
    args = parser.parse_args()
    if not BUNDLE.is_file():
        print(f"no corpus at {BUNDLE}", file=sys.stderr)
        return 2
    print(describe())
    with tempfile.TemporaryDirectory(prefix="kcompat-lint-speed-") as tmp:
        checkout = Path(tmp) / "kafka"
        subprocess.run(["git", "clone", "-q", str(BUNDLE), str(checkout)], check=True)
        out = Path(tmp) / "gen"
        if args.generator_classpath is not None:
            problem = generator_problem(args.generator_classpath, checkout / CLIENTS, out)
            if problem is not None:
                print(f"Kafka's generator does not run: {problem}", file=sys.stderr)
                return 2
        found = measurements(checkout, args.before, args.generator_classpath, out)
        for measure in found.values():  # warm-up: the disk cache, each tree's bytecode
            measure()
        samples: dict[str, list[float]] = {name: [] for name in found}
        for _ in range(args.rounds):
            for name, measure in found.items():
                samples[name].append(measure())
    median = {name: statistics.median(values) for name, values in samples.items()}
    print(f"CPU seconds, median (min) of {args.rounds} interleaved rounds:")
    for name, values in samples.items():
        print(f"  {name:<36} {median[name]:.3f} ({min(values):.3f})")
    floor = median["lint trunk"] / median["--version"]
    print(f"lint trunk / --version: {floor:.2f}x (goal: at most 3x)")
    for figure in ("lint trunk", "lint clients", "lint clients, in process"):
        if f"before: {figure}" in median:
            gain = median[f"before: {figure}"] / median[figure]
            print(f"{figure}: {gain:.2f}x faster than --before")
    if "Kafka's generator, clients" in median:
        ratio = median["Kafka's generator, clients"] / median["lint clients"]
        print(f"Kafka's generator / lint, clients: {ratio:.1f}x (goal: at least 10x)")
    print(describe())
    return 0


if __name__ == "__main__":
    sys.exit(main())
