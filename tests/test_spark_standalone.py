"""``kcompat history`` on a real Spark standalone cluster: a master and a worker started
from the installed pyspark on 127.0.0.1, as the README shows, then stopped; no process
of theirs (executors and Python workers included) may be left behind."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ROOT
from tests.test_pipeline_history import history, shelf_repo

pytestmark = [pytest.mark.spark, pytest.mark.slow]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _listening(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
        return True
    except OSError:
        return False


def master_command(spark_class: str, port: int, ui: int) -> list[str]:
    return [spark_class, "org.apache.spark.deploy.master.Master",
            "--host", "127.0.0.1", "--port", str(port), "--webui-port", str(ui)]  # fmt: skip


def worker_command(spark_class: str, port: int, ui: int, work: Path) -> list[str]:
    return [spark_class, "org.apache.spark.deploy.worker.Worker", f"spark://127.0.0.1:{port}",
            "--host", "127.0.0.1", "--cores", "2", "--memory", "2g", "--webui-port", str(ui),
            "--work-dir", str(work)]  # fmt: skip


class Daemon:
    """A cluster process in its own process group (its executors and their Python
    workers join that group), stopped with the whole group."""

    def __init__(self, command: Sequence[str], log: Path, env: dict[str, str]) -> None:
        self.log = log
        with log.open("wb") as out:
            self.process = subprocess.Popen(
                list(command), stdout=out, stderr=subprocess.STDOUT, env=env,
                start_new_session=True,
            )  # fmt: skip

    def wait_for_port(self, port: int, seconds: float = 120) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                pytest.fail(f"exited early: {self.log.read_text()[-2000:]}")
            if _listening(port):
                return
            time.sleep(0.5)
        pytest.fail(f"did not listen on {port}: {self.log.read_text()[-2000:]}")

    def group_alive(self) -> bool:
        try:
            os.killpg(self.process.pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            return True
        return True

    def stop(self, seconds: float = 60) -> bool:
        """SIGTERM to the group (Spark's shutdown hooks stop executors); whether it was
        all gone in time (else it is killed, and the caller fails)."""
        if self.group_alive():
            os.killpg(self.process.pid, signal.SIGTERM)
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            self.process.poll()  # reap the leader
            if not self.group_alive():
                return True
            time.sleep(0.5)
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=30)
        return False


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A standalone master and one worker (2 cores) on 127.0.0.1; the master's URL."""
    import pyspark

    spark_class = str(Path(pyspark.__file__).parent / "bin" / "spark-class")
    where = tmp_path_factory.mktemp("standalone")
    env = {**os.environ, "SPARK_LOCAL_IP": "127.0.0.1", "SPARK_LOG_DIR": str(where),
           "PYSPARK_PYTHON": sys.executable}  # fmt: skip
    port, ui, worker_ui = _free_port(), _free_port(), _free_port()
    master = Daemon(master_command(spark_class, port, ui), where / "master.log", env)
    daemons = [master]
    try:
        master.wait_for_port(port)
        worker = Daemon(
            worker_command(spark_class, port, worker_ui, where / "work"), where / "worker.log", env
        )
        daemons.append(worker)
        worker.wait_for_port(worker_ui)
        _wait_for_registration(where / "master.log")
        yield f"spark://127.0.0.1:{port}"
    finally:
        stopped = [daemon.stop() for daemon in reversed(daemons)]  # the worker first
    assert all(stopped), "a cluster process outlived SIGTERM"
    assert not any(d.group_alive() for d in daemons)


def _wait_for_registration(log: Path, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if "Registering worker" in log.read_text(errors="replace"):
            return
        time.sleep(0.5)
    pytest.fail(f"no worker registered: {log.read_text()[-2000:]}")


@pytest.fixture()
def shelf(repo: Path) -> tuple[Path, list[str]]:
    return repo, shelf_repo(repo)


def test_history_on_a_standalone_cluster_equals_the_local_audit(
    spark: Any, cluster: str, shelf: tuple[Path, list[str]], tmp_path: Path
) -> None:
    repo, _ = shelf
    out, page = tmp_path / "audit", tmp_path / "audit.html"
    env = {**os.environ, "SPARK_LOCAL_IP": "127.0.0.1", "PYSPARK_PYTHON": sys.executable}
    env.pop("SPARK_REMOTE", None)
    done = subprocess.run(
        [sys.executable, "-m", "kcompat", "history", "--repo", str(repo), "--master", cluster,
         "--mode", "releases", "--samples", "5", "--out", str(out), "--report", str(page),
         "--format", "json"],
        capture_output=True, text=True, env=env, check=False, timeout=600,
    )  # fmt: skip
    assert done.returncode == 1, done.stderr[-3000:]  # v2.0.0 breaks v1.1.0
    on_cluster = json.loads(done.stdout)
    local = history(spark, repo, tmp_path, mode="releases")
    assert on_cluster["comparisons"] == local.comparisons == 2
    assert on_cluster["per_rule"] == local.summary.to_json()["per_rule"]
    assert on_cluster["per_release"] == local.summary.to_json()["per_release"]
    import pyarrow.parquet as pq

    assert pq.read_table(out / "findings").num_rows == len(local.findings)
    assert page.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_the_readme_starts_the_cluster_the_same_way() -> None:
    """The README's standalone example runs exactly the commands this module runs."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    spark_class = '"$SPARK_HOME/bin/spark-class"'
    master = " ".join([spark_class, *master_command("X", 7077, 8080)[1:]])
    worker = " ".join([spark_class, *worker_command("X", 7077, 8081, Path("/tmp/spark-work"))[1:]])
    assert master in readme
    assert worker in readme
    assert "export SPARK_LOCAL_IP=127.0.0.1" in readme
    assert "kcompat history --master spark://127.0.0.1:7077" in readme
