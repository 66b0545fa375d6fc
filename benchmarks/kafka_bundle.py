"""Apache Kafka's spec history, as the benchmarks read it: a full clone of the bundle.

The bundle (``../shared/corpus/kafka-spec-history.bundle``) is cloned into a temp
directory, never into the project, with every release branch fetched as
``origin/2.2`` ... ``origin/3.9``: the layout of a clone of apache/kafka.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUNDLE = ROOT.parent / "shared" / "corpus" / "kafka-spec-history.bundle"


def clone_kafka(target: Path, bundle: Path = BUNDLE) -> Path:
    """``target``: a clone of the bundle with its release branches as remote branches."""
    subprocess.run(["git", "clone", "-q", str(bundle), str(target)], check=True)
    subprocess.run(
        ["git", "fetch", "-q", "origin", "+refs/heads/*:refs/remotes/origin/*"],
        cwd=target,
        check=True,
    )
    return target
