"""Lint: run every registered lint rule over a set of spec files.

Pure: spec files in, findings out. Cross-file rules see ``context`` specs too (the other
specs in the same directories) but only report on the files being linted, so linting one
changed file in pre-commit does not complain that its response is missing.
"""

from __future__ import annotations

from collections.abc import Sequence

from kcompat.config import Config
from kcompat.rules.engine import Finding, Reporter, all_rules, with_severity
from kcompat.rules.suppress import apply_suppressions
from kcompat.spec.model import Message
from kcompat.spec.specfile import SpecFile


def lint_specs(
    targets: Sequence[SpecFile],
    context: Sequence[SpecFile] = (),
    config: Config | None = None,
) -> list[Finding]:
    config = config if config is not None else Config()
    rules = [r for r in all_rules("lint") if r.id not in config.disabled]
    findings: list[Finding] = []
    for spec in targets:
        for lint_rule in rules:
            if lint_rule.scope == "document":
                lint_rule.check(
                    spec, Reporter(lint_rule, spec.path, findings, message_name=_name(spec))
                )
            elif lint_rule.scope == "message" and spec.message is not None:
                lint_rule.check(
                    spec.message,
                    Reporter(lint_rule, spec.path, findings, message_name=spec.message.name),
                )
    target_paths = {spec.path for spec in targets}
    set_findings: list[Finding] = []
    for group in _directories((*targets, *context)):
        for lint_rule in rules:
            if lint_rule.scope == "set":
                lint_rule.check(group, Reporter(lint_rule, "", set_findings))
    findings.extend(f for f in set_findings if f.location.path in target_paths)
    comments = {s.path: s.document.comments for s in targets if s.document is not None}
    kept = apply_suppressions(findings, comments)
    return sorted(with_severity(kept, dict(config.severities)), key=Finding.sort_key)


def _directories(specs: Sequence[SpecFile]) -> list[list[Message]]:
    """Messages grouped by directory: Kafka generates each directory separately."""
    groups: dict[str, dict[str, Message]] = {}
    for spec in specs:
        if spec.message is not None:
            folder = spec.path.replace("\\", "/").rpartition("/")[0]
            groups.setdefault(folder, {}).setdefault(spec.path, spec.message)
    # Sorted by path, so a set rule's verdict does not depend on which files are targets.
    return [[group[path] for path in sorted(group)] for _folder, group in sorted(groups.items())]


def _name(spec: SpecFile) -> str:
    return spec.message.name if spec.message is not None else ""
