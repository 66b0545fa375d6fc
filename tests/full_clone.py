"""A clone of the bundle made to look like a full clone of apache/kafka: 11 release tags
(0.8.0 to 2.1.1) that came before the JSON specs, on a commit with no spec file.

A full clone's tags go back to 0.7, and those from before 2.2.0 hold no spec: they are
no releases. The default release-tags pattern takes every one of these (0.8.2.0 and its
like have four numbers, which it does not).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

SPECLESS_TAGS = (
    "0.8.0", "0.8.1", "1.0.0", "1.0.1", "1.0.2", "1.1.0", "1.1.1", "2.0.0", "2.0.1",
    "2.1.0", "2.1.1",
)  # fmt: skip


def _git(repo: Path, *args: str, stdin: bytes = b"") -> str:
    done = subprocess.run(["git", *args], cwd=repo, input=stdin, capture_output=True, check=True)
    return done.stdout.decode().strip()


def tag_before_specs(repo: Path) -> str:
    """Tag :data:`SPECLESS_TAGS` on a new commit whose tree holds only a README; its id."""
    readme = _git(repo, "hash-object", "-w", "--stdin", stdin=b"Kafka\n")
    tree = _git(repo, "mktree", stdin=f"100644 blob {readme}\tREADME.md\n".encode())
    early = _git(
        repo,
        "-c", "user.name=kcompat", "-c", "user.email=kcompat@example.invalid",
        "commit-tree", tree, "-m", "Kafka before its JSON specs",
    )  # fmt: skip
    for tag in SPECLESS_TAGS:
        _git(repo, "tag", tag, early)
    return early
