"""``kcompat history`` on Spark: exact findings per pair, equality with ``kcompat diff``.

Every test here shares the one session-scoped SparkSession of ``conftest.py`` (local[2],
two shuffle partitions, UI off); the CLI tests run in-process, so ``getOrCreate`` hands
them that same session. The Kafka tests compare ``history`` with ``kcompat diff A B
--format json`` run pair by pair: both must give exactly the same findings.
"""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import kcompat.commands
from kcompat.app import app
from kcompat.config import Config, parse_config
from kcompat.modes import HistoryMode
from kcompat.pipeline.history_driver import HistoryRequest, HistoryResult, run_history
from kcompat.rules.registry import rule_categories
from tests.conftest import git
from tests.diff_runner import init_repo

kcompat.commands.register_all()

pytestmark = pytest.mark.spark

SHELF_DIR = "specs"


def _field(name: str, type_: str, versions: str) -> dict[str, str]:
    return {"name": name, "type": type_, "versions": versions, "about": f"The {name}."}


def _spec(kind: str, versions: str, fields: Sequence[dict[str, str]]) -> str:
    name = "ShelfRequest" if kind == "request" else "ShelfResponse"
    document = {
        "apiKey": 90,
        "type": kind,
        "name": name,
        "validVersions": versions,
        "flexibleVersions": "1+",
        "fields": list(fields),
    }
    return json.dumps(document, indent=2) + "\n"


#: The shelf history: (commit message, request versions, request fields, tag).
SHELF_STEPS: list[tuple[str, str, list[dict[str, str]], str | None]] = [
    (
        "shelf v0-1",
        "0-1",
        [_field("ShelfId", "int32", "0+"), _field("Label", "string", "0+")],
        "v1.0.0",
    ),
    (
        "version 2 adds Color (compatible)",
        "0-2",
        [
            _field("ShelfId", "int32", "0+"),
            _field("Label", "string", "0+"),
            _field("Color", "string", "2+"),
        ],
        "v1.1.0",
    ),
    (
        "drop Label (breaks released versions)",
        "0-2",
        [_field("ShelfId", "int32", "0+"), _field("Color", "string", "2+")],
        None,
    ),
    (
        "ShelfId becomes int64 (breaks released versions)",
        "0-2",
        [_field("ShelfId", "int64", "0+"), _field("Color", "string", "2+")],
        "v2.0.0",
    ),
]


def shelf_repo(path: Path) -> list[str]:
    """Commit the shelf history into the empty repository ``path``; the commit SHAs."""
    shas = []
    for message, versions, fields, tag in SHELF_STEPS:
        folder = path / SHELF_DIR
        folder.mkdir(exist_ok=True)
        (folder / "ShelfRequest.json").write_text(_spec("request", versions, fields))
        response = [_field("ErrorCode", "int16", "0+")]
        (folder / "ShelfResponse.json").write_text(_spec("response", versions, response))
        git(path, "add", SHELF_DIR)
        git(path, "commit", "-q", "-m", message)
        if tag:
            git(path, "tag", tag)
        shas.append(git(path, "rev-parse", "HEAD").strip())
    return shas


def history(spark: Any, repo: Path, tmp: Path, **options: Any) -> HistoryResult:
    config = options.pop("config", Config())
    request = HistoryRequest(repo=repo, out=tmp / "out", samples=5, config=config, **options)
    return run_history(request, spark)


def rules_per_pair(result: HistoryResult) -> dict[str, Counter[str]]:
    out: dict[str, Counter[str]] = {}
    for finding in result.findings:
        out.setdefault(finding.about.step, Counter())[finding.finding.rule] += 1
    return out


def _static(counts: Counter[str]) -> dict[str, int]:
    """The rule counts without the proof's (its grouping is the codec's business)."""
    return {rule: n for rule, n in counts.items() if rule != "roundtrip-mismatch"}


# -- a small repository with known edits -----------------------------------------------------


@pytest.fixture()
def shelf(repo: Path) -> tuple[Path, list[str]]:
    return repo, shelf_repo(repo)


def test_consecutive_gives_the_exact_rules_per_commit(
    spark: Any, shelf: tuple[Path, list[str]], tmp_path: Path
) -> None:
    repo, shas = shelf
    result = history(spark, repo, tmp_path, mode="consecutive")
    assert result.comparisons == 3
    assert result.released_mode == "tags"
    per_pair = rules_per_pair(result)
    pair = [f"{a[:12]}..{b[:12]}" for a, b in itertools.pairwise(shas)]
    assert set(per_pair) == set(pair)
    assert per_pair[pair[0]] == Counter({"version-added": 2})
    # one finding per break, its bytes attached (no separate roundtrip-mismatch)
    assert per_pair[pair[1]] == Counter({"field-removed": 1})
    # BASE had dropped Label already: no release has its v0-1, so retyping ShelfId breaks
    # no release anew (issue 31: an error needs a release whose layout is BASE's)
    assert per_pair[pair[2]] == Counter({"unreleased-change": 1})
    proven = {f.finding.rule for f in result.findings if f.finding.evidence}
    assert proven == {"field-removed"}
    removed = next(f for f in result.findings if f.finding.rule == "field-removed")
    assert removed.finding.field_path == "Label"
    # v1.0.0 tags the repository's first commit: an older release may have shipped v0-1
    assert removed.finding.released_by == "released in ≤ v1.0.0, v1.1.0"
    assert str(removed.finding.file).endswith("specs/ShelfRequest.json")


def test_releases_compare_each_tag_with_the_previous(
    spark: Any, shelf: tuple[Path, list[str]], tmp_path: Path
) -> None:
    repo, _ = shelf
    result = history(spark, repo, tmp_path, mode="releases")
    per_pair = rules_per_pair(result)
    assert set(per_pair) == {"v1.0.0..v1.1.0", "v1.1.0..v2.0.0"}
    assert per_pair["v1.0.0..v1.1.0"] == Counter({"version-added": 2})
    assert _static(per_pair["v1.1.0..v2.0.0"]) == {"field-removed": 1, "field-type-changed": 1}
    releases = {r["release"]: r for r in result.summary.to_json()["per_release"]}
    assert releases["v1.1.0"] == {
        "release": "v1.1.0",
        "base": "v1.0.0",
        "error": 0,
        "warning": 0,
        "info": 2,
    }
    assert releases["v2.0.0"]["error"] >= 2
    assert result.summary.breaks is None and "breaks" not in result.summary.to_json()


def test_transitive_names_the_first_release_and_every_pair_of_a_break(
    spark: Any, shelf: tuple[Path, list[str]], tmp_path: Path
) -> None:
    repo, _ = shelf
    result = history(spark, repo, tmp_path, mode="transitive")
    per_pair = rules_per_pair(result)
    assert set(per_pair) == {"v1.0.0..v1.1.0", "v1.0.0..v2.0.0", "v1.1.0..v2.0.0"}
    assert per_pair["v1.0.0..v1.1.0"] == Counter({"version-added": 2})
    assert _static(per_pair["v1.0.0..v2.0.0"]) == {
        "version-added": 2,
        "field-removed": 1,
        "field-type-changed": 1,
    }
    assert _static(per_pair["v1.1.0..v2.0.0"]) == {"field-removed": 1, "field-type-changed": 1}
    breaks = {(b["rule"], b["field_path"]): b for b in result.summary.to_json()["breaks"]}
    for key in (("field-removed", "Label"), ("field-type-changed", "ShelfId")):
        assert breaks[key]["message"] == "ShelfRequest"
        assert breaks[key]["first_release"] == "v2.0.0"
        assert breaks[key]["pairs"] == ["v1.0.0..v2.0.0", "v1.1.0..v2.0.0"]


def test_parquet_and_summary_json(
    spark: Any, shelf: tuple[Path, list[str]], tmp_path: Path
) -> None:
    repo, _ = shelf
    result = history(spark, repo, tmp_path, mode="consecutive")
    import pyarrow.parquet as pq

    table = pq.read_table(Path(result.out) / "findings")
    assert table.num_rows == len(result.findings)
    assert {"pair_index", "rule", "severity", "file", "line", "evidence", "fingerprint"} <= set(
        table.column_names
    )
    proof = [r for r in table.to_pylist() if r["evidence"]]
    assert proof and all(json.loads(r["evidence"])["hex"] for r in proof)
    assert all(json.loads(r["notes"]) for r in proof)  # the other direction, as a note
    summary = json.loads((Path(result.out) / "summary.json").read_text())
    assert set(summary) >= {
        "mode",
        "released",
        "comparisons",
        "findings",
        "per_rule",
        "per_message",
        "per_release",
    }
    assert summary["comparisons"] == 3 and summary["findings"] == len(result.findings)
    assert sum(r["count"] for r in summary["per_rule"]) == summary["findings"]
    assert {"message": "ShelfRequest", "errors": summary["per_message"][0]["errors"]} in summary[
        "per_message"
    ]


# -- equality with kcompat diff, pair by pair --------------------------------------------------

_KEY = ("rule", "file", "line", "column", "message", "versions", "fingerprint", "released_by")


def diff_findings(
    repo: Path, base: str, head: str, released: str, config: Path | None = None
) -> set[tuple[Any, ...]]:
    """``kcompat diff BASE HEAD --format json`` (in-process, like a user would run it)."""
    args = [
        "diff",
        base,
        head,
        "--repo",
        str(repo),
        "--format",
        "json",
        "--samples",
        "5",
        "--released",
        released,
    ]
    if config is not None:
        args += ["--config", str(config)]
    run = CliRunner().invoke(app, args)
    assert run.exit_code in (0, 1), run.output
    report = json.loads(run.stdout)
    return {tuple(f[k] for k in _KEY) for f in report["findings"]}


def history_findings(result: HistoryResult) -> dict[tuple[str, str], set[tuple[Any, ...]]]:
    out: dict[tuple[str, str], set[tuple[Any, ...]]] = {}
    for f in result.findings:
        out.setdefault((f.about.base_rev, f.about.head_rev), set()).add(
            tuple(getattr(f.finding, k) for k in _KEY)
        )
    return out


def assert_same_as_diff(
    result: HistoryResult, repo: Path, pairs: Sequence[tuple[str, str]], config: Path | None
) -> int:
    found = history_findings(result)
    total = 0
    for base, head in pairs:
        expected = diff_findings(repo, base, head, result.released_mode, config)
        assert found.get((base, head), set()) == expected, f"{base[:12]}..{head[:12]}"
        total += len(expected)
    assert set(found) <= set(pairs)
    return total


def test_history_equals_diff_pair_by_pair_on_the_shelf(
    spark: Any, shelf: tuple[Path, list[str]], tmp_path: Path
) -> None:
    repo, shas = shelf
    result = history(spark, repo, tmp_path, mode="consecutive")
    pairs = list(itertools.pairwise(shas))
    assert assert_same_as_diff(result, repo, pairs, None) == len(result.findings)


def test_pairs_that_prepare_alike_are_checked_once_and_reported_for_each(
    spark: Any, shelf: tuple[Path, list[str]], tmp_path: Path
) -> None:
    """v1.1.1 tags v1.1.0's commit: its pairs repeat v1.1.0's, and each pair still gets
    exactly the findings kcompat diff gives it."""
    repo, shas = shelf
    git(repo, "tag", "v1.1.1", shas[1])
    result = history(spark, repo, tmp_path, mode="transitive")
    assert result.comparisons == 6
    per_pair = rules_per_pair(result)
    assert per_pair["v1.1.1..v2.0.0"] == per_pair["v1.1.0..v2.0.0"]
    assert per_pair["v1.0.0..v1.1.1"] == per_pair["v1.0.0..v1.1.0"]
    assert "v1.1.0..v1.1.1" not in per_pair  # the same commit: nothing to report
    tags = ("v1.0.0", "v1.1.0", "v1.1.1", "v2.0.0")
    sha = {t: git(repo, "rev-parse", f"{t}^{{commit}}").strip() for t in tags}
    found = history_findings(result)
    for i, a in enumerate(tags):
        for b in tags[i + 1 :]:
            expected = diff_findings(repo, a, b, result.released_mode)
            assert found.get((sha[a], sha[b]), set()) == expected, f"{a}..{b}"


#: A stretch of Kafka's trunk with removed and added fields, proofs, new and removed messages.
TRUNK_RANGE = (216, 224)  # pair indexes [start, end) of the consecutive trunk audit
RELEASES = ("3.5.0", "3.6.0", "3.7.0", "3.8.0")


def _first_parent(repo: Path) -> list[str]:
    return git(repo, "rev-list", "--first-parent", "--reverse", "trunk").split()


@pytest.mark.corpus
def test_history_equals_diff_on_a_range_of_kafka_trunk(
    spark: Any, kafka_repo: Path, tmp_path: Path
) -> None:
    commits = _first_parent(kafka_repo)
    start, end = TRUNK_RANGE
    # Pair i compares commits[i] with commits[i + 1] (every trunk commit touches specs).
    base, head = commits[start], commits[end]
    result = history(
        spark, kafka_repo, tmp_path, mode="consecutive", revision_range=f"{base}..{head}"
    )
    pairs = list(zip(commits[start:end], commits[start + 1 : end + 1], strict=True))
    assert result.comparisons == len(pairs)
    assert result.released_mode == "tags"
    total = assert_same_as_diff(result, kafka_repo, pairs, None)
    assert total == len(result.findings)
    rules = {f.finding.rule for f in result.findings}
    assert {"field-removed", "field-added", "message-added"} <= rules
    assert any(f.finding.evidence for f in result.findings)


@pytest.mark.corpus
@pytest.mark.parametrize("mode", ["consecutive", "transitive"])
def test_parallel_preparation_is_prepare_pair(kafka_repo: Path, mode: str) -> None:
    """Worker processes, prefetched git answers and the parse cache change nothing: the
    rows are exactly those prepare_pair makes, one comparison at a time."""
    from kcompat.diff.prepared import prepare_pair
    from kcompat.pipeline.history_driver import plan, prepare_job, released_mode_for
    from kcompat.pipeline.history_tasks import join_texts, pair_row
    from kcompat.pipeline.prepare import Preparation
    from kcompat.sources.git import GitRepo
    from kcompat.sources.releases import releases_for
    from kcompat.sources.revision import RevisionSource

    repo = GitRepo.open(kafka_repo)
    commits = _first_parent(kafka_repo)
    start, end = TRUNK_RANGE
    request = HistoryRequest(
        repo.root,
        HistoryMode(mode),
        # consecutive: commits of trunk; transitive: the releases from tag to tag
        revision_range=(
            f"{commits[start - 10]}..{commits[end]}" if mode == "consecutive" else "3.4.0..3.8.0"
        ),
        tags=r"^3\.[4-8]\.0$",
    )
    comparisons = plan(request, repo, [])
    released = released_mode_for(request, repo)
    assert released == "tags" and len(comparisons) in (18, 10)
    job = prepare_job(request, repo, comparisons, released, [])
    rows, texts = Preparation(repo, comparisons, job, 2, min_parallel=0).result()
    shared = releases_for(repo, r"^3\.[4-8]\.0$")
    expected = [
        pair_row(
            c,
            prepare_pair(
                RevisionSource(c.base_label, repo, c.base),
                RevisionSource(c.head_label, repo, c.head),
                released_mode=released,
                config=request.config,
                releases=shared,
            ),
        )
        for c in comparisons
    ]
    assert [join_texts(r, texts) for r in rows] == expected


@pytest.mark.corpus
def test_history_equals_diff_on_kafka_releases(
    spark: Any, kafka_repo: Path, tmp_path: Path
) -> None:
    pattern = "^(" + "|".join(r.replace(".", r"\.") for r in RELEASES) + ")$"
    config_file = tmp_path / "kcompat.toml"
    config_file.write_text(f"release-tags = '{pattern}'\n")
    config = parse_config({"release-tags": pattern}, str(config_file), rules=rule_categories)
    result = history(spark, kafka_repo, tmp_path, mode="releases", config=config)
    shas = {tag: git(kafka_repo, "rev-parse", f"{tag}^{{commit}}").strip() for tag in RELEASES}
    pairs = [(shas[a], shas[b]) for a, b in itertools.pairwise(RELEASES)]
    assert result.comparisons == len(pairs)
    # diff names sides as written: give it the tags, then compare with history's SHAs.
    found = history_findings(result)
    for (base, head), (a, b) in zip(pairs, itertools.pairwise(RELEASES), strict=True):
        expected = diff_findings(kafka_repo, a, b, result.released_mode, config_file)
        assert found.get((base, head), set()) == expected, f"{a}..{b}"
    assert sum(len(v) for v in found.values()) == len(result.findings) > 0


# -- the command line ---------------------------------------------------------------------------


def test_the_cli_round_trip(spark: Any, shelf: tuple[Path, list[str]], tmp_path: Path) -> None:
    repo, _ = shelf
    out = tmp_path / "cli"
    run = CliRunner().invoke(
        app,
        [
            "history",
            "--repo",
            str(repo),
            "--mode",
            "transitive",
            "--samples",
            "3",
            "--out",
            str(out),
            "--format",
            "json",
        ],
    )
    assert run.exit_code == 1, run.output  # breaks are errors
    summary = json.loads(run.stdout)
    assert summary["mode"] == "transitive" and summary["comparisons"] == 3
    assert json.loads((out / "summary.json").read_text())["findings"] == summary["findings"]
    text = CliRunner().invoke(
        app,
        [
            "history",
            "--repo",
            str(repo),
            "--mode",
            "releases",
            "--no-proof",
            "--color",
            "never",
            "--out",
            str(tmp_path / "text"),
        ],
    )
    assert text.exit_code == 1, text.output
    assert "Findings per rule" in text.stdout and "field-removed" in text.stdout
    assert "Per release" in text.stdout


def _one_line_error(env: dict[str, str], tmp_path: Path, *prefix: str) -> str:
    done = subprocess.run(
        [*prefix, sys.executable, "-m", "kcompat", "history", "--repo", str(tmp_path)],
        capture_output=True,
        text=True,
        env=env,
        check=False,
        cwd=tmp_path,
    )
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    return lines[0]


def test_missing_java_is_one_line(shelf: tuple[Path, list[str]], tmp_path: Path) -> None:
    repo, _ = shelf
    git_dir = Path(
        subprocess.run(
            ["sh", "-c", "command -v git"], capture_output=True, text=True, check=True
        ).stdout.strip()
    ).parent
    bin_dir = tmp_path / "bin"  # git only: no java on this PATH
    bin_dir.mkdir()
    (bin_dir / "git").symlink_to(git_dir / "git")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYSPARK", "SPARK", "JAVA"))}
    env.update(JAVA_HOME=str(tmp_path / "nowhere"), PATH=str(bin_dir))
    line = _one_line_error(env, repo)
    assert line.startswith("kcompat: error: Java was not found")


def test_missing_pyspark_is_one_line(shelf: tuple[Path, list[str]], tmp_path: Path) -> None:
    repo, _ = shelf
    blocker = tmp_path / "site"
    blocker.mkdir()
    (blocker / "sitecustomize.py").write_text(
        "import sys\n"
        "class _Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'pyspark' or name.startswith('pyspark.'):\n"
        "            raise ImportError('blocked for the test')\n"
        "        return None\n"
        "sys.meta_path.insert(0, _Block())\n"
    )
    env = {**os.environ, "PYTHONPATH": str(blocker)}
    line = _one_line_error(env, repo)
    assert line == (
        "kcompat: error: pyspark is not installed: "
        'pip install "kcompat[spark] @ git+https://github.com/kcompat/kcompat@<commit>" '
        "(needs Java 17+)"
    )


# -- pure helpers -------------------------------------------------------------------------------


def test_contiguous_slots_keep_neighbours_together_and_leave_no_slot_empty() -> None:
    from kcompat.pipeline.history_tasks import contiguous_slots

    def slots(costs: list[int], count: int) -> list[int]:
        rows = [{"pair_index": i, "cost": c} for i, c in enumerate(costs)]
        return [r["slot"] for r in contiguous_slots(rows, count)]

    assert slots([1] * 10, 4) == [0, 0, 0, 1, 1, 2, 2, 2, 3, 3]
    assert slots([100, 1, 1, 1, 1], 4) == [0, 1, 2, 3, 3]  # one dear pair gets a slot alone
    assert slots([1, 1, 1], 3) == [0, 1, 2]
    assert slots([5], 4) == [0]


def test_worker_count_follows_the_master() -> None:
    from kcompat.pipeline.prepare import worker_count

    cores = os.cpu_count() or 1
    assert worker_count("local[1]") == 1
    assert worker_count("local[3]") == 3
    assert worker_count("local") == 1
    assert worker_count("local[*]") == cores
    assert worker_count(None) == cores
    assert worker_count("spark://host:7077") == cores


def test_local_driver_jvm_options(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from kcompat.pipeline.session import LOCAL_JIT, LOCAL_VERIFY, local_java_options

    monkeypatch.setenv("KCOMPAT_SPARK_CDS", "off")
    monkeypatch.delenv("KCOMPAT_SPARK_JIT", raising=False)
    assert LOCAL_JIT == "-XX:TieredStopAtLevel=1"
    assert LOCAL_VERIFY == "-XX:+UnlockDiagnosticVMOptions -XX:-BytecodeVerificationRemote"
    assert local_java_options() == f"{LOCAL_JIT} {LOCAL_VERIFY}"
    monkeypatch.setenv("KCOMPAT_SPARK_JIT", "full")
    assert local_java_options() == ""
    archive = tmp_path / "spark.jsa"
    monkeypatch.setenv("KCOMPAT_SPARK_CDS", str(archive))
    # the first run writes under a name of its own (two first runs never share a file)
    partial = f"{archive}.{os.getpid()}.partial"
    assert local_java_options().startswith(f"-XX:ArchiveClassesAtExit={partial} ")
    archive.write_bytes(b"")  # once written, later runs map it
    monkeypatch.delenv("KCOMPAT_SPARK_JIT")
    options = local_java_options().split()
    assert options[:4] == [LOCAL_JIT, *LOCAL_VERIFY.split(), f"-XX:SharedArchiveFile={archive}"]


def test_the_archive_is_on_by_default_in_the_users_cache(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import time

    from kcompat.pipeline.session import local_java_options

    monkeypatch.delenv("KCOMPAT_SPARK_CDS", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    options = local_java_options()
    (written,) = [o for o in options.split() if o.startswith("-XX:ArchiveClassesAtExit=")]
    partial = Path(written.split("=", 1)[1])
    assert partial.parent == tmp_path / "cache" / "kcompat"
    assert partial.name.startswith("spark-") and partial.name.endswith(".partial")
    # a finished partial archive of a gone process is adopted by the next run
    gone = partial.with_name(partial.name.replace(f".{os.getpid()}.", ".999999999."))
    gone.write_bytes(b"archive")
    old = time.time() - 60
    os.utime(gone, (old, old))
    final = Path(str(gone).rsplit(".", 2)[0])
    assert f"-XX:SharedArchiveFile={final}" in local_java_options().split()
    assert final.read_bytes() == b"archive" and not gone.exists()


def test_the_archive_is_never_kept_where_others_may_write(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The JVM maps the archive's classes: a folder others may write (a shared cache) or
    a working tree gets none (the run is as right, only slower to start)."""
    from kcompat.pipeline.session import local_java_options

    monkeypatch.delenv("KCOMPAT_SPARK_CDS", raising=False)
    monkeypatch.setenv("KCOMPAT_SPARK_JIT", "full")
    shared = tmp_path / "shared"
    (shared / "kcompat").mkdir(parents=True)
    (shared / "kcompat").chmod(0o777)
    monkeypatch.setenv("XDG_CACHE_HOME", str(shared))
    assert local_java_options() == ""
    (shared / "kcompat").chmod(0o700)
    assert "-XX:ArchiveClassesAtExit=" in local_java_options()
    init_repo(tmp_path / "dotfiles")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "dotfiles" / ".cache"))
    assert local_java_options() == ""
    assert not (tmp_path / "dotfiles" / ".cache").exists()


def test_the_session_jvm_runs_with_the_local_options(spark: Any) -> None:
    arguments = list(
        spark._jvm.java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments()
    )
    assert "-XX:TieredStopAtLevel=1" in arguments
    assert "-XX:-BytecodeVerificationRemote" in arguments


def test_outputs_keep_uris_intact() -> None:
    from kcompat.pipeline.outputs import Output

    remote = Output.of("hdfs://namenode:8020/audits/kafka/")
    assert not remote.local
    assert remote.child("findings") == "hdfs://namenode:8020/audits/kafka/findings"
    local = Output.of(Path("/tmp/audit"))
    assert local.local and local.child("summary.json") == "/tmp/audit/summary.json"


def test_bad_history_options_are_one_line_before_spark(
    shelf: tuple[Path, list[str]], capsys: pytest.CaptureFixture[str]
) -> None:
    from kcompat.cli import main

    repo, _ = shelf

    def error(*argv: str) -> str:
        code = main(["history", "--repo", str(repo), *argv])
        lines = capsys.readouterr().err.strip().splitlines()
        assert code == 2 and len(lines) == 1, lines
        return lines[0]

    assert error("--master", "bogus://x") == (
        "kcompat: error: --master 'bogus://x' is not a Spark master: use local, local[N], "
        "local[*], spark://HOST:PORT, yarn or k8s://HOST:PORT"
    )
    assert error("--tags", "[") == (
        "kcompat: error: --tags '[' is not a valid regular expression: "
        "unterminated character set at position 1"  # the regex engine's words (kcompat.patterns)
    )
    assert error("--samples", "0").startswith("kcompat: error: Invalid value for '--samples'")
    assert error("--partitions", "0").startswith("kcompat: error: Invalid value for '--partitions'")
    missing = repo / "no-such-dir" / "audit.html"
    assert error("--report", str(missing)) == (
        f"kcompat: error: {missing}: directory {missing.parent} does not exist; create it first"
    )
    code = main(["diff", "v1.0.0", "v1.1.0", "--repo", str(repo), "--samples", "0"])
    lines = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and lines == [
        "kcompat: error: Invalid value for '--samples': 0 is not in the range x>=1. "
        "(see: kcompat diff --help)"
    ]


def test_masters_spark_accepts() -> None:
    from kcompat.errors import UsageError
    from kcompat.pipeline.session import check_master

    for master in ("local", "local[2]", "local[*]", "local[4, 2]", "local-cluster[2,1,1024]",
                   "yarn", "spark://host:7077", "k8s://https://api:6443"):  # fmt: skip
        check_master(master)
    for master in ("bogus://x", "", "locale", "spark://", "mesos://host:5050"):
        with pytest.raises(UsageError, match="is not a Spark master"):
            check_master(master)


def test_a_failed_start_says_the_jvm_s_reason(tmp_path: Path) -> None:
    from kcompat.pipeline.session import _reason_in_log

    log = tmp_path / "spark.log"
    log.write_text('old run\nException in thread "main" java.lang.Error: stale\n')
    start = log.stat().st_size
    with log.open("a") as out:
        out.write(
            "WARNING: Using incubator modules: jdk.incubator.vector\n"
            'Exception in thread "main" org.apache.spark.SparkException: Master must either '
            "be yarn or start with spark, k8s, or local\n"
            "\tat org.apache.spark.deploy.SparkSubmit.error(SparkSubmit.scala:1068)\n"
        )
    assert _reason_in_log(str(log), start) == (
        "Master must either be yarn or start with spark, k8s, or local"
    )
    assert _reason_in_log(str(log), log.stat().st_size) is None
    assert _reason_in_log(str(tmp_path / "missing.log"), 0) is None


def test_a_range_without_spec_changes_needs_no_spark(
    shelf: tuple[Path, list[str]], tmp_path: Path
) -> None:
    import pyarrow.parquet as pq

    repo, _ = shelf

    def no_spark() -> Any:
        raise AssertionError("Spark was started for an empty audit")

    out = tmp_path / "empty"
    request = HistoryRequest(
        repo, HistoryMode.CONSECUTIVE, revision_range="v2.0.0..v2.0.0", out=out
    )
    result = run_history(request, no_spark)
    assert result.comparisons == 0 and result.findings == []
    assert pq.read_table(out / "findings").num_rows == 0
    assert "rule" in pq.read_table(out / "findings").schema.names
    assert json.loads((out / "summary.json").read_text())["comparisons"] == 0
    again = run_history(request, no_spark)  # over the last run's output, as Spark would
    assert again.comparisons == 0 and len(list((out / "findings").iterdir())) == 1


def test_runs_under_spark_submit(spark: Any, shelf: tuple[Path, list[str]], tmp_path: Path) -> None:
    """The cluster road, locally: spark-submit starts the JVM and runs kcompat's
    ``__main__`` as the driver; the master is spark-submit's, and the findings are the
    ones of an in-process audit."""
    import pyspark

    import kcompat.__main__

    repo, _ = shelf
    submit = Path(pyspark.__file__).parent / "bin" / "spark-submit"
    env = {**os.environ, "PYSPARK_PYTHON": sys.executable, "PYSPARK_DRIVER_PYTHON": sys.executable}
    done = subprocess.run(
        [str(submit), "--master", "local[1]", "--conf", "spark.ui.enabled=false",
         "--conf", "spark.driver.host=127.0.0.1", "--conf", "spark.driver.bindAddress=127.0.0.1",
         kcompat.__main__.__file__, "history", "--repo", str(repo), "--mode", "releases",
         "--format", "json", "--out", str(tmp_path / "submitted")],
        capture_output=True, text=True, env=env, check=False, timeout=300,
    )  # fmt: skip
    assert done.returncode == 1, done.stderr[-3000:]  # the shelf's v2.0.0 breaks v1.1.0
    submitted = json.loads(done.stdout)
    local = history(spark, repo, tmp_path, mode="releases")
    assert submitted["comparisons"] == local.comparisons == 2
    assert submitted["per_rule"] == local.summary.to_json()["per_rule"]
    assert (tmp_path / "submitted" / "findings").is_dir()


def test_the_text_summary_names_each_errors_commit_and_keeps_the_parquet(
    spark: Any, shelf: tuple[Path, list[str]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No --out: the Parquet goes to a new temporary directory, named and kept; each error
    is listed with the commit that introduced it (SHA and subject), in a plain table."""
    import tempfile

    repo, shas = shelf
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    run = CliRunner().invoke(
        app, ["history", "--repo", str(repo), "--no-proof", "--color", "never", "--samples", "3"]
    )
    assert run.exit_code == 1, run.output
    lines = run.stdout.splitlines()
    where = lines[0].split("Parquet and summary.json in ", 1)[1]
    assert where.endswith(" (kept there; --out DIR chooses the place)")
    kept = Path(where.split(" (kept", 1)[0])
    assert kept.parent == tmp_path and (kept / "findings").is_dir()
    assert (kept / "summary.json").is_file()
    table = run.stdout.split("Errors and the commit that introduced each\n", 1)[1].splitlines()
    assert table[0].split()[:4] == ["commit", "subject", "rule", "message"]
    rows = {line.split()[0]: line for line in table[1:] if line.strip()}
    assert "drop Label (breaks released versions)" in rows[shas[2][:12]]
    assert "field-removed" in rows[shas[2][:12]] and "Label" in rows[shas[2][:12]]
    assert shas[3][:12] not in rows  # BASE had broken the releases already: no new break


def test_on_a_terminal_of_80_columns_no_name_is_split(
    spark: Any, repo: Path, tmp_path: Path
) -> None:
    """``kcompat history`` on an 80-column terminal: the errors table cannot fit Kafka's
    long names, so each error is a record whose lines hold every name whole (the SHA
    under "commit", the subject under "subject"); nothing is wider than the terminal."""
    import re

    name = "ConsumerGroupCurrentMemberAssignmentValue"
    field = "PartitionsPendingRevocationEpoch"
    subject = "KAFKA-16000: drop the pending revocation epoch from the assignment value"
    for message, fields in (
        (
            "the assignment value",
            [_field("MemberEpoch", "int32", "0+"), _field(field, "int32", "0+")],
        ),
        (subject, [_field("MemberEpoch", "int32", "0+")]),
    ):
        document = {"type": "data", "name": name, "validVersions": "0", "flexibleVersions": "0+"}
        (repo / f"{name}.json").write_text(json.dumps({**document, "fields": fields}, indent=2))
        git(repo, "add", ".")
        git(repo, "commit", "-q", "-m", message)
        if message != subject:
            git(repo, "tag", "v1.0.0")
    sha = git(repo, "rev-parse", "HEAD").strip()[:12]
    run = CliRunner().invoke(
        app,
        [
            "history",
            "--repo",
            str(repo),
            "--no-proof",
            "--color",
            "always",
            "--out",
            str(tmp_path / "out"),
        ],
        env={"COLUMNS": "80", "NO_COLOR": None},
    )
    assert run.exit_code == 1, run.output
    lines = [line.rstrip() for line in re.sub(r"\x1b\[[0-9;]*m", "", run.stdout).splitlines()]
    assert max(len(line) for line in lines) <= 80, run.stdout
    start = lines.index("Errors and the commit that introduced each")
    record = lines[start + 1 : start + 8]
    assert record[:2] == ["-[ 1 ]-", f"commit   {sha}"], record
    assert record[2].startswith("subject  KAFKA-16000: drop the pending"), record
    assert record[-3:] == ["rule     field-removed", f"message  {name}", f"field    {field}"]


def test_releases_mode_audits_only_the_releases_in_the_range(
    spark: Any, shelf: tuple[Path, list[str]], tmp_path: Path
) -> None:
    repo, _ = shelf
    result = history(spark, repo, tmp_path, mode="releases", revision_range="v1.1.0..v2.0.0")
    assert result.comparisons == 1
    assert set(rules_per_pair(result)) == {"v1.1.0..v2.0.0"}
    assert [(e.introduced_in, e.rule) for e in result.summary.introduced or ()][:1] == [
        ("v2.0.0", "field-removed")
    ]
