"""The GitHub Action's "What this change does to the protocol" section.

The action diffs a pull request against its base (``--merge-base``); this is the
changelog of the same two sides, as one collapsed Markdown section: within a character
budget for the pull request's comment (GitHub refuses bodies over 65,536 characters, and
the diff's own report shares them), in full for the job summary.
"""

from __future__ import annotations

from kcompat.changelog.render_markdown import protocol_section
from kcompat.changelog.run import changelog_of
from kcompat.diff.run import Comparison

#: The most of a comment the section takes (the diff's report keeps the rest).
COMMENT_BUDGET = 20_000
#: GitHub's limit for a step's job summary is 1 MiB.
SUMMARY_BUDGET = 900_000


def protocol_sections(comparison: Comparison, rest: str) -> tuple[str, str]:
    """(the comment's section, the job summary's) for the comparison the diff made
    (``base...HEAD``), read once for both."""
    changelog = changelog_of(comparison).changelog
    return (
        protocol_section(changelog, COMMENT_BUDGET, rest),
        protocol_section(changelog, SUMMARY_BUDGET),
    )
