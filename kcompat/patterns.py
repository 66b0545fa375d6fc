"""Regular expressions from configuration, compiled within bounds and matched within a
time bound.

``release-tags`` and ``release-branches`` come from the repository's configuration (a
change under review can edit it) and are matched against names the repository holds.
Compiling one is bounded by its shape (:mod:`kcompat.pattern_shape`: a length cap, no
huge counted repeats, no recursion, no fuzzy matching), checked before the engine sees
it. Matching is bounded in time: a pattern like ``^(1+)+$`` backtracks exponentially on
a long name (Python's ``re`` would run for hours); the ``regex`` engine takes a timeout,
so matching every name of a repository has one budget (:data:`BUDGET`); past it, one
line names the pattern and the name, and nothing hangs.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from functools import cache
from typing import TYPE_CHECKING, TypeVar

from kcompat.errors import UsageError
from kcompat.pattern_shape import Refused, check_shape

if TYPE_CHECKING:
    import regex

#: Seconds all the names one pattern is matched against may take together.
BUDGET = 1.0
#: kcompat's own ``release-tags`` pattern. It cannot backtrack, so Python's ``re`` runs
#: it: the regex engine is imported only for a pattern someone configured.
RELEASE_TAGS = r"^v?\d+\.\d+(\.\d+)?$"

_Named = TypeVar("_Named")


class PatternError(ValueError):
    """A pattern kcompat does not compile: its message is what follows the pattern in a
    sentence ("is not a valid regular expression: ...", "is refused: ...")."""


def quoted(pattern: str, width: int = 80) -> str:
    """A pattern as a message shows it: quoted, escaped (``repr``), and cut when long."""
    return repr(pattern[:width]) + ("..." if len(pattern) > width else "")


@cache
def compiled(pattern: str) -> regex.Pattern[str]:
    """``pattern`` compiled, once its shape is checked (:class:`PatternError` if it is
    refused or not a regular expression)."""
    try:
        check_shape(pattern)
    except Refused as err:
        raise PatternError(f"is refused: {err}") from None
    import regex

    try:
        return regex.compile(pattern, flags=regex.VERSION0)
    except (regex.error, ValueError, OverflowError, MemoryError, RecursionError) as err:
        raise PatternError(f"is not a valid regular expression: {err}") from None


def matching(
    pattern: str, items: Iterable[_Named], name: Callable[[_Named], str], what: str
) -> list[_Named]:
    """The items whose name ``pattern`` finds a match in (``re.search``), all within
    :data:`BUDGET`; a :class:`UsageError` naming ``what`` (``release-tags``) when the
    pattern is not valid or takes longer."""
    if pattern == RELEASE_TAGS:
        import re

        own = re.compile(pattern)
        return [item for item in items if own.search(name(item))]
    try:
        found = compiled(pattern)
    except PatternError as err:
        raise UsageError(f"{what} {quoted(pattern)} {err}") from None
    deadline = time.monotonic() + BUDGET
    chosen = []
    for item in items:
        text = name(item)
        try:
            hit = found.search(text, timeout=max(deadline - time.monotonic(), 0.001))
        except TimeoutError:
            raise UsageError(
                f"{what} {quoted(pattern)} takes over {BUDGET:g} s to match the names in this "
                f"repository (stuck on {text[:80]!r}): simplify the pattern"
            ) from None
        if hit is not None:
            chosen.append(item)
    return chosen
