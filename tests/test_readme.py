"""The README's examples run, so the README cannot drift from the tool.

Every fenced block is accounted for:

- ``console`` blocks: each ``$ command`` runs (through bash, with the installed
  ``kcompat`` first on PATH) and its output (stdout and stderr, as a terminal shows them)
  must be what follows it; a line ``...`` stands for any number of lines.
- ``sh`` blocks: each ``kcompat`` line runs and must exit 0 with output, except the
  Spark and cluster examples (``history``, ``corpus``, ``spark-submit``), which are
  parsed by the CLI (every option and value must exist) and run on Spark elsewhere
  (tests/test_pipeline_history.py, tests/test_pipeline_corpus.py).
- the first ``sh`` block (set-up and tests, which ``.ci/run`` executes): its two kcompat
  commands run; ``yaml`` blocks: their ``kcompat`` command lines parse; the ``toml``
  block is a valid configuration.

Every example runs as a reader would run it, with no set-up the README does not show:
unmarked blocks run in the project's root (a reader's clone of it: ``specs/examples``,
``specs/examples-v2`` and the intentionally broken ``specs/broken`` are there), blocks
marked ``<!-- readme-test: kafka -->`` in a clone of Kafka's spec history (corpus-marked;
the README says that these run in a clone of Apache Kafka). Blocks marked
``<!-- readme: NAME -->`` (CI,
pre-commit, accepting breaks) are run by tests/test_readme_ci.py, and the editor set-ups
(``lua``, ``elisp`` and the others) by tests/test_readme_editors.py, which must use each.
"""

from __future__ import annotations

import inspect
import os
import re
import shlex
import subprocess
import textwrap
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from kcompat.rules.registry import get_rule
from tests.conftest import ROOT
from tests.diff_runner import GIT_ENV, KCOMPAT

README = ROOT / "README.md"
_BLOCK = re.compile(
    r"(?:<!-- readme(?P<ci>-test)?: (?P<context>[\w-]+) -->\n)?"
    r"^```(?P<lang>\w*)\n(?P<body>.*?)^```$",
    re.MULTILINE | re.DOTALL,
)
#: commands that need Spark or a cluster: parsed here, run by the pipeline tests
_SPARK = ("history", "corpus", "strands")


@dataclass(frozen=True)
class Block:
    lang: str
    context: str
    body: str
    line: int  # of the opening fence in README.md

    @property
    def name(self) -> str:
        return f"README.md:{self.line} ({self.lang}, {self.context})"


def blocks() -> list[Block]:
    text = README.read_text(encoding="utf-8")
    found = []
    for match in _BLOCK.finditer(text):
        opening = match.start("lang") - 3
        line = text.count("\n", 0, opening) + 1
        context = match["context"] or "root"
        if match["context"] and not match["ci"]:
            context = f"ci:{context}"  # run by tests/test_readme_ci.py
        found.append(Block(match["lang"], context, match["body"], line))
    return found


def _examples(lang: str, context: str | None = None) -> list[Block]:
    return [
        b
        for b in blocks()
        if b.lang == lang and (context is None or (b.context == context) == (context != "root"))
    ]


@dataclass(frozen=True)
class Step:
    command: str
    expected: list[str]


def console_steps(body: str) -> Iterator[Step]:
    command: str | None = None
    expected: list[str] = []
    for line in body.splitlines():
        if line.startswith("$ "):
            if command is not None:
                yield Step(command, expected)
            command, expected = line[2:], []
        else:
            expected.append(line)
    if command is not None:
        yield Step(command, expected)


def matches(expected: list[str], output: str) -> bool:
    """``output`` is ``expected``, a ``...`` line standing for any number of lines."""
    pattern = "".join(
        r"(?:[^\n]*\n)*?" if line == "..." else re.escape(line.rstrip()) + r"\n"
        for line in expected
    )
    shown = "".join(line.rstrip() + "\n" for line in output.splitlines())
    return re.fullmatch(pattern, shown) is not None


def shell(command: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """A README command as a reader types it: bash, kcompat on PATH, no colour."""
    path = f"{KCOMPAT.parent}{os.pathsep}{os.environ.get('PATH', '')}"
    env = {**os.environ, **GIT_ENV, "PATH": path, "NO_COLOR": "1", "COLUMNS": "100"}
    return subprocess.run(
        ["bash", "-c", command + " 2>&1"],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )


def kcompat_lines(body: str) -> list[str]:
    """The ``kcompat ...`` commands of a block (comments dropped, continuations joined)."""
    joined = body.replace("\\\n", " ")
    out = []
    for line in joined.splitlines():
        line = line.strip().removeprefix("- run: ")
        if line.startswith("kcompat "):
            out.append(line.split("  #", 1)[0].strip())
    return out


def parses(command: str) -> None:
    """The command line parses: the command, every option and every value exist."""
    from typer.main import get_command

    from kcompat.app import app
    from kcompat.commands import register_all

    register_all()
    command_group = get_command(app)
    args = shlex.split(command)[1:]

    def rest_of(ctx: Any) -> list[str]:  # click keeps the subcommand's words aside
        return [*getattr(ctx, "_protected_args", []), *ctx.args]

    with command_group.make_context("kcompat", list(args)) as ctx:
        name, sub, rest = command_group.resolve_command(ctx, rest_of(ctx))  # type: ignore[attr-defined]
        assert sub is not None, command
        with sub.make_context(name, rest, parent=ctx) as sub_ctx:
            if hasattr(sub, "resolve_command") and rest_of(sub_ctx):
                leaf_name, leaf, leaf_rest = sub.resolve_command(sub_ctx, rest_of(sub_ctx))
                assert leaf is not None, command
                leaf.make_context(leaf_name or "", leaf_rest, parent=sub_ctx).close()


# -- contexts -------------------------------------------------------------------------------


def run_console(block: Block, cwd: Path) -> None:
    steps = list(console_steps(block.body))
    assert steps, block.name
    for step in steps:
        done = shell(step.command, cwd)
        assert matches(step.expected, done.stdout), (
            f"{block.name}: $ {step.command}\n--- README\n"
            + "\n".join(step.expected)
            + "\n--- now\n"
            + done.stdout
        )


# -- the blocks ---------------------------------------------------------------------------------


def test_every_block_is_accounted_for() -> None:
    """A new kind of block, or a context the harness does not know, fails here."""
    known = {"sh", "console", "yaml", "toml", "json", "python", "lua", "elisp"}
    for block in blocks():
        assert block.lang in known, block.name
        assert block.context in ("root", "kafka") or block.context.startswith("ci:"), block.name


def test_blocks_left_to_the_ci_tests_are_run_there() -> None:
    ci_tests = "".join(
        (ROOT / "tests" / name).read_text(encoding="utf-8")
        for name in ("test_readme_ci.py", "test_readme_editors.py")
    )
    delegated = [b for b in blocks() if b.context.startswith("ci:")]
    for block in delegated:
        name = block.context.removeprefix("ci:")
        assert f'example("{name}")' in ci_tests or f'yaml_of("{name}")' in ci_tests, block.name


def test_console_examples_in_the_project() -> None:
    """In the project's root, as a reader who cloned it types them: the output printed is
    what the bundled files give (``lint specs/broken``, encode and decode)."""
    ran = 0
    for block in _examples("console"):
        if block.context == "kafka":
            continue
        run_console(block, ROOT)
        ran += 1
    assert ran >= 2  # lint, encode/decode


@pytest.mark.corpus
def test_console_examples_on_kafka(kafka_repo: Path) -> None:
    kafka = [b for b in _examples("console") if b.context == "kafka"]
    assert len(kafka) >= 2  # diff 3.7.0 3.8.0, drift
    for block in kafka:
        run_console(block, kafka_repo)


@pytest.mark.corpus
def test_sh_examples_on_kafka_run(kafka_repo: Path) -> None:
    commands = [c for b in _examples("sh", "kafka") for c in kcompat_lines(b.body)]
    assert len(commands) >= 6  # the explain examples
    for command in commands:
        done = shell(command, kafka_repo)
        assert done.returncode == 0 and done.stdout.strip(), f"{command}\n{done.stdout}"
        assert "error" not in done.stdout.splitlines()[0], command


def test_the_set_up_block_s_kcompat_commands_run() -> None:
    first = next(b for b in blocks() if b.lang == "sh")
    lines = [line for line in first.body.splitlines() if line.strip()]
    assert len(lines) == 2  # .ci/run: set-up, then tests
    commands = [
        part.strip().removeprefix(".venv/bin/")
        for part in lines[0].split("&&")
        if "kcompat " in part
    ]
    assert [c.split()[:2] for c in commands] == [["kcompat", "lint"], ["kcompat", "diff"]]
    for command in commands:
        done = shell(command, ROOT)
        assert done.returncode == 0, f"{command}\n{done.stdout}"
    assert "-m pytest" in lines[1]


def test_spark_and_ci_examples_parse() -> None:
    """history, corpus, spark-submit and CI lines: every command and option exists."""
    commands = [
        c
        for b in blocks()
        if b.lang in ("sh", "yaml") and b.context != "kafka"
        for c in kcompat_lines(b.body)
    ]
    spark_submit = [b for b in blocks() if "spark-submit" in b.body]
    assert spark_submit
    for block in spark_submit:
        tail = block.body.replace("\\\n", " ").split("print(m.__file__)')\"", 1)[1]
        commands.append("kcompat " + tail.strip())
    assert {c.split()[1] for c in commands} >= {"history", "corpus"}
    for command in commands:
        assert command.split()[1] in (*_SPARK, "diff", "lint", "report"), command
        parses(command)


def test_a_wrong_option_in_an_example_would_fail() -> None:
    with pytest.raises(Exception, match="No such option"):
        parses("kcompat history --mode releases --no-such-option")
    assert not matches(["Found 1 error in 1 spec file."], "Found 2 errors in 1 spec file.\n")
    assert matches(["a", "...", "z"], "a\nb\nc\nz\n") and matches(["a", "...", "z"], "a\nz\n")


def test_the_configuration_example_is_valid() -> None:
    from kcompat.config import parse_config
    from kcompat.rules.registry import rule_categories

    (block,) = [b for b in blocks() if b.lang == "toml" and b.context == "root"]
    config = parse_config(tomllib.loads(block.body), "README.md", rules=rule_categories)
    assert config.severities and config.disabled


def test_the_python_example_is_the_rule_it_names() -> None:
    """ "Adding a rule" shows a real rule: the block is that rule's source, verbatim."""
    (block,) = [b for b in blocks() if b.lang == "python"]
    rule_id = re.search(r'@field_rule\("([a-z-]+)"', block.body)
    assert rule_id is not None, block.name
    found = get_rule(rule_id.group(1))
    assert found is not None and found.source is not None
    source = inspect.getsource(found.source)
    assert textwrap.dedent(block.body).strip() == source.strip()


def test_the_output_format_path_shows_a_real_registry_line() -> None:
    """ "Adding an output format": the registry line shown is the registry's own, and each
    registry named there gives a command its --format choices and help."""
    from kcompat.changelog.formats import ChangelogFormat
    from kcompat.explain.formats import ExplainFormat
    from kcompat.report.formats import FindingsFormat
    from kcompat.report.tables import TableFormat

    text = README.read_text(encoding="utf-8")
    section = text.split("### Adding an output format", 1)[1].split("\n### ", 1)[0]
    (line,) = re.findall(r"`(\w+ = \"\w+\", \"[\w.:]+\")`", section)
    assert line in (ROOT / "kcompat" / "report" / "formats.py").read_text(encoding="utf-8")
    for registry, command in (
        (FindingsFormat, "lint"),
        (ExplainFormat, "explain"),
        (ChangelogFormat, "changelog"),
        (TableFormat, "rules"),
    ):
        assert f"kcompat/{registry.__module__.split('.', 1)[1].replace('.', '/')}.py" in section
        for member in registry:
            assert callable(member.render_function()), member
        shown = subprocess.run(
            [str(KCOMPAT), command, "--help"],
            env={**os.environ, "COLUMNS": "200"},
            capture_output=True,
            text=True,
            check=True,
        )
        assert registry.help() in " ".join(shown.stdout.split()), (command, registry.help())
