"""``kcompat lsp`` as a command: the optional dependency, and what the CLI does not pay.

pygls comes with the ``lsp`` extra. Without it, ``kcompat lsp`` says how to install it in
one line and exits 2; every other command runs without importing it, so the extra costs
the CLI nothing.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run_python(code: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code], cwd=cwd, capture_output=True, text=True, timeout=60
    )


def test_without_the_extra_lsp_exits_2_with_the_install_line(tmp_path: Path) -> None:
    """pygls missing (as if the extra were not installed): one line, exit 2."""
    done = run_python(
        "import sys; sys.modules['pygls'] = None; sys.argv = ['kcompat', 'lsp']\n"
        "from kcompat.cli import run; run()",
        tmp_path,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == (
        "kcompat: error: kcompat lsp needs pygls: "
        'pip install "kcompat[lsp] @ git+https://github.com/kcompat/kcompat@<commit>"\n'
    )


def test_other_commands_never_import_pygls(tmp_path: Path) -> None:
    """lint and --help run without importing pygls or lsprotocol."""
    examples = ROOT / "specs" / "examples"
    done = run_python(
        "import sys\n"
        "from kcompat.cli import main\n"
        f"main(['lint', {str(examples)!r}])\n"
        "main(['--help'])\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pygls', 'lsprotocol')))",
        tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "[]"
    assert "lsp" in done.stderr + done.stdout  # --help lists the command


def test_lsp_help_names_the_transport(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "kcompat", "lsp", "--help"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0
    assert "--stdio" in done.stdout
