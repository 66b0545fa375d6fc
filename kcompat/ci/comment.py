"""The pull-request comment and the job summary, assembled from sections within a size
budget.

A section is a place in the comment and a function from the characters it may use to
its Markdown. Sections are rendered in priority order, each given what the earlier ones
left, and shown in place order: the findings report takes what it needs of a large
budget and truncates itself (errors first) within it. A new part of the comment (say,
what a change does to the protocol, or what it accepts) is one more :class:`Section`.

Everything from a spec is escaped by the renderers of :mod:`kcompat.report.markdown`
(code spans, or HTML-escaped and :func:`~kcompat.report.markup.inert` text).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from kcompat.findings import Finding, Severity
from kcompat.report.config_section import config_section
from kcompat.report.document import Report
from kcompat.report.links import SourceLinks
from kcompat.report.markdown import code, fenced

#: The first line of kcompat's comment (the author is checked too: kcompat.ci.api).
MARKER = "<!-- kcompat -->"
#: GitHub refuses a comment body over 65,536 characters.
COMMENT_BUDGET = 65_536
#: GitHub shows at most 1 MiB of summary per step.
SUMMARY_BUDGET = 1_000_000
#: Places of the comment's sections, top to bottom: the diff's findings, the lint's, what
#: the change does to the protocol, what it accepts, and how to accept a break (last).
#: A new section takes a place between (and is added in ``kcompat.ci.github._sections``).
REPORT, LINT, CHANGES, ACCEPTED, HOW_TO_ACCEPT = 10, 20, 30, 40, 90
_GAP = "\n\n"


@dataclass(frozen=True)
class Section:
    """One part of the comment: where it goes, and its Markdown for a size budget ("" to
    leave it out)."""

    place: int
    render: Callable[[int], str]


def fixed(place: int, text: str) -> Section:
    """A section of known text: shown whole if it fits, else left out."""
    return Section(place, lambda budget: text if len(text) <= budget else "")


def assemble(sections: Sequence[Section], budget: int) -> str:
    """The sections rendered in the order given (their priority), each within what the
    earlier ones left, joined in place order; the result is at most ``budget`` long."""
    rendered: list[tuple[int, int, str]] = []
    left = budget
    for index, section in enumerate(sections):
        room = left - (len(_GAP) if rendered else 0)
        if room <= 0:
            break
        text = section.render(room).strip("\n")
        if text and len(text) <= room:
            rendered.append((section.place, index, text))
            left = room - len(text)
    return _GAP.join(text for _, _, text in sorted(rendered))


def comment_body(sections: Sequence[Section]) -> str:
    """The comment: the marker, then the sections within GitHub's limit."""
    return f"{MARKER}\n" + assemble(sections, COMMENT_BUDGET - len(MARKER) - 1)


def commit_link(links: SourceLinks | None, sha: str) -> str:
    """A short SHA linked to the commit (plain when there is no repository address)."""
    if not sha:
        return "HEAD"
    short = code(SourceLinks.short(sha), cell=False)
    return f"[{short}]({links.commit(sha)})" if links is not None else short


def accepted_section(report: Report) -> Section:
    """What the change's own configuration hides (``config-weakened``): its weakening
    settings and the findings accepted in this change, whole or not at all."""
    return fixed(ACCEPTED, "\n".join(config_section(report)))


def how_to_accept(breaks: Sequence[Finding], skip_label: str) -> str:
    """The comment's last words when it reports breaks: how to accept one on the record,
    with the first break's rule and message filled in."""
    first = next((f for f in breaks if f.severity is Severity.ERROR), breaks[0])
    entry = [
        "[[ignore]]",
        f"rule = {json.dumps(first.rule)}",
        f"message = {json.dumps(first.message_name or '*')}",
        'reason = "KIP-NNNN: why this break is safe"',
    ]
    if not first.message_name:
        entry[2] = f"path = {json.dumps(first.location.path)}"
    ignore = code(f"// kcompat: ignore[{first.rule}] KIP-NNNN: why this break is safe", cell=False)
    ways = [
        "**Breaking on purpose?** Accept it on the record, in this pull request:",
        "",
    ]
    if skip_label:
        ways.append(
            f"- the label {code(skip_label, cell=False)} skips this check for the pull request;"
        )
    block = fenced(entry)
    block[0] += "toml"
    ways += [
        f"- an inline ignore on the spec line, with the reason: {ignore};",
        "- an `[[ignore]]` entry in `kcompat.toml` (or `[tool.kcompat]`), with the reason:",
        "",
        *("  " + line for line in block),
    ]
    return "\n".join(ways)


def skipped(skip_label: str, who: str, head: str) -> str:
    """The job summary and comment when the skip label skips the check."""
    by = f", added by {code(who, cell=False)}" if who else ""
    return "\n".join(
        [
            "### kcompat compatibility check",
            "",
            f"⏭️ **Skipped**: the pull request has the label {code(skip_label, cell=False)}{by}: "
            f"its breaks are expected (head {head}).",
            "",
            "Remove the label to check again.",
        ]
    )


#: What a comment rewritten by a later run adds: its earlier words no longer hold.
NO_LONGER_APPLIES = "The earlier report in this comment no longer applies."


def fine_now(base: str, head: str) -> str:
    """What an earlier comment becomes when the pull request no longer changes a spec."""
    return "\n".join(
        [
            "### kcompat compatibility check",
            "",
            f"✅ **No spec file changed** between {base} and {head} any more: the specs are "
            f"fine now. {NO_LONGER_APPLIES}",
        ]
    )
