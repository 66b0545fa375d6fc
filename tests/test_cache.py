"""The user's disk cache (:mod:`kcompat.cache`) through the CLI: the second pre-commit run
reads what the first compiled and worked out, with the same findings; nothing is written
when turned off, inside a git working tree (symbolic links resolved), or by creating a
missing home directory; the directory is the platform's (platformdirs); and it stays
bounded. What it refuses to trust is in ``test_cache_trust.py``.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from platformdirs.macos import MacOS
from platformdirs.unix import Unix

from kcompat.cache import CODE, Cache, Location, store, user_cache
from kcompat.cache.entries import entry_name
from kcompat.cache.location import entries_location
from tests.cache_runs import entries, released_break_repo, staged, tree
from tests.diff_runner import init_repo


@pytest.fixture()
def released_break(tmp_path: Path) -> Path:
    return released_break_repo(tmp_path / "repo")


def test_a_second_run_reads_what_the_first_kept(released_break: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    first = staged(released_break, KCOMPAT_CODE_CACHE=str(cache))
    kept = entries(cache)
    assert any(n.endswith(".code") for n in kept) and any(n.endswith(".release") for n in kept)
    second = staged(released_break, KCOMPAT_CODE_CACHE=str(cache))
    assert entries(cache) == kept  # read, not written again
    assert second.stdout == first.stdout
    assert staged(released_break, KCOMPAT_CODE_CACHE="off").stdout == first.stdout


def test_turned_off_nothing_is_written(released_break: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    staged(released_break, KCOMPAT_CODE_CACHE="off", HOME=str(home), XDG_CACHE_HOME="")
    assert tree(home) == []


def test_the_default_is_the_platforms_cache_directory(released_break: Path, tmp_path: Path) -> None:
    """platformdirs names it: ``~/.cache/kcompat`` (or ``$XDG_CACHE_HOME/kcompat``) here,
    ``~/Library/Caches/kcompat`` on macOS; the entries are in ``codec/`` below it."""
    home = tmp_path / "home"
    home.mkdir()
    staged(released_break, KCOMPAT_CODE_CACHE="", HOME=str(home), XDG_CACHE_HOME="")
    assert entries(home / ".cache" / "kcompat" / "codec")
    xdg = tmp_path / "xdg"
    staged(released_break, KCOMPAT_CODE_CACHE="", XDG_CACHE_HOME=str(xdg))
    assert entries(xdg / "kcompat" / "codec")
    assert (xdg / "kcompat" / "codec").stat().st_mode & 0o777 == 0o700


def test_where_the_cache_goes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setenv("KCOMPAT_CODE_CACHE", "OFF")
    assert entries_location() is None and user_cache() is None
    monkeypatch.setenv("KCOMPAT_CODE_CACHE", str(tmp_path / "mine"))
    assert entries_location() == Location(tmp_path / "mine", home)
    monkeypatch.setenv("KCOMPAT_CODE_CACHE", "")
    codec = Path("kcompat", "codec")
    assert entries_location() == Location(home / ".cache" / codec, home)
    mac = MacOS("kcompat", appauthor=False)
    assert entries_location(mac) == Location(home / "Library" / "Caches" / codec, home)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert entries_location() == Location(tmp_path / "xdg" / codec, home)
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/cache")  # ignored, as XDG says
    linux = Unix("kcompat", appauthor=False)
    assert entries_location(linux) == Location(home / ".cache" / codec, home)
    init_repo(tmp_path / "dotfiles")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "dotfiles" / ".cache"))
    assert entries_location() is None


def test_nothing_is_written_into_a_repository(released_break: Path) -> None:
    """A home directory that is a git working tree (dotfiles): the cache would be inside
    the user's repository, so there is none."""
    before = tree(released_break)
    staged(released_break, KCOMPAT_CODE_CACHE="", HOME=str(released_break), XDG_CACHE_HOME="")
    staged(released_break, KCOMPAT_CODE_CACHE=str(released_break / "cache"))
    assert tree(released_break) == before


@pytest.mark.parametrize("variable", ["XDG_CACHE_HOME", "KCOMPAT_CODE_CACHE"])
def test_a_symlink_into_a_repository_is_seen_through(
    variable: str, released_break: Path, tmp_path: Path
) -> None:
    """``$XDG_CACHE_HOME`` (or ``KCOMPAT_CODE_CACHE``) a symbolic link to a folder of a
    working tree: resolved before the check, so nothing is written there."""
    inside = released_break / "build" / "cache"
    inside.mkdir(parents=True)
    link = tmp_path / "linked-cache"
    link.symlink_to(inside, target_is_directory=True)
    before = tree(released_break)
    env = {"KCOMPAT_CODE_CACHE": "", "XDG_CACHE_HOME": "", variable: str(link)}
    cold = staged(released_break, KCOMPAT_CODE_CACHE="off")
    assert staged(released_break, **env).stdout == cold.stdout
    assert tree(released_break) == before


def test_a_missing_home_is_never_created(released_break: Path, tmp_path: Path) -> None:
    """``$HOME`` names a directory that does not exist (a misconfigured CI account): no
    cache, and no home made for it; the run is as right, only colder."""
    home = tmp_path / "gone" / "home"
    cold = staged(released_break, KCOMPAT_CODE_CACHE="off")
    run = staged(released_break, KCOMPAT_CODE_CACHE="", HOME=str(home), XDG_CACHE_HOME="")
    assert run.stdout == cold.stdout
    assert not home.exists() and not home.parent.exists()
    # XDG_CACHE_HOME inside the missing home: the same
    inside = {"HOME": str(home), "XDG_CACHE_HOME": str(home / ".cache")}
    assert staged(released_break, KCOMPAT_CODE_CACHE="", **inside).stdout == cold.stdout
    assert not home.parent.exists()


def test_a_chosen_directory_is_made_private(released_break: Path, tmp_path: Path) -> None:
    made = tmp_path / "new" / "cache"
    staged(released_break, KCOMPAT_CODE_CACHE=str(made))
    assert entries(made)
    assert made.stat().st_mode & 0o777 == 0o700
    assert all((made / name).stat().st_mode & 0o777 == 0o600 for name in entries(made))


def test_stored_code_is_found_by_its_source_only(tmp_path: Path) -> None:
    cache = Cache(Location(tmp_path / "cache"))
    code = compile("x = 1\n", "<kcompat codec>", "exec")
    cache.code.store("x = 1\n", code)
    assert cache.code.load("x = 1\n") == code
    assert cache.code.load("x = 2\n") is None
    with Cache(Location(tmp_path / "cache")) as again:  # another command, later
        assert again.code.load("x = 1\n") == code


def test_an_unwritable_directory_is_left_alone(tmp_path: Path) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("not a directory")
    cache = Cache(Location(blocked / "cache"))
    cache.code.store("x = 1\n", compile("x = 1\n", "<kcompat codec>", "exec"))  # no error
    assert cache.code.load("x = 1\n") is None
    assert cache.trusted_directory() is None


def test_the_directory_stays_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store, "MAX_FILES", 8)
    monkeypatch.setattr(store, "PRUNE_EVERY", 1)
    folder = tmp_path / "cache"
    cache = Cache(Location(folder))
    sources = [f"x = {i}\n" for i in range(9)]
    for age, source in enumerate(sources):
        cache.code.store(source, compile(source, "<kcompat codec>", "exec"))
        path = folder / entry_name(CODE, source.encode())
        if path.exists():
            os.utime(path, ns=(age * 10**9, age * 10**9))
    kept = set(entries(folder))
    assert len(kept) == 6  # past 8, the oldest go down to three quarters
    assert entry_name(CODE, sources[-1].encode()) in kept
    assert entry_name(CODE, sources[0].encode()) not in kept
    assert not [p for p in folder.iterdir() if p.name.endswith(".partial")]


def test_partial_files_left_by_a_dead_writer_go(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store, "PRUNE_EVERY", 1)
    folder = tmp_path / "cache"
    cache = Cache(Location(folder))
    cache.code.store("x = 0\n", compile("x = 0\n", "<kcompat codec>", "exec"))
    stale, fresh = folder / ".a.code.99.partial", folder / ".b.code.98.partial"
    for path in (stale, fresh):
        path.write_bytes(b"half")
        path.chmod(0o600)
    os.utime(stale, (0, 0))
    cache.code.store("x = 1\n", compile("x = 1\n", "<kcompat codec>", "exec"))
    assert not stale.exists() and fresh.exists()
