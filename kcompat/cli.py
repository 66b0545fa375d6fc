"""The ``kcompat`` entry point: run the app; usage errors are one line and exit 2."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

import kcompat.commands  # noqa: F401  (registers every command on the app)
from kcompat.app import app
from kcompat.errors import UsageError


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point: usage errors become one line and exit 2; bugs one line and exit 3."""
    from kcompat.config import ConfigError

    try:
        app(args=list(argv) if argv is not None else None, prog_name="kcompat")
    except SystemExit as done:
        code = done.code
        return code if isinstance(code, int) else (0 if code is None else 1)
    except (UsageError, ConfigError) as err:
        print(f"kcompat: error: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("kcompat: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as err:  # a bug in kcompat: one line, the traceback on request
        if os.environ.get("KCOMPAT_DEBUG"):
            raise
        print(
            f"kcompat: internal error: {type(err).__name__}: {err} "
            "(set KCOMPAT_DEBUG=1 for the traceback, and please report it)",
            file=sys.stderr,
        )
        return 3
    return 0


def run() -> None:
    sys.exit(main())
