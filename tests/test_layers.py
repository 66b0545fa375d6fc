"""The package's layers hold by construction: import-linter's contracts (pyproject.toml,
``[tool.importlinter]``) pass, and an import that climbs a layer, inside a function
included, fails them."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tests.conftest import ROOT


def _lint_imports() -> str:
    found = Path(sys.executable).with_name("lint-imports")
    if found.is_file():
        return str(found)
    on_path = shutil.which("lint-imports")
    if on_path is None:
        pytest.skip("import-linter is not installed (the dev extra installs it)")
    return on_path


def _run(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [_lint_imports(), "--no-cache"],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(root)},
    )


def test_the_layer_contracts_are_kept() -> None:
    done = _run(ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"][
        "importlinter"
    ]["contracts"]
    assert f"Contracts: {len(contracts)} kept, 0 broken." in done.stdout


def test_an_import_inside_a_function_that_climbs_a_layer_breaks_them(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "kcompat", tmp_path / "kcompat", ignore=shutil.ignore_patterns("*.pyc"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    model = tmp_path / "kcompat" / "spec" / "versions.py"
    model.write_text(
        model.read_text(encoding="utf-8")
        + "\n\ndef _climbs() -> None:\n    from kcompat.rules import registry  # noqa: F401\n",
        encoding="utf-8",
    )
    done = _run(tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "kcompat.spec is not allowed to import kcompat.rules" in done.stdout
    assert "kcompat.spec.versions -> kcompat.rules.registry" in done.stdout


def test_importing_json5_in_kcompat_breaks_them(tmp_path: Path) -> None:
    """json5 is the loader's test oracle (the dev extra): kcompat itself never needs it."""
    shutil.copytree(ROOT / "kcompat", tmp_path / "kcompat", ignore=shutil.ignore_patterns("*.pyc"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    load = tmp_path / "kcompat" / "spec" / "load.py"
    load.write_text(
        load.read_text(encoding="utf-8")
        + "\n\ndef _oracle() -> None:\n    import json5  # noqa: F401\n",
        encoding="utf-8",
    )
    done = _run(tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "kcompat.spec.load -> json5" in done.stdout
