"""A configured pattern is compiled within bounds (issue 32.1).

``release-tags`` and ``release-branches`` are the change's own input. Before the shape
check, ``regex.compile`` wrote counted repeats out (``((a{1000}){1000}){1000}``: 22.7 GB
for 72 s), and recursion (``(?R)``) exhausted memory inside the one-second match budget:
``lint``, ``diff``, the Action and the language server all load the configuration, so
all of them were hit. Each case runs under an address-space cap, so a regression ends in
a MemoryError (exit 3) instead of taking the machine.
"""

from __future__ import annotations

import random
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from kcompat.pattern_shape import MAX_LENGTH, MAX_SIZE, Refused, check_shape
from kcompat.patterns import PatternError, compiled
from tests.conftest import EXAMPLES
from tests.diff_runner import commit_tree, git, init_repo, run_process

#: What a kcompat run may take here: far above its needs, far below the machine's.
CAP = 2 * 1024**3

BOMBS = {
    "counted": (
        "((a{1000}){1000}){1000}",
        "is refused: its counted repeats, written out, make 1,001,001,000 items (at most "
        "10,000); use smaller counts, or + and *",
    ),
    "recursion": (
        "(?R)",
        "is refused: recursion and group calls ((?R), (?1), (?&name)) are not accepted",
    ),
    "recursion-loop": (
        "(?:(?R)|.)*",
        "is refused: recursion and group calls ((?R), (?1), (?&name)) are not accepted",
    ),
    "fuzzy": (
        "(?:1.2){e<=1}",
        "is refused: a brace that is not a counted repeat ({e<=1}): fuzzy matching such as "
        "{e<=1} is not accepted; write \\{ for a brace",
    ),
}


def _repo(tmp_path: Path, config: str) -> Path:
    """A released BASE and a HEAD that retypes a field, with ``config`` committed."""
    repo = init_repo(tmp_path / "repo")
    files = {p.name: p.read_text(encoding="utf-8") for p in EXAMPLES.glob("*.json")}
    commit_tree(repo, {**files, "kcompat.toml": config}, "base")
    git(repo, "tag", "1.0.0")
    request = (repo / "WidgetRequest.json").read_text(encoding="utf-8")
    retyped = request.replace(
        '"name": "TimeoutMs", "type": "int32"', '"name": "TimeoutMs", "type": "int64"'
    )
    assert retyped != request
    commit_tree(repo, {**files, "WidgetRequest.json": retyped, "kcompat.toml": config}, "head")
    return repo


@pytest.mark.parametrize("key", ["release-tags", "release-branches"])
@pytest.mark.parametrize("bomb", sorted(BOMBS))
def test_a_pattern_bomb_is_one_line_in_bounded_memory(tmp_path: Path, key: str, bomb: str) -> None:
    """``diff`` and ``lint``: one line naming the file, the key and the pattern, exit 2,
    within a 2 GiB address space (before: MemoryError, exit 3, or 22.7 GB unbounded)."""
    pattern, said = BOMBS[bomb]
    repo = _repo(tmp_path, f"{key} = '{pattern}'\n")
    for args in (["diff", "HEAD~1", "HEAD", "--no-proof"], ["lint", "."]):
        run = run_process(args, repo, timeout=120, memory=CAP)
        assert run.code == 2, run.stderr
        (line,) = run.stderr.splitlines()
        assert line == f"kcompat: error: {repo / 'kcompat.toml'}:1: {key} {pattern!r} {said}", args


def test_history_options_take_the_same_bounds(tmp_path: Path) -> None:
    """``history --tags`` is a pattern too: refused before Spark starts."""
    repo = _repo(tmp_path, "")
    run = run_process(["history", "--tags", "(?R)"], repo, timeout=120, memory=CAP)
    assert run.code == 2, run.stderr
    assert run.stderr.splitlines() == [
        "kcompat: error: --tags '(?R)' is refused: recursion and group calls ((?R), (?1), "
        "(?&name)) are not accepted"
    ]


@pytest.mark.parametrize(
    "pattern",
    [
        r"^v?\d+\.\d+(\.\d+)?$",
        r"^\d+\.\d+$",
        r"^v(\d{1,3}\.){2}\d{1,3}$",
        r"^release-[0-9a-f]{40}$",
        r"(?i)^V\d+",
        r"^(?P<major>\d+)\.(?P=major)$",
        r"(?#one comment)^\d+$",
        r"^(1+)+$",  # backtracks: the match budget's business, not the shape's
        r"^[^]\[]+$",
        f"a{{{MAX_SIZE}}}",
    ],
)
def test_release_patterns_people_write_are_accepted(pattern: str) -> None:
    check_shape(pattern)
    compiled(pattern)


@pytest.mark.parametrize(
    ("pattern", "why"),
    [
        ("x" * (MAX_LENGTH + 1), "characters long"),
        (f"a{{{MAX_SIZE + 1}}}", "written out, make 10,001 items"),
        ("(a{100}|b{100}){100}", "make 20,100 items"),
        ("(?1)(a)", "recursion"),
        ("(?+1)(a)", "recursion"),
        ("(?-1)", "recursion"),
        ("(?&n)(?P<n>a)", "recursion"),
        ("(?P>n)(?P<n>a)", "recursion"),
        ("a{e}", "not a counted repeat"),
        ("a{ 3}", "not a counted repeat"),
        ("(?x)a{1 0}", "verbose mode"),
        ("(?e)a", "the flag 'e'"),
        ("(?V1)a", "(?V1)a is not accepted"),
        ("(?r)a", "the flag 'r'"),
        ("(?|a|b)", "is not accepted"),
        ("a(*SKIP)b", "backtracking verbs"),
        ("[[a]--[b]]", "a [ inside a set"),
        (r"(a)\g<1>", "\\g<...>"),
        (r"\L<names>", "named lists"),
        ("(?(?=a)a|b)", "the condition"),
    ],
)
def test_patterns_refused_by_shape(pattern: str, why: str) -> None:
    with pytest.raises(Refused) as refused:
        check_shape(pattern)
    assert why in str(refused.value)
    with pytest.raises(PatternError, match=r"^is refused: "):
        compiled(pattern)


#: Pieces random patterns are made of: every construct the shape check reads.
_PIECES = (
    "a", "1", ".", "\\d", "\\.", "[0-9]", "[^a]", "(", ")", "(?:", "(?P<g>", "(?=", "(?<=",
    "|", "*", "+", "?", "*?", "++", "{2}", "{0,9}", "{99}", "{999}", "{3,}", "{,4}", "^",
    "$", "(?i)", "(?#c)", "\\p{L}", "{", "}", "]", "(?P=g)",
)  # fmt: skip


def _random_patterns(count: int, seed: int) -> list[str]:
    chooser = random.Random(seed)
    return [
        "".join(chooser.choice(_PIECES) for _ in range(chooser.randint(1, 40)))
        for _ in range(count)
    ]


def test_every_pattern_the_shape_accepts_compiles_in_bounded_memory() -> None:
    """Random patterns of every construct: each one the check accepts compiles (or is no
    regular expression) in a process capped at 1 GiB, with no MemoryError."""
    accepted = []
    for pattern in _random_patterns(3000, seed=32):
        try:
            check_shape(pattern)
        except Refused:
            continue
        accepted.append(pattern)
    assert len(accepted) > 300  # the generator reaches the accepted shapes too
    child = textwrap.dedent(
        """
        import json, resource, sys
        resource.setrlimit(resource.RLIMIT_AS, (2**30, 2**30))
        import regex
        for pattern in json.load(sys.stdin):
            try:
                regex.compile(pattern, flags=regex.VERSION0)
            except regex.error:
                pass
        print("done")
        """
    )
    import json

    done = subprocess.run(
        [sys.executable, "-c", child],
        input=json.dumps(accepted),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert (done.returncode, done.stdout.strip()) == (0, "done"), done.stderr[-2000:]


def test_the_language_server_lints_with_the_defaults(tmp_path: Path) -> None:
    """A configuration with a refused pattern is one message in the editor, and linting
    goes on with the defaults (before: every lint failed while the compile took the
    machine's memory)."""
    pytest.importorskip("pygls", reason="pygls is not installed (the lsp extra)")
    import asyncio

    from tests.lsp_client import editing

    folder = tmp_path / "message"
    folder.mkdir()
    (folder / "kcompat.toml").write_text(
        "release-tags = '((a{1000}){1000}){1000}'\n", encoding="utf-8"
    )
    spec = (EXAMPLES / "WidgetRequest.json").read_text(encoding="utf-8")
    (folder / "WidgetRequest.json").write_text(spec, encoding="utf-8")
    broken = spec.replace('"validVersions": "0-4"', '"validVersions": "4-0"')
    assert broken != spec

    async def session() -> None:
        async with editing(folder) as editor:
            uri = editor.open(folder / "WidgetRequest.json", broken)
            found = await editor.diagnostics(uri, 1)
            assert "invalid-versions" in {d.code for d in found}
            said = await editor.message("release-tags")
            assert said.startswith(
                f"{folder / 'kcompat.toml'}:1: release-tags '((a{{1000}}){{1000}}){{1000}}' is "
                "refused: its counted repeats"
            )
            assert said.endswith("(kcompat lsp uses the defaults until it is fixed)")

    asyncio.run(session())
