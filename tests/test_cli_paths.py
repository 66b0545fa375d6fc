"""Every command echoes a path as the user typed it (issue 27.7).

``kcompat lint /nope`` run two folders down once said ``../../nope``: a path worked out
from the working directory, which the user never typed and has to translate back. Here
each command runs as a real process, from a directory two levels below the temp root,
on absolute paths and on ``../`` paths, and every path in its output must be the one
given (or, for a file inside a named folder, that folder as given plus the file's name).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import EXAMPLES, ROOT
from tests.diff_runner import GIT_ENV, KCOMPAT, git

V2 = ROOT / "specs" / "examples-v2"


@pytest.fixture()
def place(tmp_path: Path) -> Path:
    """``tmp/a/b`` (where kcompat runs), with ``tmp/old`` and ``tmp/new`` holding the
    example protocol and its careless edit, ``tmp/bad.json`` a spec that is not JSON and
    ``tmp/broken`` the example protocol with it."""
    shutil.copytree(EXAMPLES, tmp_path / "old", ignore=shutil.ignore_patterns("*.md"))
    shutil.copytree(V2, tmp_path / "new", ignore=shutil.ignore_patterns("*.md"))
    (tmp_path / "bad.json").write_text('{"name": "BadRequest", "validVersions": "0",\n')
    shutil.copytree(tmp_path / "old", tmp_path / "broken")
    shutil.copy(tmp_path / "bad.json", tmp_path / "broken" / "BadRequest.json")
    (tmp_path / "unused.toml").write_text(
        '[[ignore]]\nrule = "field-removed"\nmessage = "Nope"\nreason = "a test"\n'
    )
    cwd = tmp_path / "a" / "b"
    cwd.mkdir(parents=True)
    git(cwd, "init", "-q", "-b", "main")  # configuration lookup stops here
    return tmp_path


def run(cwd: Path, *args: str, stdin: str = "") -> str:
    done = subprocess.run(
        [str(KCOMPAT), *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        env={**os.environ, **GIT_ENV, "NO_COLOR": "1", "COLUMNS": "200"},
        check=False,
        timeout=120,
    )
    assert "Traceback" not in done.stderr, done.stderr
    return done.stdout + done.stderr


def paths_in(output: str) -> set[str]:
    """Every path-like word of the output (what a file:line:col or an error starts with)."""
    words = (w.strip("()'\",:;") for w in output.split())
    return {w.split(":", 1)[0] for w in words if "/" in w and not w.startswith("http")}


@pytest.mark.parametrize("spelling", ["absolute", "relative"])
def test_every_command_echoes_paths_as_typed(place: Path, spelling: str) -> None:
    cwd = place / "a" / "b"

    def typed(name: str) -> str:
        return str(place / name) if spelling == "absolute" else f"../../{name}"

    old, new, bad, nope = typed("old"), typed("new"), typed("bad.json"), typed("nope")
    outputs = {
        "lint missing": run(cwd, "lint", nope),
        "lint not JSON": run(cwd, "lint", bad),
        "lint folder": run(cwd, "lint", typed("broken")),
        "diff": run(cwd, "diff", old, new, "--no-proof"),
        "diff missing": run(cwd, "diff", old, nope),
        "drift": run(cwd, "drift", old, new),
        "changelog": run(cwd, "changelog", old, new),
        "explain": run(cwd, "explain", "NoSuchMessage", "--specs", old),
        "explain missing": run(cwd, "explain", "WidgetRequest", "--specs", nope),
        "encode": run(cwd, "encode", "WidgetRequestHeader", "--version", "1", "--specs", old, nope),
        "config": run(
            cwd,
            "diff",
            old,
            new,
            "--no-proof",
            "--config",
            typed("unused.toml"),
            "--report-unused-ignores",
        ),
        "report": run(cwd, "report", nope, "-o", typed("x.html")),
    }
    prefix = str(place) if spelling == "absolute" else "../.."
    for what, output in outputs.items():
        shown = paths_in(output)
        assert shown, f"{what}: no path in\n{output}"
        for path in shown - {str(cwd)}:  # the repository kcompat found (not typed)
            assert path.startswith(prefix + "/"), f"{what}: {path!r} in\n{output}"
            assert "../../.." not in path and "/a/b/" not in path, f"{what}: {path!r}"
    assert f"{nope}: no such file or directory" in outputs["lint missing"]
    assert f"{bad}:2:1: error [invalid-json]" in outputs["lint not JSON"]
    assert f"{typed('broken')}/BadRequest.json:2:1: error" in outputs["lint folder"]
    assert f"{new}/WidgetResponse.json:" in outputs["diff"]
    assert f"{typed('unused.toml')}:1:1: warning [unused-ignore]" in outputs["config"]


def test_a_repository_s_files_are_shown_as_git_shows_them(place: Path) -> None:
    """Files kcompat finds in a repository (not typed): from the working directory when
    it is inside the working tree (``../specs/x.json`` from a subfolder), else relative
    to the repository, whichever way ``--repo`` was spelt."""
    repo = place / "repo"
    shutil.copytree(EXAMPLES, repo / "specs", ignore=shutil.ignore_patterns("*.md"))
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "base")
    for spec in V2.glob("*.json"):
        shutil.copy(spec, repo / "specs" / spec.name)
    (repo / "docs").mkdir()
    line = "WidgetResponse.json:45:49: error [field-added]"
    assert f"\nspecs/{line}" in "\n" + run(repo, "diff", "HEAD", "--no-proof")
    assert f"\n../specs/{line}" in "\n" + run(repo / "docs", "diff", "HEAD", "--no-proof")
    for spelling in (str(repo), "../../repo"):
        outside = run(place / "a" / "b", "diff", "HEAD", "--repo", spelling, "--no-proof")
        assert f"\nspecs/{line}" in "\n" + outside, outside
