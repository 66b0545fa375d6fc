"""What kcompat's standard streams do with text their encoding cannot hold.

A spec is JSON, and JSON can spell a lone surrogate (``"\\ud800"``): a valid escape that
is no Unicode character, so UTF-8 cannot encode it. Such a name reaches findings, the
explain views and every output format; writing it must not fail the whole report. It
is written as the same backslash escape (inside a JSON string, the very escape the spec
used), and everything else is written unchanged.
"""

from __future__ import annotations

import contextlib
import sys


def escape_unencodable() -> None:
    """Have stdout and stderr write unencodable characters as backslash escapes."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is None:  # a test's capture, or no stream at all
            continue
        with contextlib.suppress(ValueError, OSError):  # detached or closed: no writes
            reconfigure(errors="backslashreplace")
