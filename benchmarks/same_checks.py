"""What ``same_behaviour.py`` runs in both trees: every check, as kcompat's arguments.

A check is one kcompat invocation (or one run of a benchmark script of the tree) with the
same arguments, standard input and working directory on both sides. The lists are built
from what the two trees say they have (their commands, their rule IDs: the union of
both, so a command or rule one side lacks is a difference, not a gap) and from the Kafka
corpus (the release pairs and the last commits on trunk that change a spec).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

MESSAGES = "clients/src/main/resources/common/message"
#: Release to release, as Kafka shipped them (the last: the whole span at once).
RELEASE_PAIRS: tuple[tuple[str, str], ...] = (
    ("2.8.0", "3.0.0"),
    ("3.0.0", "3.1.0"),
    ("3.3.0", "3.4.0"),
    ("3.6.0", "3.7.0"),
    ("3.7.0", "3.8.0"),
    ("3.8.0", "trunk"),
    ("2.2.0", "3.8.0"),
)
#: Formats of the commands whose ``--format`` is checked by hand rather than a choice
#: (``rules``, ``history``, ``corpus verify``: tables).
TABLE_FORMATS = ("text", "json", "markdown")
FINDINGS_FORMATS = ("text", "json", "sarif", "github", "gitlab", "junit", "markdown")
EXPLAIN_FORMATS = ("text", "markdown", "json", "svg", "html")
CHANGELOG_FORMATS = ("text", "markdown", "json", "html")
MATRIX_FORMATS = ("text", "markdown", "json", "html")
RULE_KINDS = ("lint", "diff", "drift", "corpus")

#: Configuration files handed to both sides with ``--config`` (in the run's temp dir).
CONFIGS: dict[str, str] = {
    "strict.toml": (
        'disable = ["category:docs", "file-name-mismatch"]\n'
        'fail-on = "warning"\n'
        "[severity]\n"
        'lowest-version-raised = "warning"\n'
        'field-renamed = "error"\n'
    ),
}


@dataclass(frozen=True)
class Check:
    """One run of each tree: kcompat's arguments, or a benchmark script's (``script``)."""

    group: str
    argv: tuple[str, ...]
    #: where it runs: "kafka" (the clone, trunk checked out), "edited" (a clone with a
    #: staged and an unstaged edit), "temp" (the temp dir holding both and the inputs),
    #: or "side" (a directory of each side's own, for commands that write files)
    cwd: str = "kafka"
    stdin: bytes = b""
    #: files the run writes (relative to ``cwd``), compared like its output; a name
    #: ending in / is every file under it but Spark's Parquet parts (random names)
    files: tuple[str, ...] = ()
    #: a benchmark script of each tree (relative to the tree) instead of kcompat
    script: str = ""
    #: the output holds durations (normalised)
    timed: bool = False
    #: environment variables of this check (shell completion's requests)
    env: tuple[tuple[str, str], ...] = ()

    @property
    def label(self) -> str:
        command = f"python {self.script}" if self.script else "kcompat"
        shown = " ".join(arg if arg else "''" for arg in (command, *self.argv))
        if self.env:
            shown = " ".join(f"{name}='{value}'" for name, value in self.env) + f" {shown}"
        return f"{shown} < stdin" if self.stdin else shown


def _checks(group: str, runs: Iterable[tuple[str, ...]]) -> Iterator[Check]:
    return (Check(group, argv) for argv in runs)


def _spark(argv: tuple[str, ...], files: tuple[str, ...] = ()) -> Check:
    """A Spark job: run in each side's own directory (it writes files); it says how long
    it took."""
    return Check("spark", argv, cwd="side", files=files, timed=True)


def help_checks(commands: Iterable[str]) -> Iterator[Check]:
    """``--help`` of the app and of every command and subcommand; the bare call and -V."""
    yield Check("help", ())
    yield Check("help", ("--version",))
    yield Check("help", ("-h",))
    yield Check("help", ("--help",))
    for command in commands:
        yield Check("help", (*command.split(), "--help"))


def rules_checks(rule_ids: Iterable[str]) -> Iterator[Check]:
    """The list in every format and by kind; every rule's page, in every format."""
    yield from _checks("rules", (("rules", "--format", fmt) for fmt in TABLE_FORMATS))
    yield from _checks("rules", (("rules", "--kind", kind) for kind in RULE_KINDS))
    yield Check("rules", ("rules", "--severity", "error", "--format", "json"))
    yield Check("rules", ("rules", "--category", "fields"))
    for rule in rule_ids:
        yield Check("rules", ("rules", rule))
        yield from _checks("rules", (("rules", rule, "--format", f) for f in TABLE_FORMATS[1:]))


def mutation_checks() -> Iterator[Check]:
    """``benchmarks/mutation_errors.py`` of each tree: its table, and its JSON."""
    yield Check("mutations", (), cwd="side", script="benchmarks/mutation_errors.py")
    yield Check("mutations", ("--json",), cwd="side", script="benchmarks/mutation_errors.py")


def diff_checks(trunk_commits: Iterable[str]) -> Iterator[Check]:
    """Release pairs and trunk commits (proof on, text and JSON; JSON without the proof),
    every findings format on one pair, configurations, and every input source."""
    pairs = [*RELEASE_PAIRS, *((f"{sha}~1", sha) for sha in trunk_commits)]
    for base, head in pairs:
        yield Check("diff", ("diff", base, head))
        yield Check("diff", ("diff", base, head, "--format", "json"))
        yield Check("diff", ("diff", base, head, "--format", "json", "--no-proof"))
    for fmt in FINDINGS_FORMATS[2:]:
        yield Check("diff", ("diff", "3.7.0", "3.8.0", "--format", fmt))
    kafka_toml = "../examples-kafka.toml"
    yield Check("diff", ("diff", "2.8.0", "3.0.0", "--config", kafka_toml, "--format", "json"))
    yield Check("diff", ("diff", "3.7.1", "3.8.0", "--config", kafka_toml))
    yield Check("diff", ("diff", "3.7.0", "3.8.0", "--config", "../strict.toml"))
    options: tuple[tuple[str, ...], ...] = (("--released", "base"), ("--no-history",))
    for extra in (*options, ("--level", "warning")):
        yield Check("diff", ("diff", "3.6.0", "3.7.0", "--format", "json", *extra))
    yield Check("diff", ("diff", "3.6.0", "3.7.0", "--fail-on", "never", "--samples", "3"))
    yield Check("diff", ("diff", "origin/3.8", "trunk", "--merge-base", "--format", "json"))
    yield Check("diff", ("diff", f"3.7.0:{MESSAGES}", f"3.8.0:{MESSAGES}", "--format", "json"))
    directories = (f"dirs/3.7.0/{MESSAGES}", f"dirs/3.8.0/{MESSAGES}")
    yield Check("diff", ("diff", *directories), cwd="temp")
    yield Check("diff", ("diff", *directories, "--format", "json"), cwd="temp")
    formats: tuple[tuple[str, ...], ...] = ((), ("--format", "json"))
    for extra in formats:
        yield Check("diff", ("diff", "--staged", *extra), cwd="edited")
        yield Check("diff", ("diff", *extra), cwd="edited")


def lint_checks() -> Iterator[Check]:
    yield from _checks("lint", (("lint", "--format", fmt) for fmt in FINDINGS_FORMATS))
    yield Check("lint", ("lint", MESSAGES, "--format", "json"))
    yield Check("lint", ("lint", "--config", "../strict.toml"))
    yield Check("lint", ("lint",), cwd="edited")


def explain_checks() -> Iterator[Check]:
    formats = (("explain", "FetchRequest", "--format", fmt) for fmt in EXPLAIN_FORMATS)
    yield from _checks("explain", formats)
    for extra in (
        ("--version", "12"),
        ("--version", "12", "--format", "json"),
        ("--against", "3.7.0"),
        ("--against", "3.0.0", "--format", "json", "--no-proof"),
        ("--rev", "3.0.0"),
        ("--width", "80", "--ascii"),
    ):
        yield Check("explain", ("explain", "FetchRequest", *extra))
    yield Check("explain", ("explain", "1", "-t", "response"))
    yield Check("explain", ("explain", "Fetch", "-t", "request", "--format", "json"))


def changelog_checks() -> Iterator[Check]:
    formats = (("changelog", "3.7.0", "3.8.0", "--format", fmt) for fmt in CHANGELOG_FORMATS)
    yield Check("changelog", ("changelog", "3.7.0", "3.8.0"))
    yield from _checks("changelog", formats)
    yield Check("changelog", ("changelog", "2.2.0", "3.8.0"))
    yield Check("changelog", ("changelog", "3.0.0", "3.1.0", "--format", "json"))
    yield Check("changelog", ("changelog",), cwd="edited")


def matrix_checks() -> Iterator[Check]:
    """Every format over a span of releases, with and without HEAD, and a what-if."""
    span = ("matrix", "--range", "3.5.0..3.8.0")
    yield from _checks("matrix", ((*span, "--format", fmt) for fmt in MATRIX_FORMATS))
    what_if = ("matrix", "--range", "3.6.0..", "--what-if", "drop-deprecated")
    yield from _checks("matrix", ((*what_if, "--format", fmt) for fmt in MATRIX_FORMATS))
    yield Check("matrix", ("matrix", "--range", "2.8.0..3.0.0", "--apis", "Fetch,Produce"))


def drift_checks() -> Iterator[Check]:
    for upstream, local in (("3.8.0", "3.7.0"), ("3.0.0", "2.8.0"), ("trunk", "2.2.0")):
        yield Check("drift", ("drift", upstream, local))
        yield Check("drift", ("drift", upstream, local, "--format", "json"))


def codec_checks() -> Iterator[Check]:
    value = b'{"ClientSoftwareName": "kc", "ClientSoftwareVersion": "1"}'
    yield Check("codec", ("encode", "ApiVersionsRequest", "--version", "3"), stdin=value)
    yield Check("codec", ("encode", "ApiVersionsRequest", "--version", "0"), stdin=b"{}")
    yield Check("codec", ("encode", "ApiVersionsRequest", "--version", "3"), stdin=b'{"Nope":1}')
    yield Check("codec", ("encode", "FetchRequest", "--version", "12"), stdin=b"{}")
    yield Check("codec", ("decode", "ApiVersionsRequest", "--version", "3", "036b63023100"))
    yield Check("codec", ("decode", "ApiVersionsRequest", "--version", "3", "03ff"))
    yield Check("codec", ("decode", "18", "-t", "response", "--version", "3", "zz"))


def edge_checks() -> Iterator[Check]:
    """Usage errors and unreadable input: one line each, and the exit status."""
    for argv in (
        ("nosuchcommand",),
        ("diff", "--format", "bogus"),
        ("lint", "--format", "bogus"),
        ("explain", "FetchRequest", "--format", "bogus"),
        ("changelog", "3.7.0", "3.8.0", "--format", "bogus"),
        ("history", "--format", "bogus"),
        ("diff", "--color", "bogus"),
        ("diff", "--released", "bogus"),
        ("explain", "Fetch", "-t", "bogus"),
        ("diff", "--bogus-flag"),
        ("diff", "9.9.9", "trunk"),
        ("rules", "no-such-rule"),
        ("rules", "--format", "bogus"),
        ("explain",),
        ("explain", "NoSuchMessage"),
        ("lint", "does/not/exist"),
        ("lint", "--config", "missing.toml"),
        ("changelog", "3.7.0", "nope"),
        ("drift", "3.7.0"),
    ):
        yield Check("edges", argv)


#: Words typed before asking the shell to complete the next (typer's completion protocol).
COMPLETIONS: tuple[str, ...] = (
    "",
    "corpus ",
    "diff --",
    "diff --format ",
    "diff --fail-on ",
    "diff --released ",
    "diff --level ",
    "diff --color ",
    "lint --format ",
    "drift --format ",
    "explain --format ",
    "explain FetchRequest -t ",
    "changelog --format ",
    "rules --format ",
    "rules --kind ",
    "history --mode ",
    "--show-completion ",
)


def completion_checks() -> Iterator[Check]:
    """What tab completion offers (bash), for the commands and for each option's values."""
    for typed in COMPLETIONS:
        words = f"kcompat {typed}"
        env = (
            ("_KCOMPAT_COMPLETE", "complete_bash"),
            ("COMP_WORDS", words),
            ("COMP_CWORD", str(len(words.split()) - (0 if words.endswith(" ") else 1))),
        )
        yield Check("complete", tuple(typed.split()[:1]), env=env)


def spark_checks() -> Iterator[Check]:
    """history of releases (text, JSON) with the HTML report of its audit, of commits,
    and with the releases' changelogs; corpus build and verify."""
    releases = ("history", "--mode", "releases", "--range", "3.6.0..3.8.0", "--no-proof")
    repo = ("--repo", "../kafka", "--master", "local[1]")
    yield _spark((*releases, *repo, "--out", "out"), files=("out/summary.json",))
    yield _spark((*releases, *repo, "--format", "json"))
    yield _spark(("report", "out", "-o", "audit.html"), files=("audit.html",))
    commits = ("history", "--range", "trunk~10..trunk", "--samples", "5", *repo, "--out", "commits")
    yield _spark(commits, files=("commits/summary.json",))
    changelogs = ("history", "--mode", "releases", "--range", "3.7.0..3.8.0", "--changelog")
    yield _spark((*changelogs, "--no-proof", *repo, "--out", "cl"), files=("cl/",))
    yield _spark(("report", "cl", "-o", "cl.html"), files=("cl.html",))
    yield _spark(("corpus", "build", "--rev", "3.7.0", "--out", "corpus", "--samples", "5", *repo))
    verify = ("corpus", "verify", "corpus", "--rev", "3.8.0", *repo)
    yield _spark(verify)
    yield _spark((*verify, "--format", "json"))
