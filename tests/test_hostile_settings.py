"""Issue 12: configuration of the wrong type, configuration TOML spells differently,
configured paths naming nothing, hostile JSON (5,000-digit integers, 100,000-deep
nesting) for ``encode`` and ``--baseline``, and ``REV:path`` typos: one line naming the
file (or the revision) and what to do, exit 2; never an internal error or a silent pass.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from kcompat.cli import main
from tests.conftest import EXAMPLES, git

ENCODE = ("encode", "WidgetRequest", "--version", "3", "--specs", str(EXAMPLES))


@pytest.fixture()
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A git repository holding the example specs, committed; the working directory."""
    root = tmp_path / "proj"
    shutil.copytree(EXAMPLES, root / "specs")
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "specs")
    monkeypatch.chdir(root)
    return root


def one_line(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(list(args))
    err = capsys.readouterr().err
    lines = err.splitlines()
    assert len(lines) == 1, err
    return code, lines[0]


# -- configuration ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            'severity = "x"',
            "'severity' must be a table ([severity] rule = \"level\"), not a string",
        ),
        (
            "severity = 5",
            "'severity' must be a table ([severity] rule = \"level\"), not an integer",
        ),
        ("[severity]\ninvalid-type = 5", "[severity] invalid-type must be a string"),
        ('disable = "invalid-type"', "'disable' must be a list of rule IDs, not a string"),
        ("disable = [5]", "'disable' must be a list of rule IDs (strings), not an integer 5"),
        ("fail-on = 5", "'fail-on' must be a string, not an integer"),
        ("released = true", "'released' must be a string, not a boolean"),
        ("release-tags = 5", "'release-tags' must be a string, not an integer"),
        ("report-unused-ignores = 1", "'report-unused-ignores' must be true or false, not an"),
    ],
)
@pytest.mark.parametrize("command", [("lint",), ("diff", "HEAD")], ids=["lint", "diff"])
def test_config_of_the_wrong_type_is_one_line(
    project: Path,
    capsys: pytest.CaptureFixture[str],
    text: str,
    expected: str,
    command: tuple[str, ...],
) -> None:
    config = project / "kcompat.toml"
    config.write_text(text + "\n")
    code, line = one_line(capsys, *command)
    assert code == 2
    at = text.count("\n") + 1  # the setting's line: the last of the text here
    assert line.startswith(f"kcompat: error: {config}:{at}: {expected}")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("tool = 5", "'tool' must be a table ([tool.kcompat] holds kcompat's keys)"),
        ("tool.kcompat = 5", "'tool.kcompat' must be a table, not an integer"),
        ('[tool]\nkcompat = ["x"]', "'tool.kcompat' must be a table, not an array"),
    ],
)
def test_pyproject_of_the_wrong_shape_is_one_line(
    project: Path, capsys: pytest.CaptureFixture[str], text: str, expected: str
) -> None:
    config = project / "pyproject.toml"
    config.write_text(text + "\n")
    code, line = one_line(capsys, "lint", "--config", str(config))
    assert (code, line) == (2, f"kcompat: error: {config}: {expected}")


@pytest.mark.parametrize(
    "text",
    [
        '[tool]\nkcompat = { disable = ["no-such-rule"] }',
        'tool.kcompat.disable = ["no-such-rule"]',
        '[tool.kcompat]\ndisable = ["no-such-rule"]',
    ],
    ids=["inline-table", "dotted-keys", "section"],
)
def test_pyproject_kcompat_table_is_found_however_toml_spells_it(
    project: Path, capsys: pytest.CaptureFixture[str], text: str
) -> None:
    config = project / "pyproject.toml"
    config.write_text(text + "\n")
    code, line = one_line(capsys, "lint")  # before: the first two were silently ignored
    assert code == 2
    # the line of the key where it is written as a key (an inline table's is not read)
    at = "" if text.startswith("[tool]\n") else ":2" if text.startswith("[") else ":1"
    assert line.startswith(f"kcompat: error: {config}{at}: unknown rule 'no-such-rule' in disable")


def test_a_pyproject_without_kcompat_that_does_not_parse_is_not_ours(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "pyproject.toml").write_text("[tool.black]\nline-length = [\n")
    assert main(["lint", "specs"]) == 0
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize(
    "command",
    [("lint",), ("diff", "HEAD"), ("explain", "WidgetRequest"), ("diff", "HEAD", "HEAD")],
    ids=["lint", "diff-worktree", "explain", "diff-revisions"],
)
def test_configured_paths_naming_nothing_are_one_line(
    project: Path, capsys: pytest.CaptureFixture[str], command: tuple[str, ...]
) -> None:
    config = project / "kcompat.toml"
    config.write_text('paths = ["spec"]\n')  # a typo of "specs"
    code, line = one_line(capsys, *command)  # before: diff compared nothing and passed
    assert code == 2
    assert line == f"kcompat: error: {config}: paths: 'spec' names nothing in {project}; fix it"


def test_configured_paths_at_head_count_in_a_diff(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "kcompat.toml").write_text('paths = ["specs"]\n')
    shutil.rmtree(project / "specs")  # deleted in the working tree, still at HEAD
    assert main(["diff", "HEAD", "HEAD", "--no-proof"]) == 0
    assert capsys.readouterr().err == ""


# -- hostile JSON -----------------------------------------------------------------------------
HUGE_INT = "9" * 5000
DEEP = "[" * 100_000 + "]" * 100_000


def hostile_json(huge_in: str) -> pytest.MarkDecorator:
    """(text, the error it gets) for a file with a 5,000-digit number (written into
    ``huge_in`` at ``%s``) and for one nested 100,000 deep."""
    return pytest.mark.parametrize(
        ("text", "expected"),
        [
            (huge_in % HUGE_INT, "a number with more than 4300 digits"),
            (DEEP, "JSON nested too deeply to read"),
        ],
        ids=["5000-digits", "100k-deep"],
    )


@hostile_json('{"TimeoutMs": %s}')
def test_encode_of_hostile_json_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, expected: str
) -> None:
    value = tmp_path / "value.json"
    value.write_text(text)
    code, line = one_line(capsys, *ENCODE, str(value))
    assert code == 2
    assert line.startswith(f"kcompat: error: {value}: {expected}")
    assert line.endswith("; give a value as kcompat decode prints it")


@pytest.mark.parametrize("field", ["TimeoutMs", "Weight"], ids=["int32", "float64"])
def test_encode_names_the_size_of_a_huge_integer_not_its_digits(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], field: str
) -> None:
    value = tmp_path / "value.json"
    value.write_text(f'{{"{field}": {"9" * 4000}}}')
    code, line = one_line(capsys, *ENCODE, str(value))
    assert code == 1
    assert "13288-bit integer" in line and "9999" not in line  # before (float64): exit 3


@hostile_json('{"findings": [%s]}')
def test_baseline_of_hostile_json_is_one_line(
    project: Path, capsys: pytest.CaptureFixture[str], text: str, expected: str
) -> None:
    baseline = project.parent / "baseline.json"
    baseline.write_text(text)
    code, line = one_line(capsys, "diff", "HEAD", "--baseline", str(baseline))
    assert code == 2
    assert line.startswith(f"kcompat: error: {baseline}: not a kcompat JSON report: {expected}")
    assert line.endswith("; give a report written by --write-baseline")


# -- REV:path ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("side", "hint"),
    [
        ("HEAD:spec", "git ls-tree --name-only HEAD"),
        ("HEAD:specs/Nope.json", "git ls-tree --name-only HEAD -- specs/"),
    ],
)
def test_a_rev_path_that_is_not_there_names_the_ls_tree_to_run(
    project: Path, capsys: pytest.CaptureFixture[str], side: str, hint: str
) -> None:
    sub = side.partition(":")[2]
    for args in (("diff", side, "HEAD"), ("explain", "WidgetRequest", "--rev", side)):
        code, line = one_line(capsys, *args)  # before: diff compared nothing and passed
        assert (code, line) == (
            2,
            f"kcompat: error: {side}: no {sub!r} at HEAD; see what is there with: {hint}",
        )


def test_a_rev_path_that_is_there_still_compares(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["diff", "HEAD:specs", "HEAD:specs/", "--no-proof"]) == 0
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize(
    ("args", "ceiling"),
    [
        (["diff", "HEAD~1", "HEAD", "--samples", "99999999999"], "1,000"),
        (["diff", "HEAD~1", "HEAD", "--samples=1001"], "1,000"),
        (["history", "--samples", "99999999999"], "1,000"),
        (["corpus", "build", "--rev", "HEAD", "--out", "corpus", "--samples", "10001"], "10,000"),
    ],
)
def test_samples_past_the_ceiling_are_one_line(
    tmp_path: Path, args: list[str], ceiling: str
) -> None:
    """Issue 32.6: ``--samples 99999999999`` ran the proof without end (the Action's
    ``args`` too: ``tests/test_action.py``). Now one line and exit 2 before any work; a
    value at the ceiling is taken."""
    from tests.diff_runner import commit_tree, init_repo, run_process

    repo = init_repo(tmp_path / "repo")
    request = (EXAMPLES / "WidgetRequest.json").read_text(encoding="utf-8")
    commit_tree(repo, {"WidgetRequest.json": request}, "base")
    commit_tree(repo, {"WidgetRequest.json": request.replace('"int32"', '"int64"', 1)}, "head")
    run = run_process(args, repo, timeout=60)
    assert run.code == 2, run.stderr
    value = args[-1].partition("=")[2] or args[-1]
    assert run.stderr.startswith(
        f"kcompat: error: Invalid value for '--samples': {value} is over the ceiling of "
        f"{ceiling} samples per message version"
    ), run.stderr
    assert len(run.stderr.splitlines()) == 1
    if args[0] == "diff":
        at_ceiling = run_process([*args[:3], "--samples", "1000"], repo, timeout=120)
        assert at_ceiling.code == 1, at_ceiling.stderr  # the break, proven


# -- globs and paths of any length -------------------------------------------------------------
LONG_NAME = "a" * 300  # one file name past the file system's 255 bytes


@pytest.mark.parametrize(
    "command",
    [("lint",), ("diff", "HEAD"), ("diff", "HEAD", "HEAD")],
    ids=["lint", "diff-worktree", "diff-revisions"],
)
def test_a_configured_path_too_long_for_the_file_system_is_one_line(
    project: Path, capsys: pytest.CaptureFixture[str], command: tuple[str, ...]
) -> None:
    """Before: an internal error (OSError: File name too long), exit 3."""
    config = project / "kcompat.toml"
    config.write_text(f'paths = ["specs/{LONG_NAME}"]\n')
    code, line = one_line(capsys, *command)
    assert code == 2
    assert line == (
        f"kcompat: error: {config}: paths: 'specs/{LONG_NAME}' names nothing in {project}; fix it"
    )


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ('[[ignore]]\nrule = "field-added"\nmessage = "{glob}"\nreason = "x"', "[[ignore]] #1"),
        ('[[ignore]]\nrule = "field-added"\npaths = ["{glob}"]\nreason = "x"', "[[ignore]] #1"),
        ('fixtures = ["{glob}"]', "fixtures"),
        ('paths = ["{glob}"]', "paths"),
        ('preview = [{{ messages = "{glob}" }}]', "preview entry #1 messages"),
        ('preview = ["{glob}"]', "preview entry #1"),
    ],
)
def test_a_glob_past_its_length_is_one_line(
    project: Path, capsys: pytest.CaptureFixture[str], text: str, where: str
) -> None:
    """fnmatch translates ``[[[...`` in time quadratic in its length: 20,000 characters
    in an ``[[ignore]]`` entry kept ``diff`` busy 25 s, 200,000 would take 40 minutes.
    A glob names messages or files: past 1,024 characters it is refused, one line."""
    config = project / "kcompat.toml"
    config.write_text(text.format(glob="[" * 20_000 + "Widget*") + "\n")
    code, line = one_line(capsys, "diff", "HEAD")
    assert code == 2
    assert line.startswith(f"kcompat: error: {config}:1: {where}")
    assert line.endswith("a glob of 20,007 characters (at most 1,024); write a shorter one")


@pytest.mark.parametrize(
    "args",
    [
        ("lint", LONG_NAME),
        ("lint", f"specs/{LONG_NAME}"),
        ("diff", "HEAD", f"./{LONG_NAME}"),
        ("diff", "HEAD", LONG_NAME),
        ("explain", "WidgetRequest", "--specs", LONG_NAME),
        ("drift", LONG_NAME, "HEAD"),
        ("changelog", LONG_NAME),
        ("matrix", "--repo", LONG_NAME),
    ],
    ids=["lint", "lint-under", "diff-path", "diff-word", "explain", "drift", "changelog", "matrix"],
)
def test_a_file_name_too_long_on_the_command_line_is_one_line(
    project: Path, capsys: pytest.CaptureFixture[str], args: tuple[str, ...]
) -> None:
    """Before: an internal error (OSError: File name too long), exit 3."""
    code, line = one_line(capsys, *args)
    assert code == 2, line
    assert line.startswith("kcompat: error: "), line
    assert "internal error" not in line
    assert line.endswith(
        "a file name too long for the file system (at most 255 bytes a name); check the path"
    ), line
