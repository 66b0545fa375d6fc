"""``kcompat lint`` of files as a commit holds them, for the GitHub Action.

The Action lints the specs a pull request changes. Reading them from the checkout would
follow what the checkout holds: a committed link to ``/proc/self/environ`` or a runner's
credentials, whose names and values would then reach annotations, the job summary and
the comment. A commit holds a link as the path it names, so linting the committed blobs
reads only what the pull request wrote, exactly as ``diff`` reads them: a link is named
as one and never followed (an ``invalid-json`` error under the configured spec paths,
else a file left out, named in the note).
"""

from __future__ import annotations

from pathlib import PurePosixPath

from kcompat.lint.check import run_lint
from kcompat.lint.run import LintRequest, LintResult
from kcompat.rules.registry import rule_categories
from kcompat.sources.git import GitRepo
from kcompat.sources.reading import is_spec, link_left_out, parsed, read_side, skipped_note
from kcompat.sources.revision import revision
from kcompat.sources.spec_paths import SpecPaths, under
from kcompat.spec.specfile import SpecFile


def lint_committed(request: LintRequest, repo: GitRepo, commit: str) -> LintResult:
    """Lint the files ``request`` names (as findings name them) as ``commit`` holds them,
    their siblings at that commit as context; deleted files are left out, and so are files
    outside the configured spec paths (compared as repository paths: nothing on disk is
    looked at)."""
    config = request.config_choice.load(None, rules=rule_categories)
    spec_paths = SpecPaths.of(config)
    inside = spec_paths.in_repository(repo) if spec_paths else ()
    side = revision(commit, repo)
    targets: list[SpecFile] = []
    folders: set[str] = set()
    skipped: list[str] = []
    links: list[str] = []
    for shown in request.paths:
        path = side.path_of(shown)
        if path is None or (inside and not under(path, inside)):
            continue
        data = side.read(path)
        if data is None:
            continue
        spec = parsed(side.shown(path), data)
        link = link_left_out(spec, side.shown(path))
        if is_spec(spec, configured=bool(inside), named=True):
            targets.append(spec)
            folders.add(str(PurePosixPath(path).parent))
        elif link is not None:
            links.append(link)
        else:
            skipped.append(side.shown(path))
    note = skipped_note(skipped, links=links)
    if not targets:
        return LintResult(config, note="No spec files among the changed files; nothing to lint.")
    named = {spec.path for spec in targets}
    context = [
        spec
        for folder in sorted(folders)
        for path, _data, spec in read_side(side, [] if folder == "." else [folder]).files
        if str(PurePosixPath(path).parent) == folder and spec.path not in named
    ]
    return LintResult(config, len(targets), run_lint(targets, context, config), skipped=note)
