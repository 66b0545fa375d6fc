"""``kcompat lint`` as a request and its result: which files, read how, checked once.

The command only parses options into a :class:`LintRequest` and renders the result, as
``diff`` and ``explain`` do; everything that decides what is linted lives here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from kcompat.config import Config, ConfigChoice
from kcompat.errors import UsageError
from kcompat.lint.check import run_lint
from kcompat.rules.registry import rule_categories
from kcompat.rules.runner import Outcome
from kcompat.sources.reading import read_targets, skipped_note
from kcompat.sources.sides import path_side
from kcompat.sources.spec_paths import SpecPaths


@dataclass(frozen=True)
class LintRequest:
    paths: tuple[str, ...] = ()  # files or directories (default: configured paths, or .)
    config_choice: ConfigChoice = field(default_factory=ConfigChoice)


@dataclass(frozen=True)
class LintResult:
    config: Config
    files: int = 0
    outcome: Outcome | None = None  # None: nothing to lint, and ``note`` says why
    note: str = ""
    skipped: str = ""  # a line naming the .json files left out as not specs ("": none)


def lint_request(request: LintRequest) -> LintResult:
    """Lint what the request names; a :class:`UsageError` when it names no spec at all."""
    config = request.config_choice.load(None, rules=rule_categories)
    spec_paths = SpecPaths.of(config)
    chosen = list(request.paths)
    if not chosen:
        chosen = spec_paths.roots() or ["."]
    elif spec_paths:
        # named files (a pre-commit hook's) outside the configured spec paths are not specs
        named = [p for p in chosen if Path(p).is_file()]
        chosen = [p for p in chosen if p not in named or spec_paths.holds(Path(p))]
        if named and not chosen:
            note = f"None of the {len(named)} given file(s) is under the configured paths."
            return LintResult(config, note=note)
    read = read_targets([path_side(p) for p in chosen], spec_paths)
    skipped = skipped_note(read.skipped, links=read.links)
    if not read.targets and chosen and all(Path(p).is_file() for p in chosen):
        # a hook named only other JSON files (package.json, editor settings, templates)
        note = f"No spec files among the {len(chosen)} given file(s); nothing to lint."
        return LintResult(config, note=note, skipped=skipped)
    if not read.targets:
        raise UsageError(
            f"no spec files found in {', '.join(chosen)} (spec files are *.json with "
            '"validVersions")' + (f"; {skipped}" if skipped else "")
        )
    outcome = run_lint(read.targets, read.context, config)
    return LintResult(config, len(read.targets), outcome, skipped=skipped)
