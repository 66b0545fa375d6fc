"""Output formats: one registry per kind of document (findings, explain, tables, changelog).

A registry is an enum whose members are the formats: each names the function that renders
the document in it (``"module:function"``, imported only when the format is chosen) and,
optionally, what ``--help`` says of it. A command's ``--format`` choices, its help text
and the renderer all come from the one enum, so a new format is its module and one line:

    class ChangelogFormat(FormatRegistry):
        text = "text", "kcompat.changelog.render_text:render"
        markdown = "markdown", "kcompat.changelog.render_markdown:render_markdown", "a PR comment"
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any, Self

from kcompat.modes import Choice, phrase


class FormatRegistry(Choice):
    """The formats of one kind of document, in the order ``--help`` lists them."""

    target: str  # the renderer, "module:function"
    note: str  # said after the name in --help, in parentheses ("" for nothing)

    def __new__(cls, name: str, target: str, note: str = "") -> Self:
        member = str.__new__(cls, name)
        member._value_ = name
        member.target = target
        member.note = note
        return member

    def render_function(self) -> Callable[..., Any]:
        """The function that renders a document in this format (imported now)."""
        module, _, function = self.target.partition(":")
        found: Callable[..., Any] = getattr(importlib.import_module(module), function)
        return found

    @classmethod
    def help(cls) -> str:
        """What ``--format`` says of its choices: ``text, markdown (a PR comment) or json.``"""
        return phrase(f"{m.value} ({m.note})" if m.note else m.value for m in cls) + "."
