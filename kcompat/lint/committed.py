"""``kcompat lint`` of files as a commit holds them, for the GitHub Action.

The Action lints the specs a pull request changes. Reading them from the checkout would
follow what the checkout holds: a committed link to ``/proc/self/environ`` or a runner's
credentials, whose names and values would then reach annotations, the job summary and
the comment. A commit holds a link as the path it names, so linting the committed blobs
reads only what the pull request wrote (a link is linted as that path: not JSON, an
``invalid-json`` error), exactly as ``diff`` reads them.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import PurePosixPath

from kcompat.lint.check import run_lint
from kcompat.lint.run import LintRequest, LintResult, under_paths
from kcompat.rules.registry import rule_categories
from kcompat.sources.git import GitRepo
from kcompat.sources.revision import RevisionSource, revision
from kcompat.spec.specfile import SpecFile, looks_like_spec, named_spec, read_spec


def lint_committed(request: LintRequest, repo: GitRepo, commit: str) -> LintResult:
    """Lint the files ``request`` names (as findings name them) as ``commit`` holds them,
    their siblings at that commit as context; deleted files are left out."""
    config = request.config_choice.load(None, rules=rule_categories)
    side = revision(commit, repo)
    chosen = [p for p in request.paths if not config.paths or under_paths(config, p)]
    targets: list[SpecFile] = []
    folders: set[str] = set()
    for shown in chosen:
        path = side.path_of(shown)
        data = side.read(path) if path is not None else None
        if path is None or data is None:
            continue
        spec = read_spec(side.shown(path), data)
        if named_spec(spec):
            targets.append(spec)
            folders.add(str(PurePosixPath(path).parent))
    if not targets:
        return LintResult(config, note="No spec files among the changed files; nothing to lint.")
    return LintResult(
        config, len(targets), run_lint(targets, _siblings(side, folders, targets), config)
    )


def _siblings(
    side: RevisionSource, folders: set[str], targets: Sequence[SpecFile]
) -> list[SpecFile]:
    """The other specs of the targets' folders at the commit (cross-file rules' context)."""
    named = {spec.path for spec in targets}
    out = []
    for folder in sorted(folders):
        for path in side.paths([] if folder == "." else [folder]):
            if str(PurePosixPath(path).parent) != folder or side.shown(path) in named:
                continue
            data = side.read(path)
            if data is not None:
                spec = read_spec(side.shown(path), data)
                if looks_like_spec(spec):
                    out.append(spec)
    return out
