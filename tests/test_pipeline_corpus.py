"""``kcompat corpus build|verify`` on Spark: stored bytes, read back by another revision.

All tests share the session-scoped SparkSession of ``conftest.py``; CLI runs are
in-process, so they get that same session.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

import kcompat.commands
from kcompat.app import app
from kcompat.cli import main
from kcompat.modes import HistoryMode
from kcompat.pipeline.corpus_build import BuildRequest, build
from kcompat.pipeline.corpus_verify import VerifyRequest, VerifyResult, verify
from kcompat.rules.registry import get_rule
from tests.rule_docs import RULES_DIR, parse_rule_doc
from tests.test_pipeline_history import shelf_repo

kcompat.commands.register_all()

pytestmark = pytest.mark.spark

SAMPLES = 6


@pytest.fixture(scope="module")
def shelf(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    """The shelf history of the history tests (v1.0.0, v1.1.0, a break, v2.0.0)."""
    from tests.conftest import git

    path = tmp_path_factory.mktemp("shelf") / "repo"
    path.mkdir()
    git(path, "init", "-q", "-b", "main")
    return path, shelf_repo(path)


@pytest.fixture(scope="module")
def corpus(
    spark: Any, shelf: tuple[Path, list[str]], tmp_path_factory: pytest.TempPathFactory
) -> tuple[Path, Any]:
    """The corpus of v1.1.0 (ShelfRequest and ShelfResponse, versions 0-2)."""
    repo, _ = shelf
    out = tmp_path_factory.mktemp("corpus") / "v1.1.0"
    result = build(BuildRequest("v1.1.0", out, SAMPLES, 7, repo), spark)
    return out, result


def _verify(spark: Any, corpus_dir: Path, rev: str, repo: Path, tmp: Path) -> VerifyResult:
    return verify(VerifyRequest(corpus_dir, rev, repo, tmp / f"verify-{rev}"), spark)


def test_build_writes_samples_specs_and_a_manifest(corpus: tuple[Path, Any]) -> None:
    out, result = corpus
    manifest = json.loads((out / "corpus.json").read_text())
    assert manifest == result.manifest
    assert manifest["revision_label"] == "v1.1.0" and len(manifest["revision"]) == 40
    assert (manifest["samples"], manifest["seed"], manifest["messages"]) == (SAMPLES, 7, 2)
    assert manifest["message_versions"] == 6
    assert manifest["rows"] == 6 * SAMPLES and manifest["skipped_samples"] == 0
    samples = pq.read_table(out / "samples").to_pylist()
    assert len(samples) == manifest["rows"]
    assert set(samples[0]) == {
        "message", "api_key", "type", "version", "sample_id", "seed", "value", "bytes",
        "revision", "revision_label", "spec_digest",
    }  # fmt: skip
    keys = {(r["message"], r["version"], r["sample_id"]) for r in samples}
    assert len(keys) == len(samples)
    request = [r for r in samples if r["message"] == "ShelfRequest"]
    assert {r["version"] for r in request} == {0, 1, 2}
    assert all(r["api_key"] == 90 and r["type"] == "request" and r["seed"] == 7 for r in request)
    specs = pq.read_table(out / "specs").to_pylist()
    digests = {s["spec_digest"] for s in specs}
    assert {r["spec_digest"] for r in samples} == digests
    import hashlib

    assert all(hashlib.sha256(s["text"]).hexdigest() == s["spec_digest"] for s in specs)


def test_samples_are_the_seeded_samples_encoded(corpus: tuple[Path, Any]) -> None:
    """Each row is exactly generate_samples(layout, N, seed)[sample_id] and its bytes."""
    from kcompat.codec import encode
    from kcompat.codec.jsonform import from_json, to_json
    from kcompat.codec.samples import generate_samples
    from kcompat.spec.resolve import resolve
    from kcompat.spec.specfile import read_spec

    out, _ = corpus
    specs = {s["spec_digest"]: s for s in pq.read_table(out / "specs").to_pylist()}
    for row in pq.read_table(out / "samples").to_pylist():
        spec = specs[row["spec_digest"]]
        message = read_spec(spec["path"], spec["text"]).message
        assert message is not None
        layout = resolve(message, row["version"])
        value = generate_samples(layout, SAMPLES, 7)[row["sample_id"]]
        assert json.loads(row["value"]) == to_json(layout, value)
        assert row["bytes"] == encode(layout, value)
        assert encode(layout, from_json(layout, json.loads(row["value"]))) == row["bytes"]


def test_verify_against_the_same_revision_finds_nothing(
    spark: Any, corpus: tuple[Path, Any], shelf: tuple[Path, list[str]], tmp_path: Path
) -> None:
    out, _ = corpus
    repo, _ = shelf
    result = _verify(spark, out, "v1.1.0", repo, tmp_path)
    assert result.groups == []
    assert result.summary.rows == 6 * SAMPLES and result.summary.mismatches == 0
    assert pq.read_table(Path(result.out) / "findings").num_rows == 0


def test_verify_against_a_breaking_revision_shows_the_bytes(
    spark: Any, corpus: tuple[Path, Any], shelf: tuple[Path, list[str]], tmp_path: Path
) -> None:
    out, _ = corpus
    repo, _ = shelf
    result = _verify(spark, out, "v2.0.0", repo, tmp_path)  # Label gone, ShelfId int64
    mismatches = [g for g in result.groups if g.row.finding.rule == "corpus-mismatch"]
    assert {g.row.finding.message_name for g in mismatches} == {"ShelfRequest"}
    assert {g.row.about.version for g in mismatches} == {0, 1, 2}
    assert all(
        g.row.finding.severity == "error" and g.row.finding.released_by == "v1.1.0"
        for g in mismatches
    )
    assert sum(g.count for g in mismatches) == 3 * SAMPLES  # every request sample
    assert result.errors == 3 * SAMPLES
    first = min(mismatches, key=lambda g: g.row.about.version or 0)
    evidence = json.loads(str(first.row.finding.evidence))
    assert evidence["direction"] == "v1.1.0->v2.0.0"
    assert evidence["message"] == "ShelfRequest" and evidence["version"] == 0
    assert bytes.fromhex(evidence["hex"])  # the stored bytes, as written by v1.1.0
    assert any("ShelfId (int32)" in line for line in evidence["annotated"])
    assert str(first.row.finding.file).endswith("specs/ShelfRequest.json")
    assert (first.row.finding.line or 0) > 1
    rows = pq.read_table(Path(result.out) / "findings").to_pylist()
    assert len(rows) == 3 * SAMPLES and all(r["evidence"] for r in rows)
    summary = json.loads((Path(result.out) / "summary.json").read_text())
    assert summary["per_message"] == [
        {"message": "ShelfRequest", "samples": 3 * SAMPLES, "mismatches": 3 * SAMPLES,
         "versions": "0-2"}
    ]  # fmt: skip
    assert summary["per_rule"] == [
        {"rule": "corpus-mismatch", "severity": "error", "count": 3 * SAMPLES}
    ]


def test_versions_and_messages_the_reader_lacks_are_warnings(
    spark: Any, corpus: tuple[Path, Any], shelf: tuple[Path, list[str]], tmp_path: Path
) -> None:
    out, _ = corpus
    repo, _ = shelf
    result = _verify(spark, out, "v1.0.0", repo, tmp_path)  # versions 0-1 only
    missing = [g for g in result.groups if g.row.finding.rule == "corpus-version-missing"]
    assert [
        (g.row.finding.message_name, g.row.finding.versions, g.row.finding.severity)
        for g in missing
    ] == [
        ("ShelfRequest", "2", "warning"),
        ("ShelfResponse", "2", "warning"),
    ]
    assert f"{SAMPLES} stored samples" in missing[0].row.finding.message
    assert result.errors == 0  # versions 0-1 read back; 2 is only missing


# -- the rule pages: their examples through build and verify -----------------------------------

CORPUS_PAGES = ("corpus-mismatch", "corpus-version-missing", "corpus-message-missing")


@pytest.mark.parametrize("rule_id", CORPUS_PAGES)
def test_rule_page_examples(spark: Any, rule_id: str, tmp_path: Path) -> None:
    doc = parse_rule_doc(RULES_DIR / f"{rule_id}.md")
    rule = get_rule(rule_id)
    assert rule is not None and rule.kind == "corpus"
    assert (doc.kind, doc.category, doc.severity, doc.summary) == (
        rule.kind, rule.category, rule.severity.label, rule.summary,
    )  # fmt: skip
    for kind in ("fail", "pass"):
        sides = {}
        for role in ("base", "head"):
            folder = tmp_path / kind / role
            folder.mkdir(parents=True)
            for name, text in doc.files(f"{kind}-{role}"):
                (folder / name).write_text(text)
            sides[role] = folder
        stored = tmp_path / kind / "corpus"
        build(BuildRequest(str(sides["base"]), stored, 4, 0, tmp_path), spark)
        result = verify(VerifyRequest(stored, str(sides["head"]), tmp_path, tmp_path / kind), spark)
        rules = {g.row.finding.rule for g in result.groups}
        if kind == "fail":
            assert rule_id in rules
            assert {
                g.row.finding.severity for g in result.groups if g.row.finding.rule == rule_id
            } == {rule.severity.label}
        else:
            assert result.groups == [], result.groups


# -- Kafka: 3.7.0's bytes read by 3.8.0 ---------------------------------------------------------


@pytest.mark.corpus
def test_kafka_370_records_read_by_380(spark: Any, kafka_repo: Path, tmp_path: Path) -> None:
    out = tmp_path / "k370"
    built = build(
        BuildRequest(
            "3.7.0", out, 2, 0, kafka_repo,
            ("group-coordinator/src/main/resources/common/message",),
        ),
        spark,
    )  # fmt: skip
    assert built.manifest["messages"] >= 10
    result = verify(
        VerifyRequest(
            out, "3.8.0", kafka_repo, tmp_path / "v",
            ("group-coordinator/src/main/resources/common/message",),
        ),
        spark,
    )  # fmt: skip
    broken = {
        g.row.finding.message_name for g in result.groups if g.row.finding.severity == "error"
    }
    # KIP-848's records changed incompatibly between 3.7 and 3.8 (TargetMemberEpoch went).
    assert "ConsumerGroupCurrentMemberAssignmentValue" in broken
    found = next(
        g
        for g in result.groups
        if g.row.finding.message_name == "ConsumerGroupCurrentMemberAssignmentValue"
    )
    assert "TargetMemberEpoch (int32)" in "\n".join(
        json.loads(str(found.row.finding.evidence))["annotated"]
    )


# -- the command line ---------------------------------------------------------------------------


def test_cli_round_trip(spark: Any, shelf: tuple[Path, list[str]], tmp_path: Path) -> None:
    repo, _ = shelf
    out = tmp_path / "cli-corpus"
    runner = CliRunner()
    built = runner.invoke(
        app,
        ["corpus", "build", "--rev", "v1.1.0", "--samples", "3", "--seed", "5", "--out", str(out),
         "--repo", str(repo), "--color", "never"],
    )  # fmt: skip
    assert built.exit_code == 0, built.output
    assert built.stdout.startswith("corpus of v1.1.0: 18 samples of 6 versions of 2 messages")
    clean = runner.invoke(
        app, ["corpus", "verify", str(out), "--rev", "v1.1.0", "--repo", str(repo), "--color",
              "never", "--out", str(tmp_path / "same")],
    )  # fmt: skip
    assert clean.exit_code == 0, clean.output
    assert "0 mismatches" in clean.stdout
    broken = runner.invoke(
        app, ["corpus", "verify", str(out), "--rev", "v2.0.0", "--repo", str(repo), "--format",
              "json", "--out", str(tmp_path / "broken")],
    )  # fmt: skip
    assert broken.exit_code == 1, broken.output
    report = json.loads(broken.stdout)
    assert report["command"] == "corpus-verify" and report["head"] == "v2.0.0"
    assert report["summary"]["error"] == 9 and report["corpus"]["mismatches"] == 9
    assert {f["rule"] for f in report["findings"]} == {"corpus-mismatch"}
    assert all(f["evidence"]["hex"] and f["count"] >= 1 for f in report["findings"])
    page = tmp_path / "verify.html"  # kcompat report reads a real verify directory
    made = runner.invoke(app, ["report", str(tmp_path / "broken"), "-o", str(page)])
    assert made.exit_code == 0, made.output
    assert made.stdout.startswith(f"{page}: report of 9 findings")
    html = page.read_text(encoding="utf-8")
    assert "kcompat corpus verify" in html and "ShelfRequest" in html and "<svg" in html
    text = runner.invoke(
        app, ["corpus", "verify", str(out), "--rev", "v2.0.0", "--repo", str(repo), "--color",
              "never", "--out", str(tmp_path / "text")],
    )  # fmt: skip
    assert text.exit_code == 1
    assert "Mismatches per message" in text.stdout and "ShelfRequest" in text.stdout
    assert "ShelfId (int32)" in text.stdout  # a counterexample's dump


def _error(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    code = main(argv)
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2, err
    assert len(err) == 1, err
    return err[0]


def test_usage_errors_are_one_line(
    shelf: tuple[Path, list[str]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo, _ = shelf
    line = _error(
        ["corpus", "build", "--rev", "v9.9.9", "--out", str(tmp_path / "x"), "--repo", str(repo)],
        capsys,
    )
    # --rev is a directory or a revision (issue 35.13: a name that is neither says so)
    assert line.startswith("kcompat: error: 'v9.9.9' is neither a directory nor a revision")
    assert line.endswith("if it is a tag not fetched yet: git fetch origin tag v9.9.9")
    empty = tmp_path / "empty"
    empty.mkdir()
    line = _error(["corpus", "verify", str(empty), "--rev", "v1.0.0", "--repo", str(repo)], capsys)
    assert line == f"kcompat: error: {empty}: empty directory, not a corpus (kcompat corpus build)"
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("hello")
    line = _error(["corpus", "verify", str(other), "--rev", "v1.0.0", "--repo", str(repo)], capsys)
    assert line.startswith(f"kcompat: error: {other}: not a kcompat corpus (no corpus.json")
    line = _error(
        ["corpus", "build", "--rev", "v1.0.0", "--out", str(other), "--repo", str(repo)], capsys
    )
    assert line.endswith("not empty and not a kcompat corpus; choose another --out")
    line = _error(["corpus", "verify", str(tmp_path / "nope"), "--rev", "v1.0.0"], capsys)
    assert line.endswith("no such corpus directory")


@pytest.mark.parametrize(
    ("part", "damage", "why"),
    [
        ("samples", "truncate", "not a Parquet file"),
        ("specs", "overwrite", "not a Parquet file"),
        ("samples", "flip", "its checksum does not match"),
    ],
)
def test_a_corrupt_corpus_is_one_line(
    spark: Any,
    corpus: tuple[Path, Any],
    shelf: tuple[Path, list[str]],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    part: str,
    damage: str,
    why: str,
) -> None:
    """A damaged part file: exit 2, one line naming the corpus, the file and what to do."""
    import shutil

    repo, _ = shelf
    copy = tmp_path / "corpus"
    shutil.copytree(corpus[0], copy)
    target = sorted((copy / part).glob("part-*.parquet"))[0]
    data = target.read_bytes()
    if damage == "truncate":
        target.write_bytes(data[:100])
        for crc in (copy / part).glob(".*.crc"):  # as a copy without them would be
            crc.unlink()
    elif damage == "overwrite":
        target.write_text("garbage\n")
        for crc in (copy / part).glob(".*.crc"):
            crc.unlink()
    else:  # the bytes of a page change; Hadoop's checksum file still has the old sum
        middle = len(data) // 2
        target.write_bytes(data[:middle] + bytes(b ^ 0x5A for b in data[middle:middle + 64])
                           + data[middle + 64:])  # fmt: skip
    line = _error(
        ["corpus", "verify", str(copy), "--rev", "v1.1.0", "--repo", str(repo), "--out",
         str(tmp_path / "out")],
        capsys,
    )  # fmt: skip
    assert line == (
        f"kcompat: error: {copy}: corrupt corpus ({part}/{target.name}: {why}); rebuild it "
        "with kcompat corpus build"
    )


def test_uri_outputs_go_through_spark(
    spark: Any, shelf: tuple[Path, list[str]], tmp_path: Path
) -> None:
    """hdfs:// or s3a:// on a cluster; file:// here takes the same road (Hadoop's API)."""
    from kcompat.pipeline.history_driver import HistoryRequest, run_history

    repo, _ = shelf
    uri = f"file://{tmp_path}/corpus"
    built = build(BuildRequest("v1.1.0", uri, 2, 0, repo), spark)
    assert built.out == uri and (tmp_path / "corpus" / "corpus.json").is_file()
    result = verify(VerifyRequest(uri, "v2.0.0", repo, f"file://{tmp_path}/verify"), spark)
    assert result.errors == 6 and (tmp_path / "verify" / "summary.json").is_file()
    history = run_history(
        HistoryRequest(repo, HistoryMode.RELEASES, out=f"file://{tmp_path}/history", proof=False),
        spark,
    )
    assert history.out == f"file://{tmp_path}/history"
    assert json.loads((tmp_path / "history" / "summary.json").read_text())["comparisons"] == 2
    assert {f.finding.rule for f in history.findings} >= {"field-removed", "field-type-changed"}


def test_directories_with_glob_characters_are_read_as_named(
    spark: Any, shelf: tuple[Path, list[str]], tmp_path: Path
) -> None:
    """Spark's readers expand ``[``, ``*`` and ``{`` as patterns; kcompat escapes them, so
    a directory named like ``audit[1]`` is read back (as a local path and as a URI)."""
    repo, _ = shelf
    odd = tmp_path / "audit[1]{a,b}*"
    built = build(BuildRequest("v1.1.0", odd / "corpus", 2, 0, repo), spark)
    assert built.manifest["rows"] == 12
    result = verify(VerifyRequest(odd / "corpus", "v2.0.0", repo, odd / "verify"), spark)
    assert result.errors == 6 and result.summary.rows == 12
    uri = f"file://{odd}/corpus"
    remote = verify(VerifyRequest(uri, "v2.0.0", repo, f"file://{odd}/verify-uri"), spark)
    assert remote.errors == 6


def test_glob_escaping() -> None:
    from kcompat.pipeline.outputs import Output, glob_escaped

    assert glob_escaped("/data/run[1]/{a,b}/x*?") == r"/data/run\[1\]/\{a,b\}/x\*\?"
    assert glob_escaped("hdfs://nn:8020/audits/kafka") == "hdfs://nn:8020/audits/kafka"
    assert Output.of("/tmp/a[2]").readable("findings") == r"/tmp/a\[2\]/findings"


def test_an_output_that_cannot_be_written_is_one_line_before_spark(
    shelf: tuple[Path, list[str]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo, _ = shelf
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    out = blocker / "out"
    for argv in (
        ["history", "--repo", str(repo), "--mode", "releases", "--out", str(out)],
        ["corpus", "build", "--rev", "v1.0.0", "--out", str(out), "--repo", str(repo)],
    ):
        line = _error(argv, capsys)
        assert (
            line
            == f"kcompat: error: {out}: cannot create it (Not a directory); choose another --out"
        )
    line = _error(
        ["history", "--repo", str(repo), "--mode", "releases", "--out", str(blocker)], capsys
    )
    assert line == f"kcompat: error: {blocker}: exists and is not a directory; choose another --out"


def test_internal_errors_from_java_show_the_deepest_cause() -> None:
    from kcompat.errors import one_line

    trace = (
        "An error occurred while calling o82.parquet.\n"
        ": org.apache.spark.SparkException: Job aborted due to stage failure: Task 0 failed\n"
        "\tat org.apache.spark.scheduler.DAGScheduler.failJobAndIndependentStages(x.scala:1)\n"
        "Caused by: org.apache.spark.SparkException: Task failed while writing rows.\n"
        "Caused by: java.io.IOException: Mkdirs failed to create file:/x/findings\n"
        "\tat org.apache.hadoop.fs.ChecksumFileSystem.create(ChecksumFileSystem.java:774)\n"
    )
    assert (
        one_line(RuntimeError(trace))
        == "java.io.IOException: Mkdirs failed to create file:/x/findings"
    )
    assert one_line(ValueError("first\nsecond")) == "first"
    assert one_line(ValueError("")) == ""
    assert (
        one_line(ValueError("x" * 400)).endswith("...")
        and len(one_line(ValueError("x" * 400))) == 300
    )
