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
    assert len(contracts) >= 4  # layers, the pure core, report renders, json5 for tests only
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


@pytest.mark.parametrize(
    ("module", "line", "broken"),
    [
        ("rules/lint/tags.py", "from rich.console import Console", "kcompat.rules"),
        ("codec/proof.py", "import subprocess", "kcompat.codec"),
        ("report/text.py", "from kcompat.terminal import console_for", "kcompat.report"),
        ("report/markdown.py", "import tempfile", "kcompat.report"),
    ],
    ids=["rules-print", "codec-runs", "report-prints", "report-writes"],
)
def test_the_pure_core_printing_or_running_git_breaks_them(
    tmp_path: Path, module: str, line: str, broken: str
) -> None:
    """The purity sentence of docs/ARCHITECTURE.md, held by the contracts: the core and
    the report renderers never print (rich, the terminal), run git or write files."""
    shutil.copytree(ROOT / "kcompat", tmp_path / "kcompat", ignore=shutil.ignore_patterns("*.pyc"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    source = tmp_path / "kcompat" / module
    source.write_text(
        source.read_text(encoding="utf-8") + f"\n\ndef _impure() -> None:\n    {line}\n",
        encoding="utf-8",
    )
    done = _run(tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr
    assert f"{broken} is not allowed to import" in done.stdout


def test_no_import_cycle_between_modules() -> None:
    """No import cycle between kcompat's modules, imports inside functions and under
    TYPE_CHECKING included (grimp: import-linter's graph). A cycle inside a layer is what
    the layer contracts cannot see; there were three, all of two files: diff.run and
    diff.weakened, cache.code and cache.store, report.config_section and report.markdown."""
    grimp = pytest.importorskip("grimp")
    graph = grimp.build_graph("kcompat", include_external_packages=False, cache_dir=None)
    cycles = sorted(
        (module, *chain)
        for module in graph.modules
        for other in graph.find_modules_directly_imported_by(module)
        if (chain := graph.find_shortest_chain(importer=other, imported=module)) is not None
    )
    assert cycles == []
