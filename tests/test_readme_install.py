"""The README's install snippets name what exists (issue 27.15).

There is no release yet: no version tag for ``rev:`` or ``uses: ...@``, nothing on PyPI
for ``pip install kcompat``. Until there is, the snippets pin a commit of the repository
(``<commit>``, its full SHA) and say so; these tests check that no snippet names a tag
or a package index, and that the pinned forms work with a commit as they are written:
pre-commit's own ``autoupdate --bleeding-edge --freeze`` fills in ``rev`` with a commit,
pre-commit runs the hooks at that commit, and pip installs kcompat from the repository
at a commit. A local clone of this repository stands in for GitHub.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.diff_runner import GIT_ENV, git, init_repo
from tests.test_readme import blocks
from tests.test_readme_ci import example

URL = "https://github.com/kcompat/kcompat"
#: what would name a release that does not exist: a version tag, or PyPI
NOT_YET = [
    (re.compile(r"\brev:\s*v?\d+\.\d+"), "a version tag as rev"),
    (re.compile(r"kcompat/kcompat@v?\d"), "a version tag of the action"),
    (
        re.compile(r"pip install (?:-\S+ )*['\"]?kcompat(?:\[[\w,]+\])?['\"]?(?!\S* @ git\+)"),
        "PyPI",
    ),
]


def _snippets() -> list[tuple[str, str]]:
    found = [(b.name, b.body) for b in blocks() if b.lang in ("sh", "yaml", "console")]
    found.append((".pre-commit-hooks.yaml", (ROOT / ".pre-commit-hooks.yaml").read_text()))
    return found


def test_no_snippet_names_a_release_that_does_not_exist() -> None:
    for name, text in _snippets():
        for pattern, what in NOT_YET:
            match = pattern.search(text)
            assert match is None, f"{name}: {match.group(0)!r} names {what}, which does not exist"
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "kcompat has no release yet" in readme
    assert example("workflow").count("kcompat/kcompat@<commit>") == 1
    assert "rev: <commit>" in example("pre-commit")
    assert f'"kcompat @ git+{URL}@<commit>"' in example("gitlab")


def _clone(tmp_path: Path) -> tuple[Path, str]:
    """A clone of this repository (what GitHub serves) and its HEAD commit."""
    if subprocess.run(["git", "-C", str(ROOT), "rev-parse"], capture_output=True).returncode:
        pytest.skip("the project is not a git checkout")
    clone = tmp_path / "kcompat"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True, capture_output=True)
    return clone, git(clone, "rev-parse", "HEAD").strip()


def _pre_commit() -> str:
    found = shutil.which("pre-commit", path=str(Path(sys.executable).parent))
    if found is None:
        pytest.skip("pre-commit is not installed (it comes with the dev extra)")
    return found


def _user_repo(tmp_path: Path, config: str) -> Path:
    repo = init_repo(tmp_path / "user")
    (repo / ".pre-commit-config.yaml").write_text(config, encoding="utf-8")
    git(repo, "add", ".pre-commit-config.yaml")
    git(repo, "commit", "-q", "-m", "pre-commit")
    return repo


def test_pre_commit_fills_in_the_commit(tmp_path: Path) -> None:
    """The README's command turns ``rev: <commit>`` into the newest commit's SHA."""
    clone, head = _clone(tmp_path)
    config = example("pre-commit").replace(URL, str(clone)) + "\n"
    repo = _user_repo(tmp_path, config)
    done = subprocess.run(
        [_pre_commit(), "autoupdate", "--bleeding-edge", "--freeze"],
        cwd=repo,
        env={**os.environ, **GIT_ENV, "PRE_COMMIT_HOME": str(tmp_path / "home")},
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    written = (repo / ".pre-commit-config.yaml").read_text(encoding="utf-8")
    assert re.search(rf"^\s+rev: {head}\b", written, re.MULTILINE), written


@pytest.mark.slow
def test_the_hooks_run_from_a_commit(tmp_path: Path) -> None:
    """``rev`` a commit's SHA, as the README says: pre-commit installs kcompat from the
    repository at that commit and runs both hooks."""
    clone, head = _clone(tmp_path)
    config = example("pre-commit").replace(URL, str(clone)).replace("<commit>", head) + "\n"
    repo = _user_repo(tmp_path, config)
    done = subprocess.run(
        [_pre_commit(), "run", "--all-files"],
        cwd=repo,
        env={
            **os.environ,
            **GIT_ENV,
            "PRE_COMMIT_HOME": str(tmp_path / "home"),
            "PATH": f"{Path(sys.executable).parent}:{os.defpath}",
        },
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    if done.returncode not in (0, 1):  # pre-commit's own failure (pip offline): exit 3
        last = ((done.stdout + done.stderr).strip().splitlines() or ["no output"])[-1]
        pytest.skip(f"pre-commit could not set up the hooks (exit {done.returncode}): {last}")
    assert done.returncode == 0, done.stdout
    assert "kcompat lint" in done.stdout and "kcompat diff" in done.stdout


@pytest.mark.slow
def test_pip_installs_from_the_repository_at_a_commit(tmp_path: Path) -> None:
    """The README's ``pip install "kcompat @ git+URL@<commit>"``, with a commit."""
    clone, head = _clone(tmp_path)
    git(clone, "commit", "-q", "--allow-empty", "-m", "after the pinned commit")
    target = tmp_path / "site"
    # file://localhost/...: pip's requirement parser wants a host in a file URL
    requirement = f"kcompat @ git+file://localhost{clone}@{head}"
    command = [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target"]
    done = subprocess.run(
        [*command, str(target), requirement],
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    if done.returncode != 0 and "setuptools" in done.stderr:  # no index to build from
        pytest.skip(f"pip could not build here: {done.stderr.strip()[-300:]}")
    assert done.returncode == 0, done.stderr
    installed = target / "kcompat" / "__init__.py"
    assert installed.is_file()
    dist = next(target.glob("kcompat-*.dist-info"))
    direct = (dist / "direct_url.json").read_text()
    assert head in direct  # the commit asked for, not the clone's newer HEAD
