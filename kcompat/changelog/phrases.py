"""Each change as one sentence, in pieces every format styles and escapes its own way.

A piece is ``(text, role)``: ``""`` for kcompat's own words, :data:`NAME` for anything a
spec file or the user wrote (names, types, defaults, listeners, a finding's message, the
revisions of the ``kcompat diff`` to run) and rule IDs, :data:`REF` for a KIP or JIRA
number. Text is then plain for the terminal (escaped), code for Markdown
and HTML, so no spec text is ever read as markup.
"""

from __future__ import annotations

from collections.abc import Callable

from kcompat.changelog.model import Change, ChangeKind
from kcompat.spec.versions import Versions

NAME = "name"
REF = "ref"
Piece = tuple[str, str]
Phrase = tuple[Piece, ...]

#: How a change reads at a glance: added (+), removed (-), changed (~), a break (!).
ADDED, REMOVED, CHANGED, BROKEN, WARNED, ACCEPTED = "+", "-", "~", "!", "?", "="
_MARK = {
    ChangeKind.MESSAGE_ADDED: ADDED,
    ChangeKind.VERSIONS_ADDED: ADDED,
    ChangeKind.FIELD_ADDED: ADDED,
    ChangeKind.TAGGED_FIELD_ADDED: ADDED,
    ChangeKind.MESSAGE_REMOVED: REMOVED,
    ChangeKind.VERSIONS_REMOVED: REMOVED,
    ChangeKind.FIELD_ENDED: REMOVED,
    ChangeKind.FIELD_REMOVED: REMOVED,
}

#: What each sign stands for, in one word (the HTML page's class of a change).
SIGN_WORDS = {
    ADDED: "added",
    REMOVED: "removed",
    CHANGED: "changed",
    BROKEN: "break",
    WARNED: "warning",
    ACCEPTED: "accepted",
}


def mark(change: Change) -> str:
    """The change's sign: ``+``, ``-``, ``~``, ``!`` (a break), ``?`` (a warning) or
    ``=`` (a break the configuration accepts)."""
    if change.kind is ChangeKind.BREAK:
        if change.accepted:
            return ACCEPTED
        return BROKEN if change.severity == "error" else WARNED
    return _MARK.get(change.kind, CHANGED)


def versions_text(versions: Versions, *, released: bool = False, existing: bool = False) -> str:
    """``version 4``, ``versions 0-2, 5``, ``released versions 12+``."""
    single = len(versions.ranges) == 1 and versions.ranges[0][0] == versions.ranges[0][1]
    noun = "version" if single else "versions"
    if existing:
        noun = f"{'released' if released else 'unreleased'} {noun}"
    return f"{noun} {versions}"


def phrase(change: Change, diff_command: str = "") -> Phrase:
    """The sentence of one change (without its message's name, which heads the group)."""
    pieces = list(_PHRASES[change.kind](change))
    if change.kind is ChangeKind.BREAK and diff_command:
        pieces += [(" (bytes: ", ""), (diff_command, NAME), (")", "")]
    if change.references:
        pieces.append((" ", ""))
        for index, reference in enumerate(change.references):
            pieces.append((", " if index else "", ""))
            pieces.append((reference, REF))
    return tuple(p for p in pieces if p[0])


def plain(pieces: Phrase) -> str:
    """The sentence as plain text (not yet escaped for any output)."""
    return "".join(text for text, _role in pieces)


# -- one function per kind ----------------------------------------------------------------
def _at(change: Change) -> str:
    return versions_text(change.versions, released=change.released, existing=change.existing)


def _field(change: Change) -> list[Piece]:
    """``Name (int32, default -1)`` / ``Name (tag 2, string)``."""
    details = []
    if change.tag is not None and change.kind is not ChangeKind.TAGGING_CHANGED:
        details.append(f"tag {change.tag}")
    if change.type:
        details.append(change.type)
    out: list[Piece] = [(change.field, NAME)]
    if details:
        out += [(" (", ""), (", ".join(details), NAME)]
        if change.default:
            out += [(", default ", ""), (change.default, NAME)]
        out.append((")", ""))
    return out


def _message_added(change: Change) -> list[Piece]:
    out: list[Piece] = [("new ", ""), (change.type, NAME), (f", {_at(change)}", "")]
    if change.listeners:
        out += [(", listeners ", ""), (", ".join(change.listeners), NAME)]
    if change.note:
        out.append((f" ({change.note})", ""))
    return out


def _message_removed(change: Change) -> list[Piece]:
    shipped = "" if change.released else ", none released"
    return [(change.type, NAME), (f" removed (it had {_at(change)}{shipped})", "")]


def _renamed(change: Change) -> list[Piece]:
    return [("renamed from ", ""), (change.before, NAME)]


def _setting(change: Change) -> list[Piece]:
    return [
        (f"{change.setting} changed from ", ""),
        (change.before, NAME),
        (" to ", ""),
        (change.after, NAME),
    ]


def _listeners(change: Change) -> list[Piece]:
    return [("listeners changed from ", ""), (change.before, NAME), (" to ", ""),
            (change.after, NAME)]  # fmt: skip


def _versions_added(change: Change) -> list[Piece]:
    unstable = ", unstable" if change.note else ""
    return [(f"{_at(change)} added{unstable} (validVersions now {change.after})", "")]


def _versions_removed(change: Change) -> list[Piece]:
    released = "released " if change.released else ""
    return [
        (f"{released}{_at(change)} removed, {change.note} (validVersions now {change.after})", "")
    ]


def _deprecated(change: Change) -> list[Piece]:
    return [(f"{_at(change)} deprecated (deprecatedVersions now {change.after})", "")]


def _undeprecated(change: Change) -> list[Piece]:
    return [(f"{_at(change)} no longer deprecated (deprecatedVersions now {change.after})", "")]


def _stable(change: Change) -> list[Piece]:
    return [(f"{_at(change)} made stable (no longer latestVersionUnstable)", "")]


def _unstable(change: Change) -> list[Piece]:
    released = "released " if change.released else ""
    return [(f"{released}{_at(change)} made unstable (latestVersionUnstable)", "")]


def _flexible(change: Change) -> list[Piece]:
    verb = "changes" if change.existing else "sets"
    return [
        (f"flexibleVersions {change.before} -> {change.after} ({verb} {_at(change)})", ""),
    ]


def _field_added(change: Change) -> list[Piece]:
    if change.existing:
        return [*_field(change), (f" added to {_at(change)}", "")]
    return [(f"{_at(change)} adds ", ""), *_field(change)]


def _tagged_added(change: Change) -> list[Piece]:
    if change.existing:
        return [("tagged field ", ""), *_field(change), (f" added to {_at(change)}", "")]
    return [(f"{_at(change)} adds tagged field ", ""), *_field(change)]


def _field_ended(change: Change) -> list[Piece]:
    return [(f"{_at(change)} drops ", ""), *_field(change)]


def _field_removed(change: Change) -> list[Piece]:
    tagged = "tagged field " if change.tag is not None else ""
    return [(tagged, ""), *_field(change), (f" removed from {_at(change)}", "")]


def _nullable(change: Change) -> list[Piece]:
    word = "nullable" if change.kind is ChangeKind.NULLABLE_STARTED else "not nullable"
    if change.existing:
        return [(change.field, NAME), (f" made {word} in {_at(change)}", "")]
    return [(f"{_at(change)} makes ", ""), (change.field, NAME), (f" {word}", "")]


def _from_to(label: str) -> Callable[[Change], list[Piece]]:
    def pieces(change: Change) -> list[Piece]:
        what: list[Piece] = [
            (change.field, NAME),
            (f" {label} ", ""),
            (change.before, NAME),
            (" -> ", ""),
            (change.after, NAME),
        ]
        if change.existing:
            return [*what, (f" in {_at(change)}", "")]
        return [(f"{_at(change)}: ", ""), *what]

    return pieces


def _field_renamed(change: Change) -> list[Piece]:
    return [
        ("field ", ""),
        (change.before, NAME),
        (" renamed to ", ""),
        (change.field, NAME),
        (f" in {_at(change)} (same bytes)", ""),
    ]


def _struct_renamed(change: Change) -> list[Piece]:
    return [
        ("struct of ", ""),
        (change.field, NAME),
        (" renamed from ", ""),
        (change.before, NAME),
        (" to ", ""),
        (change.after, NAME),
        (f" in {_at(change)} (same bytes)", ""),
    ]


def _struct_moved(change: Change) -> list[Piece]:
    where = {"commonStructs": "commonStructs", "inline": "the field's own definition"}
    return [
        ("struct ", ""),
        (change.type, NAME),
        (" of ", ""),
        (change.field, NAME),
        (f" moved from {where[change.before]} to {where[change.after]} in {_at(change)}", ""),
    ]


def _regrouped(change: Change) -> list[Piece]:
    inside: list[Piece] = [(" of ", ""), (change.field, NAME)] if change.field else []
    return [("fields", ""), *inside, (f" regrouped in {_at(change)} (same bytes)", "")]


def _break(change: Change) -> list[Piece]:
    if change.accepted:
        label = "accepted break"
    else:
        label = "break" if change.severity == "error" else change.severity
    out: list[Piece] = [(f"{label} [", ""), (change.rule, NAME), ("]: ", ""), (change.note, NAME)]
    if change.accepted:
        out += [(" (accepted: ", ""), (change.accepted, NAME), (")", "")]
    return out


_PHRASES: dict[ChangeKind, Callable[[Change], list[Piece]]] = {
    ChangeKind.MESSAGE_ADDED: _message_added,
    ChangeKind.MESSAGE_REMOVED: _message_removed,
    ChangeKind.MESSAGE_RENAMED: _renamed,
    ChangeKind.SETTING_CHANGED: _setting,
    ChangeKind.LISTENERS_CHANGED: _listeners,
    ChangeKind.VERSIONS_ADDED: _versions_added,
    ChangeKind.VERSIONS_REMOVED: _versions_removed,
    ChangeKind.VERSIONS_DEPRECATED: _deprecated,
    ChangeKind.VERSIONS_UNDEPRECATED: _undeprecated,
    ChangeKind.VERSION_STABLE: _stable,
    ChangeKind.VERSION_UNSTABLE: _unstable,
    ChangeKind.FLEXIBLE_VERSIONS_CHANGED: _flexible,
    ChangeKind.FIELD_ADDED: _field_added,
    ChangeKind.TAGGED_FIELD_ADDED: _tagged_added,
    ChangeKind.FIELD_ENDED: _field_ended,
    ChangeKind.FIELD_REMOVED: _field_removed,
    ChangeKind.NULLABLE_STARTED: _nullable,
    ChangeKind.NULLABLE_ENDED: _nullable,
    ChangeKind.TAGGING_CHANGED: _from_to("tagging"),
    ChangeKind.TYPE_CHANGED: _from_to("type"),
    ChangeKind.ENCODING_CHANGED: _from_to("encoding"),
    ChangeKind.DEFAULT_CHANGED: _from_to("default"),
    ChangeKind.FIELD_RENAMED: _field_renamed,
    ChangeKind.STRUCT_RENAMED: _struct_renamed,
    ChangeKind.STRUCT_MOVED: _struct_moved,
    ChangeKind.FIELDS_REGROUPED: _regrouped,
    ChangeKind.BREAK: _break,
}
