"""Writing to the runner: workflow commands on stdout, the job summary, the step's outputs.

An output is written as a ``name<<DELIMITER`` block with a random delimiter, so no value
can end its block early and set another output.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from pathlib import Path

from kcompat.report.github import escape


def command(level: str, text: str) -> str:
    """``::error title=kcompat::text`` (``error``, ``warning`` or ``notice``), one line."""
    return f"::{level} title=kcompat::{escape(text)}"


def append_summary(path: Path | None, text: str) -> None:
    """Add Markdown to the job summary (the log has it when there is no summary file)."""
    if path is None:
        return
    with path.open("a", encoding="utf-8") as handle:
        handle.write(text if text.endswith("\n") else text + "\n")


def set_outputs(path: Path | None, values: Mapping[str, str]) -> None:
    if path is None:
        return
    with path.open("a", encoding="utf-8") as handle:
        for name, value in values.items():
            delimiter = f"kcompat_{secrets.token_hex(16)}"
            handle.write(f"{name}<<{delimiter}\n{value}\n{delimiter}\n")
