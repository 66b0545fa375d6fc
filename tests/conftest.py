"""Shared fixtures: the Kafka corpus (cloned once per session), temp git repos, the CLI."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

# Spark's class-data archive goes to the user's cache by default: tests never write there
# (the tests that are about it choose their own directory).
os.environ.setdefault("KCOMPAT_SPARK_CDS", "off")
# So does the user's disk cache (kcompat.cache: compiled codecs, release facts): the
# suite's runs share a directory of their own, removed when the session ends.
CODE_CACHE = tempfile.mkdtemp(prefix="kcompat-tests-codecache-")
os.environ.setdefault("KCOMPAT_CODE_CACHE", CODE_CACHE)

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
BUNDLE = SHARED / "corpus" / "kafka-spec-history.bundle"
EXAMPLES = ROOT / "specs" / "examples"


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """A run in which no test passed is a failure (CI must not go green on nothing)."""
    shutil.rmtree(CODE_CACHE, ignore_errors=True)
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is None or exitstatus != 0:
        return
    passed = len(reporter.stats.get("passed", []))
    if passed == 0 and not session.config.option.collectonly:
        session.exitstatus = 1
        reporter.write_line("no test passed: failing the run", red=True)


def git(cwd: Path, *args: str, env: dict[str, str] | None = None) -> str:
    """Run git with a fixed identity; returns stdout."""
    full_env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "kcompat tests",
        "GIT_AUTHOR_EMAIL": "tests@kcompat.invalid",
        "GIT_COMMITTER_NAME": "kcompat tests",
        "GIT_COMMITTER_EMAIL": "tests@kcompat.invalid",
        "GIT_CONFIG_NOSYSTEM": "1",
        **(env or {}),
    }
    done = subprocess.run(
        ["git", *args], cwd=cwd, env=full_env, check=True, capture_output=True, text=True
    )
    return done.stdout


@pytest.fixture(scope="session")
def kafka_bundle() -> Path:
    if not BUNDLE.is_file():
        pytest.skip(f"Kafka spec history not found at {BUNDLE} (../shared is absent)")
    return BUNDLE


@pytest.fixture(scope="session")
def kafka_repo(kafka_bundle: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A clone of Kafka's spec history with every branch and tag, trunk checked out."""
    target = tmp_path_factory.mktemp("kafka") / "kafka"
    subprocess.run(["git", "clone", "-q", str(kafka_bundle), str(target)], check=True)
    subprocess.run(
        ["git", "fetch", "-q", "origin", "+refs/heads/*:refs/remotes/origin/*"],
        cwd=target,
        check=True,
    )
    return target


@pytest.fixture()
def repo(tmp_path: Path) -> Iterator[Path]:
    """An empty git repository in a temp dir."""
    path = tmp_path / "repo"
    path.mkdir()
    git(path, "init", "-q", "-b", "main")
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture(scope="session")
def spark() -> Iterator[object]:
    """One SparkSession for the whole test run: local[2], 2 shuffle partitions, UI off."""
    pytest.importorskip("pyspark", reason="pyspark is not installed (the spark extra)")
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        pytest.skip("Java is not installed (Spark needs Java 17+)")
    from kcompat.pipeline.session import spark_session

    session = spark_session(
        "local[2]",
        "kcompat-tests",
        spark__sql__shuffle__partitions="2",
        spark__default__parallelism="2",
    )
    yield session
    session.stop()
