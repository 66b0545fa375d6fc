"""The layout check: whether a spec's wire layout can be worked out at all.

``diff`` compares only sides whose layout is certain; a spec with an error of one of
:data:`LAYOUT_RULES` (an unknown type, a version range that does not parse, a duplicated
tag, a missing required key, ...) would be compared as a guess, so it is reported as
``spec-invalid`` instead. The check runs those lint rules alone.
"""

from __future__ import annotations

from collections.abc import Sequence

from kcompat.findings import Finding, Reporter, Severity
from kcompat.rules.lint.walk import lint_findings, spec_name
from kcompat.rules.registry import all_rules, get_rule
from kcompat.spec.model import Memo
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


#: A spec's first layout error (None: it has none), kept on its message.
_LAYOUT_ERROR: Memo[Finding | None] = Memo("layout_error")


def layout_errors(specs: Sequence[SpecFile]) -> dict[str, Finding]:
    """The first layout error of each spec that has one (see :data:`LAYOUT_RULES`),
    memoised on the spec's (frozen) message: an audit asks about one file many times."""
    out: dict[str, Finding] = {}
    fresh = []
    for spec in specs:
        if spec.message is None or not _LAYOUT_ERROR.known(spec.message):
            fresh.append(spec)
            continue
        memo = _LAYOUT_ERROR(spec.message, lambda: None)
        if memo is not None:
            out[spec.path] = memo
    found = _layout_errors(fresh)
    for spec in fresh:
        if spec.message is not None:
            _LAYOUT_ERROR.put(spec.message, found.get(spec.path))
    return {**out, **found}


def _layout_errors(specs: Sequence[SpecFile]) -> dict[str, Finding]:
    from kcompat.rules.lint.schema import missing_layout_keys

    found = lint_findings([r for r in all_rules("lint") if r.id in LAYOUT_RULES], specs)
    missing = get_rule("missing-key")
    assert missing is not None
    for spec in specs:
        report = Reporter(missing, spec.path, found, message_name=spec_name(spec))
        for obj, key in missing_layout_keys(spec):
            name = obj.get("name")
            owner = f"field {name!r}" if isinstance(name, str) else "an object"
            report(obj, f"{owner} has no {key!r}")
    first: dict[str, Finding] = {}
    for finding in sorted(found, key=Finding.sort_key):
        if finding.severity is Severity.ERROR:
            first.setdefault(finding.location.path, finding)
    return first
