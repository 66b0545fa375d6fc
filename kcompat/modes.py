"""The choices a run is made of, each spelled once, here: the modes of a comparison or an
audit, and how any choice (an option's value, a configuration key's) is read.

They are string enums, so a choice written to JSON, a summary or a Spark row is its plain
name, and a name read back (an option, a configuration value, an Action input) is checked
against them with one phrasing: ``--released must be auto, base or tags, not 'x'``.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum
from typing import Self

from kcompat.errors import UsageError


class Choice(StrEnum):
    """A closed set of names (an option's or a configuration key's values)."""

    @classmethod
    def lookup(cls, text: str) -> Self | None:
        """The member named ``text`` (in any case), or None."""
        try:
            return cls(text.lower())
        except ValueError:
            return None

    @classmethod
    def parse(cls, text: str, name: str) -> Self:
        """The member named ``text``; a :class:`UsageError` in the one phrasing if none."""
        found = cls.lookup(text)
        if found is None:
            raise UsageError(cls.refusal(name, text))
        return found

    @classmethod
    def refusal(cls, name: str, text: str) -> str:
        """What a wrong value is told: ``--mode must be consecutive, releases or
        transitive, not 'x'``."""
        return must_be(name, (member.value for member in cls), text)

    @classmethod
    def choices(cls) -> str:
        """The names as a phrase: ``auto, base or tags``."""
        return phrase(member.value for member in cls)


def phrase(words: Iterable[str]) -> str:
    """``a, b or c``."""
    listed = list(words)
    return listed[0] if len(listed) == 1 else ", ".join(listed[:-1]) + " or " + listed[-1]


def must_be(name: str, choices: Iterable[str], text: str) -> str:
    """The one phrasing of a value that is not one of its choices."""
    return f"{name} must be {phrase(choices)}, not {text!r}"


class ReleasedMode(Choice):
    """Which versions of a BASE message count as released (``--released``)."""

    AUTO = "auto"  # TAGS where the repository has release tags, else BASE
    BASE = "base"  # every version BASE has
    TAGS = "tags"  # the versions some release tag shipped


def released_mode(option: ReleasedMode | None, configured: ReleasedMode) -> ReleasedMode:
    """The mode a comparison reads releases in: ``--released``'s, unless it leaves the
    choice open (not given, or auto), then the configuration's ``released``."""
    return option if option is not None and option != ReleasedMode.AUTO else configured


class HistoryMode(Choice):
    """Which comparisons ``kcompat history`` makes (``--mode``)."""

    CONSECUTIVE = "consecutive"  # each commit against its first parent
    RELEASES = "releases"  # each release against the one before
    TRANSITIVE = "transitive"  # every pair of releases


class FailOn(Choice):
    """From which severity a run fails (``--fail-on``, ``fail-on``): never, or a finding
    at or above error, warning or info."""

    error = "error"
    warning = "warning"
    info = "info"
    never = "never"

    @property
    def threshold(self) -> int:
        """The lowest severity (:class:`~kcompat.findings.Severity`'s number) that fails;
        above every severity for never."""
        return _THRESHOLDS[self]


_THRESHOLDS = {FailOn.info: 1, FailOn.warning: 2, FailOn.error: 3, FailOn.never: 4}


class Level(Choice):
    """From which severity findings are shown (``--level``)."""

    error = "error"
    warning = "warning"
    info = "info"
