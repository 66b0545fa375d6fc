"""What release texts say, kept between command-line runs
(:mod:`kcompat.sources.release_texts`): the second pre-commit run reads the ledger's facts
and layout digests instead of parsing every release again, with the same findings; a
damaged entry is worked out again; and an entry is read only by the code that wrote it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kcompat.cache import Cache, Location, entries
from kcompat.sources import release_texts
from kcompat.sources.release_texts import ReleaseTexts
from kcompat.spec.shape import release_layout
from kcompat.spec.specfile import read_spec
from tests.conftest import EXAMPLES
from tests.diff_runner import CliRun, commit_tree, git, init_repo, run_process

SUFFIX = entries.RELEASE.suffix

BREAK = ('"name": "TimeoutMs", "type": "int32"', '"name": "TimeoutMs", "type": "int64"')
WIDGET = "WidgetRequest.json"


@pytest.fixture()
def released_break(tmp_path: Path) -> Path:
    """Release 1.0.0 tagged, then a break of its WidgetRequest staged."""
    repo = init_repo(tmp_path / "repo")
    git(repo, "commit", "-q", "--allow-empty", "-m", "start of history")
    commit_tree(
        repo, {p.name: p.read_text(encoding="utf-8") for p in EXAMPLES.glob("*.json")}, "base"
    )
    git(repo, "tag", "1.0.0")
    spec = repo / WIDGET
    spec.write_text(spec.read_text(encoding="utf-8").replace(*BREAK), encoding="utf-8")
    git(repo, "add", WIDGET)
    return repo


def _staged(repo: Path, cache: Path) -> CliRun:
    run = run_process(["diff", "--staged"], repo, env={"KCOMPAT_CODE_CACHE": str(cache)})
    assert run.code == 1, run.stderr
    assert "why: released in 1.0.0" in run.stdout
    return run


def _entries(cache: Path) -> dict[str, int]:
    return {p.name: p.stat().st_mtime_ns for p in cache.glob(f"*{SUFFIX}")}


def test_a_second_run_reads_what_the_first_worked_out(released_break: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    first = _staged(released_break, cache)
    stored = _entries(cache)
    assert stored, "the first run kept the release texts' facts"
    second = _staged(released_break, cache)
    assert _entries(cache) == stored  # read, not written again
    assert second.stdout == first.stdout
    cold = run_process(["diff", "--staged"], released_break, env={"KCOMPAT_CODE_CACHE": "off"})
    assert cold.stdout == first.stdout


def test_a_damaged_entry_is_worked_out_again(released_break: Path, tmp_path: Path) -> None:
    """Sealed, but not what an entry holds (as a kcompat with a bug might write), or not
    sealed at all: worked out again, and written whole."""
    cache = tmp_path / "cache"
    first = _staged(released_break, cache)
    damage = [b"", b"{", b'{"name": 5}', b'{"name": "W", "kind": "request", "valid": "x"}']
    for index, entry in enumerate(sorted(cache.glob(f"*{SUFFIX}"))):
        payload = damage[index % len(damage)]
        entry.write_bytes(entries.seal(entry.name, payload) if index % 2 else payload)
    assert _staged(released_break, cache).stdout == first.stdout
    assert all(p.stat().st_size > 100 for p in cache.glob(f"*{SUFFIX}"))  # written again


def test_an_entry_is_read_only_by_the_code_that_wrote_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A digest compares only with digests the same code made: an edited or upgraded
    kcompat (another size or time of a module) parses the release again."""
    cache = Cache(Location(tmp_path / "cache"))
    data = (EXAMPLES / WIDGET).read_bytes()
    written = ReleaseTexts(cache)
    text = written.text(data, WIDGET)
    assert text is not None
    digest = written.digest(text, 1)
    written.save()

    parsed: list[str] = []

    def counting(path: str, raw: bytes) -> object:
        parsed.append(path)
        return read_spec(path, raw)

    monkeypatch.setattr(release_texts, "read_spec", counting)
    again = ReleaseTexts(cache)
    found = again.text(data, WIDGET)
    assert found == text and again.digest(found, 1) == digest and parsed == []

    message = read_spec(WIDGET, data).message
    assert message is not None
    assert digest == release_layout(message, 1)

    monkeypatch.setattr(entries, "code_fingerprint", lambda: "another kcompat")
    other = ReleaseTexts(cache)
    found = other.text(data, WIDGET)
    assert found is not None and found == text and parsed == [WIDGET]
    assert other.digest(found, 1) == digest
