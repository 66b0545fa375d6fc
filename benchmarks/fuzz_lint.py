"""Long fuzzing campaign: lint's input families, and the whole diff path on mutated pairs.

    python benchmarks/fuzz_lint.py --seconds 1200 --processes 1
    python benchmarks/fuzz_lint.py --cases 20000 --processes 2 --reproducers /tmp/fuzz
    python benchmarks/fuzz_lint.py --replay /tmp/fuzz/<class>/<n>

Seeds: specs/examples and specs/examples-v2, plus every spec at Kafka's trunk (from
../shared/corpus, cloned to a temp dir; read from git objects, never copied).

Lint families (the checks of tests/test_fuzz_lint.py): random bytes, JSON-ish text,
random spec documents and mutated real specs (line ends made CR or CR LF, numbers Java
reads as Infinity or NaN among the mutations) through read_spec + lint_specs + resolve.
Diff families (tests/diff_fuzz.py): a seed against a copy changed by characters or by
structure (swap, drop, duplicate, retype, reversion, retag, rename, nest, hostile names,
hostile numbers, mixed), prepared and checked as ``kcompat diff`` does with the proof on,
then rendered in every format; findings must name the compared files, JSON/SARIF parse,
JUnit is valid XML, human formats hold nothing a terminal acts on.

Each process runs under a memory limit (``--memory-mb``) and a per-case time budget
(``--case-seconds``). A failure does not stop the run: failures are grouped by class
(exception type and where it was raised, or the promise broken), the first few of each
class saved as reproducers. Classes that other changes are fixing (KNOWN_ELSEWHERE) are
counted apart. Exit status: 0 when nothing new failed, 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import re
import resource
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hypothesis import HealthCheck, Phase, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from tests.diff_fuzz import FAMILIES, Case, Violation, check_case, make_case  # noqa: E402
from tests.test_fuzz_lint import (  # noqa: E402
    check_spec_bytes,
    example_seeds,
    jsonish_text,
    kafka_seeds,
    mutated,
    spec_documents,
)

BUNDLE = ROOT.parent / "shared" / "corpus" / "kafka-spec-history.bundle"
LINT_FAMILIES = ("random bytes", "json-ish text", "spec documents", "mutated specs")
#: Reproducers kept per failure class.
KEEP = 3


class CaseTimeout(BaseException):
    """A case ran past ``--case-seconds`` (a BaseException: no ``except Exception`` in
    the code under test swallows it)."""


#: Failure classes another change is fixing, counted apart so a long campaign can run
#: meanwhile (name -> does this failure belong to it). Empty: every defect the issue listed
#: is fixed, so any failure counts.
KNOWN_ELSEWHERE: dict[str, Callable[[Case | None, BaseException], bool]] = {}


# -- seeds -------------------------------------------------------------------------------------


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


def all_seeds(kafka: bool) -> list[tuple[str, str]]:
    seeds = example_seeds()
    seeds += [
        (f"specs/examples-v2/{path.name}", path.read_text(encoding="utf-8"))
        for path in sorted((ROOT / "specs" / "examples-v2").glob("*.json"))
    ]
    if kafka:
        with tempfile.TemporaryDirectory(prefix="kcompat-fuzz-") as tmp:
            seeds += trunk_seeds(Path(tmp))
    return seeds


# -- one worker --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Job:
    index: int
    seed: int
    seeds: list[tuple[str, str]]
    cases: int  # 0: no limit
    seconds: float  # 0: no limit
    memory_mb: int
    case_seconds: float
    lint_round: int
    diff_round: int
    samples: int
    families: str  # all, lint or diff
    reproducers: str


@dataclass
class Tally:
    """What a worker ran and what failed (merged across workers at the end)."""

    families: Counter[str] = field(default_factory=Counter)
    busy: dict[str, float] = field(default_factory=dict)  # seconds spent per family
    failures: Counter[str] = field(default_factory=Counter)
    known: Counter[str] = field(default_factory=Counter)
    saved: dict[str, list[str]] = field(default_factory=dict)
    findings: int = 0
    seconds: float = 0.0

    def merge(self, other: Tally) -> None:
        self.families.update(other.families)
        for name, seconds in other.busy.items():
            self.busy[name] = self.busy.get(name, 0.0) + seconds
        self.failures.update(other.failures)
        self.known.update(other.known)
        for key, paths in other.saved.items():
            self.saved.setdefault(key, []).extend(paths)
        self.findings += other.findings
        self.seconds = max(self.seconds, other.seconds)


@contextmanager
def time_budget(seconds: float) -> Iterator[None]:
    """Raise :class:`CaseTimeout` in the body after ``seconds`` of wall time."""

    def expire(_signum: int, _frame: object) -> None:
        raise CaseTimeout(f"over {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def failure_class(err: BaseException) -> str:
    """A failure's class: the promise broken, or the exception type and where in kcompat
    it was raised."""
    if isinstance(err, Violation):
        return f"Violation: {err.kind}"
    frames = [f for f in traceback.extract_tb(err.__traceback__) if "/kcompat/" in f.filename]
    where = ""
    if frames:
        last = frames[-1]
        where = f" at {last.filename.split('/kcompat/')[-1]}:{last.lineno} ({last.name})"
    return f"{type(err).__name__}{where}"


def known_class(case: Case | None, err: BaseException) -> str:
    for name, applies in KNOWN_ELSEWHERE.items():
        if applies(case, err):
            return name
    return ""


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-")[:80]


class Runner:
    """Runs cases, counting each and recording failures without stopping."""

    def __init__(self, job: Job, workdir: Path) -> None:
        self.job, self.workdir, self.tally = job, workdir, Tally()

    def run(self, family: str, body: Callable[[], int], case: Case | None, data: bytes) -> None:
        self.tally.families[family] += 1
        started = time.monotonic()
        try:
            with time_budget(self.job.case_seconds):
                self.tally.findings += body()
        except (Exception, CaseTimeout) as err:
            known = known_class(case, err)
            key = known or failure_class(err)
            (self.tally.known if known else self.tally.failures)[key] += 1
            saved = self.tally.saved.setdefault(key, [])
            if len(saved) < KEEP:
                saved.append(self.save(key, family, case, data, err))
        finally:
            spent = time.monotonic() - started
            self.tally.busy[family] = self.tally.busy.get(family, 0.0) + spent

    def save(
        self, key: str, family: str, case: Case | None, data: bytes, err: BaseException
    ) -> str:
        """The case's files, what it was and the traceback, in a fresh directory."""
        root = Path(self.job.reproducers) / _slug(key)
        root.mkdir(parents=True, exist_ok=True)
        target = Path(tempfile.mkdtemp(dir=root, prefix=f"w{self.job.index}-"))
        about: dict[str, Any] = {"class": key, "family": family}
        if case is not None:
            about |= {"kind": "diff", **case.to_json()}
            (target / "base").mkdir()
            (target / "head").mkdir()
            (target / "base" / case.base_name.replace("\x00", "")).write_bytes(case.base)
            (target / "head" / case.head_name.replace("\x00", "")).write_bytes(case.head)
        else:
            about["kind"] = "lint"
            (target / "input.json").write_bytes(data)
        (target / "case.json").write_text(json.dumps(about, indent=2) + "\n", encoding="utf-8")
        trace = "".join(traceback.format_exception(err))
        (target / "traceback.txt").write_text(trace, encoding="utf-8", errors="replace")
        return str(target)


def lint_tests(runner: Runner) -> dict[str, Callable[[], None]]:
    """One hypothesis test per lint family; each records its failures and goes on."""
    seeds = runner.job.seeds

    def record(family: str, data: bytes, path: str | None = None) -> None:
        def body() -> int:
            return len(check_spec_bytes(data, path) if path else check_spec_bytes(data))

        runner.run(family, body, None, data)

    def random_bytes(data: bytes) -> None:
        record("random bytes", data)

    def jsonish(text: str) -> None:
        record("json-ish text", text.encode("utf-8", errors="surrogatepass"))

    def documents(text: str) -> None:
        record("spec documents", text.encode())

    def mutations(case: tuple[str, str]) -> None:
        record("mutated specs", case[1].encode("utf-8", errors="surrogatepass"), case[0])

    round_settings = settings(
        max_examples=runner.job.lint_round,
        deadline=None,
        database=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    tests = {
        "random bytes": given(st.binary(max_size=2000))(random_bytes),
        "json-ish text": given(jsonish_text())(jsonish),
        "spec documents": given(spec_documents())(documents),
        "mutated specs": given(mutated(seeds))(mutations),
    }
    return {name: round_settings(test) for name, test in tests.items()}


def work(job: Job) -> Tally:
    """One process's share of the campaign."""
    limit = job.memory_mb << 20
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    rng = random.Random(job.seed)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="kcompat-fuzz-work-") as tmp:
        runner = Runner(job, Path(tmp))
        lint = lint_tests(runner) if job.families in ("all", "lint") else {}
        diff = FAMILIES if job.families in ("all", "diff") else ()
        reported = started
        while not _done(job, runner.tally, started):
            for test in lint.values():
                test()
            for number in range(job.diff_round if diff else 0):
                case = make_case(rng, job.seeds, diff[number % len(diff)])
                body = partial(check_case, case, Path(tmp), samples=job.samples)
                runner.run(f"diff {case.family}", body, case, b"")
            if time.monotonic() - reported > 60:
                reported = time.monotonic()
                done = sum(runner.tally.families.values())
                failed = sum(runner.tally.failures.values())
                print(f"  worker {job.index}: {done} cases, {failed} failures", file=sys.stderr)
        runner.tally.seconds = time.monotonic() - started
        return runner.tally


def _done(job: Job, tally: Tally, started: float) -> bool:
    if job.cases and sum(tally.families.values()) >= job.cases:
        return True
    return bool(job.seconds) and time.monotonic() - started >= job.seconds


# -- replay ------------------------------------------------------------------------------------


def replay(directory: Path) -> int:
    """Run a saved reproducer again, letting its exception through."""
    about = json.loads((directory / "case.json").read_text(encoding="utf-8"))
    print(f"replaying {about['class']} ({about['family']})")
    if about["kind"] == "lint":
        check_spec_bytes((directory / "input.json").read_bytes())
    else:
        base = next((directory / "base").iterdir())
        head = next((directory / "head").iterdir())
        case = Case(
            about["family"],
            tuple(about["edits"]),
            base.name,
            base.read_bytes(),
            head.name,
            head.read_bytes(),
        )
        with tempfile.TemporaryDirectory(prefix="kcompat-replay-") as tmp:
            check_case(case, Path(tmp))
    print("no failure")
    return 0


# -- the campaign ------------------------------------------------------------------------------


def report(tally: Tally, processes: int, reproducers: str) -> int:
    total = sum(tally.families.values())
    elapsed = max(tally.seconds, 1e-9)
    print(
        f"{total} cases in {elapsed:.0f} s on {processes} process(es): {total / elapsed:.1f}/s, "
        f"{total / elapsed / processes:.1f}/s per core; {tally.findings} findings"
    )
    print("cases per family (and per second of that family's own time, on one core):")
    for name in (*LINT_FAMILIES, *(f"diff {f}" for f in FAMILIES)):
        if tally.families[name]:
            rate = tally.families[name] / max(tally.busy.get(name, 0.0), 1e-9)
            print(f"  {name:20} {tally.families[name]:8}  {rate:8.1f}/s")
    if tally.known:
        print("known elsewhere (counted, not failures):")
        for name, count in tally.known.most_common():
            print(f"  {count:6}  {name}")
            for path in tally.saved.get(name, [])[:1]:
                print(f"          python benchmarks/fuzz_lint.py --replay {path}")
    if not tally.failures:
        print("no failure")
        return 0
    print(f"failures by class (reproducers in {reproducers}):")
    for key, count in tally.failures.most_common():
        print(f"  {count:6}  {key}")
        for path in tally.saved.get(key, [])[:1]:
            print(f"          python benchmarks/fuzz_lint.py --replay {path}")
    return 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=0, help="stop after this long")
    parser.add_argument("--cases", type=int, default=0, help="stop after this many cases")
    parser.add_argument("--processes", type=int, default=1, help="worker processes")
    parser.add_argument("--memory-mb", type=int, default=4096, help="address space per worker")
    parser.add_argument("--case-seconds", type=float, default=20.0, help="time budget per case")
    parser.add_argument("--round", type=int, default=100, help="lint examples per family per round")
    parser.add_argument("--diff-round", type=int, default=44, help="diff cases per round")
    parser.add_argument("--samples", type=int, default=6, help="proof samples per version")
    parser.add_argument("--families", choices=("all", "lint", "diff"), default="all")
    parser.add_argument("--seed", type=int, default=None, help="random seed (default: random)")
    parser.add_argument("--no-kafka", action="store_true", help="the examples only")
    parser.add_argument("--reproducers", default="", help="where failing cases are saved")
    parser.add_argument("--replay", type=Path, default=None, help="rerun a saved reproducer")
    args = parser.parse_args()
    if args.replay is not None:
        return replay(args.replay)
    seconds = args.seconds if args.seconds or args.cases else 60.0
    seed = args.seed if args.seed is not None else random.randrange(1 << 32)
    reproducers = args.reproducers or tempfile.mkdtemp(prefix="kcompat-fuzz-failures-")
    seeds = all_seeds(not args.no_kafka)
    print(
        f"{len(seeds)} seed specs; seed {seed}; {args.processes} process(es), "
        f"{args.memory_mb} MB each, {args.case_seconds:g} s per case"
    )
    share = -(-args.cases // args.processes) if args.cases else 0
    jobs = [
        Job(
            index,
            seed + index,
            seeds,
            share,
            seconds,
            args.memory_mb,
            args.case_seconds,
            args.round,
            args.diff_round,
            args.samples,
            args.families,
            reproducers,
        )
        for index in range(args.processes)
    ]
    os.environ.setdefault("KCOMPAT_SPARK_CDS", "off")
    context = multiprocessing.get_context("fork")
    with context.Pool(args.processes) as pool:
        tallies = pool.map(work, jobs)
    tally = Tally()
    for part in tallies:
        tally.merge(part)
    return report(tally, args.processes, reproducers)


if __name__ == "__main__":
    sys.exit(main())
