"""What the console script does to its own process that :func:`kcompat.cli.main` must not
do to a caller's: the collector's settings, and what it freezes."""

from __future__ import annotations

import gc
import subprocess
import sys
from pathlib import Path

from kcompat.cli import YOUNG_COLLECTION, main

#: Runs the console script's ``run()`` and says, as the process ends, what it left set.
_CONSOLE = """
import atexit, gc, sys
atexit.register(lambda: print(gc.get_threshold()[0], gc.get_freeze_count() > 0))
sys.argv = ["kcompat", *sys.argv[1:]]
from kcompat.cli import run
run()
"""


def _console(args: list[str], cwd: Path) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", _CONSOLE, *args], cwd=cwd, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_the_console_script_freezes_what_its_imports_made(tmp_path: Path) -> None:
    (tmp_path / "Ok.json").write_text(
        '{"apiKey": 0, "type": "header", "name": "OkHeader", "validVersions": "0",'
        ' "flexibleVersions": "none", "fields": []}\n'
    )
    for args in (["--version"], ["lint", "--fail-on", "never", "."]):
        lines = _console(args, tmp_path)
        assert lines[-1] == f"{YOUNG_COLLECTION} True", args


def test_main_called_in_process_leaves_the_collector_as_it_was(tmp_path: Path) -> None:
    threshold, frozen = gc.get_threshold(), gc.get_freeze_count()
    assert main(["--version"]) == 0
    assert (gc.get_threshold(), gc.get_freeze_count()) == (threshold, frozen)
