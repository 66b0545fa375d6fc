"""The changelog as Markdown: release notes, and the pull-request comment's section.

One collapsed ``<details>`` section per message. Everything a spec wrote (names, types,
defaults, listeners, a finding's message) is a code span, so no HTML, ``|``, @mention,
image or link in it is ever rendered; the section titles are HTML, escaped, ``@`` as
``&#64;``. KIP and JIRA numbers are the only links (they are digits, read by a regular
expression). :func:`protocol_section` fits a character budget, as GitHub's comment limit
requires, keeping the messages with breaks first when something must go.
"""

from __future__ import annotations

import html
import re

from kcompat.changelog.model import Changelog, MessageChanges, summary_line
from kcompat.changelog.phrases import (
    ACCEPTED,
    ADDED,
    BROKEN,
    NAME,
    REF,
    REMOVED,
    WARNED,
    mark,
    phrase,
)
from kcompat.changelog.references import url_of
from kcompat.escaping import shown

SECTION_TITLE = "What this change does to the protocol"
_SIGN = {ADDED: "➕", REMOVED: "➖", BROKEN: "🔴", WARNED: "🟡", ACCEPTED: "✅"}


def html_text(text: str) -> str:
    """Text for an HTML context inside Markdown: one line, nothing raw, no mention."""
    return html.escape(shown(text), quote=True).replace("@", "&#64;")


def code_span(text: str) -> str:
    """A code span holding ``text`` whatever backticks it holds (a longer fence)."""
    text = shown(text)
    fence = "`" * (max((len(run) for run in re.findall("`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") or not text.strip() else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _own_words(text: str) -> str:
    """kcompat's own words, with Markdown's and HTML's special characters neutral."""
    return re.sub(r"([\\`*_\[\]<>#|!~])", r"\\\1", html.escape(shown(text), quote=False))


def change_item(changelog: Changelog, group: MessageChanges, index: int) -> str:
    """One change as a list item."""
    change = group.changes[index]
    sign = _SIGN.get(mark(change), "✏️")
    parts = []
    for text, role in phrase(change, changelog.diff_command):
        if role == NAME:
            parts.append(code_span(text))
        elif role == REF:
            parts.append(f"[{text}]({url_of(text)})")
        else:
            parts.append(_own_words(text))
    return f"- {sign} {''.join(parts)}"


def _summary_of(group: MessageChanges) -> str:
    breaks = sum(1 for c in group.changes if c.counts_as_break)
    changes = sum(1 for c in group.changes if c.kind.value != "break")
    parts = []
    if changes:
        parts.append(f"{changes} change{'s' if changes != 1 else ''}")
    if breaks:
        parts.append(f"{breaks} break{'s' if breaks != 1 else ''}")
    rest = group.title.removeprefix(group.name)
    return f"<code>{html_text(group.name)}</code>{html_text(rest)}: {', '.join(parts) or 'notes'}"


def message_block(changelog: Changelog, group: MessageChanges, budget: int | None = None) -> str:
    """A message's collapsed section: its name, what it counts, then one item a change
    (with ``budget``, the items that fit it and a line counting the rest; "" if none fit)."""
    icon = "🔴 " if any(c.counts_as_break for c in group.changes) else ""
    opening = [f"<details><summary>{icon}{_summary_of(group)}</summary>", ""]
    closing = ["", "</details>"]
    items = [change_item(changelog, group, i) for i in range(len(group.changes))]
    if budget is not None:
        room = budget - sum(len(line) + 1 for line in (*opening, *closing)) - 80
        kept = 0
        while kept < len(items) and len(items[kept]) + 1 <= room:
            room -= len(items[kept]) + 1
            kept += 1
        if kept == 0:
            return ""
        if kept < len(items):
            left = len(items) - kept
            items = [*items[:kept], f"- _… and {left} more change{'s' if left != 1 else ''}_"]
    return "\n".join([*opening, *items, *closing])


def _sides(changelog: Changelog) -> str:
    return f"{code_span(changelog.base)} → {code_span(changelog.head)}"


def render_markdown(changelog: Changelog) -> str:
    """Release notes: a heading, the counts, one collapsed section per message."""
    lines = [
        f"## Protocol changes: {_sides(changelog)}",
        "",
        f"**{_own_words(summary_line(changelog))}**",
        "",
    ]
    for group in changelog.groups:
        lines += [message_block(changelog, group), ""]
    if changelog.released and changelog.counts.breaks:
        lines += [f"_Released: {_own_words(changelog.released)}._", ""]
    return "\n".join(lines)


def protocol_section(changelog: Changelog, budget: int, rest: str = "") -> str:
    """The pull request's "What this change does to the protocol": one collapsed section
    of at most ``budget`` characters. Messages with breaks go in first; what does not fit
    is counted in a last line that says how to see it all (``rest``)."""
    opening = (
        f"<details><summary><strong>{SECTION_TITLE}</strong>: "
        f"{html_text(summary_line(changelog))}</summary>"
    )
    closing = "</details>"
    # what is left once the frame, the blank lines and the last line are paid for
    room = budget - len(opening) - len(closing) - 400
    body, left = _fitted(changelog, room)
    lines = [opening, "", *(b + "\n" for b in body)]
    if left:
        lines += [_left_out(left, rest), ""]
    if not changelog.groups:
        lines += ["No protocol change.", ""]
    lines.append(closing)
    text = "\n".join(lines)
    return text if len(text) <= budget else _shortest(opening, closing, changelog, rest)


def _fitted(changelog: Changelog, room: int) -> tuple[list[str], list[MessageChanges]]:
    """The message blocks that fit in ``room`` characters, in the changelog's order, and
    the messages left out. Messages with breaks are placed first; the first that does not
    fit is cut to what does."""
    blocks = {id(g): message_block(changelog, g) for g in changelog.groups}
    breaking = [g for g in changelog.groups if any(c.counts_as_break for c in g.changes)]
    others = [g for g in changelog.groups if g not in breaking]
    size = 0
    kept: set[int] = set()
    for group in (*breaking, *others):
        cost = len(blocks[id(group)]) + 2
        if size + cost > room:  # the first that does not fit: as much of it as does
            blocks[id(group)] = message_block(changelog, group, room - size - 2)
            cost = len(blocks[id(group)]) + 2
        if blocks[id(group)] and size + cost <= room:
            kept.add(id(group))
            size += cost
    body = [blocks[id(g)] for g in changelog.groups if id(g) in kept]
    return body, [g for g in changelog.groups if id(g) not in kept]


def _left_out(left: list[MessageChanges], rest: str) -> str:
    """The last line: how many messages were left out, and how to see them (``rest``)."""
    breaks = sum(1 for g in left for c in g.changes if c.counts_as_break)
    among = f" ({breaks} break{'s' if breaks != 1 else ''} among them)" if breaks else ""
    how = rest or "run `kcompat changelog` for them all"
    return (
        f"_{len(left)} more message{'s' if len(left) != 1 else ''} changed{among}, "
        f"left out to fit GitHub's comment limit: {how}._"
    )


def _shortest(opening: str, closing: str, changelog: Changelog, rest: str) -> str:
    """The section when not even one message fits: the counts and where to see them."""
    how = rest or "run `kcompat changelog` to see them"
    count = len(changelog.groups)
    plural = "s" if count != 1 else ""
    return "\n".join([opening, "", f"_{count} message{plural} changed: {how}._", "", closing])
