"""Exit statuses of every command, through a real process (tests/test_exit_table.py checks
the README's table row by row).

0 done (no finding at or above --fail-on; or shown), 1 findings at or above --fail-on (for
encode/decode: a value or bytes that do not fit the message), 2 bad usage or unreadable
input, with one line on stderr. A reader that stops early (``| head``) changes nothing.
"""

from __future__ import annotations

import os
import subprocess

import pytest

from tests.conftest import EXAMPLES, ROOT
from tests.diff_runner import GIT_ENV, KCOMPAT

V2 = ROOT / "specs" / "examples-v2"
HEADER_HEX = "00c80003000000070003636c690100080000000000000005"
DECODE = ["decode", "WidgetRequestHeader", "--version", "2", "--specs", str(EXAMPLES)]
ENCODE = ["encode", "WidgetRequestHeader", "--version", "2", "--specs", str(EXAMPLES)]

#: (arguments, standard input, exit status): one row per command and outcome
CASES = [
    (["lint", str(EXAMPLES)], "", 0),
    (["lint", str(EXAMPLES), "--fail-on", "info"], "", 0),
    (["lint", "/nonexistent"], "", 2),
    (["diff", str(EXAMPLES), str(EXAMPLES)], "", 0),
    (["diff", str(EXAMPLES), str(V2), "--no-proof"], "", 1),
    (["diff", str(EXAMPLES), str(V2), "--no-proof", "--fail-on", "never"], "", 0),
    (["diff", str(EXAMPLES), "/nonexistent"], "", 2),
    (["drift", str(EXAMPLES), str(EXAMPLES)], "", 0),
    (["drift", str(EXAMPLES), str(V2)], "", 1),
    (["drift", str(EXAMPLES), "/nonexistent"], "", 2),
    (["explain", "WidgetRequest", "--specs", str(EXAMPLES)], "", 0),
    (["explain", "NoSuchMessage", "--specs", str(EXAMPLES)], "", 2),
    (["rules"], "", 0),
    (["rules", "no-such-rule"], "", 2),
    ([*DECODE, HEADER_HEX], "", 0),
    ([*DECODE, HEADER_HEX[:-4]], "", 1),  # undecodable bytes
    ([*DECODE, "0g"], "", 2),  # not hex at all: bad input
    ([*ENCODE], '{"CallId": 7}', 0),
    ([*ENCODE], '{"NoSuchKey": 7}', 1),  # an unknown JSON key
    ([*ENCODE], "{", 2),  # not JSON at all: bad input
    (["--version"], "", 0),
    (["no-such-command"], "", 2),
]


@pytest.mark.parametrize(
    ("args", "stdin", "status"), CASES, ids=[" ".join(c[0])[:60] for c in CASES]
)
def test_exit_status_of_every_command(args: list[str], stdin: str, status: int) -> None:
    done = subprocess.run(
        [str(KCOMPAT), *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, **GIT_ENV, "NO_COLOR": "1"},
        check=False,
        timeout=120,
    )
    assert done.returncode == status, done.stderr
    assert "Traceback" not in done.stderr
    if status == 2:
        assert done.stderr.count("\n") == 1 and done.stderr.startswith("kcompat: error: ")


@pytest.mark.parametrize(
    ("args", "status"),
    [
        (["explain", "WidgetRequest", "--specs", str(EXAMPLES)], 0),
        (["rules"], 0),
        (["lint", str(EXAMPLES)], 0),
        (["diff", str(EXAMPLES), str(V2), "--no-proof"], 1),
        (["diff", str(EXAMPLES), str(V2), "--no-proof", "--format", "json"], 1),
        (["drift", str(EXAMPLES), str(V2)], 1),
        ([*DECODE, HEADER_HEX], 0),
    ],
)
def test_a_reader_that_stops_early_changes_nothing(args: list[str], status: int) -> None:
    """``kcompat ... | head -1``: the pipe is closed before kcompat writes, so every write
    fails; the status is what it would have been (not rich's 1), and nothing on stderr."""
    read, write = os.pipe()
    os.close(read)
    try:
        done = subprocess.run(
            [str(KCOMPAT), *args],
            stdout=write,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            env={**os.environ, **GIT_ENV, "NO_COLOR": "1"},
            check=False,
            timeout=120,
        )
    finally:
        os.close(write)
    assert (done.returncode, done.stderr) == (status, "")
