"""Issue 12: files that are not what they seem. A spec symlinked to ``/dev/zero`` (git
commits one), a FIFO named ``*.json``, a folder nobody may list, an oversized blob, and
every way ``--write-baseline`` can fail: one line and exit 2, never a hang, unbounded
memory or an internal error. Every run is a real process with a memory limit and a
timeout (see :mod:`tests.hostile`), so a regression fails instead of eating the machine.
"""

from __future__ import annotations

import os
import shutil
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from kcompat.bounded import NotRegularFileError, read_capped
from kcompat.sources.git import GitRepo
from kcompat.spec.load import MAX_BYTES
from tests.conftest import EXAMPLES, git
from tests.hostile import run_kcompat

needs_dev_zero = pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero")
needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")


@pytest.fixture()
def specs(tmp_path: Path) -> Path:
    """A folder of good specs (a git repository with them committed)."""
    folder = tmp_path / "specs"
    shutil.copytree(EXAMPLES, folder)
    git(folder, "init", "-q", "-b", "main")
    git(folder, "add", "-A")
    git(folder, "commit", "-q", "-m", "specs")
    return folder


@pytest.fixture()
def open_tree(tmp_path: Path) -> Iterator[Path]:
    """A folder whose permissions the test changes; restored so pytest can remove it."""
    yield tmp_path
    for root, dirs, _files in os.walk(tmp_path):
        for name in dirs:
            os.chmod(Path(root) / name, 0o755)


# -- /dev/zero behind a spec's name ------------------------------------------------------------
@needs_dev_zero
@pytest.mark.parametrize("target", [".", "Zero.json"], ids=["directory", "named"])
def test_lint_refuses_a_spec_symlinked_to_a_device(specs: Path, target: str) -> None:
    """Outside a repository the device is refused by its kind; inside one, the link out
    of the repository already is (``tests/test_spec_links.py``)."""
    (specs / "Zero.json").symlink_to("/dev/zero")
    run = run_kcompat("lint", target, cwd=specs)
    assert run.code == 2
    assert run.error_line == (
        f"kcompat: error: Zero.json: a link to a file outside the repository {specs}; "
        "kcompat reads no spec through it: commit the spec itself, not a link"
    )
    shutil.rmtree(specs / ".git")
    run = run_kcompat("lint", target, cwd=specs)
    assert run.code == 2
    assert run.error_line == (
        "kcompat: error: Zero.json: a device, not a regular file; kcompat reads only regular files"
    )


@needs_dev_zero
def test_diff_refuses_a_device_in_the_working_tree(specs: Path) -> None:
    (specs / "Zero.json").symlink_to("/dev/zero")  # untracked: diff reads the working tree
    run = run_kcompat("diff", "HEAD", cwd=specs)
    assert run.code == 2
    assert "Zero.json: a link to a file outside the repository" in run.error_line


@needs_dev_zero
def test_diff_refuses_a_device_on_a_directory_side(specs: Path, tmp_path: Path) -> None:
    other = tmp_path / "other"
    shutil.copytree(EXAMPLES, other)
    (other / "Zero.json").symlink_to("/dev/zero")
    run = run_kcompat("diff", str(EXAMPLES), str(other), cwd=tmp_path)
    assert run.code == 2
    assert "Zero.json: a device, not a regular file" in run.error_line


@needs_dev_zero
def test_explain_specs_refuses_a_device(specs: Path) -> None:
    shutil.rmtree(specs / ".git")  # a folder of the user's: the device, not the link
    (specs / "Zero.json").symlink_to("/dev/zero")
    run = run_kcompat("explain", "Zero", "--specs", ".", cwd=specs)
    assert run.code == 2
    assert "Zero.json: a device, not a regular file" in run.error_line


# -- FIFOs ------------------------------------------------------------------------------------
@needs_fifo
@pytest.mark.parametrize(
    "args",
    [
        ("lint", "."),
        ("lint", "Pipe.json"),
        ("explain", "Pipe", "--specs", "."),
    ],
    ids=["lint-directory", "lint-named", "explain-specs"],
)
def test_a_fifo_named_json_is_refused_without_blocking(specs: Path, args: tuple[str, ...]) -> None:
    os.mkfifo(specs / "Pipe.json")
    run = run_kcompat(*args, cwd=specs)  # before the fix: blocked in open() until the timeout
    assert run.code == 2
    assert run.error_line == (
        "kcompat: error: Pipe.json: a named pipe (FIFO), not a regular file; "
        "kcompat reads only regular files"
    )


@needs_fifo
@pytest.mark.parametrize("option", ["--baseline", "--config"])
def test_a_fifo_as_baseline_or_config_is_refused(specs: Path, option: str) -> None:
    os.mkfifo(specs / "pipe")
    run = run_kcompat("diff", "HEAD", option, "pipe", cwd=specs)
    assert run.code == 2
    assert "pipe" in run.error_line and "a named pipe (FIFO), not a regular file" in run.error_line


# -- unreadable folders -----------------------------------------------------------------------
def test_lint_stops_at_a_folder_it_cannot_list(open_tree: Path, specs: Path) -> None:
    hidden = specs / "more"
    hidden.mkdir()
    shutil.copy(EXAMPLES / "WidgetRequest.json", hidden / "OtherRequest.json")
    hidden.chmod(0)
    run = run_kcompat("lint", ".", cwd=specs, unprivileged=True)
    assert run.code == 2  # before the fix: 0, the folder's specs silently unchecked
    assert run.error_line == "kcompat: error: more: cannot read the folder (Permission denied)"


def test_lint_stops_at_a_file_it_cannot_read(open_tree: Path, specs: Path) -> None:
    (specs / "WidgetRequest.json").chmod(0)
    run = run_kcompat("lint", ".", cwd=specs, unprivileged=True)
    assert run.code == 2
    assert run.error_line == ("kcompat: error: WidgetRequest.json: cannot read (Permission denied)")


# -- git blobs --------------------------------------------------------------------------------
def test_a_blob_is_read_only_up_to_the_cap_and_the_next_read_still_works(specs: Path) -> None:
    (specs / "Huge.json").write_bytes(b"[" + b" " * (MAX_BYTES + 4096) + b"]")
    git(specs, "add", "-A")
    git(specs, "commit", "-q", "-m", "huge")
    repo = GitRepo.open(specs)
    try:
        head = repo.head_sha()
        huge = repo.read_at(head, "Huge.json")
        assert huge is not None and len(huge) == MAX_BYTES + 1  # before: every byte
        # the rest of the blob was skipped: git's batch stream is still in step
        assert (
            repo.read_at(head, "WidgetRequest.json") == (specs / "WidgetRequest.json").read_bytes()
        )
    finally:
        repo.close()


def test_an_oversized_spec_at_a_revision_is_one_finding(specs: Path) -> None:
    huge = b'{"apiKey": 1, "validVersions": "0"' + b" " * (MAX_BYTES + 10) + b"}"
    (specs / "Huge.json").write_bytes(huge)
    git(specs, "add", "-A")
    git(specs, "commit", "-q", "-m", "huge")
    run = run_kcompat("diff", "HEAD~", "HEAD", cwd=specs)
    assert "over the 4 MiB limit" in run.stdout, run.stdout + run.stderr
    assert run.code == 1


# -- the bounded reader itself ----------------------------------------------------------------
def test_read_capped_stops_one_byte_past_the_limit(tmp_path: Path) -> None:
    path = tmp_path / "big"
    path.write_bytes(b"x" * 100)
    got = read_capped(path, 10)
    assert (got.data, got.size, got.over) == (b"x" * 11, 100, True)
    small = read_capped(path, 100)
    assert (len(small.data), small.over) == (100, False)


@needs_fifo
def test_read_capped_refuses_special_files_before_opening(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe")
    with pytest.raises(NotRegularFileError, match="named pipe"):
        read_capped(tmp_path / "pipe", 10)  # no writer: an open() would block here
    with pytest.raises(IsADirectoryError):
        read_capped(tmp_path, 10)
    assert stat.S_ISFIFO(os.stat(tmp_path / "pipe").st_mode)


# -- --write-baseline -------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("target", "reason"),
    [
        ("missing/baseline.json", "No such file or directory"),
        (".", "Is a directory"),
        ("/dev/full", "No space left on device"),
    ],
    ids=["missing-folder", "a-directory", "dev-full"],
)
def test_write_baseline_failures_are_one_line(tmp_path: Path, target: str, reason: str) -> None:
    if target.startswith("/dev/") and not Path(target).exists():
        pytest.skip(f"no {target} here")
    run = run_kcompat(
        "diff", str(EXAMPLES), str(EXAMPLES), "--write-baseline", target, cwd=tmp_path
    )
    assert run.code == 2
    assert run.error_line == (
        f"kcompat: error: {target}: cannot write the baseline ({reason}); give a writable file path"
    )


def test_write_baseline_into_a_read_only_folder_is_one_line(open_tree: Path) -> None:
    locked = open_tree / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    run = run_kcompat(
        "diff", str(EXAMPLES), str(EXAMPLES), "--write-baseline", "locked/b.json",
        cwd=open_tree, unprivileged=True,
    )  # fmt: skip
    assert run.code == 2
    assert "locked/b.json: cannot write the baseline (Permission denied)" in run.error_line
    assert not (locked / "b.json").exists()


def test_write_baseline_still_says_what_it_wrote(tmp_path: Path) -> None:
    run = run_kcompat(
        "diff", str(EXAMPLES), str(EXAMPLES), "--write-baseline", "b.json", cwd=tmp_path
    )
    assert run.code == 0
    assert run.stdout.startswith("Wrote 0 findings to b.json; accept them with --baseline")
