"""Small spec files for the changelog tests, and running ``kcompat changelog`` on them.

Specs are written as Python values and serialised, so each test says exactly which keys
differ between BASE and HEAD; a repository is two commits (BASE, then HEAD) in a temp
directory, and the changelog is run in-process as a user would run it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from tests.diff_runner import CliRun, run_cli, two_commits

SPECS = "protocol/message"


def spec(
    name: str,
    *,
    kind: str = "request",
    key: int | None = 90,
    valid: str = "0-1",
    flexible: str = "0+",
    fields: Sequence[Mapping[str, Any]] = (),
    comment: str = "",
    **extra: Any,
) -> str:
    """A spec file's text; ``extra`` keys (``latestVersionUnstable``, ``listeners``...)
    go before ``fields``; ``comment`` lines go above the object."""
    document: dict[str, Any] = {"type": kind, "name": name}
    if key is not None:
        document["apiKey"] = key
    document |= {"validVersions": valid, "flexibleVersions": flexible, **extra}
    document["fields"] = list(fields)
    head = "".join(f"// {line}\n" for line in comment.splitlines())
    return head + json.dumps(document, indent=2) + "\n"


def field(name: str, type_: str = "int32", versions: str = "0+", **extra: Any) -> dict[str, Any]:
    return {"name": name, "type": type_, "versions": versions, "about": "x", **extra}


def path_of(name: str) -> str:
    return f"{SPECS}/{name}.json"


def changelog(
    tmp_path: Path,
    base: Mapping[str, str],
    head: Mapping[str, str],
    *args: str,
) -> CliRun:
    """``kcompat changelog HEAD~1 HEAD`` on a repository whose two commits hold ``base``
    and ``head`` (spec names to texts; other paths as given)."""
    files = {
        (path_of(name) if "/" not in name and not name.endswith(".toml") else name): text
        for name, text in base.items()
    }
    after = {
        (path_of(name) if "/" not in name and not name.endswith(".toml") else name): text
        for name, text in head.items()
    }
    repo = two_commits(tmp_path / "repo", files, after)
    return run_cli(["changelog", "HEAD~1", "HEAD", "--color", "never", *args], repo)


def lines(run: CliRun) -> list[str]:
    assert run.code == 0, run.stderr
    return run.stdout.splitlines()
