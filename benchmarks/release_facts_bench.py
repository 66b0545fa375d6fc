"""What release facts cost a diff, on a repository of 1,000 release tags and on Kafka's.

    python benchmarks/release_facts_bench.py [--runs 3] [--tags 1000] [--json out.json]

A diff in a repository with release tags reads what every release shipped of the
messages it compares (``--released tags``, the default where there are tags); with
``--released base`` it reads no release at all. Issue 31 measured 23 s against 0.24 s
(95x) for a diff between two releases of a product with about 650 ``vX.Y.Z`` tags over
450,000 git objects. Goals: the release facts cost at most 5x the diff itself (tags
against base, CPU), and a pull request's CI run there (``diff main HEAD --merge-base``
after one spec change) at most 2 s of CPU.

1. Builds a synthetic repository (benchmarks/synthetic_releases.py): ``--tags`` release
   tags on ``X.Y`` branches (20 of them cut before the specs came), snake_case specs
   among thousands of other files, API-doc ``.json`` templates that do not parse.
2. Clones Kafka's spec history bundle (43 release tags, 2.2.0 to 3.8.0) and adds 11 tags
   0.8.0 to 2.1.1 on a commit without specs, as a full clone of apache/kafka has them.
3. In each: ``diff OLDER NEWER`` between two adjacent releases with ``--released tags``
   and ``--released base`` (proof on, as by default), and a pull request: a branch of
   ``main`` (Kafka: trunk) that retypes one field, ``diff main pr --merge-base``. Each
   from a cold process, CPU of the process and its git children; release facts both
   cold (an empty disk cache, as a fresh CI runner has) and warm (the user's cache
   filled by an earlier run). Median of ``--runs``, after one warm-up run.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from calibration import describe
from child import ENTRY, children_cpu
from installed import as_installed
from kafka_bundle import BUNDLE, clone_kafka
from synthetic_releases import build

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.full_clone import tag_before_specs  # noqa: E402

FACTS_GOAL, CI_GOAL = 5.0, 2.0


def git(repo: Path, *args: str) -> str:
    env = {
        "GIT_AUTHOR_NAME": "bench",
        "GIT_AUTHOR_EMAIL": "bench@example.invalid",
        "GIT_COMMITTER_NAME": "bench",
        "GIT_COMMITTER_EMAIL": "bench@example.invalid",
        "PATH": "/usr/bin:/bin:/usr/local/bin",
    }
    done = subprocess.run(["git", *args], cwd=repo, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"git {' '.join(args)}: {done.stderr}")
    return done.stdout


def pull_request(repo: Path, trunk: str, spec: str, old: str, new: str) -> None:
    """A branch ``pr`` of ``trunk`` with one spec edit committed."""
    git(repo, "checkout", "-q", "-b", "pr", trunk)
    path = repo / spec
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{spec} has no {old!r}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    git(repo, "commit", "-q", "-am", "one spec edit")


def synthetic(where: Path, tags: int) -> tuple[Path, list[str], list[str]]:
    made = build(where / "product", tags=tags)
    repo = made.path
    spec = made.spec_paths[0]
    pull_request(repo, "main", spec, '"type": "int32"', '"type": "int64"')
    newest = [t for t in made.tags if t.endswith(".0")][-2:]
    return repo, newest, ["main", "pr"]


def kafka(where: Path) -> tuple[Path, list[str], list[str]]:
    repo = where / "kafka"
    clone_kafka(repo)
    tag_before_specs(repo)  # apache/kafka's tags before the JSON specs
    spec = "clients/src/main/resources/common/message/FetchRequest.json"
    old = '"name": "MaxWaitMs", "type": "int32"'
    pull_request(repo, "trunk", spec, old, old.replace("int32", "int64"))
    return repo, ["3.7.0", "3.8.0"], ["trunk", "pr"]


def runs_of(
    repo: Path, args: list[str], runs: int, env: dict[str, str], cache: Path, cold: bool
) -> tuple[float, str]:
    """Median CPU seconds of ``runs`` cold processes (after one warm-up), and the output's
    summary line. ``cold``: the disk cache emptied before each run."""
    command = [sys.executable, "-c", ENTRY, "diff", *args, "--fail-on", "never"]
    cpus: list[float] = []
    last = ""
    for index in range(runs + 1):
        if cold:
            subprocess.run(["rm", "-rf", str(cache)], check=True)
        spent = children_cpu()
        done = subprocess.run(
            command, cwd=repo, env={**env, "KCOMPAT_CODE_CACHE": str(cache)}, capture_output=True,
            text=True, check=True,
        )  # fmt: skip
        if index:
            cpus.append(children_cpu() - spent)
        lines = [line for line in done.stdout.splitlines() if line.startswith("Released:")]
        last = lines[-1] if lines else last
    return statistics.median(cpus), last


def measure(
    name: str, repo: Path, releases: list[str], pr: list[str], runs: int, env: dict[str, str]
) -> dict[str, Any]:
    cache = repo.parent / f"{name}-cache"
    codes = repo.parent / f"{name}-codes"
    row: dict[str, Any] = {"repository": name}
    base, _ = runs_of(repo, [*releases, "--released", "base"], runs, env, codes, cold=False)
    row["diff --released base"] = base
    for label, cold in (("warm", False), ("cold", True)):
        spent, said = runs_of(repo, releases, runs, env, cache, cold)
        row[f"diff --released tags ({label})"] = spent
        row[f"facts / diff ({label})"] = (spent - base) / base
        row["released"] = said
    for label, cold in (("warm", False), ("cold", True)):
        spent, _ = runs_of(repo, [*pr, "--merge-base"], runs, env, cache, cold)
        row[f"pull request ({label})"] = spent
    return row


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--tags", type=int, default=1000)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    print(describe())
    rows = []
    with tempfile.TemporaryDirectory(prefix="kcompat-release-facts-") as temp:
        where = Path(temp)
        env = as_installed(
            {"PATH": "/usr/bin:/bin:/usr/local/bin", "PYTHONPATH": str(ROOT), "NO_COLOR": "1"},
            where / "pycache",
        )
        started = time.perf_counter()
        repo, releases, pr = synthetic(where, args.tags)
        counted = git(repo, "count-objects", "-v").splitlines()
        objects = next(line.split()[1] for line in counted if line.startswith("in-pack"))
        tags = len(git(repo, "tag").split())
        took = time.perf_counter() - started
        print(f"synthetic repository built in {took:.0f} s: {tags} tags, {objects} objects")
        rows.append(measure(f"synthetic ({args.tags} tags)", repo, releases, pr, args.runs, env))
        if BUNDLE.is_file():
            repo, releases, pr = kafka(where)
            name = "Kafka (54 tags, 11 without specs)"
            rows.append(measure(name, repo, releases, pr, args.runs, env))
    for row in rows:
        print(f"\n{row['repository']}: {row['released']}")
        for key, value in row.items():
            if isinstance(value, float):
                shown = f"{value:.2f}x" if key.startswith("facts") else f"{value:.2f} s CPU"
                print(f"  {key:36} {shown}")
        ok_facts = max(row["facts / diff (warm)"], row["facts / diff (cold)"]) <= FACTS_GOAL
        ok_ci = max(row["pull request (warm)"], row["pull request (cold)"]) <= CI_GOAL
        print(f"  goals: facts <= {FACTS_GOAL:.0f}x diff: {'met' if ok_facts else 'MISSED'}; "
              f"pull request <= {CI_GOAL:.0f} s CPU: {'met' if ok_ci else 'MISSED'}")  # fmt: skip
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
