"""A line of styled output and its two ways to the screen: plain text (a pipe, a CI log)
or a rich Text (a terminal). Apart from the findings report, so that writing lines
plainly imports nothing but the escaping."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kcompat.escaping import shown

if TYPE_CHECKING:
    from rich.text import Text

#: A line of output: (text, rich style) segments.
Line = tuple[tuple[str, str], ...]


def plain(line: Line) -> str:
    return "".join(shown(text) for text, _style in line)


def styled(line: Line) -> Text:
    from rich.text import Text

    out = Text()
    for text, style in line:
        out.append(shown(text), style=style or None)
    return out
