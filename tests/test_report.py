"""``kcompat report``: audit directories (as ``history`` and ``corpus verify`` write them)
to one HTML file. These tests write the directories with pyarrow, no Spark; the page in
a real browser, from a real audit, is ``tests/test_report_browser.py``."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from tests.diff_runner import run_cli, run_process

pa = pytest.importorskip("pyarrow", reason="pyarrow is not installed (the report extra)")
pq = pytest.importorskip("pyarrow.parquet", reason="pyarrow is not installed (the report extra)")
pytest.importorskip("matplotlib", reason="matplotlib is not installed (the report extra)")

from kcompat.auditreport.history import HISTORY  # noqa: E402
from kcompat.auditreport.kinds import build_view  # noqa: E402
from kcompat.auditreport.page import PAGE_SIZE, script_json  # noqa: E402
from kcompat.pipeline.history_tasks import arrow_findings_schema  # noqa: E402
from kcompat.report.audit_summary import HistorySummary  # noqa: E402

#: A name no page may show unescaped: it closes the data block and opens a script.
EVIL = '</script><script>alert("x")</script><!--&'
EVIDENCE = {
    "message": "ShelfRequest",
    "version": 1,
    "direction": "base->head",
    "field_path": "Label",
    "hex": "0000000700",
    "annotated": ["0000  00 00 00 07   ShelfId (int32) = 7", "0004  00   Label = ''"],
    "written": "",
    "read": None,
    "error": "offset 4: 1 trailing byte",
}


def finding(pair: int, base: str, head: str, **fields: Any) -> dict[str, Any]:
    row: dict[str, Any] = {
        "pair_index": pair,
        "base_rev": base * 3,
        "head_rev": head * 3,
        "base_label": base,
        "head_label": head,
        "rule": "field-removed",
        "severity": "error",
        "message": "field Label removed",
        "hint": "",
        "file": "specs/ShelfRequest.json",
        "line": 12,
        "column": 5,
        "base_file": "specs/ShelfRequest.json",
        "base_line": 12,
        "message_name": "ShelfRequest",
        "field_path": "Label",
        "versions": "0-1",
        "fingerprint": "f1",
        "released_by": "tags",
        "evidence": None,
    }
    row.update(fields)
    return row


def write_audit(
    directory: Path, summary: dict[str, Any], rows: list[dict[str, Any]], schema: Any = None
) -> Path:
    (directory / "findings").mkdir(parents=True)
    table = pa.Table.from_pylist(rows, schema=schema or arrow_findings_schema())
    pq.write_table(table, directory / "findings" / "part-00000.parquet")
    (directory / "summary.json").write_text(json.dumps(summary))
    return directory


#: Releases 1.0 < 1.1 < 2.0, transitively: three pairs. Label breaks in 1.1 (so in 1.0..1.1
#: and 1.0..2.0), Id's type in 2.0 (in every pair ending at 2.0).
TRANSITIVE_PAIRS = [["1.0", "1.1"], ["1.0", "2.0"], ["1.1", "2.0"]]


def transitive_rows() -> list[dict[str, Any]]:
    label = {"evidence": json.dumps(EVIDENCE)}
    widened = {"rule": "type-changed", "field_path": "Id", "message": "Id: int32 -> int64"}
    warning = {"rule": "field-renamed", "severity": "warning", "field_path": "Color"}
    return [
        finding(0, "1.0", "1.1", **label),
        finding(1, "1.0", "2.0", **label),
        finding(1, "1.0", "2.0", **widened),
        finding(2, "1.1", "2.0", **widened),
        finding(2, "1.1", "2.0", **warning),
        finding(2, "1.1", "2.0", rule="version-added", severity="info", field_path=""),
    ]


def transitive_summary() -> dict[str, Any]:
    return {"mode": "transitive", "released": "tags", "comparisons": 3, "pairs": TRANSITIVE_PAIRS}


# -- what the page shows -------------------------------------------------------------------


def test_findings_repeated_across_pairs_are_one_group_with_every_pair() -> None:
    view = build_view(
        HISTORY.audit(
            HistorySummary.from_json(transitive_summary()),
            HISTORY.table.read(transitive_rows()),
            "x",
        )
    )
    assert view.steps == ("1.0..1.1", "1.0..2.0", "1.1..2.0")
    groups = {(g.rule, g.field_path): g for g in view.groups}
    assert groups[("field-removed", "Label")].steps == (0, 1)
    assert groups[("field-removed", "Label")].count == 2
    assert groups[("field-removed", "Label")].evidence == EVIDENCE
    assert groups[("type-changed", "Id")].steps == (1, 2)
    assert [g.severity for g in view.groups] == ["error", "error", "warning", "info"]
    assert view.totals == {"error": 4, "warning": 1, "info": 1}


def test_a_transitive_timeline_counts_each_break_once_at_its_first_release() -> None:
    view = build_view(
        HISTORY.audit(
            HistorySummary.from_json(transitive_summary()),
            HISTORY.table.read(transitive_rows()),
            "x",
        )
    )
    timeline = view.timeline
    assert timeline.labels == ("1.0", "1.1", "2.0") and timeline.axis == "release"
    counts = {(s.severity, s.rule): s.counts for s in timeline.series}
    assert counts == {
        ("error", "field-removed"): (0, 1, 0),
        ("error", "type-changed"): (0, 0, 1),
        ("warning", "field-renamed"): (0, 0, 1),
    }
    (shelf,) = view.messages
    assert shelf.name == "ShelfRequest" and shelf.errors == 4 and shelf.warnings == 1
    assert shelf.broken_by == ("1.1", "2.0")
    assert [(b.rule, b.field_path, b.first, b.pairs) for b in shelf.breaks] == [
        ("field-removed", "Label", "1.1", 2),
        ("type-changed", "Id", "2.0", 2),
    ]


def test_a_consecutive_timeline_has_every_commit_and_counts_per_commit() -> None:
    summary = {"mode": "consecutive", "released": "tags", "comparisons": 3,
               "pairs": [["a0", "a1"], ["a1", "a2"], ["a2", "a3"]]}  # fmt: skip
    rows = [
        finding(1, "a1", "a2"),
        finding(1, "a1", "a2", rule="field-added", field_path="Color"),
        finding(1, "a1", "a2", rule="field-renamed", severity="warning", field_path="X"),
    ]
    view = build_view(
        HISTORY.audit(HistorySummary.from_json(summary), HISTORY.table.read(rows), "x")
    )
    assert view.timeline.labels == ("a1", "a2", "a3") and view.timeline.axis == "commit"
    counts = {(s.severity, s.rule): s.counts for s in view.timeline.series}
    assert counts[("error", "field-removed")] == (0, 1, 0)
    assert counts[("warning", "field-renamed")] == (0, 1, 0)
    assert view.messages[0].broken_by == ("a2",)


def test_an_older_summary_without_pairs_takes_them_from_the_findings() -> None:
    summary = {"mode": "transitive", "released": "tags", "comparisons": 3}
    view = build_view(
        HISTORY.audit(HistorySummary.from_json(summary), HISTORY.table.read(transitive_rows()), "x")
    )
    assert view.steps == ("1.0..1.1", "1.0..2.0", "1.1..2.0")
    assert view.timeline.labels == ("1.0", "1.1", "2.0")


# -- the command ---------------------------------------------------------------------------


class _Page(HTMLParser):
    """Tags, attributes and script bodies of a page, as a browser's parser sees them."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.scripts: list[str] = []
        self.text: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        self._in_script = tag == "script"
        if self._in_script:
            self.scripts.append("")

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script:
            self.scripts[-1] += data
        else:
            self.text.append(data)


def parsed(path: Path) -> _Page:
    page = _Page()
    page.feed(path.read_text(encoding="utf-8"))
    return page


def test_the_report_escapes_every_name_and_fetches_nothing(tmp_path: Path) -> None:
    rows = [
        finding(0, "1.0", "1.1", message_name=EVIL, field_path=EVIL, rule="field-removed",
                message=f"{EVIL} removed", evidence=json.dumps({**EVIDENCE, "field_path": EVIL})),
        finding(1, "1.0", "2.0", message_name=EVIL, field_path=EVIL, message=f"{EVIL} removed",
                evidence=json.dumps({**EVIDENCE, "field_path": EVIL})),
    ]  # fmt: skip
    audit = write_audit(tmp_path / "audit", transitive_summary(), rows)
    out = tmp_path / "audit.html"
    run = run_cli(["report", str(audit), "-o", str(out)], tmp_path)
    assert run.code == 0, run.stderr
    assert run.stdout.startswith(f"{out}: report of 2 findings")
    page = parsed(out)
    # Exactly the page's two scripts: the data block and the code (the evil name opened none).
    scripts = [attrs for tag, attrs in page.tags if tag == "script"]
    assert scripts == [{"type": "application/json", "id": "audit-data"}, {}]
    data = json.loads(page.scripts[0])
    assert data["messages"] == [EVIL]
    assert data["groups"][0][3] == EVIL and data["evidence"][0]["field_path"] == EVIL
    assert EVIL in "".join(page.text)  # shown as text, in the static rows and tables
    text = out.read_text(encoding="utf-8")
    assert "<script>alert" not in text and "</script><script>alert" not in text
    # Nothing to fetch: no external URL in any attribute, no CSS import or url().
    for _, attrs in page.tags:
        for name, value in attrs.items():
            if name in ("src", "href", "xlink:href", "action", "data", "poster"):
                assert value is None or value.startswith("#"), (name, value)
    assert "@import" not in text and not re.search(r"url\((?!#)", text)  # url(#id): in the SVG
    policy = [
        a["content"] for t, a in page.tags if a.get("http-equiv") == "Content-Security-Policy"
    ]
    assert policy and (policy[0] or "").startswith("default-src 'none'")


def test_script_json_cannot_close_its_script() -> None:
    text = script_json({"name": "</script><!--\u2028&"})
    assert "<" not in text and ">" not in text and "&" not in text and "\u2028" not in text
    assert json.loads(text) == {"name": "</script><!--\u2028&"}


def test_the_static_page_lists_the_first_page_of_findings_errors_first(tmp_path: Path) -> None:
    rows = [
        finding(0, "1.0", "1.1", field_path=f"F{i}", message=f"F{i} removed") for i in range(70)
    ]
    rows.append(finding(0, "1.0", "1.1", rule="field-renamed", severity="warning"))
    audit = write_audit(tmp_path / "audit", transitive_summary(), rows)
    out = tmp_path / "audit.html"
    assert run_cli(["report", str(audit), "-o", str(out)], tmp_path).code == 0
    page = parsed(out)
    rows_shown = [a for t, a in page.tags if t == "tr" and a.get("class") in ("error", "warning")]
    assert len(rows_shown) == PAGE_SIZE
    assert all(a["class"] == "error" for a in rows_shown)
    assert any(tag == "svg" for tag, _ in page.tags)  # the plot, inline
    assert len(json.loads(page.scripts[0])["groups"]) == 71


def test_the_report_is_the_same_bytes_each_time(tmp_path: Path) -> None:
    audit = write_audit(tmp_path / "audit", transitive_summary(), transitive_rows())
    first, second = tmp_path / "one.html", tmp_path / "two.html"
    assert run_cli(["report", str(audit), "-o", str(first)], tmp_path).code == 0
    assert run_cli(["report", str(audit), "-o", str(second)], tmp_path).code == 0
    assert first.read_bytes() == second.read_bytes()


def test_a_corpus_verify_directory(tmp_path: Path) -> None:
    from kcompat.pipeline.corpus_tasks import FINDING_SCHEMA
    from kcompat.pipeline.history_tasks import arrow_table

    summary = {
        "corpus": {"revision": "abc", "revision_label": "3.7.0", "samples": 5, "seed": 0},
        "reader": "3.8.0",
        "rows": 20,
        "messages": 2,
        "findings": 3,
        "mismatches": 3,
        "per_rule": [{"rule": "corpus-mismatch", "severity": "error", "count": 3}],
        "per_message": [{"message": "ShelfRequest", "samples": 10, "mismatches": 3,
                         "versions": "1"}],
    }  # fmt: skip

    def mismatch(sample: int) -> dict[str, Any]:
        row = finding(0, "x", "y", rule="corpus-mismatch", version=1, sample_id=sample,
                      spec_digest="d", writer="3.7.0", reader="3.8.0",
                      evidence=json.dumps({**EVIDENCE, "hex": f"0{sample}"}))  # fmt: skip
        for key in ("pair_index", "base_rev", "head_rev", "base_label", "head_label"):
            row.pop(key)
        return row

    rows = [mismatch(4), mismatch(2), mismatch(3)]
    audit = write_audit(tmp_path / "verify", summary, [], arrow_table(rows, FINDING_SCHEMA).schema)
    pq.write_table(arrow_table(rows, FINDING_SCHEMA), audit / "findings" / "part-00000.parquet")
    out = tmp_path / "verify.html"
    run = run_cli(["report", str(audit), "-o", str(out)], tmp_path)
    assert run.code == 0, run.stderr
    data = json.loads(parsed(out).scripts[0])
    (group,) = data["groups"]
    assert group[9] == 3  # three samples, one group
    assert data["evidence"][group[10]]["hex"] == "02"  # the lowest sample stands for it
    assert data["steps"] == ["3.7.0..3.8.0"]
    assert "kcompat corpus verify" in out.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("make", "expected"),
    [
        (lambda d: None, "{d}: no such audit directory"),
        (lambda d: d.write_text("x"), "{d}: not a directory; give the --out of kcompat history"),
        (
            lambda d: d.mkdir(),
            "{d}: not a kcompat audit (no summary.json); make one with kcompat history "
            "--out DIR, kcompat corpus verify --out DIR or kcompat strands --out DIR",
        ),
        (
            lambda d: (d.mkdir(), (d / "summary.json").write_text("{")),
            "{d}/summary.json: not JSON (Expecting property name enclosed in double quotes: "
            "line 1 column 2 (char 1)); rerun the audit",
        ),
        (
            lambda d: (d.mkdir(), (d / "summary.json").write_text('{"mode": "sideways"}')),
            "{d}/summary.json: not the summary of kcompat history, corpus verify or strands",
        ),
        (
            lambda d: (d.mkdir(), (d / "summary.json").write_text('{"mode": "releases"}')),
            "{d}/findings: missing; the audit is incomplete, rerun it",
        ),
        (
            lambda d: (
                d.mkdir(),
                (d / "summary.json").write_text('{"mode": "releases"}'),
                (d / "findings").mkdir(),
                (d / "findings" / "part-0.parquet").write_bytes(b"PAR1 not really"),
            ),
            "{d}/findings: unreadable Parquet",
        ),
    ],
)
def test_a_bad_audit_directory_is_one_line(tmp_path: Path, make: Any, expected: str) -> None:
    directory = tmp_path / "audit"
    make(directory)
    run = run_process(["report", str(directory), "-o", str(tmp_path / "a.html")], tmp_path)
    assert run.code == 2, run.stderr
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(
        "kcompat: error: " + expected.format(d=directory)
    )
    assert not (tmp_path / "a.html").exists()


def _pairs(summary: dict[str, Any], pairs: Any) -> dict[str, Any]:
    return {**summary, "pairs": pairs}


@pytest.mark.parametrize(
    ("summary", "index", "expected"),
    [
        (transitive_summary(), 7, "{d}/findings: finding 1 (field-removed) names pair 7, but "
         "summary.json has 3 pairs (0 to 2); the audit is inconsistent, rerun it"),
        (transitive_summary(), -1, "{d}/findings: finding 1 (field-removed) names pair -1, "
         "but summary.json has 3 pairs (0 to 2); the audit is inconsistent, rerun it"),
        (transitive_summary(), None, "{d}/findings: finding 1 (field-removed) names pair None"),
        (_pairs(transitive_summary(), []), 0, "{d}/findings: finding 1 (field-removed) names "
         "pair 0, but summary.json has no pairs"),
        ({"mode": "releases", "comparisons": 2}, 2, "{d}/findings: finding 1 (field-removed) "
         "names pair 2, but summary.json has 2 pairs (0 to 1)"),
        ({"mode": "releases", "comparisons": 10**12}, 0, "{d}/summary.json: 1000000000000 "
         "comparisons is no real audit; rerun it"),
        ({"mode": "releases"}, 0, "{d}/summary.json: no 'pairs' (nor a count of 'comparisons')"),
        (_pairs(transitive_summary(), "1.0..2.0"), 0, "{d}/summary.json: 'pairs' is not a list "
         "of [base, head] labels; rerun it"),
        (_pairs(transitive_summary(), [["1.0", 2]]), 0, "{d}/summary.json: 'pairs' is not"),
    ],
    ids=["past-the-end", "negative", "none", "no-pairs", "comparisons", "huge-count",
         "no-count", "pairs-text", "label-number"],
)  # fmt: skip
def test_a_finding_outside_the_pairs_is_one_line(
    tmp_path: Path, summary: dict[str, Any], index: Any, expected: str
) -> None:
    """A history audit whose finding names a pair the summary does not list (a damaged
    or hand-edited audit): one line and exit 2, not an internal error or a wrong page."""
    audit = write_audit(tmp_path / "audit", summary, [finding(0, "1.0", "1.1", pair_index=index)])
    args = ["report", str(audit), "-o", str(tmp_path / "a.html")]
    # a real process for the first case (no traceback on any stream), in-process for the rest
    run = run_process(args, tmp_path) if index == 7 else run_cli(args, tmp_path)
    assert run.code == 2, run.stderr
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("kcompat: error: " + expected.format(d=audit))
    assert not (tmp_path / "a.html").exists()


def test_a_bad_output_is_one_line_before_reading(tmp_path: Path) -> None:
    audit = write_audit(tmp_path / "audit", transitive_summary(), transitive_rows())
    for output, expected in (
        (tmp_path / "missing" / "a.html", "directory {p} does not exist; create it first"),
        (tmp_path, "is a directory; give the report's file name (-o audit.html)"),
    ):
        run = run_cli(["report", str(audit), "-o", str(output)], tmp_path)
        assert run.code == 2
        assert run.stderr.strip() == (
            f"kcompat: error: {output}: " + expected.format(p=tmp_path / "missing")
        )


def test_report_needs_no_spark(tmp_path: Path) -> None:
    """The report reads Parquet with pyarrow: pyspark may be missing entirely."""
    audit = write_audit(tmp_path / "audit", transitive_summary(), transitive_rows())
    blocker = tmp_path / "site"
    blocker.mkdir()
    (blocker / "sitecustomize.py").write_text(
        "import sys\n"
        "class _Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'pyspark' or name.startswith(('pyspark.', 'py4j')):\n"
        "            raise ImportError('blocked for the test')\n"
        "        return None\n"
        "sys.meta_path.insert(0, _Block())\n"
    )
    out = tmp_path / "audit.html"
    run = run_process(
        ["report", str(audit), "-o", str(out)], tmp_path, env={"PYTHONPATH": str(blocker)}
    )
    assert run.code == 0, run.stderr
    assert re.search(r"report of 6 findings", run.stdout)


def test_the_plot_shows_hostile_names_as_text() -> None:
    """Release labels are git tags (``<``, ``&`` and ``$`` are allowed in tag names) and a
    corpus plot's labels are message names: SVG text, escaped, never markup or TeX."""
    from kcompat.auditreport.plot import timeline_svg
    from kcompat.auditreport.views import Series, Timeline

    labels = ("1.0", "<script>alert(1)</script>", "a&b", "$\\frac{1", "$x$", 'id="m" url(#m)')
    timeline = Timeline(
        labels, "release", "c", (Series("error", "field-removed", (0, 1, 2, 3, 4, 5)),)
    )
    for narrow in (False, True):  # the desktop's drawing and the phone's
        svg = timeline_svg(timeline, narrow=narrow)
        assert svg.startswith("<svg") and "<script" not in svg
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in svg and "a&amp;b" in svg
        assert "$\\frac{1" in svg and "$x$" in svg  # not typeset (unbalanced TeX would fail)
        assert 'id="m" url(#m)' in svg  # a label's text is not an id to prefix


def test_a_phone_has_a_drawing_of_its_own_and_each_id_is_once(tmp_path: Path) -> None:
    """The timeline is drawn twice, for a desktop and for a phone (the CSS shows one):
    each of matplotlib's ids (``figure_1``, clip paths, markers) is once in the page, and
    each drawing's references (``url(#..)``, ``href="#.."``) are to its own ids."""
    audit = write_audit(tmp_path / "audit", transitive_summary(), transitive_rows())
    out = tmp_path / "audit.html"
    assert run_cli(["report", str(audit), "-o", str(out)], tmp_path).code == 0
    page = parsed(out)
    drawings = [a.get("class") for t, a in page.tags if t == "div"][:2]
    assert drawings == ["wide", "narrow"]
    assert sum(tag == "svg" for tag, _ in page.tags) == 2
    ids = [str(a["id"]) for _, a in page.tags if a.get("id")]
    assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)
    text = out.read_text(encoding="utf-8")
    wide, narrow = text.split('<div class="narrow">')
    reference = re.compile(r'url\(#([^)]+)\)|href="#([^"]+)"')
    for drawing, prefix in ((wide[wide.index('<div class="wide">') :], ""), (narrow, "narrow-")):
        drawing = drawing[: drawing.index("</svg>")]
        names = {a or b for a, b in reference.findall(drawing)}
        own = set(re.findall(r'\sid="([^"]+)"', drawing))
        assert names and names <= own, names - own
        assert all(n.startswith(prefix) for n in names | own), names | own


def test_a_missing_library_is_one_line(tmp_path: Path) -> None:
    audit = write_audit(tmp_path / "audit", transitive_summary(), transitive_rows())
    blocker = tmp_path / "site"
    blocker.mkdir()
    (blocker / "sitecustomize.py").write_text(
        "import sys\n"
        "class _Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'matplotlib' or name.startswith('matplotlib.'):\n"
        "            raise ImportError('blocked for the test')\n"
        "        return None\n"
        "sys.meta_path.insert(0, _Block())\n"
    )
    out = tmp_path / "audit.html"
    run = run_process(
        ["report", str(audit), "-o", str(out)], tmp_path, env={"PYTHONPATH": str(blocker)}
    )
    assert run.code == 2
    assert run.stderr.strip() == (
        "kcompat: error: matplotlib is not installed: "
        'pip install "kcompat[report] @ git+https://github.com/kcompat/kcompat@<commit>" '
        "for HTML reports"
    )
    assert not out.exists()


# -- hostile summaries (issue 32.5) ----------------------------------------------------------

#: A history summary with every key ``kcompat report`` reads.
FULL_SUMMARY: dict[str, Any] = {
    **transitive_summary(),
    "per_rule": [{"rule": "r", "severity": "error", "count": 1}],
    "per_message": [{"message": "m", "errors": 1}],
    "per_release": [{"release": "1.1", "base": "1.0", "error": 1, "warning": 0, "info": 0}],
    "breaks": [
        {"rule": "r", "message": "m", "field_path": "f", "first_release": "1.1",
         "pairs": ["1.0..1.1"]}
    ],
    "notes": ["n"],
    "seconds": 1.0,
    "timings": {"a": 1.0},
    "changelogs": [
        {"base": "1.0", "head": "1.1", "markdown": "m", "html": "<b>h</b>", "summary": "s"}
    ],
}  # fmt: skip
HOSTILE_VALUES: list[Any] = [["x"], {"a": 1}, ["\ud800"], "\udc80", [[[["deep"]]]], None, 10**30]


@pytest.mark.parametrize(
    ("mode", "expected"),
    [
        (["transitive"], "not the summary of kcompat history, corpus verify or strands"),
        ({"a": 1}, "not the summary of kcompat history, corpus verify or strands"),
    ],
)
def test_a_mode_that_is_no_string_is_one_line(tmp_path: Path, mode: Any, expected: str) -> None:
    """Before: TypeError (unhashable type), internal error, exit 3."""
    audit = write_audit(tmp_path / "audit", {**transitive_summary(), "mode": mode}, [])
    run = run_process(["report", str(audit), "-o", str(tmp_path / "a.html")], tmp_path)
    assert run.code == 2, run.stderr
    assert run.stderr.strip() == f"kcompat: error: {audit / 'summary.json'}: {expected}"


@pytest.mark.parametrize(
    ("summary", "shown"),
    [
        ({**transitive_summary(), "released": "tags \ud800"}, True),
        ({**transitive_summary(), "pairs": [["1.0\udc80", "1.1"], *TRANSITIVE_PAIRS[1:]]}, True),
        ({**FULL_SUMMARY, "notes": ["a note \udfff"], "timings": {"\ud801": 1.0}}, False),
    ],
    ids=["released", "pair-label", "notes-and-keys"],
)
def test_a_lone_surrogate_is_shown_escaped(
    tmp_path: Path, summary: dict[str, Any], shown: bool
) -> None:
    """JSON may hold a lone surrogate (``"\\ud800"``); UTF-8 cannot. Before: the page's
    encoding, or the plot's labels, failed with an internal error, exit 3."""
    audit = write_audit(tmp_path / "audit", summary, transitive_rows())
    out = tmp_path / "a.html"
    run = run_process(["report", str(audit), "-o", str(out)], tmp_path)
    assert (run.code, run.stderr) == (0, ""), run.stderr
    page = out.read_text(encoding="utf-8")
    assert bool(re.search(r"\\ud[89a-f][0-9a-f]{2}", page)) is shown


def test_surrogates_and_bad_text_in_findings(tmp_path: Path) -> None:
    """A counterexample whose JSON holds a lone surrogate is shown escaped; a finding whose
    Parquet text is not UTF-8 is one line, exit 2 (before: both internal errors)."""
    rows = transitive_rows()
    rows[0]["evidence"] = json.dumps({**EVIDENCE, "hex": "\udc00", "message": "\ud800"})
    audit = write_audit(tmp_path / "audit", transitive_summary(), rows)
    out = tmp_path / "a.html"
    run = run_cli(["report", str(audit), "-o", str(out)], tmp_path)
    assert (run.code, run.stderr) == (0, "")
    assert "\\udc00" in out.read_text(encoding="utf-8")
    table = pa.Table.from_pylist(transitive_rows(), schema=arrow_findings_schema())
    raw = pa.array([b"\xff bad"] * table.num_rows, pa.binary())
    column = table.schema.get_field_index("message")
    bad = table.set_column(
        column, "message", pa.Array.from_buffers(pa.string(), len(raw), raw.buffers())
    )
    pq.write_table(bad, audit / "findings" / "part-00000.parquet")
    run = run_cli(["report", str(audit), "-o", str(out)], tmp_path)
    assert run.code == 2
    assert run.stderr.strip().startswith(
        f"kcompat: error: {audit / 'findings'}: a row's text is not UTF-8 ("
    )


def test_a_summary_nested_past_the_parser_is_one_line(tmp_path: Path) -> None:
    audit = write_audit(tmp_path / "audit", transitive_summary(), transitive_rows())
    (audit / "summary.json").write_text("[" * 200_000)
    run = run_cli(["report", str(audit), "-o", str(tmp_path / "a.html")], tmp_path)
    assert run.code == 2
    assert run.stderr.strip() == (
        f"kcompat: error: {audit / 'summary.json'}: not JSON (nested too deep); rerun the audit"
    )


def _hostile_summaries(values: Sequence[Any]) -> list[tuple[str, dict[str, Any]]]:
    """The full summary with one key (or one key of its first entry) replaced."""
    out = []
    for key in FULL_SUMMARY:
        out += [(f"{key}={value!r}", {**FULL_SUMMARY, key: value}) for value in values]
        first = FULL_SUMMARY[key][0] if isinstance(FULL_SUMMARY[key], list) else None
        if isinstance(first, dict):
            for sub in first:
                for value in values:
                    changed = json.loads(json.dumps(FULL_SUMMARY))
                    changed[key][0][sub] = value
                    out.append((f"{key}.{sub}={value!r}", changed))
    return out


@pytest.mark.parametrize(
    "slow",
    [False, pytest.param(True, marks=pytest.mark.slow)],
    ids=["three-values", "every-value"],
)
def test_no_value_in_any_key_of_a_summary_is_an_internal_error(tmp_path: Path, slow: bool) -> None:
    """Every key the report reads (and every key of their entries) set to a list, a
    mapping, a lone surrogate (and, in the slow tier, deep nesting, null, a huge number):
    a page, or one line with exit 2; never exit 3."""
    values = HOSTILE_VALUES if slow else HOSTILE_VALUES[:3]
    bad = []
    for number, (name, summary) in enumerate(_hostile_summaries(values)):
        audit = write_audit(tmp_path / f"audit{number}", summary, transitive_rows())
        run = run_cli(["report", str(audit), "-o", str(audit / "a.html")], tmp_path)
        if run.code not in (0, 2) or len(run.stderr.strip().splitlines()) > 1:
            bad.append((name, run.code, run.stderr.strip()[-200:]))
    assert bad == []
