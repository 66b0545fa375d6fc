"""``preview`` entries of the configuration: messages in early access, bounded by releases.

Kept apart from :mod:`kcompat.config` (which reads them with the rest of a configuration
and re-exports :class:`Preview` and :func:`glob_matches`).
"""

from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass
from typing import Any

#: The longest glob a configuration may hold: a message name or a path needs far less,
#: and fnmatch translates brackets (``[[[...``) in time quadratic in the length.
MAX_GLOB = 1024


def bounded_glob(pattern: str, where: str) -> str:
    """``pattern``, or :class:`ValueError` (naming ``where``) past :data:`MAX_GLOB`."""
    if len(pattern) > MAX_GLOB:
        raise ValueError(
            f"{where}: a glob of {len(pattern):,} characters (at most {MAX_GLOB:,}); "
            "write a shorter one"
        )
    return pattern


def glob_matches(pattern: str, text: str) -> bool:
    """fnmatch-style (``*`` spans directories); a relative path pattern also matches
    under any directory, so it does not depend on where kcompat runs from."""
    return fnmatch.fnmatchcase(text, pattern) or fnmatch.fnmatchcase(text, "*/" + pattern)


@dataclass(frozen=True)
class Preview:
    """A ``preview`` entry: messages in early access, whose breaks are warnings.

    With ``until`` (a release, ``3.8.0``, or a line of them, ``3.2``), only while they
    were: a break is a warning when every release that shipped the broken layout is that
    release or older, and stays an error once a later release shipped it (or when which
    releases shipped it is not known).
    """

    pattern: str  # a glob on message names
    reason: str = "early access"
    until: str = ""

    def matches(self, message_name: str) -> bool:
        return bool(message_name) and glob_matches(self.pattern, message_name)

    def admits(self, latest: str | None) -> bool:
        """Whether a break of a layout last shipped in ``latest`` is still early access."""
        if not self.until:
            return True
        if latest is None:
            return False
        bound = release_numbers(self.until)
        return release_numbers(latest)[: len(bound)] <= bound


def release_numbers(name: str) -> tuple[int, ...]:
    """The numbers of a release name: ``3.8.0`` -> (3, 8, 0); ``≤ 2.2.0`` -> (2, 2, 0)."""
    return tuple(int(n) for n in re.findall(r"\d+", name))


_PREVIEW_KEYS = {"message", "messages", "reason", "until"}


def parse_previews(value: Any) -> tuple[Preview, ...]:
    """``preview``: message globs, or tables ``{ messages = "..." or [...], reason =
    "...", until = "3.8.0" }`` (``message`` is ``messages``' other spelling)."""
    if not isinstance(value, list):
        raise ValueError("'preview' must be a list of message names or globs")
    out = []
    for number, entry in enumerate(value, start=1):
        if isinstance(entry, str) and entry.strip():
            out.append(Preview(bounded_glob(entry.strip(), f"preview entry #{number}")))
            continue
        where = f"preview entry #{number}"
        if not isinstance(entry, dict) or not ({"message", "messages"} & set(entry)):
            raise ValueError(
                "preview entries are message names or globs, or "
                '{ messages = "...", reason = "...", until = "..." }'
            )
        unknown = sorted(set(entry) - _PREVIEW_KEYS)
        if unknown:
            raise ValueError(f"{where}: unknown key {unknown[0]!r}")
        reason, until = entry.get("reason", "early access"), entry.get("until", "")
        if not isinstance(reason, str) or not isinstance(until, str):
            raise ValueError(f"{where}: 'reason' and 'until' must be strings")
        if until and not release_numbers(until):
            raise ValueError(f"{where}: until = {until!r} is no release (write one like '3.8.0')")
        for key in ("message", "messages"):
            for pattern in _strings(entry.get(key, []), f"{where} {key}"):
                out.append(Preview(bounded_glob(pattern, f"{where} {key}"), reason, until))
    return tuple(out)


def _strings(value: Any, where: str) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value,)
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(value)
    raise ValueError(f"{where} must be a string or a list of strings")
