"""The Action's preflight: an ``install`` input that is the workspace under another
spelling is still the workspace (issue 35.6 on macOS and Windows)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from kcompat.ci.preflight import install_refusal

INSIDE = "inside GITHUB_WORKSPACE"


def _spelling_realpath_keeps(monkeypatch: pytest.MonkeyPatch, alias: Path) -> None:
    """``realpath`` that leaves ``alias`` as written, as macOS's leaves ``/users/me/work``
    for ``/Users/me/Work`` on a case-insensitive disk (here the alias is a link, which
    the disk resolves to the same folder)."""
    real = os.path.realpath

    def keeping(path: str | os.PathLike[str], *args: object, **kwargs: object) -> str:
        text = os.fspath(path)
        if text == str(alias) or text.startswith(f"{alias}{os.sep}"):
            return os.path.normpath(text)
        return real(text)

    monkeypatch.setattr(os.path, "realpath", keeping)


def test_the_workspace_under_another_spelling_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    workspace = tmp_path / "Work"
    (workspace / "tools").mkdir(parents=True)
    alias = tmp_path / "work"
    alias.symlink_to(workspace)
    _spelling_realpath_keeps(monkeypatch, alias)
    for install in (str(alias), f"{alias}/tools", f"{alias}/tools/not-yet-there"):
        refusal = install_refusal(install, str(workspace), str(tmp_path))
        assert refusal is not None and INSIDE in refusal, install


def test_a_folder_beside_the_workspace_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    workspace = tmp_path / "Work"
    workspace.mkdir()
    beside = tmp_path / "tools"
    beside.mkdir()
    _spelling_realpath_keeps(monkeypatch, beside)
    assert install_refusal(str(beside), str(workspace), str(tmp_path)) is None
    assert install_refusal(str(tmp_path / "gone"), str(workspace), str(tmp_path)) is None
