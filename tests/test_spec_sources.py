"""A side of a comparison is a :class:`SpecSource`: adding a kind of source is one module
(its class and its parser) plus the parser's entry in ``kcompat.sources.sides.PARSERS``.

Shown here with a source that is not in kcompat: specs read from a zip archive, the shape
a Schema Registry source would have (texts by name from somewhere that is neither a
directory nor git). Registered, every command that takes a side takes it.
"""

from __future__ import annotations

import zipfile
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import pytest

from kcompat.sources import sides
from kcompat.sources.directory import DirectorySource
from kcompat.sources.git import GitRepo
from kcompat.sources.revision import RevisionSource
from kcompat.sources.source import SpecSource
from kcompat.sources.staged import IndexSource
from kcompat.sources.worktree import WorkTreeSource
from tests.conftest import EXAMPLES
from tests.diff_runner import commit_tree, init_repo, run_cli


@dataclass(frozen=True)
class ZipSource:
    """Spec files inside a zip archive (read-only; only what the interface asks)."""

    label: str
    archive: Path
    only: str = ""
    repo: None = None
    commit: None = None
    working_tree = False

    @property
    def whole(self) -> bool:
        return not self.only

    def read(self, path: str) -> bytes | None:
        with zipfile.ZipFile(self.archive) as archive:
            return archive.read(path) if path in archive.namelist() else None

    def paths(self, pathspecs: Sequence[str] = ()) -> list[str]:
        with zipfile.ZipFile(self.archive) as archive:
            names = [n for n in archive.namelist() if n.endswith(".json")]
        return [n for n in names if n == self.only] if self.only else sorted(names)

    def changed_since(self, commit: str, pathspecs: Sequence[str] = ()) -> list[str] | None:
        return None  # not git: every file is a candidate

    def shown(self, path: str) -> str:
        return f"{self.label}!{path}"

    def path_of(self, shown: str) -> str | None:
        prefix = f"{self.label}!"
        return shown.removeprefix(prefix) if shown.startswith(prefix) else None

    def reference(self, path: str) -> str:
        return self.shown(path)

    def restricted(self, path: str) -> SpecSource:
        return replace(self, only=path)


def parse_zip(text: str, repo: GitRepo | None) -> ZipSource | None:
    """The parser entry: ``zip:ARCHIVE``."""
    return ZipSource(text, Path(text.removeprefix("zip:"))) if text.startswith("zip:") else None


def test_a_new_source_is_one_module_and_its_parser_entry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    archive = tmp_path / "released.zip"
    with zipfile.ZipFile(archive, "w") as out:
        for spec in EXAMPLES.glob("*.json"):
            out.write(spec, spec.name)
    monkeypatch.setattr(sides, "PARSERS", (parse_zip, *sides.PARSERS))
    head = EXAMPLES.parent / "examples-v2"
    run = run_cli(["diff", f"zip:{archive}", str(head), "--format", "json"], tmp_path)
    assert run.code == 1, run.stderr
    via_zip = {(f["rule"], f["message_name"]) for f in run.findings()}
    plain = run_cli(["diff", str(EXAMPLES), str(head), "--format", "json"], tmp_path)
    assert via_zip == {(f["rule"], f["message_name"]) for f in plain.findings()} != set()
    drift = run_cli(["drift", f"zip:{archive}", str(EXAMPLES)], tmp_path)
    assert drift.code == 0, drift.stdout + drift.stderr


def test_every_source_is_a_spec_source(tmp_path: Path) -> None:
    """Each of kcompat's own sides is held through the interface only (mypy checks the
    assignments; the run checks what each says it is)."""
    repo = init_repo(tmp_path / "repo")
    commit_tree(repo, {p.name: p.read_text(encoding="utf-8") for p in EXAMPLES.glob("*")}, "b")
    opened = GitRepo.open(repo)
    head = opened.head_sha()
    found: list[SpecSource] = [
        DirectorySource("specs", EXAMPLES),
        RevisionSource("HEAD", opened, head),
        IndexSource(opened),
        WorkTreeSource(opened),
    ]
    assert [(s.repo is not None, s.commit) for s in found] == [
        (False, None),
        (True, head),
        (True, None),
        (True, None),
    ]
    for source in found:
        assert "WidgetRequest.json" in source.paths(), source.label
        assert source.read("WidgetRequest.json") == (EXAMPLES / "WidgetRequest.json").read_bytes()
        one = source.restricted("WidgetRequest.json")
        assert not one.whole and one.paths() == ["WidgetRequest.json"], source.label
