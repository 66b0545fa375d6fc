"""Does kcompat behave the same in two trees, byte for byte? (issue 26's restructuring)

    git worktree add --detach /tmp/kc-before a10f535   # main before the restructuring
    git worktree add --detach /tmp/kc-after 3be960a    # the merge that brought it
    python benchmarks/same_behaviour.py --before /tmp/kc-before --after /tmp/kc-after
        [--only help,rules,...] [--skip spark] [--bundle PATH]

Each tree runs its own sources: its directory first on PYTHONPATH, with this
interpreter's installed dependencies; the script prints where each side's ``kcompat``
was imported from and stops if it is not that tree. Every check (``same_checks.py``:
every ``--help``, ``kcompat rules`` and every rule's page, the mutation table, ``diff``
on Kafka release pairs and trunk commits, ``lint``, ``explain``, ``changelog``,
``matrix``, ``drift``, ``encode``/``decode``, usage errors, and the Spark jobs when Java is there)
runs once per tree with the same arguments, standard input, working directory and
environment (COLUMNS=100, NO_COLOR=1, TERM=dumb, each side's own empty disk cache), on
one clone of ../shared/corpus/kafka-spec-history.bundle in a temp dir. stdout, stderr,
the exit status and any file the check writes are compared byte for byte; one line per
check says same or DIFFERENT, the exit status and the lines of stdout + stderr (of the
before side: what the check exercised), and a difference shows its first differing lines. A
check that differs is run again on both sides: if a side's own two runs differ, it is
marked unstable (the output is not deterministic), not a difference of the trees.

Normalised, and only this, because it must differ between two runs or two trees:
- each tree's absolute path (and its resolved form) becomes ``<tree>``, and each side's
  own working directory (where the Spark jobs write) ``<side>``: the two sides live in
  different directories;
- for the Spark jobs only (``timed``): the durations they report ("... in 16.4 s", "135
  rows/s", ``"seconds"`` and the stage times of ``"timings"`` in summary.json and the
  JSON output, the HTML report's audit time), which are wall-clock times, and the
  random name of the output directory a job makes when given no ``--out``.

One kind of difference is told apart, not hidden: a rule page says where the rule is
implemented (``kcompat/rules/lint/names.py:37``), and moving code moves that pointer. A
check whose outputs are equal once those pointers are masked, and whose pointers each land
on a definition (``def``, a decorator) in their own tree, is "moved" and shows both.

Exit status: 0 when every check is the same (or moved), 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import same_checks
from kafka_bundle import clone_kafka
from same_checks import Check

ROOT = Path(__file__).resolve().parent.parent
BUNDLE = ROOT.parent / "shared" / "corpus" / "kafka-spec-history.bundle"
ENTRY = "import sys; from kcompat.cli import run; sys.exit(run())"
#: Runs a tree's benchmark script with the corpus bundle handed in (the script looks for
#: it beside its own tree, which a temp worktree does not have).
SCRIPT_ENTRY = """
import importlib.util, sys
from pathlib import Path
path, bundle = sys.argv[1], sys.argv[2]
sys.argv = [path, *sys.argv[3:]]
spec = importlib.util.spec_from_file_location("benchmark", path)
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
module.BUNDLE = Path(bundle)
module.main()
"""
#: Lists each command path and nothing else (``corpus build`` for subcommands).
COMMANDS_ENTRY = """
from kcompat.app import app
from kcompat.commands import register_all
import typer.main
register_all()
def walk(command, path):
    for name, sub in getattr(command, "commands", {}).items():
        print(" ".join([*path, name]))
        walk(sub, [*path, name])
walk(typer.main.get_command(app), [])
"""
FIXED_ENV = {"COLUMNS": "100", "LINES": "40", "NO_COLOR": "1", "TERM": "dumb"}
#: Set by the caller's environment, they would change what either side prints.
DROPPED_ENV = ("PYTHONPATH", "FORCE_COLOR", "CLICOLOR_FORCE", "PYTHONSTARTUP")
#: What a Spark job says of its own wall-clock time: "in 16.4 s", "16.42 s" (the HTML
#: report's audit time), "135 rows/s", ``"seconds": 16.42`` and the stages' times in
#: ``"timings"`` (floats; its ``"workers"`` count is an int, and kept).
DURATIONS = (
    (re.compile(rb"\b\d+(?:\.\d+)? s\b"), b"<t> s"),
    (re.compile(rb"\b\d+ rows/s\b"), b"<n> rows/s"),
    (re.compile(rb'"seconds": ?\d+(?:\.\d+)?'), b'"seconds": <t>'),
)
#: The directory a Spark job makes for its output when not given ``--out`` (tempfile's
#: random name, under the side's own TMPDIR).
RANDOM_OUT = re.compile(rb"/kcompat-([a-z]+)-[a-z0-9_]{8}\b")
TIMINGS = re.compile(rb'"timings": \{[^}]*\}')
FLOAT = re.compile(rb"\d+\.\d+")
#: A rule page's pointer to the code that implements the rule: ``Implemented in
#: `PATH:LINE` (MODULE)`` in its text and Markdown, ``"implemented_in": "PATH:LINE"`` in
#: JSON. It moves with the code, so a restructuring that moves code moves it.
IMPLEMENTED_IN = re.compile(
    rb'(?:Implemented in `|"implemented_in": ")([\w/.]+\.py:\d+)(?:` \(([\w.]+)\)|")'
)
EDITED_FILE = f"{same_checks.MESSAGES}/MetadataResponse.json"
UNSTAGED_FILE = f"{same_checks.MESSAGES}/FetchRequest.json"


@dataclass(frozen=True)
class Side:
    """One tree: its sources, its own working directory, and the environment it runs in."""

    name: str
    tree: Path
    work: Path
    env: dict[str, str]

    def command(self, check: Check, bundle: Path) -> list[str]:
        if check.script:
            script = str(self.tree / check.script)
            return [sys.executable, "-c", SCRIPT_ENTRY, script, str(bundle), *check.argv]
        return [sys.executable, "-c", ENTRY, *check.argv]

    def normalise(self, data: bytes, timed: bool) -> bytes:
        for path, shown in ((self.work, b"<side>"), (self.tree, b"<tree>")):
            for form in {str(path), str(path.resolve())}:
                data = data.replace(form.encode(), shown)
        if timed:
            for pattern, shown in DURATIONS:
                data = pattern.sub(shown, data)
            data = TIMINGS.sub(lambda block: FLOAT.sub(b"<t>", block[0]), data)
            data = RANDOM_OUT.sub(rb"/kcompat-\1-<random>", data)
        return data


@dataclass(frozen=True)
class Outcome:
    """What one run produced: its exit status and every compared stream, normalised."""

    status: int
    streams: tuple[tuple[str, bytes], ...]


def make_side(name: str, tree: Path, temp: Path) -> Side:
    work = temp / name
    work.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in DROPPED_ENV}
    env = {k: v for k, v in env.items() if not k.startswith("KCOMPAT_")}
    env.update(FIXED_ENV)
    env["PYTHONPATH"] = str(tree)
    env["KCOMPAT_CODE_CACHE"] = str(work / "cache")  # never the user's cache
    env["KCOMPAT_SPARK_CDS"] = "off"
    env["XDG_CACHE_HOME"] = str(work / "xdg-cache")
    env["TMPDIR"] = str(work / "tmp")  # what a run leaves there goes with the temp dir
    (work / "tmp").mkdir()
    side = Side(name, tree.resolve(), work, env)
    where = subprocess.run(
        [sys.executable, "-c", "import kcompat; print(kcompat.__file__)"],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    if not Path(where).resolve().is_relative_to(side.tree):
        raise SystemExit(f"{name}: kcompat is imported from {where}, not from {side.tree}")
    head = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=side.tree, capture_output=True, text=True
    )
    commit = f"at {head.stdout.strip()}" if head.returncode == 0 else "(not a git checkout)"
    print(f"{name}: {side.tree} {commit}: kcompat imported from {where}", flush=True)
    return side


def git_out(cwd: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True)
    return done.stdout


def prepare_inputs(temp: Path, bundle: Path, before: Path) -> None:
    """The clone (trunk, every release branch and tag), an edited clone, the release
    directories and the configuration files: the same inputs for both sides."""
    kafka = temp / "kafka"
    clone_kafka(kafka, bundle)
    edited = temp / "edited"
    subprocess.run(["git", "clone", "-q", str(bundle), str(edited)], check=True)
    staged = edited / EDITED_FILE  # ClusterId loses its nullability in version 2 (a break)
    old = '"name": "ClusterId", "type": "string", "nullableVersions": "2+"'
    staged.write_text(staged.read_text().replace(old, old.replace("2+", "3+")))
    subprocess.run(["git", "add", EDITED_FILE], cwd=edited, check=True)
    unstaged = edited / UNSTAGED_FILE  # and, not staged, a version added
    text = unstaged.read_text()
    unstaged.write_text(re.sub(r'"validVersions": "(\d+)-(\d+)"', _one_more, text, count=1))
    for release in ("3.7.0", "3.8.0"):
        target = temp / "dirs" / release
        target.mkdir(parents=True)
        archive = subprocess.run(
            ["git", "archive", release, same_checks.MESSAGES],
            cwd=kafka,
            check=True,
            capture_output=True,
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(target)], input=archive, check=True)
    for name, text in same_checks.CONFIGS.items():
        (temp / name).write_text(text)
    shutil.copyfile(before / "examples" / "kafka.toml", temp / "examples-kafka.toml")


def _one_more(match: re.Match[str]) -> str:
    return f'"validVersions": "{match[1]}-{int(match[2]) + 1}"'


def run(side: Side, check: Check, temp: Path, bundle: Path) -> Outcome:
    cwd = side.work if check.cwd == "side" else temp / check.cwd if check.cwd != "temp" else temp
    done = subprocess.run(
        side.command(check, bundle),
        cwd=cwd,
        env={**side.env, **dict(check.env)},
        input=check.stdin,
        capture_output=True,
        timeout=1800,
    )
    streams = [("stdout", done.stdout), ("stderr", done.stderr)]
    for name in check.files:
        streams += written(cwd, name)
    normalised = tuple((name, side.normalise(data, check.timed)) for name, data in streams)
    return Outcome(done.returncode, normalised)


def written(cwd: Path, name: str) -> list[tuple[str, bytes]]:
    """A file the check writes; for ``dir/``, the names of the files under it (but Spark's
    Parquet parts and their checksums: random names) and each one's bytes."""
    if not name.endswith("/"):
        path = cwd / name
        return [(name, path.read_bytes() if path.is_file() else b"<not written>")]
    files = sorted(
        path
        for path in (cwd / name).rglob("*")
        if path.is_file() and not path.name.endswith((".parquet", ".crc", "_SUCCESS"))
    )
    names = "".join(f"{path.relative_to(cwd)}\n" for path in files).encode()
    return [(f"{name} (files)", names), *((str(p.relative_to(cwd)), p.read_bytes()) for p in files)]


def differences(before: Outcome, after: Outcome) -> list[str]:
    """Where the two outcomes part: the exit status, and each stream's first differing line."""
    found = []
    if before.status != after.status:
        found.append(f"exit status: before {before.status}, after {after.status}")
    old_streams, new_streams = dict(before.streams), dict(after.streams)
    for name in dict.fromkeys([*old_streams, *new_streams]):
        old, new = old_streams.get(name, b"<not written>"), new_streams.get(name, b"<not written>")
        if old != new:
            found.append(first_difference(name, old, new))
    return found


def first_difference(name: str, old: bytes, new: bytes) -> str:
    old_lines, new_lines = old.splitlines(keepends=True), new.splitlines(keepends=True)
    index = next(
        (i for i, (a, b) in enumerate(zip(old_lines, new_lines, strict=False)) if a != b),
        min(len(old_lines), len(new_lines)),
    )
    shown = [f"{name} line {index + 1} ({len(old_lines)} lines before, {len(new_lines)} after):"]
    for label, lines in (("before", old_lines), ("after ", new_lines)):
        for line in lines[index : index + 2] or [b"<end>"]:
            shown.append(f"    {label}: {_clip(line)}")
    return "\n  ".join(shown)


def _clip(line: bytes, width: int = 160) -> str:
    text = repr(line.decode("utf-8", "backslashreplace"))
    return text if len(text) <= width else text[: width - 3] + "..."


def discover(sides: Iterable[Side], temp: Path) -> tuple[list[str], list[str], list[str]]:
    """The union over both trees of their commands and rule IDs; the last two commits on
    trunk that change one of Kafka's message specs."""
    commands: dict[str, None] = {}
    rule_ids: set[str] = set()
    for side in sides:
        listing = side_out(side, side.work, "-c", COMMANDS_ENTRY)
        commands.update(dict.fromkeys(listing.splitlines()))
        rules = side_out(side, temp / "kafka", "-c", ENTRY, "rules", "--format", "json")
        rule_ids.update(_rule_ids(json.loads(rules)))
    trunk = git_out(
        temp / "kafka", "log", "-n", "2", "--format=%h", "trunk", "--", same_checks.MESSAGES
    )
    return list(commands), sorted(rule_ids), trunk.split()


def side_out(side: Side, cwd: Path, *args: str) -> str:
    """What this interpreter prints with the side's environment (a listing: it must work)."""
    done = subprocess.run(
        [sys.executable, *args], cwd=cwd, env=side.env, capture_output=True, text=True, check=True
    )
    return done.stdout


def _rule_ids(listing: list[dict[str, str]]) -> Iterator[str]:
    return (row["id"] for row in listing)


def all_checks(
    groups: set[str], commands: list[str], rule_ids: list[str], trunk: list[str]
) -> list[Check]:
    """Every check of the chosen groups, in the order they run."""
    made: dict[str, Iterable[Check]] = {
        "help": same_checks.help_checks(commands),
        "rules": same_checks.rules_checks(rule_ids),
        "mutations": same_checks.mutation_checks(),
        "diff": same_checks.diff_checks(trunk),
        "lint": same_checks.lint_checks(),
        "explain": same_checks.explain_checks(),
        "changelog": same_checks.changelog_checks(),
        "matrix": same_checks.matrix_checks(),
        "drift": same_checks.drift_checks(),
        "codec": same_checks.codec_checks(),
        "edges": same_checks.edge_checks(),
        "complete": same_checks.completion_checks(),
        "spark": same_checks.spark_checks(),
    }
    assert list(made) == list(GROUPS), "GROUPS names every group, in order"
    unknown = groups - set(made)
    if unknown:
        raise SystemExit(f"no such group: {', '.join(sorted(unknown))} (groups: {', '.join(made)})")
    return [check for group, checks in made.items() if group in groups for check in checks]


GROUPS = (
    "help",
    "rules",
    "mutations",
    "diff",
    "lint",
    "explain",
    "changelog",
    "matrix",
    "drift",
    "codec",
    "edges",
    "complete",
    "spark",
)


def compare(
    sides: tuple[Side, Side], check: Check, temp: Path, bundle: Path
) -> tuple[str, Outcome, list[str]]:
    """The verdict, the before side's outcome, and what differs. Both sides run at once
    (two processes); a difference is run again to tell an unstable output from a
    difference of the trees."""
    with ThreadPoolExecutor(2) as pool:
        before, after = pool.map(lambda side: run(side, check, temp, bundle), sides)
        found = differences(before, after)
        if not found:
            return "same", before, []
        again_before, again_after = pool.map(lambda side: run(side, check, temp, bundle), sides)
    firsts, seconds = (before, after), (again_before, again_after)
    unstable = [
        side.name
        for side, first, second in zip(sides, firsts, seconds, strict=True)
        if differences(first, second)
    ]
    if unstable:
        return "unstable", before, [f"{', '.join(unstable)}: two runs of one tree differ", *found]
    moves = moved_pointers(sides, before, after)
    return ("moved", before, moves) if moves else ("DIFFERENT", before, found)


def sizes(outcome: Outcome) -> str:
    """The exit status and the lines of stdout and stderr: what the check exercised."""
    out, err = (len(data.splitlines()) for _name, data in outcome.streams[:2])
    return f"exit {outcome.status:<3} {out:>5} + {err:<2} lines"


def moved_pointers(sides: tuple[Side, Side], before: Outcome, after: Outcome) -> list[str]:
    """When the only difference is where a rule page says the rule is implemented, and
    each side's pointer lands on a definition in its own tree: the pointers, else []."""
    pointers: list[list[str]] = [[], []]
    masked: list[Outcome] = []
    for index, outcome in enumerate((before, after)):
        streams = []
        for name, data in outcome.streams:
            for match in IMPLEMENTED_IN.finditer(data):
                pointer, module = match[1].decode(), (match[2] or b"").decode()
                if module and module != pointer.partition(".py:")[0].replace("/", "."):
                    return []  # the page names another module than the file it points at
                pointers[index].append(pointer)
            streams.append((name, IMPLEMENTED_IN.sub(b"<implemented in>", data)))
        masked.append(Outcome(outcome.status, tuple(streams)))
    if differences(*masked) or not all(
        defines(side.tree, pointers[i]) for i, side in enumerate(sides)
    ):
        return []
    return [f"{old} -> {new}" for old, new in dict.fromkeys(zip(*pointers, strict=True))]


def defines(tree: Path, pointers: list[str]) -> bool:
    """Each ``path:line`` names a line of ``tree`` that defines something (def or decorator)."""
    for pointer in pointers:
        path, _, line = pointer.rpartition(":")
        source = tree / path
        lines = source.read_text(encoding="utf-8").splitlines() if source.is_file() else []
        text = lines[int(line) - 1].lstrip() if 0 < int(line) <= len(lines) else ""
        if not text.startswith(("def ", "@", "class ")):
            return False
    return True


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, required=True, help="the tree before")
    parser.add_argument("--after", type=Path, required=True, help="the tree after")
    parser.add_argument("--bundle", type=Path, default=BUNDLE, help="Kafka's spec history")
    parser.add_argument("--only", default=",".join(GROUPS), help="groups to run (comma-separated)")
    parser.add_argument("--skip", default="", help="groups not to run (comma-separated)")
    args = parser.parse_args()
    groups = set(args.only.split(",")) - set(args.skip.split(","))
    if "spark" in groups and shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        print("no Java: the Spark jobs are not run", flush=True)
        groups.discard("spark")
    with tempfile.TemporaryDirectory(prefix="kcompat-same-") as name:
        temp = Path(name)
        prepare_inputs(temp, args.bundle, args.before)
        sides = (make_side("before", args.before, temp), make_side("after", args.after, temp))
        commands, rule_ids, trunk = discover(sides, temp)
        counts: dict[str, int] = {}
        for check in all_checks(groups, commands, rule_ids, trunk):
            verdict, before, found = compare(sides, check, temp, args.bundle)
            counts[verdict] = counts.get(verdict, 0) + 1
            print(f"{verdict:9}  {check.group:9}  {sizes(before)}  {check.label}", flush=True)
            for line in found:
                print(f"  {line}", flush=True)
    total = sum(counts.values())
    print(
        f"{total} checks: " + ", ".join(f"{n} {verdict}" for verdict, n in sorted(counts.items()))
    )
    return 0 if counts.get("same", 0) + counts.get("moved", 0) == total else 1


if __name__ == "__main__":
    sys.exit(main())
