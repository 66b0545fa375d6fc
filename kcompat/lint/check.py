"""Lint: run every registered lint rule over a set of spec files.

Pure: spec files in, findings out. Cross-file rules see ``context`` specs too (the other
specs in the same directories) but only report on the files being linted, so linting one
changed file in pre-commit does not complain that its response is missing.
"""

from __future__ import annotations

from collections.abc import Sequence

from kcompat.config import Config
from kcompat.findings import Finding
from kcompat.rules.lint.walk import lint_findings
from kcompat.rules.registry import Subject, all_rules
from kcompat.rules.runner import Call, Finishing, Outcome, compared, finish, run_rules
from kcompat.spec.model import Message
from kcompat.spec.specfile import SpecFile, comments_of


def run_lint(
    targets: Sequence[SpecFile],
    context: Sequence[SpecFile] = (),
    config: Config | None = None,
    baseline: frozenset[str] = frozenset(),
) -> Outcome:
    """Every lint finding on ``targets``, finished (configuration, comments, baseline)."""
    config = config if config is not None else Config()
    groups = _directories((*targets, *context))

    rules = all_rules("lint")
    set_rules = [r for r in rules if r.subject is Subject.SET]
    target_paths = {spec.path for spec in targets}
    raw = lint_findings([r for r in rules if r.subject is not Subject.SET], targets)
    raw += [
        f
        for f in run_rules(set_rules, lambda _rule: (Call(group) for group in groups))
        if f.location.path in target_paths  # set rules see context files too
    ]
    how = Finishing(
        config=config,
        kinds=frozenset({"lint"}),
        comments=comments_of(targets),
        baseline=baseline,
        subjects=compared(targets),
    )
    return finish(raw, how)


def lint_specs(
    targets: Sequence[SpecFile],
    context: Sequence[SpecFile] = (),
    config: Config | None = None,
) -> list[Finding]:
    """The findings of :func:`run_lint` alone."""
    return list(run_lint(targets, context, config).findings)


def _directories(specs: Sequence[SpecFile]) -> list[list[Message]]:
    """Messages grouped by directory: Kafka generates each directory separately. A message
    without a name takes no part: its missing-key finding is the one problem to report,
    not a missing response of "" as well."""
    groups: dict[str, dict[str, Message]] = {}
    for spec in specs:
        if spec.message is not None and spec.message.name:
            folder = spec.path.replace("\\", "/").rpartition("/")[0]
            groups.setdefault(folder, {}).setdefault(spec.path, spec.message)
    # Sorted by path, so a set rule's verdict does not depend on which files are targets.
    return [[group[path] for path in sorted(group)] for _folder, group in sorted(groups.items())]
