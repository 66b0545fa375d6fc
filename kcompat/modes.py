"""The modes a comparison or an audit runs in: each spelled once, here.

They are string enums, so a mode written to JSON, a summary or a Spark row is its plain
name, and a name read back (an option, a configuration value) is checked against them.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Self

from kcompat.errors import UsageError


class _Mode(StrEnum):
    @classmethod
    def parse(cls, text: str, option: str) -> Self:
        """The member named ``text``; one line naming ``option`` and the choices if none."""
        try:
            return cls(text)
        except ValueError:
            raise UsageError(f"{option} must be one of {cls.choices()}, not {text!r}") from None

    @classmethod
    def choices(cls) -> str:
        return ", ".join(member.value for member in cls)


class ReleasedMode(_Mode):
    """Which versions of a BASE message count as released (``--released``)."""

    AUTO = "auto"  # TAGS where the repository has release tags, else BASE
    BASE = "base"  # every version BASE has
    TAGS = "tags"  # the versions some release tag shipped


class HistoryMode(_Mode):
    """Which comparisons ``kcompat history`` makes (``--mode``)."""

    CONSECUTIVE = "consecutive"  # each commit against its first parent
    RELEASES = "releases"  # each release against the one before
    TRANSITIVE = "transitive"  # every pair of releases
