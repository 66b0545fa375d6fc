"""The exception a command raises for bad usage or unreadable input (exit status 2, as a
configuration's :class:`~kcompat.config.ConfigError` is), and how any error is told in
one line."""

from __future__ import annotations

import re


class UsageError(Exception):
    """A problem the user must fix before kcompat can run; printed as one line."""

    exit_code = 2


_JAVA_CAUSE = re.compile(r"(?:Caused by: )?[\w.$]+(?:Exception|Error): \S")


def one_line(err: BaseException, limit: int = 300) -> str:
    """An error's message as one line. A Java error from Spark (py4j) is a page of stack
    trace: its deepest ``Caused by:`` says what went wrong, so that is the line shown."""
    lines = [line.strip() for line in str(err).splitlines() if line.strip()]
    if not lines:
        return ""
    causes = [line for line in lines if _JAVA_CAUSE.match(line)]
    deepest = [line for line in causes if line.startswith("Caused by: ")]
    line = (deepest or causes or lines)[-1 if deepest else 0].removeprefix("Caused by: ")
    return line if len(line) <= limit else line[: limit - 3] + "..."
