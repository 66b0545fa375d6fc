"""``benchmarks/same_behaviour.py`` tells two trees apart by what they print, and only so.

The script is evidence run by hand (issue 26: the restructuring's behaviour, byte for
byte, across a10f535..3be960a); these tests run it for real on copies of this tree: a
tree against itself is the same on every check, and a copy whose app help says one word
more differs on exactly the checks that print that help, with the lines shown.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "benchmarks" / "same_behaviour.py"
APP_HELP = "Keep Kafka-style message protocols compatible, and show the bytes."

pytestmark = pytest.mark.corpus


def tree_copy(target: Path, help_text: str = APP_HELP) -> Path:
    """A tree holding this one's package (with ``help_text`` as the app's help) and the
    inputs the script reads from the before tree."""
    shutil.copytree(
        ROOT / "kcompat", target / "kcompat", ignore=shutil.ignore_patterns("__pycache__")
    )
    app = target / "kcompat" / "app.py"
    app.write_text(app.read_text(encoding="utf-8").replace(APP_HELP, help_text), encoding="utf-8")
    (target / "examples").mkdir()
    shutil.copyfile(ROOT / "examples" / "kafka.toml", target / "examples" / "kafka.toml")
    return target


def same_behaviour(
    before: Path, after: Path, bundle: Path, groups: str
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), "--before", str(before), "--after", str(after),
         "--bundle", str(bundle), "--only", groups],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip


def test_a_tree_against_itself_is_the_same_on_every_check(
    kafka_bundle: Path, tmp_path: Path
) -> None:
    before, after = tree_copy(tmp_path / "one"), tree_copy(tmp_path / "two")
    done = same_behaviour(before, after, kafka_bundle, "help,edges")
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    for side, tree in (("before", before), ("after", after)):
        assert f"{side}: {tree} (not a git checkout): kcompat imported from {tree}/kcompat/" in (
            done.stdout
        )
    verdicts = [line.split()[0] for line in lines[2:-1]]
    assert len(verdicts) > 30 and set(verdicts) == {"same"}, done.stdout
    assert lines[-1] == f"{len(verdicts)} checks: {len(verdicts)} same"


def test_a_changed_help_differs_where_it_is_printed_and_nowhere_else(
    kafka_bundle: Path, tmp_path: Path
) -> None:
    before = tree_copy(tmp_path / "before")
    after = tree_copy(tmp_path / "after", APP_HELP.replace("the bytes", "the very bytes"))
    done = same_behaviour(before, after, kafka_bundle, "help")
    assert done.returncode == 1, done.stdout + done.stderr
    different = [line for line in done.stdout.splitlines() if line.startswith("DIFFERENT")]
    # `kcompat --help`, `kcompat -h`, and `kcompat` alone (the help, on stderr, exit 2)
    assert [line.rpartition("lines  ")[2] for line in different] == [
        "kcompat",
        "kcompat -h",
        "kcompat --help",
    ], done.stdout
    assert "  Keep Kafka-style message protocols compatible, and show the very bytes.\\n'" in (
        done.stdout
    )
    # Every other help text (one per command and subcommand) is the same.
    same = [line for line in done.stdout.splitlines() if line.startswith("same")]
    assert len(same) >= 15, done.stdout
    assert done.stdout.splitlines()[-1].endswith(f"3 DIFFERENT, {len(same)} same")
