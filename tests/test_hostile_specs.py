"""Issue 22, the second adversarial pass: spec files written to fool the gate.

Each test runs the command line on files in temp directories and git repositories:

- (3) Kafka reads specs with Jackson, which ends a ``//`` comment at CR as at LF: a field
  behind ``// tidy-up\\r`` is a field for lint and diff, lines are counted as Jackson
  counts them (CR, LF, CR LF), and a control character Jackson refuses is an error.
- (20) An inline ignore covers its own line and the next, never the line after a comment
  block it opens.
- (6) A float64 default Java reads as Infinity (``0x1p1024``) in every command.
- (10) Three thousand tagged fields decode, encode and diff.
- (14) A newline in a name never starts a line of the proof's summary.
- (17) SARIF's partial fingerprints (and GitLab's) name one finding each.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tests.diff_runner import CliRun, commit_tree, init_repo, run_cli, run_process, write_files

REQUEST = "ExtendLeaseRequest"


def spec(fields: list[dict[str, Any]], *, kind: str = "request", versions: str = "0-1") -> str:
    """A request (or response) holding ``fields``, one field per line."""
    name = "ExtendLease" + kind.capitalize()
    lines = [
        "{",
        '  "apiKey": 1100,',
        f'  "type": "{kind}",',
        *(['  "listeners": ["broker"],'] if kind == "request" else []),
        f'  "name": "{name}",',
        f'  "validVersions": "{versions}",',
        '  "flexibleVersions": "1+",',
        '  "fields": [',
        ",\n".join("    " + json.dumps(f) for f in fields),
        "  ]",
        "}",
    ]
    return "\n".join(lines) + "\n"


LEASE: dict[str, Any] = {
    "name": "LeaseId",
    "type": "string",
    "versions": "0+",
    "about": "The lease.",
}
HIDDEN: dict[str, Any] = {"name": "Hidden", "type": "int64", "versions": "0+", "about": "Unseen."}
RESPONSE = spec(
    [{"name": "ErrorCode", "type": "int16", "versions": "0+", "about": "E."}], kind="response"
)


def project(tmp_path: Path, request: str | bytes) -> Path:
    """A directory with the request and its response, and an empty ``.git`` so the
    configuration lookup stops there."""
    root = tmp_path / "project"
    (root / ".git").mkdir(parents=True)
    write_files(
        root, {f"specs/{REQUEST}.json": request, "specs/ExtendLeaseResponse.json": RESPONSE}
    )
    return root


def lint(root: Path, *extra: str) -> CliRun:
    run = run_cli(["lint", "specs", "--format", "json", *extra], root)
    assert run.code in (0, 1) and "internal error" not in run.stderr, run
    return run


def where(run: CliRun) -> list[tuple[str, int, int]]:
    return sorted((f["rule"], f["line"], f["column"]) for f in run.findings())


def suppressed(run: CliRun) -> int:
    """How many findings ignore comments silenced."""
    count = run.json()["summary"]["suppressed"]
    assert isinstance(count, int)
    return count


def behind_a_comment(line_end: str) -> bytes:
    """The request with ``Hidden`` written after a ``//`` comment on LeaseId's line,
    separated from it by ``line_end``. ``Hidden`` repeats LeaseId's tag-less name
    rules' favourite mistake: a second field of the same name."""
    hidden = {**HIDDEN, "name": "LeaseId"}
    text = spec([LEASE])
    lease = "    " + json.dumps(LEASE)
    return text.replace(lease, f"{lease}, // tidy-up{line_end} {json.dumps(hidden)}").encode()


# -- (3) line ends as Jackson reads them --------------------------------------------------------


def test_a_field_behind_a_lone_cr_is_a_field_for_lint(tmp_path: Path) -> None:
    run = lint(project(tmp_path, behind_a_comment("\r")))
    assert run.code == 1
    # Jackson's lines: the CR ends line 9, so the field starts line 10
    assert ("duplicate-field-name", 10) in {(f["rule"], f["line"]) for f in run.findings()}


def test_with_lf_the_field_is_a_comment_for_both(tmp_path: Path) -> None:
    """The control: where the whole line is a comment for Jackson too, lint sees no field
    (and complains only of the comma the comment leaves dangling, as Kafka would)."""
    text = behind_a_comment("\r").replace(b"// tidy-up\r", b"// tidy-up ")
    run = lint(project(tmp_path, text))
    assert {f["rule"] for f in run.findings()} == {"trailing-comma"}


def test_a_field_behind_a_lone_cr_is_a_field_for_diff(tmp_path: Path) -> None:
    repo = init_repo(tmp_path / "repo")
    commit_tree(repo, {f"specs/{REQUEST}.json": spec([LEASE]), "specs/R.json": RESPONSE}, "base")
    lease = "    " + json.dumps(LEASE)
    head = spec([LEASE]).replace(lease, f"{lease}, // tidy-up\r {json.dumps(HIDDEN)}")
    write_files(repo, {f"specs/{REQUEST}.json": head.encode()})
    run = run_cli(["diff", "HEAD", ".", "--format", "json"], repo)
    assert run.code == 1, run
    (added,) = [f for f in run.findings() if f["rule"] == "field-added"]
    assert added["field_path"] == "Hidden" and added["line"] == 10


#: Every spec line of the request, each ending with one kind of line end.
LINE_ENDS = {"LF": "\n", "CR": "\r", "CRLF": "\r\n"}


THREE_ON_TAG_0: list[dict[str, Any]] = [
    LEASE,
    {**HIDDEN, "tag": 0, "taggedVersions": "1+"},
    {**HIDDEN, "name": "Other", "tag": 0, "taggedVersions": "1+"},
    {**HIDDEN, "name": "Third", "tag": 0, "taggedVersions": "1+"},
]


@pytest.mark.parametrize("name", sorted(LINE_ENDS))
def test_lines_are_counted_alike_whatever_ends_them(tmp_path: Path, name: str) -> None:
    """The same spec with LF, CR or CR LF line ends: the same findings at the same lines
    and columns (tag 0 repeated on lines 11 and 12, the one on line 12 ignored)."""
    lines = spec(THREE_ON_TAG_0).split("\n")
    assert where(lint(project(tmp_path / "plain", "\n".join(lines)))) == [
        ("tag-duplicate", 11, 85),
        ("tag-duplicate", 12, 85),
    ]
    lines[11] += " // kcompat: ignore[tag-duplicate] kept for old readers"
    run = lint(project(tmp_path, LINE_ENDS[name].join(lines).encode()))
    assert where(run) == [("tag-duplicate", 11, 85)] and suppressed(run) == 1


def test_an_ignore_behind_a_lone_cr_covers_jacksons_next_line(tmp_path: Path) -> None:
    """An ignore at the end of line 10 that ends at a lone CR covers line 11 (the next
    line to Jackson, the second field on tag 0), not line 12 (the third)."""
    text = spec(THREE_ON_TAG_0)
    other = json.dumps(THREE_ON_TAG_0[2])
    text = text.replace(
        ",\n    " + other, ", // kcompat: ignore[tag-duplicate] old readers\r    " + other
    )
    run = lint(project(tmp_path, text.encode()))
    assert where(run) == [("tag-duplicate", 12, 85)] and suppressed(run) == 1


@pytest.mark.parametrize(
    ("comment", "column"),
    [("// odd\x0b\n", 11), ("/* odd\x01 */", 11), ("\x0c", 5)],
    ids=["vertical-tab-in-line-comment", "soh-in-block-comment", "form-feed-between-tokens"],
)
def test_a_control_character_jackson_refuses_is_an_error(
    tmp_path: Path, comment: str, column: int
) -> None:
    text = spec([LEASE]).replace('  "apiKey"', "    " + comment + '"apiKey"', 1)
    run = lint(project(tmp_path, text.encode()))
    (bad,) = [f for f in run.findings() if f["file"].endswith(f"{REQUEST}.json")]
    assert (bad["rule"], bad["line"], bad["column"]) == ("invalid-json", 2, column)
    assert "control character" in bad["message"] and "Jackson" in bad["message"]


# -- (20) an ignore never reaches across a comment block --------------------------------------


def tagged_twice(comment: str) -> str:
    """The request with two fields on tag 0, ``comment`` on the lines just above the
    second (line 11 before the comment)."""
    fields = [
        LEASE,
        {**HIDDEN, "tag": 0, "taggedVersions": "1+"},
        {**HIDDEN, "name": "Other", "tag": 0, "taggedVersions": "1+"},
    ]
    lines = spec(fields).split("\n")
    lines[10:10] = comment.split("\n")
    return "\n".join(lines)


BLOCK = "\n".join(
    ["    /* kcompat: ignore[tag-duplicate] explained below"]
    + [f"       line {n} of the story" for n in range(40)]
    + ["    */"]
)


def test_an_ignore_atop_a_comment_block_does_not_cover_the_line_after_it(tmp_path: Path) -> None:
    run = lint(project(tmp_path, tagged_twice(BLOCK)), "--report-unused-ignores")
    assert ("tag-duplicate", 53) in {(f["rule"], f["line"]) for f in run.findings()}
    assert ("unused-ignore", 11) in {(f["rule"], f["line"]) for f in run.findings()}
    assert suppressed(run) == 0


@pytest.mark.parametrize(
    "comment",
    [
        "    // kcompat: ignore[tag-duplicate] reused on purpose",
        "    /* kcompat: ignore[tag-duplicate] reused on purpose */",
        "    /* the story, told first\n       kcompat: ignore[tag-duplicate] reused on purpose */",
    ],
    ids=["line-comment", "one-line-block", "last-line-of-a-block"],
)
def test_an_ignore_right_above_the_line_covers_it(tmp_path: Path, comment: str) -> None:
    run = lint(project(tmp_path, tagged_twice(comment)))
    assert "tag-duplicate" not in {f["rule"] for f in run.findings()}
    assert suppressed(run) == 1


# -- (6) a float64 default Java reads as Infinity ---------------------------------------------


RATIO: dict[str, Any] = {
    "name": "Ratio",
    "type": "float64",
    "versions": "1+",
    "tag": 0,
    "taggedVersions": "1+",
}


def ratio_spec(default: str) -> str:
    return spec([LEASE, {**RATIO, "default": default, "about": "A ratio."}])


@pytest.fixture()
def infinite(tmp_path: Path) -> Path:
    """A repository whose committed request has a float64 default of ``0x1p1024``."""
    repo = init_repo(tmp_path / "repo")
    files = {
        f"specs/{REQUEST}.json": ratio_spec("0x1p1024"),
        "specs/ExtendLeaseResponse.json": RESPONSE,
    }
    commit_tree(repo, files, "base")
    return repo


def no_internal_error(run: CliRun) -> CliRun:
    assert "internal error" not in run.stderr and "Traceback" not in run.stderr, run.stderr
    return run


def test_lint_reads_an_infinite_default(infinite: Path) -> None:
    run = no_internal_error(run_cli(["lint", "specs", "--format", "json"], infinite))
    assert run.code == 0 and run.findings() == []


def test_explain_shows_an_infinite_default_as_java_does(infinite: Path) -> None:
    run = no_internal_error(run_cli(["explain", REQUEST, "--specs", "specs"], infinite))
    assert run.code == 0 and "default Infinity" in run.stdout


def test_decode_fills_in_an_infinite_default(infinite: Path) -> None:
    run = no_internal_error(
        run_cli(["decode", REQUEST, "026100", "--version", "1", "--specs", "specs"], infinite)
    )
    assert run.code == 0 and json.loads(run.stdout) == {"LeaseId": "a", "Ratio": "Infinity"}


def test_encode_leaves_out_an_infinite_default(infinite: Path, tmp_path: Path) -> None:
    value = tmp_path / "value.json"
    value.write_text('{"LeaseId": "a", "Ratio": "Infinity"}')
    args = ["encode", REQUEST, str(value), "--version", "1", "--specs", "specs"]
    run = no_internal_error(run_cli(args, infinite))
    assert (run.code, run.stdout.strip()) == (0, "026100")


@pytest.mark.parametrize(
    ("head", "findings"),
    [("Infinity", []), ("0x1.0p1024", []), ("1.5", ["default-changed"])],
)
def test_diff_compares_infinite_defaults_by_value(
    infinite: Path, head: str, findings: list[str]
) -> None:
    write_files(infinite, {f"specs/{REQUEST}.json": ratio_spec(head)})
    run = no_internal_error(run_cli(["diff", "HEAD", ".", "--format", "json"], infinite))
    assert [f["rule"] for f in run.findings()] == findings
    if findings:
        assert "from Infinity to 1.5" in run.findings()[0]["message"]


def test_drift_reads_an_infinite_default(infinite: Path, tmp_path: Path) -> None:
    upstream = tmp_path / "upstream"
    write_files(
        upstream, {f"{REQUEST}.json": ratio_spec("1.5"), "ExtendLeaseResponse.json": RESPONSE}
    )
    run = no_internal_error(
        run_cli(["drift", str(upstream), "specs", "--format", "json"], infinite)
    )
    assert run.code in (0, 1)


# -- (10) thousands of tagged fields ------------------------------------------------------------


TAGS = 3000


def many_tags(rename: str = "") -> str:
    fields = [LEASE] + [
        {"name": f"T{n}", "type": "int32", "versions": "0+", "tag": n, "taggedVersions": "1+"}
        for n in range(TAGS)
    ]
    if rename:
        fields[-1] = {**fields[-1], "name": rename}
    return spec(fields)


@pytest.fixture()
def tagged(tmp_path: Path) -> Path:
    repo = init_repo(tmp_path / "repo")
    files = {f"specs/{REQUEST}.json": many_tags(), "specs/ExtendLeaseResponse.json": RESPONSE}
    commit_tree(repo, files, "base")
    return repo


def test_thousands_of_tags_encode_and_decode(tagged: Path, tmp_path: Path) -> None:
    value = tmp_path / "value.json"
    value.write_text(json.dumps({"LeaseId": "a", "T2999": 7, "T1500": -1}))
    args = ["--version", "1", "--specs", "specs"]
    encoded = run_process(["encode", REQUEST, str(value), *args], tagged)
    assert encoded.code == 0, encoded.stderr
    # LeaseId, two entries in ascending tag order: 1500 (varint dc0b), 2999 (b717)
    assert encoded.stdout.strip() == "026102dc0b04ffffffffb7170400000007"
    decoded = run_process(["decode", REQUEST, encoded.stdout.strip(), *args], tagged)
    assert decoded.code == 0, decoded.stderr
    value_read = json.loads(decoded.stdout)
    assert (value_read["T2999"], value_read["T1500"], value_read["T0"]) == (7, -1, 0)
    unknown = run_process(["decode", REQUEST, "026101b81704000000ff", *args], tagged)
    assert unknown.code == 0, unknown.stderr  # tag 3000 is no field: kept as unknown


def test_thousands_of_tags_compile_and_read_as_the_reference_reads() -> None:
    """The CLI interprets a layout this big; a long audit compiles it: the generated
    decoder (a bisected tag dispatch) reads what the reference reads, strictly and as
    Java reads, valid bytes and damaged ones."""
    import random

    from kcompat.codec import codec_for
    from kcompat.codec.samples import generate_samples
    from kcompat.spec.resolve import resolve
    from kcompat.spec.specfile import read_spec
    from tests.decode_fuzz import check_decoding, mutate

    message = read_spec(f"{REQUEST}.json", many_tags().encode()).message
    assert message is not None
    layout = resolve(message, 1)
    codec = codec_for(layout)  # compiling once overflowed CPython's compiler
    rng = random.Random(22)
    for sample in generate_samples(layout, 2, seed=0):
        data = codec.encode(sample)
        for case in (data, *(mutate(rng, data) for _ in range(6))):
            check_decoding(layout, case)


def test_thousands_of_tags_diff(tagged: Path) -> None:
    write_files(tagged, {f"specs/{REQUEST}.json": many_tags(rename="Renamed")})
    run = run_process(["diff", "HEAD", ".", "--format", "json"], tagged)
    assert run.code in (0, 1) and "internal error" not in run.stderr, run.stderr
    assert "field-renamed" in {f["rule"] for f in json.loads(run.stdout)["findings"]}


# -- (14) a newline in a name never starts a line ---------------------------------------------


FORGED = "Evil\n::error file=x.json::forged\r\nLine"


@pytest.fixture()
def forged(tmp_path: Path) -> Path:
    """BASE has a field whose name holds a newline (and a workflow command after it); the
    working tree retypes it, so diff has a proof to show."""
    repo = init_repo(tmp_path / "repo")
    field = {"name": FORGED, "type": "int32", "versions": "0+", "about": "x"}
    base = {
        f"specs/{REQUEST}.json": spec([LEASE, field]),
        "specs/ExtendLeaseResponse.json": RESPONSE,
    }
    commit_tree(repo, base, "base")
    write_files(repo, {f"specs/{REQUEST}.json": spec([LEASE, {**field, "type": "int64"}])})
    return repo


@pytest.mark.parametrize("fmt", ["text", "junit", "markdown", "github"])
def test_a_newline_in_a_name_stays_in_its_line(forged: Path, fmt: str) -> None:
    run = run_cli(["diff", "HEAD", ".", "--format", fmt, "--color", "never"], forged)
    assert run.code == 1, run
    lines = run.stdout.split("\n")
    assert not [line for line in lines if re.match(r"\s*(::error file=x|Line\b)", line)], run.stdout
    summary = [
        line for line in lines if "base->head: Evil" in line or "base-&gt;head: Evil" in line
    ]
    assert summary and all("Evil\\x0a::error" in line for line in summary), run.stdout
    assert "\r" not in run.stdout


# -- (17) fingerprints name one finding each --------------------------------------------------


def test_sarif_and_gitlab_fingerprints_are_unique(tmp_path: Path) -> None:
    """The same spec (with the same tag repeated) vendored in two directories, and a key
    written twice in two objects of one file: findings that share kcompat's fingerprint."""
    root = tmp_path / "project"
    (root / ".git").mkdir(parents=True)
    twice: list[dict[str, Any]] = [LEASE, {**HIDDEN, "tag": 0, "taggedVersions": "1+"}]
    twice.append({**HIDDEN, "name": "Other", "tag": 0, "taggedVersions": "1+"})
    request = spec(twice).replace('"versions": "0+"', '"versions": "0+", "versions": "0+"')
    fourth = {**HIDDEN, "name": "Fourth", "tag": 0, "taggedVersions": "1+"}
    requests = {"one": request, "two": spec([*twice, fourth])}  # two: one finding more
    for directory, text in requests.items():
        files = {f"{directory}/{REQUEST}.json": text, f"{directory}/R.json": RESPONSE}
        write_files(root, files)
    plain = run_cli(["lint", "one", "two", "--format", "json"], root)
    shared = Counter(f["fingerprint"] for f in plain.findings())
    assert max(shared.values()) > 1  # the case this is about
    sarif = run_cli(["lint", "one", "two", "--format", "sarif"], root)
    results = json.loads(sarif.stdout)["runs"][0]["results"]
    prints = [r["partialFingerprints"]["kcompat/v1"] for r in results]
    assert len(results) == len(plain.findings()) and len(set(prints)) == len(prints)
    # a fingerprint no other finding shares stays kcompat's own (stable across moves)
    alone = {fp for fp, n in shared.items() if n == 1}
    assert alone and alone <= set(prints)
    again = run_cli(["lint", "one", "two", "--format", "sarif"], root)
    assert again.stdout == sarif.stdout
    gitlab = json.loads(run_cli(["lint", "one", "two", "--format", "gitlab"], root).stdout)
    assert sorted(issue["fingerprint"] for issue in gitlab) == sorted(prints)


# -- (3) the language server counts lines as kcompat does ---------------------------------------


@pytest.mark.parametrize("name", sorted(LINE_ENDS))
def test_the_language_server_puts_a_finding_on_jacksons_line(tmp_path: Path, name: str) -> None:
    """An editor counts lines at LF, CR and CR LF, as the protocol (and Jackson) says: a
    repeated tag in a spec written with any of them is marked on its own line."""
    pytest.importorskip("pygls", reason="pygls is not installed (the lsp extra)")
    import asyncio

    from tests.lsp_client import editing

    fields = THREE_ON_TAG_0[:3]
    text = LINE_ENDS[name].join(spec(fields).split("\n"))
    root = project(tmp_path, text.encode()) / "specs"

    async def session() -> list[tuple[int, int]]:
        async with editing(root) as editor:
            uri = editor.open(root / f"{REQUEST}.json", text)
            found = await editor.diagnostics(uri, 1)
            return [(d.range.start.line, d.range.start.character) for d in found]

    assert asyncio.run(session()) == [(10, 84)]  # line 11, column 85 of the CLI's count


@pytest.mark.parametrize("name", sorted(LINE_ENDS))
def test_changelog_reads_comment_paragraphs_across_any_line_end(name: str) -> None:
    """The changelog's references come from paragraphs of consecutive ``//`` lines: their
    lines are Jackson's, so a lone CR joins a paragraph as an LF does (here "Version 3"
    and the KIP it names sit on two lines of one paragraph, in a file with a block)."""
    from kcompat.changelog.references import references

    lines = [
        "/* Licensed to the ASF. */",
        "// Version 3 adds Hidden, see",
        "// KIP-999 for why.",
        *spec([LEASE]).split("\n"),
    ]
    found = references(LINE_ENDS[name].join(lines))
    assert found.of([3]) == ("KIP-999",) and found.general == ()
