"""The README's exit-status table, row by row, through the CLI (issue 27.8).

The table is parsed from README.md. Each claim it makes (a phrase of a row) has a case
here, run as a real process from the project's root as a reader would run it; every row
must have at least one, and every phrase must still be in its row, so the table and the
behaviour cannot drift apart. A claim that a row's status holds runs with that status;
a claim that something does *not* count (accepted findings) names the status it gets.

The decision this pins (the table once said a file that is not JSON exits 2, while
``lint`` reported ``invalid-json`` and exited 1): a spec that is not JSON, among the
specs checked, is a finding (exit 1), as ruff and buf report a file that does not
compile: it is the code under review that is wrong, not the way kcompat was called, the
other files are still checked, and CI and pre-commit show it at its line like any other
error. Exit 2 stays for what stops kcompat from doing what was asked: the spec of the
one message to show, a value for ``encode``, the configuration, a missing file.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.conftest import EXAMPLES, ROOT
from tests.diff_runner import GIT_ENV, KCOMPAT
from tests.hostile import unprivileged_prefix
from tests.test_interrupt import HELD_IN_PROOF, INTERRUPTED, interrupt_when

#: ``lint`` whose check is broken: what an internal error looks like from outside
BROKEN_LINT = """
import sys
import kcompat.lint.run as lint_run

def broken(*args, **kwargs):
    raise RuntimeError("a bug")

lint_run.run_lint = broken
from kcompat.cli import run
run()
"""

HEADER = ["WidgetRequestHeader", "--version", "1", "--specs", "specs/examples"]
HEADER_HEX = "00c80003000000070003636c69"


@dataclass(frozen=True)
class Claim:
    """One thing a row says, and a command line that shows it."""

    phrase: str  # words of the row (Markdown as written)
    args: tuple[str, ...]  # ``{tmp}`` stands for the case's temp folder
    stdin: str = ""
    how: str = "run"  # run, closed-stdout, unprivileged, internal, debug, interrupt
    status: int | None = None  # None: the row's status
    shows: tuple[str, ...] = field(default=())  # words the output must hold


CLAIMS: dict[int, list[Claim]] = {
    0: [
        Claim("no finding at or above `--fail-on`", ("lint", "specs/examples")),
        Claim("(`lint`, `diff`, `drift`", ("diff", "specs/examples", "specs/examples")),
        Claim("(`lint`, `diff`, `drift`", ("drift", "specs/examples", "specs/examples")),
        Claim("shown (`explain`", ("explain", "WidgetRequest", "--specs", "specs/examples")),
        Claim("`rules`", ("rules",)),
        Claim("`encode`", ("encode", *HEADER), stdin='{"CallId": 7}'),
        Claim("`decode`)", ("decode", *HEADER, HEADER_HEX)),
        Claim(
            "a reader that stops early (`\\| head`) changes nothing",
            ("lint", "specs/examples"),
            how="closed-stdout",
        ),
        Claim(
            "a reader that stops early (`\\| head`) changes nothing",
            ("diff", "specs/examples", "specs/examples-v2", "--no-proof"),
            how="closed-stdout",
            status=1,
        ),
    ],
    1: [
        Claim(
            "findings at or above `--fail-on`",
            ("diff", "specs/examples", "specs/examples-v2", "--no-proof"),
            shows=("error [field-added]",),
        ),
        Claim(
            "accepted ones never counting",
            (
                "diff",
                "specs/examples",
                "specs/examples-v2",
                "--no-proof",
                "--config",
                "{tmp}/k.toml",
            ),
            status=0,
            shows=("error (accepted)",),
        ),
        Claim(
            "`lint`'s `invalid-json`",
            ("lint", "specs/broken"),
            shows=("GadgetStatusRecord.json:10:5: error [invalid-json]",),
        ),
        Claim(
            "`diff`'s `spec-unreadable`",
            ("diff", "specs/examples", "{tmp}/not-json", "--no-proof"),
            shows=("WidgetRequest.json:2:1: error [spec-unreadable]",),
        ),
        Claim(
            "`drift`'s `drift-spec-unreadable`",
            ("drift", "specs/examples", "{tmp}/not-json"),
            shows=("WidgetRequest.json:2:1: error [drift-spec-unreadable]",),
        ),
        Claim(
            "the other files still checked",
            ("lint", "specs/broken"),
            shows=("GadgetRequest.json:15:33: error [tag-duplicate]",),
        ),
        Claim("an unknown JSON key", ("encode", *HEADER), stdin='{"NoSuchKey": 7}'),
        Claim("a value out of range", ("encode", *HEADER), stdin='{"ServiceKey": 70000}'),
        Claim("undecodable bytes", ("decode", *HEADER, HEADER_HEX[:-4])),
    ],
    2: [
        Claim("an unknown message", ("explain", "NoSuchMessage", "--specs", "specs/examples")),
        Claim("rule or revision", ("rules", "no-such-rule")),
        Claim("rule or revision", ("diff", "no-such-revision", "--no-proof")),
        Claim("an unknown option", ("lint", "--no-such-option")),
        Claim(
            "the spec of the message to show that is not JSON (`explain`",
            ("explain", "WidgetRequest", "--specs", "{tmp}/not-json"),
        ),
        Claim(
            "`encode`, `decode`)",
            ("encode", "WidgetRequest", "--version", "0", "--specs", "{tmp}/not-json"),
            stdin="{}",
        ),
        Claim(
            "`encode`, `decode`)",
            ("decode", "WidgetRequest", "--version", "0", "00", "--specs", "{tmp}/not-json"),
        ),
        Claim("a value for `encode` that is not JSON", ("encode", *HEADER), stdin="{"),
        Claim(
            "a configuration that is not TOML",
            ("lint", "specs/examples", "--config", "{tmp}/bad.toml"),
        ),
        Claim("text that is not hex", ("decode", *HEADER, "0g")),
        Claim("a FIFO or device where a file should be", ("lint", "{tmp}/pipe.json")),
        Claim("a FIFO or device where a file should be", ("lint", "/dev/zero")),
        Claim("a folder that cannot be listed", ("lint", "{tmp}/locked"), how="unprivileged"),
    ],
    3: [
        Claim("an internal error (one line", ("lint", "specs/examples"), how="internal"),
        Claim("`KCOMPAT_DEBUG=1` shows the traceback", ("lint", "specs/examples"), how="debug"),
    ],
    130: [
        Claim(
            "interrupted (Ctrl-C): one line, `kcompat: interrupted`; every process kcompat started",
            ("diff", "specs/examples", "specs/examples-v2"),
            how="interrupt",
        ),
    ],
}

CASES = [(status, claim) for status, claims in CLAIMS.items() for claim in claims]


def readme_rows() -> dict[int, str]:
    """The exit-status table: status -> its meaning, as README.md writes them."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("### Exit status", 1)[1].split("\n#", 1)[0]
    rows = {}
    for line in section.splitlines():
        if line.startswith("| `"):
            status, meaning = line.split("|", 2)[1:]
            rows[int(status.strip().strip("`"))] = meaning.rstrip().removesuffix("|").strip()
    return rows


def test_every_row_of_the_table_has_its_cases() -> None:
    assert set(readme_rows()) == set(CLAIMS)
    assert all(CLAIMS.values())


@pytest.fixture()
def place(tmp_path: Path) -> Path:
    """What the cases name under ``{tmp}``: the example protocol with a request that is not
    JSON, a configuration that is not TOML and one accepting every Widget finding, a
    named pipe, and a folder nobody may list."""
    shutil.copytree(EXAMPLES, tmp_path / "not-json", ignore=shutil.ignore_patterns("*.md"))
    (tmp_path / "not-json" / "WidgetRequest.json").write_text('{"name": "WidgetRequest",\n')
    (tmp_path / "bad.toml").write_text("fail-on = \n")
    (tmp_path / "k.toml").write_text(
        '[[ignore]]\nmessage = "Widget*"\nreason = "the examples differ on purpose"\n'
    )
    os.mkfifo(tmp_path / "pipe.json")
    locked = tmp_path / "locked"
    shutil.copytree(EXAMPLES, locked / "inner", ignore=shutil.ignore_patterns("*.md"))
    (locked / "inner").chmod(0)
    return tmp_path


def _env(**extra: str) -> dict[str, str]:
    env = {**os.environ, **GIT_ENV, "NO_COLOR": "1", "PYTHONPATH": str(ROOT), **extra}
    if "KCOMPAT_DEBUG" not in extra:
        env.pop("KCOMPAT_DEBUG", None)
    return env


def _run(claim: Claim, args: list[str], tmp: Path) -> tuple[int, str, str]:
    """The claim's command as a process in the project's root: status, stdout, stderr."""
    if claim.how == "interrupt":
        marker = tmp / "in-proof"
        command = [sys.executable, "-c", HELD_IN_PROOF, str(marker), *args]
        code, err = interrupt_when(command, ROOT, lambda _sid: marker.exists())
        return code, "", err
    command = [str(KCOMPAT), *args]
    env = _env()
    if claim.how in ("internal", "debug"):
        command = [sys.executable, "-c", BROKEN_LINT, *args]
        env = _env(KCOMPAT_DEBUG="1") if claim.how == "debug" else env
    elif claim.how == "unprivileged":
        command = [*unprivileged_prefix(), sys.executable, "-m", "kcompat", *args]
    stdout: int | None = subprocess.PIPE
    read, write = os.pipe()
    if claim.how == "closed-stdout":
        stdout = write
        os.close(read)
    done = subprocess.run(
        command,
        cwd=ROOT,
        input=claim.stdin,
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        check=False,
        timeout=120,
    )
    os.close(write)
    if claim.how != "closed-stdout":
        os.close(read)
    return done.returncode, done.stdout or "", done.stderr


@pytest.mark.parametrize(
    ("status", "claim"),
    CASES,
    ids=[f"{s}: {c.phrase[:40]} | {' '.join(c.args)[:40]}" for s, c in CASES],
)
def test_the_row_holds(status: int, claim: Claim, place: Path) -> None:
    row = readme_rows()[status]
    assert claim.phrase in row, f"the row of {status} no longer says {claim.phrase!r}"
    args = [a.replace("{tmp}", str(place)) for a in claim.args]
    code, out, err = _run(claim, args, place)
    expected = claim.status if claim.status is not None else status
    assert code == expected, f"kcompat {' '.join(args)}: {code}\n{out}{err}"
    for words in claim.shows:
        assert words in out, f"kcompat {' '.join(args)}:\n{out}{err}"
    if claim.how == "debug":
        assert "Traceback" in err and "RuntimeError: a bug" in err
        return
    assert "Traceback" not in err
    if claim.how == "closed-stdout":
        assert err == ""
    elif code == 130:
        assert err == INTERRUPTED
    elif code == 3:
        assert err.count("\n") == 1 and err.startswith("kcompat: internal error: RuntimeError")
    elif code == 2:
        assert err.count("\n") == 1 and err.startswith("kcompat: error: "), err
