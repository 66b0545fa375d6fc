"""Apache Kafka's spec history, as the benchmarks read it: a full clone of the bundle.

The bundle (``../shared/corpus/kafka-spec-history.bundle``) is cloned into a temp
directory, never into the project, with every release branch fetched as
``origin/2.2`` ... ``origin/3.9``: the layout of a clone of apache/kafka.
"""

from __future__ import annotations

import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUNDLE = ROOT.parent / "shared" / "corpus" / "kafka-spec-history.bundle"


def clone_kafka(target: Path, bundle: Path = BUNDLE, branches: bool = True) -> Path:
    """``target``: a clone of the bundle (with its release branches as remote branches,
    unless not ``branches``: trunk and the tags)."""
    subprocess.run(["git", "clone", "-q", str(bundle), str(target)], check=True)
    if branches:
        subprocess.run(
            ["git", "fetch", "-q", "origin", "+refs/heads/*:refs/remotes/origin/*"],
            cwd=target,
            check=True,
        )
    return target


@contextmanager
def kafka_checkout(prefix: str) -> Iterator[tuple[Path, Path]]:
    """(a temp directory, a clone of trunk and the tags in it), gone afterwards; stops
    the benchmark when the bundle is not there."""
    if not BUNDLE.is_file():
        raise SystemExit(f"no corpus at {BUNDLE}")
    with tempfile.TemporaryDirectory(prefix=prefix) as name:
        temp = Path(name)
        yield temp, clone_kafka(temp / "kafka", branches=False)
