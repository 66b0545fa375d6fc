"""The changelog for a terminal: a first line that counts, then each message and its
changes, one line each, signed ``+`` added, ``-`` removed, ``~`` changed, ``!`` a break.

Lines are styled segments, as :mod:`kcompat.report.text` prints them: through rich on a
terminal (KIP numbers as links), plain otherwise, every character a terminal acts on
escaped on the way out (:func:`kcompat.commands.changelog.print_lines`).
"""

from __future__ import annotations

from kcompat.changelog.model import Changelog, MessageChanges, summary_line
from kcompat.changelog.phrases import ACCEPTED, ADDED, BROKEN, REF, REMOVED, WARNED, mark, phrase
from kcompat.changelog.references import url_of
from kcompat.escaping import shown

#: A line of output: (text, rich style) segments, as kcompat.report.text prints them.
Line = tuple[tuple[str, str], ...]

_MARK_STYLE = {
    ADDED: "green",
    REMOVED: "red",
    BROKEN: "bold red",
    WARNED: "yellow",
    ACCEPTED: "green",
}


def header(changelog: Changelog) -> Line:
    return (
        (f"{changelog.base} -> {changelog.head}", "bold"),
        (f": {summary_line(changelog)}", ""),
    )


def group_lines(group: MessageChanges, diff_command: str = "", indent: str = "  ") -> list[Line]:
    """A message's title, then one line per change."""
    lines: list[Line] = [((group.title, "bold"),)]
    for change in group.changes:
        sign = mark(change)
        segments: list[tuple[str, str]] = [(indent, ""), (f"{sign} ", _MARK_STYLE.get(sign, ""))]
        for text, role in phrase(change, diff_command):
            style = f"link {url_of(text)}" if role == REF else ""
            segments.append((text, style))
        lines.append(tuple(segments))
    return lines


def render(changelog: Changelog) -> list[Line]:
    """The whole changelog."""
    lines: list[Line] = [header(changelog)]
    for group in changelog.groups:
        lines.append(())
        lines += group_lines(group, changelog.diff_command)
    counts = changelog.counts
    if changelog.released and (counts.breaks or counts.accepted or counts.warnings):
        lines += [(), ((f"Released: {changelog.released}.", "dim"),)]
    return lines


def plain_text(changelog: Changelog) -> str:
    """The same lines without styles (a pipe, a CI log), each escaped for a terminal:
    escaping works character by character, so a whole line is escaped at once."""
    command = changelog.diff_command
    lines = [f"{changelog.base} -> {changelog.head}: {summary_line(changelog)}"]
    for group in changelog.groups:
        lines += ["", group.title]
        lines += [
            f"  {mark(change)} {''.join(t for t, _r in phrase(change, command))}"
            for change in group.changes
        ]
    counts = changelog.counts
    if changelog.released and (counts.breaks or counts.accepted or counts.warnings):
        lines += ["", f"Released: {changelog.released}."]
    return "".join(shown(line) + "\n" for line in lines)
