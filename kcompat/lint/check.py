"""Lint: run every registered lint rule over a set of spec files.

Pure: spec files in, findings out. Cross-file rules see ``context`` specs too (the other
specs in the same directories) but only report on the files being linted, so linting one
changed file in pre-commit does not complain that its response is missing.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from kcompat.config import Config
from kcompat.rules.engine import Finding, Reporter, Severity
from kcompat.rules.registry import Rule, Subject, all_rules, get_rule
from kcompat.rules.runner import Call, Finishing, Outcome, finish, run_rules
from kcompat.spec.model import Message
from kcompat.spec.specfile import SpecFile

#: Lint rules whose errors leave a spec's wire layout a guess (a type nobody knows, a
#: version range that does not parse, a duplicated tag, ...): ``diff`` does not compare
#: such a side; it says which of these explains why. A missing required key is one too
#: (checked without the schema validator, which a pre-commit run need not import).
LAYOUT_RULES = frozenset(
    {
        "array-of-arrays",
        "common-struct-duplicate",
        "duplicate-field-name",
        "encoding-coverage",
        "encoding-overlap",
        "encoding-type",
        "encoding-unknown-name",
        "invalid-type",
        "invalid-versions",
        "recursive-struct",
        "struct-defined-twice",
        "tag-duplicate",
        "tag-negative",
        "undefined-struct",
        "valid-versions-unbounded",
    }
)


def layout_errors(specs: Sequence[SpecFile]) -> dict[str, Finding]:
    """The first layout error of each spec that has one (see :data:`LAYOUT_RULES`),
    memoised on the spec's (frozen) message: an audit asks about one file many times."""
    out: dict[str, Finding] = {}
    fresh = []
    for spec in specs:
        known = spec.message is not None and "_layout_error" in spec.message.__dict__
        memo: Finding | None = spec.message.__dict__["_layout_error"] if known else None
        if not known:
            fresh.append(spec)
        elif memo is not None:
            out[spec.path] = memo
    found = _layout_errors(fresh)
    for spec in fresh:
        if spec.message is not None:
            spec.message.__dict__["_layout_error"] = found.get(spec.path)
    return {**out, **found}


def _layout_errors(specs: Sequence[SpecFile]) -> dict[str, Finding]:
    from kcompat.rules.lint.schema import missing_layout_keys

    rules = [r for r in all_rules("lint") if r.id in LAYOUT_RULES]

    def calls(rule: Rule) -> Iterator[Call]:
        for spec in specs:
            yield from _one_spec(rule, spec)

    found = run_rules(rules, calls)
    missing = get_rule("missing-key")
    assert missing is not None
    for spec in specs:
        report = Reporter(missing, spec.path, found, message_name=_name(spec))
        for obj, key in missing_layout_keys(spec):
            name = obj.get("name")
            owner = f"field {name!r}" if isinstance(name, str) else "an object"
            report(obj, f"{owner} has no {key!r}")
    first: dict[str, Finding] = {}
    for finding in sorted(found, key=Finding.sort_key):
        if finding.severity is Severity.ERROR:
            first.setdefault(finding.location.path, finding)
    return first


def _one_spec(rule: Rule, spec: SpecFile) -> Iterator[Call]:
    """The call a document or message rule makes on one spec file (if any)."""
    if rule.subject is Subject.DOCUMENT:
        yield Call(spec, spec.path, _name(spec))
    elif rule.subject is Subject.MESSAGE and spec.message is not None:
        yield Call(spec.message, spec.path, spec.message.name)


def run_lint(
    targets: Sequence[SpecFile],
    context: Sequence[SpecFile] = (),
    config: Config | None = None,
    baseline: frozenset[str] = frozenset(),
) -> Outcome:
    """Every lint finding on ``targets``, finished (configuration, comments, baseline)."""
    config = config if config is not None else Config()
    groups = _directories((*targets, *context))

    def calls(rule: Rule) -> Iterator[Call]:
        if rule.subject is Subject.SET:
            yield from (Call(group) for group in groups)
            return
        for spec in targets:
            yield from _one_spec(rule, spec)

    target_paths = {spec.path for spec in targets}
    raw = [
        f
        for f in run_rules(all_rules("lint"), calls)
        if f.location.path in target_paths  # set rules see context files too
    ]
    how = Finishing(
        config=config,
        kinds=frozenset({"lint"}),
        comments={s.path: s.document.comments for s in targets if s.document is not None},
        baseline=baseline,
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


def _name(spec: SpecFile) -> str:
    return spec.message.name if spec.message is not None else ""
