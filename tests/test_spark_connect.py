"""kcompat over Spark Connect: ``--remote sc://HOST:PORT`` against a real Connect server.

The server is Spark's own (``SparkConnectServer`` through spark-submit, local[2]), started
once for this module; the CLI runs in subprocesses, as a user runs it. Outputs are
``file://`` URIs, so every write and read goes through the server, as with hdfs:// or
s3a:// on a cluster.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kcompat.errors import UsageError
from tests.test_pipeline_history import history, shelf_repo

pytestmark = pytest.mark.spark


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def connect_server(spark: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A Spark Connect server on a free port; its address."""
    import pyspark

    port = _free_port()
    submit = Path(pyspark.__file__).parent / "bin" / "spark-submit"
    log = tmp_path_factory.mktemp("connect") / "server.log"
    env = {**os.environ, "PYSPARK_PYTHON": sys.executable}
    with log.open("wb") as out:
        server = subprocess.Popen(
            [str(submit), "--class", "org.apache.spark.sql.connect.service.SparkConnectServer",
             "--master", "local[2]", "--conf", f"spark.connect.grpc.binding.port={port}",
             "--conf", "spark.ui.enabled=false", "--conf", "spark.driver.host=127.0.0.1",
             "--conf", "spark.driver.bindAddress=127.0.0.1",
             "--conf", "spark.driver.extraJavaOptions=-XX:TieredStopAtLevel=1"],
            stdout=out, stderr=subprocess.STDOUT, env=env, start_new_session=True,
        )  # fmt: skip
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if server.poll() is not None:
                pytest.fail(f"the Connect server exited: {log.read_text()[-2000:]}")
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.5)
        else:
            pytest.fail(f"the Connect server did not start: {log.read_text()[-2000:]}")
        yield f"sc://127.0.0.1:{port}"
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()


@pytest.fixture(scope="module")
def shelf(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    from tests.conftest import git

    path = tmp_path_factory.mktemp("shelf") / "repo"
    path.mkdir()
    git(path, "init", "-q", "-b", "main")
    return path, shelf_repo(path)


def kcompat(*args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "SPARK_REMOTE"}
    return subprocess.run(
        [sys.executable, "-m", "kcompat", *args],
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=300,
    )


def test_history_over_connect_equals_the_classic_audit(
    spark: Any, connect_server: str, shelf: tuple[Path, list[str]], tmp_path: Path
) -> None:
    repo, _ = shelf
    out = f"file://{tmp_path}/audit"
    done = kcompat(
        "history", "--repo", str(repo), "--mode", "releases", "--remote", connect_server,
        "--samples", "5", "--out", out, "--format", "json",
    )  # fmt: skip
    assert done.returncode == 1, done.stderr[-3000:]  # v2.0.0 breaks v1.1.0
    remote = json.loads(done.stdout)
    local = history(spark, repo, tmp_path, mode="releases")
    assert remote["comparisons"] == local.comparisons == 2
    assert remote["per_rule"] == local.summary.to_json()["per_rule"]
    assert remote["per_release"] == local.summary.to_json()["per_release"]
    import pyarrow.parquet as pq

    findings = pq.read_table(tmp_path / "audit" / "findings").to_pylist()
    assert len(findings) == len(local.findings)
    # summary.json went through the server: a one-file text dataset of the same JSON.
    parts = [p for p in (tmp_path / "audit" / "summary.json").iterdir() if p.suffix == ".txt"]
    assert len(parts) == 1
    assert json.loads(parts[0].read_text())["per_rule"] == remote["per_rule"]


def test_corpus_over_connect(
    connect_server: str, shelf: tuple[Path, list[str]], tmp_path: Path
) -> None:
    repo, _ = shelf
    corpus = f"file://{tmp_path}/corpus"
    built = kcompat(
        "corpus", "build", "--rev", "v1.1.0", "--samples", "2", "--out", corpus,
        "--repo", str(repo), "--remote", connect_server, "--color", "never",
    )  # fmt: skip
    assert built.returncode == 0, built.stderr[-3000:]
    assert built.stdout.startswith("corpus of v1.1.0: 12 samples of 6 versions of 2 messages")
    verified = kcompat(
        "corpus", "verify", corpus, "--rev", "v2.0.0", "--repo", str(repo),
        "--remote", connect_server, "--out", f"file://{tmp_path}/verify", "--format", "json",
    )  # fmt: skip
    assert verified.returncode == 1, verified.stderr[-3000:]
    report = json.loads(verified.stdout)
    assert report["corpus"]["mismatches"] == 6
    assert {f["rule"] for f in report["findings"]} == {"corpus-mismatch"}
    missing = kcompat(
        "corpus", "verify", f"file://{tmp_path}/nothing", "--rev", "v2.0.0", "--repo",
        str(repo), "--remote", connect_server,
    )  # fmt: skip
    assert missing.returncode == 2
    assert missing.stderr.strip().splitlines() == [
        f"kcompat: error: file://{tmp_path}/nothing: no such corpus directory"
    ]


# -- without a server ----------------------------------------------------------------------


def test_connect_addresses_are_checked_before_anything_runs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from kcompat.pipeline.session import preflight

    monkeypatch.delenv("SPARK_REMOTE", raising=False)
    with pytest.raises(UsageError, match="is not a Spark Connect address"):
        preflight(None, "http://spark:15002")
    with pytest.raises(UsageError, match="exclude each other"):
        preflight("local[2]", "sc://spark:15002")
    port = _free_port()  # nothing listens there
    with pytest.raises(UsageError) as refused:
        preflight(None, f"sc://127.0.0.1:{port}/;user_id=me")
    assert str(refused.value) == (
        f"Spark Connect at sc://127.0.0.1:{port}/;user_id=me: cannot connect to "
        f"127.0.0.1:{port} (Connection refused); is the server running?"
    )
    monkeypatch.setenv("SPARK_REMOTE", "sc://spark:15002")
    with pytest.raises(UsageError, match="exclude each other"):
        preflight("local[1]", None)


class _Conf:
    def __init__(self, values: dict[str, str]) -> None:
        self.values = values

    def get(self, key: str, default: str | None = None) -> str | None:
        return self.values.get(key, default)


def _connect_session(values: dict[str, str]) -> Any:
    session = type("SparkSession", (), {"__module__": "pyspark.sql.connect.session"})()
    session.conf = _Conf(values)
    return session


def test_parallelism_over_connect_comes_from_the_server_s_configuration() -> None:
    from kcompat.pipeline.sparkapi import CONNECT_PARALLELISM, is_connect, parallelism

    assert is_connect(_connect_session({}))
    assert parallelism(_connect_session({"spark.default.parallelism": "12"})) == 12
    assert parallelism(_connect_session({"spark.executor.instances": "4"})) == 4
    assert (
        parallelism(
            _connect_session({"spark.executor.instances": "4", "spark.executor.cores": "3"})
        )
        == 12
    )
    assert parallelism(_connect_session({"spark.master": "local[3]"})) == 3
    assert parallelism(_connect_session({"spark.master": "yarn"})) == CONNECT_PARALLELISM


def test_progress_over_connect_comes_from_the_server_s_stages() -> None:
    from types import SimpleNamespace

    from kcompat.pipeline.sparkapi import ConnectProgress, SparkProgress, progress_of

    handlers: list[Any] = []
    session = _connect_session({})
    session.registerProgressHandler = handlers.append
    session.removeProgressHandler = handlers.remove
    seen: list[tuple[int, int]] = []
    progress = progress_of(
        session, "kcompat-history", lambda done, total: seen.append((done, total))
    )
    assert isinstance(progress, ConnectProgress) and not isinstance(progress, SparkProgress)
    with progress:
        assert handlers == [progress]
        stage = SimpleNamespace
        handlers[0]([stage(num_tasks=4, num_completed_tasks=1)], 3, "op", False)
        handlers[0](None, 0, "op", False)  # no stages yet: nothing to report
        handlers[0](
            [stage(num_tasks=4, num_completed_tasks=4), stage(num_tasks=2, num_completed_tasks=1)],
            1,
            "op",
            False,
        )
    assert handlers == []
    assert seen == [(1, 4), (5, 6)]
