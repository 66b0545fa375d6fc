"""JSON from a user's file, every way it can fail told in one line.

``json.loads`` fails in more ways than ``JSONDecodeError``: a 100,000-deep array raises
``RecursionError`` and an integer longer than Python's int-to-text limit (4,300 digits)
raises a plain ``ValueError``. Both are hostile input, not kcompat bugs, so they are
:class:`UsageError` lines naming the file and what to do, like a syntax error.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from kcompat.errors import UsageError


def load_json(text: str | bytes, where: str, hint: str = "") -> Any:
    """The value of a JSON text; ``where`` names it and ``hint`` says what to give instead."""
    tail = f"; {hint}" if hint else ""
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise UsageError(f"{where}: invalid JSON: {err}{tail}") from None
    except UnicodeDecodeError as err:
        raise UsageError(f"{where}: not UTF-8 text (offset {err.start}){tail}") from None
    except RecursionError:
        raise UsageError(
            f"{where}: JSON nested too deeply to read (arrays or objects about "
            f"{sys.getrecursionlimit()} levels deep or more){tail}"
        ) from None
    except ValueError:  # the int-to-text digit limit: the only other ValueError json raises
        raise UsageError(
            f"{where}: a number with more than {sys.get_int_max_str_digits()} digits, "
            f"longer than any value a field can hold{tail}"
        ) from None
