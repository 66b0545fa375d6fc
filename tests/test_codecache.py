"""Compiled codec code kept across command-line runs (:mod:`kcompat.codecache`): the
second run of the pre-commit hook reads what the first compiled, with the same findings;
a damaged file is compiled again; nothing is written when turned off or when the cache
would sit inside a git working tree; and the directory stays bounded.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from kcompat import codecache
from kcompat.codecache import CodeCache, cache_directory
from tests.conftest import EXAMPLES
from tests.diff_runner import CliRun, commit_tree, git, init_repo, run_process

BREAK = ('"name": "TimeoutMs", "type": "int32"', '"name": "TimeoutMs", "type": "int64"')


@pytest.fixture()
def staged_break(tmp_path: Path) -> Path:
    """A repository with a breaking change to WidgetRequest staged (the proof runs)."""
    repo = init_repo(tmp_path / "repo")
    commit_tree(
        repo, {p.name: p.read_text(encoding="utf-8") for p in EXAMPLES.glob("*.json")}, "base"
    )
    spec = repo / "WidgetRequest.json"
    spec.write_text(spec.read_text(encoding="utf-8").replace(*BREAK), encoding="utf-8")
    git(repo, "add", "WidgetRequest.json")
    return repo


def _staged(repo: Path, **env: str) -> CliRun:
    run = run_process(["diff", "--staged", "--format", "json"], repo, env=env)
    assert run.code == 1, run.stderr
    assert '"direction": "base->head"' in run.stdout  # the proof ran, and showed the break
    return run


def _files(folder: Path) -> dict[str, float]:
    return {p.name: p.stat().st_mtime_ns for p in folder.glob("*.code")} if folder.exists() else {}


def test_a_second_run_reads_what_the_first_compiled(staged_break: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    first = _staged(staged_break, KCOMPAT_CODE_CACHE=str(cache))
    written = _files(cache)
    assert written, "the first run stored its compiled codecs"
    second = _staged(staged_break, KCOMPAT_CODE_CACHE=str(cache))
    assert _files(cache) == written  # read, not written again
    assert second.stdout == first.stdout
    without = _staged(staged_break, KCOMPAT_CODE_CACHE="off")
    assert without.stdout == first.stdout


def test_a_damaged_file_is_compiled_again(staged_break: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    first = _staged(staged_break, KCOMPAT_CODE_CACHE=str(cache))
    for index, damaged in enumerate(sorted(cache.glob("*.code"))):
        damaged.write_bytes([b"", b"\x00junk", b"N"][index % 3])
    again = _staged(staged_break, KCOMPAT_CODE_CACHE=str(cache))
    assert again.stdout == first.stdout
    assert all(p.stat().st_size > 10 for p in cache.glob("*.code"))  # rewritten whole


def test_turned_off_nothing_is_written(staged_break: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    _staged(staged_break, KCOMPAT_CODE_CACHE="off", HOME=str(home), XDG_CACHE_HOME="")
    assert not any(home.rglob("*"))


def test_the_default_is_the_users_cache_directory(staged_break: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    _staged(staged_break, KCOMPAT_CODE_CACHE="", HOME=str(home), XDG_CACHE_HOME="")
    assert _files(home / ".cache" / "kcompat" / "codec")
    _staged(staged_break, KCOMPAT_CODE_CACHE="", XDG_CACHE_HOME=str(tmp_path / "xdg"))
    assert _files(tmp_path / "xdg" / "kcompat" / "codec")


def test_nothing_is_written_into_a_repository(staged_break: Path) -> None:
    """A home directory that is a git working tree (dotfiles): the cache would be inside
    the user's repository, so there is none."""
    before = sorted(p.relative_to(staged_break) for p in staged_break.rglob("*"))
    _staged(staged_break, KCOMPAT_CODE_CACHE="", HOME=str(staged_break), XDG_CACHE_HOME="")
    _staged(staged_break, KCOMPAT_CODE_CACHE=str(staged_break / "cache"))
    assert sorted(p.relative_to(staged_break) for p in staged_break.rglob("*")) == before


def test_where_the_cache_goes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KCOMPAT_CODE_CACHE", "OFF")
    assert cache_directory() is None
    monkeypatch.setenv("KCOMPAT_CODE_CACHE", str(tmp_path / "mine"))
    assert cache_directory() == tmp_path / "mine"
    monkeypatch.setenv("KCOMPAT_CODE_CACHE", "")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_directory() == tmp_path / "xdg" / "kcompat" / "codec"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/cache")
    assert cache_directory() is None
    init_repo(tmp_path / "dotfiles")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "dotfiles" / ".cache"))
    assert cache_directory() is None


def test_a_directory_others_can_write_is_not_used(staged_break: Path, tmp_path: Path) -> None:
    """Its files would be code the hook runs: a shared or group-writable folder is passed
    over (the run is as right, only colder)."""
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    first = _staged(staged_break, KCOMPAT_CODE_CACHE=str(shared))
    assert _files(shared) == {}
    shared.chmod(0o700)
    second = _staged(staged_break, KCOMPAT_CODE_CACHE=str(shared))
    assert _files(shared) != {}
    assert second.stdout == first.stdout
    made = tmp_path / "new" / "cache"
    _staged(staged_break, KCOMPAT_CODE_CACHE=str(made))
    assert made.stat().st_mode & 0o777 == 0o700


def test_stored_code_is_found_by_its_source_only(tmp_path: Path) -> None:
    cache = CodeCache(tmp_path)
    code = compile("x = 1\n", "<kcompat codec>", "exec")
    cache.store("x = 1\n", code)
    assert cache.load("x = 1\n") == code
    assert cache.load("x = 2\n") is None
    assert CodeCache(None).load("x = 1\n") is None
    (tmp_path / CodeCache.name("x = 1\n")).write_bytes(b"\xe3not marshal")
    assert cache.load("x = 1\n") is None


def test_an_unwritable_directory_is_left_alone(tmp_path: Path) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("not a directory")
    cache = CodeCache(blocked / "cache")
    cache.store("x = 1\n", compile("x = 1\n", "<kcompat codec>", "exec"))  # no error
    assert cache.load("x = 1\n") is None


def test_the_directory_stays_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(codecache, "MAX_FILES", 8)
    monkeypatch.setattr(codecache, "PRUNE_EVERY", 1)
    cache = CodeCache(tmp_path)
    sources = [f"x = {i}\n" for i in range(9)]
    for age, source in enumerate(sources):
        cache.store(source, compile(source, "<kcompat codec>", "exec"))
        path = tmp_path / CodeCache.name(source)
        if path.exists():
            os.utime(path, ns=(age * 10**9, age * 10**9))
    kept = {p.name for p in tmp_path.glob("*.code")}
    assert len(kept) == 6  # past 8, the oldest go down to three quarters
    assert CodeCache.name(sources[-1]) in kept and CodeCache.name(sources[0]) not in kept
    assert not list(tmp_path.glob("*.partial"))
