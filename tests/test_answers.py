"""Answers that misled a new user (issue 35, points 11 to 15), asked as a user asks them:
the command line in temp repositories (remotes and tags laid out as Kafka's clones have
them), and the language server as an editor drives it."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from tests.diff_runner import CliRun, commit_tree, git, init_repo, run_cli, run_process

TOPIC_REQUEST = {
    "apiKey": 90,
    "type": "request",
    "name": "TopicRequest",
    "validVersions": "0-1",
    "flexibleVersions": "1+",
    "fields": [
        {"name": "Topic", "type": "string", "versions": "0+", "entityType": "topicName",
         "about": "The topic."},
        {"name": "Size", "type": "int32", "versions": "0+", "about": "The size."},
    ],
}  # fmt: skip
TOPIC_RESPONSE = {
    "apiKey": 90,
    "type": "response",
    "name": "TopicResponse",
    "validVersions": "0-1",
    "flexibleVersions": "1+",
    "fields": [{"name": "ErrorCode", "type": "int16", "versions": "0+", "about": "The error."}],
}


def spec_text(spec: dict[str, object]) -> str:
    return json.dumps(spec, indent=2) + "\n"


def _findings(stdout: str) -> list[str]:
    """``file:line:col: severity [rule] ...`` lines: the rules, in order."""
    return [line.split("[", 1)[1].split("]", 1)[0] for line in stdout.splitlines() if "] " in line]


# -- 11: a message without "type" ----------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "hint"),
    [
        ("TopicRequest", 'add "type": "request" (its name ends in Request)'),
        ("TopicResponse", 'add "type": "response" (its name ends in Response)'),
        ("TopicRecord", 'add "type": the kind of message, one of request, response, header'),
    ],
)
def test_a_message_without_type_is_told_the_kinds_of_message(
    tmp_path: Path, name: str, hint: str
) -> None:
    spec = {k: v for k, v in TOPIC_REQUEST.items() if k != "type"}
    spec["name"] = name
    (tmp_path / f"{name}.json").write_text(spec_text(spec), encoding="utf-8")
    run = run_cli(["lint", f"{name}.json"], tmp_path)
    assert run.code == 1
    lines = run.stdout.splitlines()
    found = lines.index(next(line for line in lines if "[missing-key]" in line))
    assert lines[found].endswith(f"message '{name}' has no 'type'")
    shown = lines[found + 1].strip()
    assert shown.startswith(f"hint: {hint}"), shown
    for kind in ("request", "response", "header", "metadata", "data"):
        assert kind in shown
    assert "primitive" not in shown and "[]T" not in shown  # a field's kinds, not a message's


def test_a_field_without_type_still_gets_the_field_types(tmp_path: Path) -> None:
    spec = json.loads(json.dumps(TOPIC_REQUEST))
    del spec["fields"][1]["type"]
    (tmp_path / "TopicRequest.json").write_text(spec_text(spec), encoding="utf-8")
    (tmp_path / "TopicResponse.json").write_text(spec_text(TOPIC_RESPONSE), encoding="utf-8")
    run = run_cli(["lint", "."], tmp_path)
    assert 'hint: add "type": one of the primitive types, a struct name or []T' in run.stdout


# -- 15: one typo, one finding --------------------------------------------------------------


def _one_typo() -> str:
    spec = json.loads(json.dumps(TOPIC_REQUEST))
    spec["fields"][0]["type"] = "strin"  # the typo; entityType topicName wants a string
    spec["fields"][1].update(type="int33", encoding="packed32", zeroCopy=True)
    return spec_text(spec)


def test_a_mistyped_type_is_one_finding_not_two(tmp_path: Path) -> None:
    (tmp_path / "TopicRequest.json").write_text(_one_typo(), encoding="utf-8")
    (tmp_path / "TopicResponse.json").write_text(spec_text(TOPIC_RESPONSE), encoding="utf-8")
    run = run_cli(["lint", "."], tmp_path)
    assert run.code == 1
    # entityType, zeroCopy and encoding on a type Kafka cannot parse are not findings of
    # their own: the type is (with its did-you-mean), and fixing it settles the rest.
    assert _findings(run.stdout) == ["invalid-type", "invalid-type"], run.stdout
    assert "did you mean 'string'?" in run.stdout and "did you mean 'int32'?" in run.stdout
    fixed = _one_typo().replace('"strin"', '"int32"')  # a real type that entityType refuses
    (tmp_path / "TopicRequest.json").write_text(fixed, encoding="utf-8")
    assert "entity-type-mismatch" in _findings(run_cli(["lint", "."], tmp_path).stdout)


def test_a_capitalised_typo_is_one_finding_too(tmp_path: Path) -> None:
    """``"Strin"`` reads as a struct name: undefined-struct says so, with the type it most
    likely meant; the entityType that a string would satisfy is that finding's note, not a
    second error to fix or accept."""
    (tmp_path / "TopicRequest.json").write_text(
        _one_typo().replace('"strin"', '"Strin"'), encoding="utf-8"
    )
    (tmp_path / "TopicResponse.json").write_text(spec_text(TOPIC_RESPONSE), encoding="utf-8")
    run = run_cli(["lint", "."], tmp_path)
    assert _findings(run.stdout) == ["undefined-struct", "invalid-type"], run.stdout
    assert "note: also entity-type-mismatch: entityType topicName needs type string" in run.stdout
    assert "hint: did you mean 'string'? (types are lower case" in run.stdout


def test_the_editor_offers_no_accept_for_a_consequence(tmp_path: Path) -> None:
    pytest.importorskip("pygls", reason="the lsp extra")
    from tests.lsp_client import editing

    folder = tmp_path / "message"
    folder.mkdir()
    (folder / "TopicRequest.json").write_text(_one_typo(), encoding="utf-8")
    (folder / "TopicResponse.json").write_text(spec_text(TOPIC_RESPONSE), encoding="utf-8")

    async def session() -> None:
        async with editing(folder) as editor:
            uri = editor.open(folder / "TopicRequest.json")
            found = await editor.diagnostics(uri, 1)
            assert sorted(str(d.code) for d in found) == ["invalid-type", "invalid-type"]
            typo = next(d for d in found if "strin" in d.message)
            actions = await editor.code_actions(uri, typo.range, list(found))
            titles = [a.title for a in actions]
            assert not [t for t in titles if "entity-type-mismatch" in t], titles
            assert any("invalid-type" in t for t in titles), titles

    asyncio.run(session())


# -- 12 and 13: a revision that is not there, a folder mistyped ----------------------------


@pytest.fixture()
def trunk_clone(tmp_path: Path) -> Path:
    """A clone of a repository whose default branch is trunk (as Kafka's is), with
    release tags 3.7.0, 3.7.1 and 3.8.0 and its specs in ``specs/``."""
    upstream = tmp_path / "upstream"
    upstream.mkdir()
    git(upstream, "init", "-q", "-b", "trunk")
    files = {
        "specs/TopicRequest.json": spec_text(TOPIC_REQUEST),
        "specs/TopicResponse.json": spec_text(TOPIC_RESPONSE),
    }
    commit_tree(upstream, files, "the protocol")
    for tag in ("3.7.1", "3.7.0", "3.8.0"):  # 3.7.1 first: no luck of creation order
        git(upstream, "tag", tag)
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", f"file://{upstream}", str(clone))
    return clone


def _one_line(run: CliRun) -> str:
    assert run.code == 2 and run.stdout == "", run
    (line,) = run.stderr.splitlines()
    return line


def test_origin_main_where_the_default_branch_is_trunk(trunk_clone: Path) -> None:
    line = _one_line(run_process(["diff", "origin/main", "--no-proof"], trunk_clone))
    assert line.startswith("kcompat: error: unknown revision 'origin/main'")
    assert "origin had no branch 'main' at the last fetch" in line
    assert "did you mean origin/trunk (origin's default branch)?" in line
    # the fetch is offered only in case the branch is new there, never as the fix
    assert line.endswith("(if it is new there: git fetch origin main)")
    suggested = run_process(["diff", "origin/trunk", "--no-proof"], trunk_clone)
    assert suggested.code == 0, suggested.stderr  # what it suggests works


def test_a_single_branch_clone_is_told_the_fetch(tmp_path: Path, trunk_clone: Path) -> None:
    """A clone that fetches one branch cannot know what else origin has: the fetch."""
    single = tmp_path / "single"
    upstream = tmp_path / "upstream"
    git(tmp_path, "clone", "-q", "--single-branch", f"file://{upstream}", str(single))
    line = _one_line(run_process(["diff", "origin/main", "--no-proof"], single))
    assert line.endswith("fetch it first: git fetch origin main"), line
    assert "had no branch" not in line


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["diff", "./specs", "./specs2"],
         "'./specs2' is neither a directory nor a revision; did you mean './specs'?"),
        (["diff", "./specs", "specs2/"],
         "'specs2/' is neither a directory nor a revision; did you mean 'specs/'?"),
        (["diff", "./specs", "../elsewhere/specs"],
         "'../elsewhere/specs' is neither a directory nor a revision; check the path"),
    ],
)  # fmt: skip
def test_a_mistyped_folder_written_as_a_path(
    trunk_clone: Path, args: list[str], expected: str
) -> None:
    line = _one_line(run_process([*args, "--no-proof"], trunk_clone))
    assert line == f"kcompat: error: {expected}"
    assert "git fetch" not in line  # not a revision to fetch


def test_a_mistyped_folder_as_a_bare_word(trunk_clone: Path) -> None:
    line = _one_line(run_process(["diff", "./specs", "specs2", "--no-proof"], trunk_clone))
    assert line.startswith("kcompat: error: 'specs2' is neither a directory nor a revision in ")
    assert line.endswith(
        "did you mean the directory 'specs'? (origin had no branch 'specs2' at the last fetch)"
    )
    line = _one_line(run_process(["drift", "3.8.0", "nope"], trunk_clone))
    assert line.startswith("kcompat: error: 'nope' is neither a directory nor a revision in ")
    assert line.endswith(
        "origin had no branch 'nope' at the last fetch; did you mean trunk (origin's default "
        "branch)? (if it is new there: git fetch origin nope, then name it origin/nope)"
    )


def test_the_closer_spelling_comes_first(trunk_clone: Path) -> None:
    """``3.7.O``: 3.7.0 (an O for a zero) before 3.7.1, whatever order the tags came in."""
    line = _one_line(run_process(["diff", "3.7.O", "--no-proof"], trunk_clone))
    assert "'3.7.O' is neither a directory nor a revision" in line
    assert "did you mean 3.7.0 (a tag) or 3.7.1 (a tag)?" in line, line


# -- 14: a missing extra is told the install line that works -------------------------------

#: A commit of kcompat, as pip records a ``pip install "kcompat @ git+...@<commit>"``.
PINNED = "0123456789abcdef0123456789abcdef01234567"


def _installed_from_git(where: Path, blocked: str) -> dict[str, str]:
    """An environment in which kcompat reads as installed from its repository at
    :data:`PINNED` (pip's PEP 610 record, first on the path) and ``blocked`` cannot be
    imported (its extra not installed)."""
    where.mkdir()
    record = where / "kcompat-0.1.0.dist-info"
    record.mkdir()
    (record / "METADATA").write_text("Metadata-Version: 2.1\nName: kcompat\nVersion: 0.1.0\n")
    installed = {"vcs": "git", "commit_id": PINNED}
    record_text = {"url": "https://github.com/kcompat/kcompat.git", "vcs_info": installed}
    (record / "direct_url.json").write_text(json.dumps(record_text))
    (where / "sitecustomize.py").write_text(
        "import sys\n"
        "class _Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        f"        if name.split('.')[0] == {blocked!r}:\n"
        "            raise ModuleNotFoundError(f'No module named {name!r}', name=name)\n"
        "sys.meta_path.insert(0, _Block())\n"
    )
    return {"PYTHONPATH": str(where)}


def test_a_missing_extra_names_the_commit_kcompat_was_installed_from(tmp_path: Path) -> None:
    env = _installed_from_git(tmp_path / "site", "pygls")
    line = _one_line(run_process(["lsp"], tmp_path, env=env))
    assert line == (
        "kcompat: error: kcompat lsp needs pygls: "
        f'pip install "kcompat[lsp] @ git+https://github.com/kcompat/kcompat@{PINNED}"'
    )
    assert "pip install 'kcompat[" not in line  # not a name on the package index


def test_without_a_record_the_line_is_the_readme_s(tmp_path: Path) -> None:
    """An editable checkout (this one): the README's line, its commit left to fill in."""
    from tests.conftest import ROOT

    env = {"PYTHONPATH": str(tmp_path)}
    (tmp_path / "sitecustomize.py").write_text(
        "import sys\n"
        "class _Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] == 'pyspark':\n"
        "            raise ModuleNotFoundError(f'No module named {name!r}', name=name)\n"
        "sys.meta_path.insert(0, _Block())\n"
    )
    repo = init_repo(tmp_path / "repo")
    commit_tree(repo, {"TopicRequest.json": spec_text(TOPIC_REQUEST)}, "one")
    line = _one_line(run_process(["history", "--out", str(tmp_path / "out")], repo, env=env))
    install = 'pip install "kcompat[spark] @ git+https://github.com/kcompat/kcompat@<commit>"'
    assert line == f"kcompat: error: pyspark is not installed: {install} (needs Java 17+)"
    assert install in (ROOT / "README.md").read_text(encoding="utf-8")  # the README's line


def test_a_bare_branch_name_no_remote_had(trunk_clone: Path) -> None:
    """``kcompat diff main`` in a clone of a trunk repository: origin had no main at the
    last fetch (so ``git fetch origin main`` fails), and a fetch would make origin/main,
    never a local main: the default branch is the answer, the fetch only in case."""
    line = _one_line(run_process(["diff", "main", "--no-proof"], trunk_clone))
    assert line.startswith("kcompat: error: 'main' is neither a directory nor a revision in ")
    assert "origin had no branch 'main' at the last fetch" in line, line
    assert "did you mean trunk (origin's default branch)?" in line, line
    assert line.endswith("(if it is new there: git fetch origin main, then name it origin/main)")
    suggested = run_process(["diff", "trunk", "--no-proof"], trunk_clone)
    assert suggested.code == 0, suggested.stderr  # what it suggests works
    git(trunk_clone, "checkout", "-q", "--detach")
    git(trunk_clone, "branch", "-q", "-D", "trunk")  # no local trunk: origin's
    line = _one_line(run_process(["diff", "main", "--no-proof"], trunk_clone))
    assert "did you mean origin/trunk (origin's default branch)?" in line, line
