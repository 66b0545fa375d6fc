"""The one exception that ends a run: bad usage or unreadable input (exit status 2)."""

from __future__ import annotations


class UsageError(Exception):
    """A problem the user must fix before kcompat can run; printed as one line."""

    exit_code = 2
