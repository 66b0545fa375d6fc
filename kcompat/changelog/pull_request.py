"""The GitHub Action's "What this change does to the protocol" section.

The action diffs a pull request against its base (``--merge-base``); this is the
changelog of the same two sides, as one collapsed Markdown section: within a character
budget for the pull request's comment (GitHub refuses bodies over 65,536 characters, and
the diff's own report shares them), in full for the job summary.
"""

from __future__ import annotations

from kcompat.changelog.render_markdown import protocol_section
from kcompat.changelog.run import run_changelog
from kcompat.diff.run import DiffRequest
from kcompat.errors import UsageError
from kcompat.modes import ReleasedMode

#: The most of a comment the section takes (the diff's report keeps the rest).
COMMENT_BUDGET = 20_000
#: GitHub's limit for a step's job summary is 1 MiB.
SUMMARY_BUDGET = 900_000


def protocol_sections(base: str, released: ReleasedMode | None, rest: str) -> tuple[str, str]:
    """(the comment's section, the job summary's) for ``base...HEAD``; both empty when
    the sides cannot be read (the diff, run first, has said why)."""
    try:
        result = run_changelog(
            DiffRequest(base=base, head="HEAD", merge_base=True, released=released)
        )
    except UsageError:
        return "", ""
    changelog = result.changelog
    return (
        protocol_section(changelog, COMMENT_BUDGET, rest),
        protocol_section(changelog, SUMMARY_BUDGET),
    )
