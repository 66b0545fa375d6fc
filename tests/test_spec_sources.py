"""A side of a comparison is a :class:`SpecSource`: adding a kind of source is one module
(its class and its parser) plus the parser's entry in ``kcompat.sources.sides.PARSERS``.

Shown here with a source that is not in kcompat: specs read from a zip archive, the shape
a Schema Registry source would have (texts by name from somewhere that is neither a
directory nor git). Registered, every command that takes a side takes it.
"""

from __future__ import annotations

import tarfile
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
from tests.diff_runner import CliRun, commit_tree, init_repo, run_cli


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


# -- a source for every command: one module and one line ------------------------------------
@dataclass(frozen=True)
class TarSource:
    """Spec files inside a tarball (``tar:specs.tar.gz``), defined only here: what a new
    kind of source is, the one module (and its entry in ``sides.PARSERS``, the one line)."""

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
        with tarfile.open(self.archive) as archive:
            try:
                member = archive.extractfile(path)
            except KeyError:
                return None
            return member.read() if member is not None else None

    def paths(self, pathspecs: Sequence[str] = ()) -> list[str]:
        with tarfile.open(self.archive) as archive:
            names = sorted(m.name for m in archive.getmembers() if m.name.endswith(".json"))
        return [n for n in names if n == self.only] if self.only else names

    def changed_since(self, commit: str, pathspecs: Sequence[str] = ()) -> list[str] | None:
        return None

    def shown(self, path: str) -> str:
        return f"{self.label}/{path}"

    def path_of(self, shown: str) -> str | None:
        prefix = f"{self.label}/"
        return shown.removeprefix(prefix) if shown.startswith(prefix) else None

    def reference(self, path: str) -> str:
        return self.shown(path)

    def restricted(self, path: str) -> SpecSource:
        return replace(self, only=path)


def parse_tar(text: str, repo: GitRepo | None) -> TarSource | None:
    return TarSource(text, Path(text.removeprefix("tar:"))) if text.startswith("tar:") else None


@pytest.fixture()
def tarball(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """The examples in ``examples.tar.gz``, with a template beside them, and the source
    registered: the one line."""
    archive = tmp_path / "examples.tar.gz"
    template = tmp_path / "page.json"
    template.write_text('{"apiKey": {{ api_key }}}\n')
    with tarfile.open(archive, "w:gz") as out:
        for spec in sorted(EXAMPLES.glob("*.json")):
            out.add(spec, spec.name)
        out.add(template, "docs/page.json")
    monkeypatch.setattr(sides, "PARSERS", (parse_tar, *sides.PARSERS))
    return f"tar:{archive}"


def test_a_tarball_source_works_for_every_command(tarball: str, tmp_path: Path) -> None:
    head = str(EXAMPLES.parent / "examples-v2")
    lint = run_cli(["lint", tarball, "--format", "json"], tmp_path)
    plain_lint = run_cli(["lint", str(EXAMPLES), "--format", "json"], tmp_path)
    assert lint.code == plain_lint.code == 0, lint.stderr
    assert lint.json()["summary"] == plain_lint.json()["summary"]
    assert "page.json" in lint.stderr  # the template: left out, and said so
    diff = run_cli(["diff", tarball, head, "--format", "json", "--no-proof"], tmp_path)
    plain = run_cli(["diff", str(EXAMPLES), head, "--format", "json", "--no-proof"], tmp_path)
    assert diff.code == plain.code == 1
    assert _said(diff) == _said(plain) != set()
    changelog = run_cli(["changelog", tarball, head, "--format", "json"], tmp_path)
    plain_changelog = run_cli(["changelog", str(EXAMPLES), head, "--format", "json"], tmp_path)
    assert changelog.code == plain_changelog.code == 0, changelog.stderr
    assert changelog.stdout.replace(tarball, str(EXAMPLES)) == plain_changelog.stdout
    drift = run_cli(["drift", tarball, str(EXAMPLES)], tmp_path)
    assert drift.code == 0, drift.stdout + drift.stderr
    explained = run_cli(["explain", "WidgetRequest", "--specs", tarball, "-f", "json"], tmp_path)
    assert explained.code == 0, explained.stderr
    assert explained.json()["messages"][0]["path"] == f"{tarball}/WidgetRequest.json"
    against = run_cli(["explain", "WidgetRequest", "--specs", head, "--against", tarball], tmp_path)
    assert against.code == 0, against.stderr
    assert "kcompat diff" in against.stdout
    (tmp_path / "value.json").write_text("{}")
    encode = ["encode", "WidgetRequestHeader", "--version", "0", "value.json", "--specs"]
    encoded = run_cli([*encode, tarball], tmp_path)
    assert encoded.code == 0, encoded.stderr
    assert encoded.stdout == run_cli([*encode, str(EXAMPLES)], tmp_path).stdout != ""


def test_a_tarball_side_of_a_corpus(tarball: str) -> None:
    from kcompat.pipeline.corpus_revision import read_revision

    revision = read_revision(sides.side_for(tarball, None), [])
    assert sorted(path for path, _data, _spec in revision.specs) == sorted(
        p.name for p in EXAMPLES.glob("*.json")
    )


def _said(run: CliRun) -> set[tuple[str, str]]:
    return {(f["rule"], f["message_name"]) for f in run.findings()}
