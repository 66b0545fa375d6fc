"""Every git process kcompat starts, as GitPython starts it: a recorder for tests."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from kcompat.sources.gitcmd import HARDENING, READ_ONLY_ENV


@dataclass(frozen=True)
class GitCall:
    """One git process: its arguments after the global options, and what it ran with."""

    argv: tuple[str, ...]  # as started, ``git`` included
    env: Mapping[str, str]

    @property
    def command(self) -> tuple[str, ...]:
        """The arguments from the subcommand on (the ``-c`` settings skipped)."""
        args = list(self.argv[1:])
        while args[:1] == ["-c"]:
            args = args[2:]
        return tuple(args)

    @property
    def hardened(self) -> bool:
        """Every :data:`HARDENING` setting given, and the read-only environment."""
        settings = {self.argv[i + 1] for i, a in enumerate(self.argv[:-1]) if a == "-c"}
        env_ok = all(self.env.get(k) == v for k, v in READ_ONLY_ENV.items())
        return set(HARDENING) <= settings and env_ok


def record(monkeypatch: pytest.MonkeyPatch) -> list[GitCall]:
    """Record every git process GitPython starts from now on (they still run)."""
    import git.cmd

    calls: list[GitCall] = []
    real = git.cmd.safer_popen

    def recording(command: Sequence[str], *args: Any, **kwargs: Any) -> Any:
        calls.append(GitCall(tuple(command), dict(kwargs.get("env") or {})))
        return real(command, *args, **kwargs)

    monkeypatch.setattr(git.cmd, "safer_popen", recording)
    return calls


def commands(calls: Sequence[GitCall], words: int = 2) -> Iterator[str]:
    """Each call's first ``words`` arguments from the subcommand on, as one string."""
    for call in calls:
        yield " ".join(call.command[:words])
