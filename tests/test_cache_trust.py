"""What the user's disk cache refuses to trust (:mod:`kcompat.cache.trust`,
:mod:`kcompat.cache.entries`): its files are code kcompat runs and release facts it
believes, so another user must not be able to put one there, and a damaged one must
never be run.

The attack of the security issue: the cache directory does not exist when kcompat starts
(a cache under ``/tmp``, or a shared runner's home); another user creates it a moment
later and plants entries under the names kcompat will look for (they are public: hashes
of the Python version and the generated source, or of a release's text). Each test starts
kcompat for real with the attack made at that moment (after kcompat started, before the
command runs), planting entries sealed as kcompat seals them (the format is public too):
compiled code that would leave a mark if it ran, and release facts that say 1.0.0
shipped nothing (which would turn the error into an info). The run must be exactly a
cold run, and the mark absent.
"""

from __future__ import annotations

import json
import marshal
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from kcompat.cache import CODE, Cache, Location
from kcompat.cache.entries import entry_name, seal
from kcompat.cache.trust import open_directory
from tests.cache_runs import entries, released_break_repo, staged
from tests.diff_runner import GIT_ENV, CliRun, run_process

#: Another user's id (tests run as root can give files to it)
OTHER_USER = 4242

#: kcompat's console script, with the attack made once it has started (after any check a
#: process makes at its start), before the command runs.
ATTACKED = """
import json, os, pathlib, sys
attack = json.loads(sys.argv.pop(1))
import kcompat.cli as cli
started = cli.main

def main(argv=None, **options):
    folder = pathlib.Path(attack["folder"])
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in attack["files"].items():
        (folder / name).write_bytes(bytes.fromhex(data))
        os.chmod(folder / name, attack["file_mode"])
        if attack["file_owner"] is not None:
            os.chown(folder / name, attack["file_owner"], attack["file_owner"])
    os.chmod(folder, attack["mode"])
    if attack["owner"] is not None:
        os.chown(folder, attack["owner"], attack["owner"])
    return started(argv, **options)

cli.main = main
cli.run()
"""


@pytest.fixture()
def released_break(tmp_path: Path) -> Path:
    return released_break_repo(tmp_path / "repo")


def _needs_root() -> None:
    if os.geteuid() != 0:
        pytest.skip("giving a file to another user needs root")


def learned_names(repo: Path, tmp_path: Path) -> list[str]:
    """The names of the entries a run looks for (learned from a run with a private cache)."""
    private = tmp_path / "learn"
    staged(repo, KCOMPAT_CODE_CACHE=str(private))
    names = sorted(entries(private))
    assert any(n.endswith(".code") for n in names) and any(n.endswith(".release") for n in names)
    return names


def forged(name: str, mark: Path) -> bytes:
    """An entry an attacker plants under ``name``, sealed as kcompat seals its own."""
    if name.endswith(".code"):
        code = compile(f"open({str(mark)!r}, 'w').write('ran')\n", "<kcompat codec>", "exec")
        return seal(name, marshal.dumps(code))
    facts = {"name": "WidgetRequest", "kind": "request", "valid": "none", "deprecated": "none"}
    return seal(name, json.dumps({**facts, "unstable": False, "digests": {}}).encode())


def attacked(
    repo: Path,
    folder: Path,
    files: dict[str, bytes],
    *,
    mode: int = 0o700,
    owner: int | None = None,
    file_mode: int = 0o600,
    file_owner: int | None = None,
) -> CliRun:
    """``kcompat diff --staged`` with the cache in ``folder``, attacked as it starts."""
    attack = {
        "folder": str(folder),
        "files": {name: data.hex() for name, data in files.items()},
        "mode": mode,
        "owner": owner,
        "file_mode": file_mode,
        "file_owner": file_owner,
    }
    done = subprocess.run(
        [sys.executable, "-c", ATTACKED, json.dumps(attack), "diff", "--staged"],
        cwd=repo,
        env={**os.environ, **GIT_ENV, "NO_COLOR": "1", "KCOMPAT_CODE_CACHE": str(folder)},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    return CliRun(done.returncode, done.stdout, done.stderr)


ATTACKS = {
    # another user creates the directory after kcompat started, and plants entries
    "directory made by another user": {"owner": OTHER_USER},
    # a directory others may write (shared /tmp-style), whoever made it
    "directory others may write": {"mode": 0o777},
    "directory its group may write": {"mode": 0o770},
    # the directory is the user's own, the planted files are not
    "entries owned by another user": {"file_owner": OTHER_USER},
    "entries others may write": {"file_mode": 0o666},
}


@pytest.mark.parametrize("planted", [".code", ".release"])
@pytest.mark.parametrize("attack", list(ATTACKS))
def test_planted_entries_are_never_run_nor_believed(
    attack: str, planted: str, released_break: Path, tmp_path: Path
) -> None:
    """Planted compiled code is never run; planted release facts are never believed."""
    how = ATTACKS[attack]
    if "owner" in how or "file_owner" in how:
        _needs_root()
    names = [n for n in learned_names(released_break, tmp_path) if n.endswith(planted)]
    mark = tmp_path / "planted-code-ran"
    cold = staged(released_break, KCOMPAT_CODE_CACHE="off")
    folder = tmp_path / "shared" / "kcompat-cache"
    run = attacked(released_break, folder, {n: forged(n, mark) for n in names}, **how)
    assert not mark.exists(), "kcompat ran code another user planted"
    assert (run.code, run.stdout, run.stderr) == (1, cold.stdout, cold.stderr)


def test_the_same_entries_of_the_users_own_would_be_read(
    released_break: Path, tmp_path: Path
) -> None:
    """The control: sealed entries in a private directory of the user's own are what the
    cache reads (so the refusals above are refusals of trust, not of names or format):
    the planted code runs, and the planted release facts hide the break."""
    names = learned_names(released_break, tmp_path)
    mark = tmp_path / "own-code-ran"
    code = {n: forged(n, mark) for n in names if n.endswith(".code")}
    attacked(released_break, tmp_path / "own-code", code)
    assert mark.exists()
    facts = {n: forged(n, mark) for n in names if n.endswith(".release")}
    believed = attacked(released_break, tmp_path / "own-facts", facts)
    assert believed.code == 0 and "why: released in 1.0.0" not in believed.stdout


def test_a_damaged_or_foreign_entry_is_worked_out_again(
    released_break: Path, tmp_path: Path
) -> None:
    """Entries of the user's own that are not whole (cut short, flipped, unsealed, sealed
    for another name) are never loaded: compiled and worked out again, and rewritten."""
    cache = tmp_path / "cache"
    first = staged(released_break, KCOMPAT_CODE_CACHE=str(cache))
    files = sorted(p for p in cache.iterdir() if not p.name.startswith("."))
    other = files[-1].read_bytes()
    for index, path in enumerate(files):
        data = path.read_bytes()
        damaged = [
            b"",
            data[: len(data) // 2],
            data[:-1] + bytes([data[-1] ^ 0x01]),
            data[40:],  # the payload alone: no seal
            marshal.dumps(compile("x = 1", "<kcompat codec>", "exec")),
            other,  # another entry's bytes, sealed for its own name
        ][index % 6]
        path.write_bytes(damaged)
    again = staged(released_break, KCOMPAT_CODE_CACHE=str(cache))
    assert (again.stdout, again.stderr) == (first.stdout, first.stderr)
    assert all(p.read_bytes() != b"" and len(p.read_bytes()) > 64 for p in files)  # rewritten
    assert staged(released_break, KCOMPAT_CODE_CACHE=str(cache)).stdout == first.stdout


def _flip_runs(repo: Path, tmp_path: Path, flips: int, seed: int) -> None:
    """``flips`` times: one random bit of one cache file flipped (every file in turn), then
    a run that must print what a cold run prints; the file is put back after."""
    cache = tmp_path / "cache"
    cold = staged(repo, KCOMPAT_CODE_CACHE="off")
    staged(repo, KCOMPAT_CODE_CACHE=str(cache))
    files = sorted(p for p in cache.iterdir() if not p.name.startswith("."))
    kept = {p: p.read_bytes() for p in files}
    chance = random.Random(seed)
    failures = []
    for flip in range(flips):
        path = files[flip % len(files)]
        data = bytearray(kept[path])
        offset = chance.randrange(len(data))
        data[offset] ^= 1 << chance.randrange(8)
        path.write_bytes(bytes(data))
        run = run_process(["diff", "--staged"], repo, env={"KCOMPAT_CODE_CACHE": str(cache)})
        if (run.code, run.stdout, run.stderr) != (1, cold.stdout, cold.stderr):
            failures.append((path.name, offset, run.code, run.stderr[-300:]))
        path.write_bytes(kept[path])
    assert failures == []


def test_flipped_bytes_never_change_a_run(released_break: Path, tmp_path: Path) -> None:
    """A few flips in every cache file (the slow tier flips 150)."""
    _flip_runs(released_break, tmp_path, 12, seed=1)


@pytest.mark.slow
def test_150_flipped_bytes_never_change_a_run(released_break: Path, tmp_path: Path) -> None:
    """One corrupted byte once crashed later runs (5 of 150 random flips segfaulted, 3
    were internal errors): 150 flips, each run as a cold one."""
    _flip_runs(released_break, tmp_path, 150, seed=22)


def test_a_symlink_on_the_way_is_refused(tmp_path: Path) -> None:
    """The directory's path was resolved when the cache was made; a symbolic link found
    on the way later was put there since (by whoever may write a parent): refused."""
    real = tmp_path / "real"
    (real / "cache").mkdir(parents=True, mode=0o700)
    location = Location(tmp_path / "swapped" / "cache")
    (tmp_path / "swapped").symlink_to(real, target_is_directory=True)
    assert open_directory(location) is None
    cache = Cache(location)
    cache.code.store("x = 1\n", compile("x = 1\n", "<kcompat codec>", "exec"))
    assert list((real / "cache").iterdir()) == []
    elsewhere = Cache(Location(tmp_path / "elsewhere"))
    elsewhere.code.store("x = 1\n", compile("x = 1\n", "<kcompat codec>", "exec"))
    name = entry_name(CODE, b"x = 1\n")
    assert elsewhere.code.load("x = 1\n") is not None
    (real / "cache" / name).symlink_to(tmp_path / "elsewhere" / name)
    own = Cache(Location(real / "cache"))
    assert own.trusted_directory() == real / "cache"
    assert own.code.load("x = 1\n") is None  # an entry that is a link is not followed
