"""``kcompat explain NAME --since A``: one message's changelog since a revision.

The message is found as ``explain`` finds it (at ``--rev``, else in the working tree);
the changelog is ``kcompat changelog A [--rev]``'s, kept to the messages found.
"""

from __future__ import annotations

from kcompat.changelog.model import Changelog
from kcompat.changelog.run import ChangelogResult, run_changelog
from kcompat.config import load_config
from kcompat.diff.run import DiffRequest
from kcompat.errors import UsageError
from kcompat.explain.find import find_messages
from kcompat.explain.run import ExplainRequest, source_for
from kcompat.rules.registry import rule_categories


def run_since(request: ExplainRequest, since: DiffRequest) -> tuple[Changelog, str]:
    """The changelog of the messages ``request`` names, of the comparison ``since`` (from
    the revision ``--since`` names to ``--rev``), and a note for stderr (how to fetch
    release tags, when that needs saying)."""
    if request.version is not None or request.against is not None:
        raise UsageError(
            "--since shows what changed since a revision; it does not combine with "
            "--version or --against"
        )
    from kcompat.sources.git import GitRepo

    config = load_config(explicit=request.config_file, rules=rule_categories)
    repo = GitRepo.around(request.repo, required=True)
    found = find_messages(source_for(request, config, repo), request.query, request.kind)
    result: ChangelogResult = run_changelog(since)
    names = frozenset(item.message.name for item in found)
    return result.changelog.only(names), result.note
