"""``kcompat lint`` as a request and its result: which files, read how, checked once.

The command only parses options into a :class:`LintRequest` and renders the result, as
``diff`` and ``explain`` do; everything that decides what is linted lives here.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from kcompat.config import Config, ConfigChoice, configured_roots
from kcompat.errors import UsageError
from kcompat.lint.check import run_lint
from kcompat.rules.registry import rule_categories
from kcompat.rules.runner import Outcome
from kcompat.sources.files import read_paths


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


def lint_request(request: LintRequest) -> LintResult:
    """Lint what the request names; a :class:`UsageError` when it names no spec at all."""
    config = request.config_choice.load(None, rules=rule_categories)
    chosen = list(request.paths)
    if not chosen:
        chosen = configured_roots(config) or ["."]
    elif config.paths:
        named = [p for p in chosen if Path(p).is_file()]
        chosen = [p for p in chosen if p not in named or under_paths(config, p)]
        if named and not chosen:
            note = f"None of the {len(named)} given file(s) is under the configured paths."
            return LintResult(config, note=note)
    targets, context = read_paths(chosen)
    if not targets and chosen and all(Path(p).is_file() for p in chosen):
        # a hook named only other JSON files (package.json, editor settings)
        note = f"No spec files among the {len(chosen)} given file(s); nothing to lint."
        return LintResult(config, note=note)
    if not targets:
        raise UsageError(
            f"no spec files found in {', '.join(chosen)} (spec files are *.json with "
            '"validVersions")'
        )
    return LintResult(config, len(targets), run_lint(targets, context, config))


def under_paths(config: Config, path: str) -> bool:
    """Whether a named file is under the configured spec ``paths`` (a pre-commit hook
    names every changed file: one outside them is not a spec)."""
    base = Path(config.root) if config.root else Path(".")
    named = Path(os.path.abspath(path))
    where = named.parent.resolve() / named.name  # the file itself is not followed
    roots = [(base / p).resolve() for p in config.paths]
    return any(where == root or root in where.parents for root in roots)
