"""Rules for ``headerVersions``: the request/response header version per message version.

Newer Kafka generators read an optional top-level map such as ``{"0-1": "1", "2+": "2"}``
and check it strictly: every key one version range, every value a header version, the
ranges contiguous from version 0 to an open end. These rules make the same checks, in the
same order, so a spec kcompat passes is one Kafka's generator accepts.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

from kcompat.findings import Reporter, Severity
from kcompat.rules.lint.adapters import message_rule
from kcompat.rules.registry import Category
from kcompat.spec.jackson import scalar_text
from kcompat.spec.load import JObject
from kcompat.spec.model import Message

_SHORT_MAX = 0x7FFF
#: Java's Short.parseShort: an optional sign, then ASCII digits.
_SHORT = re.compile(r"[+-]?[0-9]+\Z")
#: The API key of ApiVersions, whose response header is always version 0 (KIP-511).
API_VERSIONS_KEY = 18


@dataclass(frozen=True)
class Entry:
    """One headerVersions entry Kafka would accept: an inclusive range and a version."""

    key: str
    lowest: int
    highest: int  # _SHORT_MAX for an open-ended range
    header_version: int

    @property
    def text(self) -> str:
        if self.highest == _SHORT_MAX:
            return f"{self.lowest}+"
        return str(self.lowest) if self.lowest == self.highest else f"{self.lowest}-{self.highest}"


def _short(text: str) -> int | None:
    """``Short.parseShort(text)``, or None where Java throws."""
    if not _SHORT.match(text):
        return None
    value = int(text)
    return value if -0x8000 <= value <= _SHORT_MAX else None


def kafka_range(text: str) -> tuple[int, int] | None:
    """Kafka's ``Versions.parse`` for one range: (lowest, highest), or None if it throws or
    gives the empty range (``none``, ``2-1``), neither of which a headerVersions key may be."""
    trimmed = text.strip()
    if not trimmed or trimmed == "none":
        return None
    low: int | None
    high: int | None
    if trimmed.endswith("+"):
        low, high = _short(trimmed[:-1]), _SHORT_MAX
    elif "-" not in trimmed:
        low = high = _short(trimmed)
    else:
        dash = trimmed.index("-")
        low, high = _short(trimmed[:dash]), _short(trimmed[dash + 1 :])
    if low is None or high is None or low < 0 or high < 0 or low > high:
        return None
    return low, high


def _header_map(message: Message) -> JObject | None:
    node = message.node
    value = node.get("headerVersions") if node is not None else None
    return value if isinstance(value, JObject) else None  # other JSON: wrong-value-type


def _misplaced(message: Message) -> str | None:
    """Why Kafka refuses headerVersions on this message at all, if it does."""
    if message.valid_versions.empty:
        return f"{message.name} has no valid versions"
    if message.kind not in ("request", "response"):
        kind = message.kind or "message of no type"
        return f"{message.name} is a {kind}, not a request or response"
    return None


@message_rule("header-versions-off-rpc", Category.MESSAGES, Severity.ERROR)
def header_versions_off_rpc(message: Message, report: Reporter) -> None:
    """headerVersions on a message that is not a request or response, or has no versions."""
    if _header_map(message) is None or message.node is None:
        return
    why = _misplaced(message)
    if why is not None:
        report(
            message.node,
            f"headerVersions is only valid on requests and responses with valid versions: {why}",
            key="headerVersions",
            hint="remove headerVersions",
        )


def _entry_problems(table: JObject) -> list[tuple[str, str, str]]:
    """(key, problem, hint) for each entry Kafka's parser throws on, in its order."""
    problems: list[tuple[str, str, str]] = []
    for key, value in table.items():
        if not key.strip():
            problems.append((key, "a blank version range", 'use a range such as "0+"'))
            continue
        if kafka_range(key) is None:
            problems.append(
                (key, f"an invalid version range {key!r}", 'use one range: "N", "N-M" or "N+"')
            )
            continue
        text = scalar_text(value)
        if text is None or not text.strip():
            problems.append((key, f"a blank header version for range {key!r}", 'write "1"'))
            continue
        version = _short(text.strip())
        if version is None:
            problems.append(
                (
                    key,
                    f"an invalid header version {text!r} for range {key!r}",
                    "a header version is a small integer",
                )
            )
        elif version < 0:
            problems.append(
                (key, f"a negative header version {text!r} for range {key!r}", "use 0 or more")
            )
    return problems


@message_rule("invalid-header-versions", Category.MESSAGES, Severity.ERROR)
def invalid_header_versions(message: Message, report: Reporter) -> None:
    """A headerVersions map that is empty or has an entry Kafka cannot read."""
    table = _header_map(message)
    if table is None or _misplaced(message) is not None:
        return
    if not table:
        report(
            message.node.where_value("headerVersions") if message.node is not None else None,
            f"{message.name} has an empty headerVersions map",
            hint='map every version to a header version, e.g. {"0+": "2"}, or remove the key',
        )
    for key, problem, hint in _entry_problems(table):
        report(table.key_pos.get(key, table.pos), f"headerVersions has {problem}", hint=hint)
    if message.kind != "response" or message.api_key != API_VERSIONS_KEY:
        return
    for entry in entries(message) or ():
        if entry.header_version != 0:
            report(
                table.where_value(entry.key),
                f"ApiVersionsResponse maps versions {entry.text} to response header version "
                f"{entry.header_version}; it must always use a v0 header so that older "
                "brokers can parse it (KIP-511)",
                hint='write "0"',
            )


def entries(message: Message) -> list[Entry] | None:
    """The parsed entries sorted as Kafka sorts them, or None when any entry is invalid."""
    table = _header_map(message)
    if table is None or not table or _entry_problems(table):
        return None
    parsed = []
    for key, value in table.items():
        low_high = kafka_range(key)
        text = scalar_text(value)
        version = _short(text.strip()) if text is not None else None
        if low_high is None or version is None:
            return None
        parsed.append(Entry(key, low_high[0], low_high[1], version))
    return sorted(parsed, key=lambda entry: entry.lowest)  # stable, as Java's List.sort


def _coverage_problems(message: Message, ordered: list[Entry]) -> list[tuple[Entry, str, str]]:
    problems: list[tuple[Entry, str, str]] = []
    if ordered[0].lowest != 0:
        problems.append(
            (
                ordered[0],
                f"starts at version {ordered[0].lowest}; the first range must start at 0, so "
                "the map covers every version, including ones no longer valid",
                f'start the first range at 0, e.g. "0-{ordered[0].lowest - 1}"',
            )
        )
    for previous, current in itertools.pairwise(ordered):
        if previous.highest == _SHORT_MAX:
            problems.append(
                (
                    previous,
                    f"has the open-ended range {previous.text} before {current.text}; only "
                    "the last range may be open-ended",
                    f'end {previous.text} before {current.lowest}, e.g. "{previous.lowest}-'
                    f'{max(previous.lowest, current.lowest - 1)}"',
                )
            )
            break  # Kafka stops at the first problem; after this one the rest is noise
        if current.lowest != previous.highest + 1:
            gap = "overlaps" if current.lowest <= previous.highest else "leaves a gap after"
            problems.append(
                (
                    current,
                    f"is not contiguous: {current.text} {gap} {previous.text} (it must start "
                    f"at version {previous.highest + 1})",
                    f"start it at {previous.highest + 1}",
                )
            )
    last = ordered[-1]
    if last.highest != _SHORT_MAX:
        problems.append(
            (
                last,
                f"ends with {last.text}, which is not open-ended; the last range must end "
                "with a plus sign",
                f'write "{last.lowest}+"',
            )
        )
    top = message.valid_versions.highest
    for entry in ordered:
        if entry.lowest > top:
            problems.append(
                (
                    entry,
                    f"has the range {entry.text}, which starts above the highest valid "
                    f"version {top}",
                    "remove it, or add the version to validVersions first",
                )
            )
    return problems


@message_rule("header-versions-coverage", Category.MESSAGES, Severity.ERROR)
def header_versions_coverage(message: Message, report: Reporter) -> None:
    """headerVersions ranges that do not run contiguously from 0 to an open end."""
    if _misplaced(message) is not None:
        return
    ordered = entries(message)
    table = _header_map(message)
    if not ordered or table is None:
        return  # invalid-header-versions reports the entries first, as Kafka does
    for entry, problem, hint in _coverage_problems(message, ordered):
        report(
            table.key_pos.get(entry.key, table.pos),
            f"headerVersions of {message.name} {problem}",
            hint=hint,
        )
