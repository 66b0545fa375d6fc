"""Reading git through GitPython (:mod:`kcompat.sources.gitcmd`): its persistent
``git cat-file --batch`` keeps in step whatever it is asked (a blob past the cap, a
missing object, a tree, a name git cannot be asked for), a blob over the cap costs no
memory, GitPython is imported only by commands that read git, and a repository is found
with the same root, git directory and bareness from anywhere inside it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from kcompat.errors import UsageError
from kcompat.sources.git import GitRepo, NotARepository
from kcompat.sources.gitcmd import GitFailed, ObjectReader, locate, open_repo, run, runner_in
from tests.diff_runner import git, init_repo
from tests.git_calls import commands, record

CAP = 100


@pytest.fixture()
def repo(tmp_path: Path) -> Path:
    """Files of 0, CAP, CAP + 1 and CAP * 50 bytes, and one in a folder, committed."""
    top = init_repo(tmp_path / "repo")
    (top / "empty.json").write_bytes(b"")
    (top / "at-cap.json").write_bytes(b"a" * CAP)
    (top / "over-cap.json").write_bytes(b"b" * (CAP + 1))
    (top / "huge.json").write_bytes(b"c" * (CAP * 50))
    (top / "sub").mkdir()
    (top / "sub" / "Small.json").write_bytes(b'{"x": 1}\n')
    git(top, "add", "-A")
    git(top, "commit", "-q", "-m", "files")
    return top


@pytest.fixture()
def reader(repo: Path) -> Iterator[ObjectReader]:
    found = ObjectReader(open_repo(locate(repo)))
    yield found
    found.close()


def test_blobs_are_read_up_to_one_byte_past_the_cap(reader: ObjectReader) -> None:
    assert reader.read("HEAD:empty.json", CAP) == ("blob", b"")
    assert reader.read("HEAD:at-cap.json", CAP) == ("blob", b"a" * CAP)
    assert reader.read("HEAD:over-cap.json", CAP) == ("blob", b"b" * (CAP + 1))
    assert reader.read("HEAD:huge.json", CAP) == ("blob", b"c" * (CAP + 1))
    # the rest of the huge blob was skipped: the next answer is the next object's
    assert reader.read("HEAD:sub/Small.json", CAP) == ("blob", b'{"x": 1}\n')


def test_a_skipped_rest_longer_than_one_chunk_keeps_the_stream_in_step(
    repo: Path, reader: ObjectReader, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("kcompat.sources.gitcmd.SKIP_CHUNK", 7)
    assert reader.read("HEAD:huge.json", 3) == ("blob", b"cccc")
    assert reader.read("HEAD:sub/Small.json", CAP) == ("blob", b'{"x": 1}\n')


def test_a_missing_object_is_none_and_the_next_read_still_works(reader: ObjectReader) -> None:
    assert reader.read("HEAD:no-such.json", CAP) is None
    assert reader.read("HEAD:name with spaces missing.json", CAP) is None
    assert reader.read("0" * 40, CAP) is None
    assert reader.read(":not-staged.json", CAP) is None
    assert reader.read("HEAD:sub/Small.json", CAP) == ("blob", b'{"x": 1}\n')


def test_a_name_with_a_line_feed_is_not_asked(reader: ObjectReader) -> None:
    """A line feed would end the request early and leave every later answer one behind."""
    assert reader.read("HEAD:sub/Small.json\nHEAD:empty.json", CAP) is None
    assert reader.read("HEAD:empty.json", CAP) == ("blob", b"")


def test_a_tree_is_read_as_a_tree(reader: ObjectReader, repo: Path) -> None:
    found = reader.read("HEAD:sub", CAP)
    assert found is not None and found[0] == "tree"
    assert reader.read("HEAD:empty.json", CAP) == ("blob", b"")


def test_git_stopping_is_one_line(reader: ObjectReader) -> None:
    assert reader.read("HEAD:empty.json", CAP) == ("blob", b"")
    process = reader.process  # the live git process, stopped under the reader
    assert process is not None
    process.kill()
    process.wait()
    with pytest.raises(UsageError, match="git cat-file stopped answering"):
        reader.read("HEAD:empty.json", CAP)


def test_the_repository_reads_a_tree_as_no_file(repo: Path) -> None:
    opened = GitRepo.open(repo)
    try:
        head = opened.head_sha()
        assert opened.read_at(head, "sub") is None
        assert opened.read_at(head, "sub/Small.json") == b'{"x": 1}\n'
        assert opened.read_index("sub/Small.json") == b'{"x": 1}\n'
        assert opened.read_index("no-such.json") is None
    finally:
        opened.close()


# -- finding the repository ---------------------------------------------------------------
def test_found_from_a_subfolder_a_file_and_the_git_directory(repo: Path) -> None:
    for start in (repo, repo / "sub", repo / "sub" / "Small.json", repo / ".git" / "refs"):
        where = locate(start)
        assert (where.root, where.git_dir, where.bare) == (repo, repo / ".git", False), start


def test_a_bare_repository_is_its_own_root(repo: Path, tmp_path: Path) -> None:
    git(tmp_path, "clone", "-q", "--bare", str(repo), "bare.git")
    bare = tmp_path / "bare.git"
    for start in (bare, bare / "refs"):
        where = locate(start)
        assert (where.root, where.git_dir, where.bare) == (bare, bare, True), start
    opened = GitRepo.open(bare / "refs")
    assert opened.bare and opened.root == bare and opened.internal(bare / "HEAD")


def test_a_linked_worktree_is_rooted_at_itself(repo: Path, tmp_path: Path) -> None:
    git(repo, "worktree", "add", "-q", str(tmp_path / "linked"))
    where = locate(tmp_path / "linked")
    assert where.root == tmp_path / "linked" and not where.bare
    assert where.git_dir == repo / ".git" / "worktrees" / "linked"


def test_no_repository_is_its_own_error(tmp_path: Path) -> None:
    (tmp_path / "plain").mkdir()
    env_ceiling = os.environ.get("GIT_CEILING_DIRECTORIES")
    os.environ["GIT_CEILING_DIRECTORIES"] = str(tmp_path)
    try:
        with pytest.raises(NotARepository, match="plain: not inside a git repository"):
            GitRepo.open(tmp_path / "plain")
    finally:
        if env_ceiling is None:
            del os.environ["GIT_CEILING_DIRECTORIES"]
        else:
            os.environ["GIT_CEILING_DIRECTORIES"] = env_ceiling


def test_a_failed_command_keeps_gits_last_line(repo: Path) -> None:
    with pytest.raises(GitFailed) as failed:
        run(runner_in(repo), ["rev-parse", "--verify", "no-such-ref"])
    assert failed.value.status != 0
    assert failed.value.last_line() == "fatal: Needed a single revision"
    opened = GitRepo.open(repo)
    with pytest.raises(UsageError, match=r"^git merge-tree failed: "):
        opened.run_git("merge-tree", "--no-such-option")


def test_one_git_call_opens_the_repository_and_answers_for_head(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pre-commit path opens the repository, asks whether HEAD exists, then what it
    is: one git process (before: four, and GitPython's two ``git version``)."""
    import git as gitpython  # imported before counting: its own "git version" is not ours

    assert gitpython.Git.GIT_PYTHON_GIT_EXECUTABLE
    calls = record(monkeypatch)
    opened = GitRepo.open(repo / "sub")
    assert opened.has_commits()
    assert opened.head_sha() == git(repo, "rev-parse", "HEAD").strip()
    assert opened.is_revision("HEAD")
    assert list(commands(calls)) == ["rev-parse --is-bare-repository"]


def test_an_unborn_head_has_no_commits(tmp_path: Path) -> None:
    new = init_repo(tmp_path / "new")
    (new / "sub").mkdir()
    assert locate(new / "sub").root == new
    opened = GitRepo.open(new / "sub")
    assert opened.root == new and not opened.bare
    assert not opened.has_commits()
    with pytest.raises(UsageError, match="unknown revision 'HEAD'"):
        opened.head_sha()


def test_the_batch_process_ends_with_kcompat(repo: Path) -> None:
    """Not left behind: when kcompat exits, the ``git cat-file --batch`` it started has
    ended and been waited for (its CPU counted with kcompat's, no orphan)."""
    script = f"""
import atexit, sys
seen = []
atexit.register(lambda: print("exit status", seen[0].poll()))  # runs after kcompat's own
from kcompat.sources.git import GitRepo
opened = GitRepo.open({str(repo)!r})
assert opened.read_at(opened.head_sha(), "empty.json") == b""
seen.append(opened.objects.process)
assert seen[0] is not None
"""
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout.strip() == "exit status 0", done.stdout + done.stderr


def test_a_blob_over_the_cap_costs_no_memory(tmp_path: Path) -> None:
    """The rest of a 64 MiB blob is skipped in chunks: reading it under a cap of 100 bytes
    holds about one chunk at a time, never the blob (GitPython's own stream would read
    the whole rest at once when dropped)."""
    import tracemalloc

    top = init_repo(tmp_path / "big")
    (top / "big.json").write_bytes(b"x" * (64 << 20))
    git(top, "add", "-A")
    git(top, "commit", "-q", "-m", "big")
    reader = ObjectReader(open_repo(locate(top)))
    try:
        tracemalloc.start()
        assert reader.read("HEAD:big.json", CAP) == ("blob", b"x" * (CAP + 1))
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        assert peak < 8 << 20, peak
        assert reader.read("HEAD:big.json", CAP) == ("blob", b"x" * (CAP + 1))  # in step
    finally:
        reader.close()


def test_commands_without_git_never_import_gitpython(repo: Path) -> None:
    """lint, explain without a revision, rules and --version pay nothing for git."""
    script = """
import sys
from kcompat.cli import main
for args in (["--version"], ["lint", "sub"], ["rules", "field-type-changed"]):
    main(args)
print("git" in sys.modules, "kcompat.sources.git" in sys.modules)
"""
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=repo, capture_output=True, text=True, timeout=60
    )
    assert done.stdout.strip().splitlines()[-1] == "False False", done.stdout + done.stderr


def test_all_git_goes_through_the_sources_package() -> None:
    """Only ``kcompat/sources/`` starts git: nothing else imports GitPython or
    ``subprocess``, or runs a git command through a repository."""
    import ast

    package = Path(__file__).resolve().parent.parent / "kcompat"
    offenders = []
    for path in sorted(package.rglob("*.py")):
        if path.relative_to(package).parts[0] == "sources":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = (
                [alias.name for alias in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else []
            )
            if any(n.split(".")[0] in ("git", "subprocess") for n in names):
                offenders.append(f"{path.name} imports {names}")
            if isinstance(node, ast.Attribute) and node.attr == "run_git":
                offenders.append(f"{path.name}:{node.lineno} runs git")
    assert offenders == []


def test_a_sha256_repository_is_one_line(tmp_path: Path) -> None:
    """GitPython reads SHA-1 object ids only: a SHA-256 repository is refused in one line,
    never read as a repository whose every file is missing."""
    from tests.diff_runner import run_process

    top = tmp_path / "sha256"
    top.mkdir()
    git(top, "init", "-q", "--object-format=sha256", "-b", "main")
    (top / "WidgetRequest.json").write_text("{}\n", encoding="utf-8")
    git(top, "add", "-A")
    git(top, "commit", "-q", "-m", "one")
    (top / "WidgetRequest.json").write_text('{"x": 1}\n', encoding="utf-8")
    git(top, "commit", "-q", "-am", "two")
    run = run_process(["diff", "HEAD~1", "HEAD"], top)
    assert run.code == 2, run.stdout + run.stderr
    assert run.stderr.strip().endswith(
        "this repository's object ids are not SHA-1, which GitPython (kcompat's git layer) "
        "cannot read"
    ), run.stderr
