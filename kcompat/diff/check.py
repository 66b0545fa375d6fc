"""Diff's check: pair two sets of spec files once, run the evolution rules, finish.

Pure: a comparison (a :class:`~kcompat.diff.prepared.PreparedPair`, or spec files paired
with the released-version policy and the tag ledger) and :class:`CheckOptions` in, an
:class:`~kcompat.rules.runner.Outcome` out, as :mod:`kcompat.lint.check` is lint's. One
entry, :func:`check`: ``kcompat diff``, ``changelog``, ``explain --against``, the language
server and ``kcompat history`` (on Spark executors) all end here.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import PurePosixPath
from typing import TYPE_CHECKING

from kcompat.config import Acceptance, Config
from kcompat.diff.prepared import PreparedPair
from kcompat.findings import Finding
from kcompat.rules.evolution.context import DiffContext
from kcompat.rules.evolution.pairing import MessagePair, Pairing, pair_messages
from kcompat.rules.registry import Rule, Subject, all_rules
from kcompat.rules.runner import Call, Finishing, Outcome, compared, finish, run_rules
from kcompat.rules.suppress import DirectiveKey, directive_keys
from kcompat.sources.reading import parsed
from kcompat.spec.ledger import TagLedger
from kcompat.spec.model import Message
from kcompat.spec.released import Releases
from kcompat.spec.specfile import SpecFile, comments_of

if TYPE_CHECKING:
    from kcompat.codec.compiler import CodeStore


@dataclass(frozen=True)
class CheckOptions:
    """How a comparison is checked, the same for every caller (diff, changelog, explain,
    the language server, history's Spark executors): the configuration (which rules run,
    and how their findings are finished), the byte proof and its samples per version,
    the baseline's fingerprints, and where the command keeps compiled codecs."""

    config: Config = field(default_factory=Config)
    proof: bool = False
    samples: int = 20
    baseline: frozenset[str] = frozenset()
    code_cache: CodeStore | None = field(default=None, compare=False)
    # the ``[[ignore]]`` entries BASE's configuration holds: they accept nothing new
    settled_entries: frozenset[Acceptance] | None = None


@dataclass(frozen=True)
class Unfinished:
    """A comparison's findings before finishing, so that one run can be finished under
    more than one configuration (a change's own and BASE's: :mod:`kcompat.diff.weakened`)."""

    raw: tuple[Finding, ...]
    evidence: tuple[Finding, ...]
    how: Finishing

    def finish(self, config: Config) -> Outcome:
        return finish(self.raw, replace(self.how, config=config), self.evidence)


@dataclass(frozen=True)
class Paired:
    """Two sets of spec files paired for comparison, with what judging them needs (the
    released-version policy, the tag ledger) and the files left out: HEAD files that do
    not parse, and specs whose layout would be a guess (with the lint finding that says
    why, and their side)."""

    pairing: Pairing
    unreadable: tuple[SpecFile, ...]
    invalid: tuple[tuple[SpecFile, str, Finding], ...]
    base: tuple[SpecFile, ...]  # the spec files paired, as given
    head: tuple[SpecFile, ...]
    releases: Releases
    ledger: TagLedger = field(default_factory=TagLedger.empty)


def check(pair: PreparedPair | Paired, options: CheckOptions = CheckOptions()) -> Outcome:
    """Every finding of a comparison (pure: no git, no file system but the compiled codecs
    a command keeps in ``options.code_cache``): a prepared pair, or its specs as
    :func:`paired_specs` (or :func:`pair_specs`) paired them when the caller needs the
    pairing too (the changelog reads what the rules judged)."""
    return unfinished(pair, options).finish(options.config)


def unfinished(pair: PreparedPair | Paired, options: CheckOptions) -> Unfinished:
    """The raw findings and the proof's bytes of every rule the configuration does not
    turn off, to finish under any configuration."""
    paired = pair if isinstance(pair, Paired) else paired_specs(pair)
    rules_off = options.config.disabled
    base_specs, head_specs = paired.base, paired.head
    policy, pairing = paired.releases, paired.pairing
    context = DiffContext(pairing, paired.ledger, paired.unreadable, policy, paired.invalid)

    def calls(rule: Rule) -> Iterator[Call]:
        if rule.subject is Subject.SET:
            yield Call(None, context=context)
        elif rule.subject is Subject.PAIR:
            for pair in pairing.pairs:
                yield _pair_call(pair, context)

    # A rule turned off does not run, so the bytes it would have explained stay the
    # proof's own finding: disabling a check never hides a proven break (an inline ignore
    # comment accepts one, bytes and all).
    rules = [r for r in all_rules("diff") if r.id not in rules_off]
    raw = run_rules(rules, calls)
    proven = [p for p in pairing.pairs if not p.common.empty]
    evidence: list[Finding] = []
    if options.proof and "roundtrip-mismatch" not in rules_off:
        from kcompat.rules.evolution.proof import proof_findings

        evidence = proof_findings(proven, samples=options.samples, code_cache=options.code_cache)

    base_names = {p.head.name: p.base.name for p in pairing.pairs}

    def released_by(finding: Finding) -> str:
        versions = finding.versions
        if versions is None:
            return ""
        name = base_names.get(finding.message_name, finding.message_name)
        return policy.reason(name, versions)

    def latest(finding: Finding) -> str | None:
        versions = finding.versions
        if versions is None or versions.empty:
            return None
        return policy.latest(base_names.get(finding.message_name, finding.message_name), versions)

    how = Finishing(
        kinds=frozenset({"diff"}),
        comments=comments_of(head_specs),
        baseline=options.baseline,
        released_by=released_by,
        latest=latest,
        subjects=compared((*base_specs, *head_specs)),
        settled=settled_comments(base_specs, head_specs, pairing),
        settled_entries=options.settled_entries,
    )
    return Unfinished(tuple(raw), tuple(evidence), how)


def settled_comments(
    base_specs: Sequence[SpecFile], head_specs: Sequence[SpecFile], pairing: Pairing
) -> dict[str, frozenset[DirectiveKey]]:
    """For each HEAD file, the ignore comments (by their text) its BASE file already
    holds: the file of the message it pairs with, else the file at the same path."""
    by_path = {spec.path: spec for spec in base_specs}
    partner = {pair.head_spec.path: pair.base_spec for pair in pairing.pairs}
    out = {}
    for spec in head_specs:
        base = partner.get(spec.path) or by_path.get(spec.path)
        document = base.document if base is not None else None
        out[spec.path] = (
            directive_keys(spec.path, document.comments) if document is not None else frozenset()
        )
    return out


def pair_specs(
    base_specs: Sequence[SpecFile],
    head_specs: Sequence[SpecFile],
    releases: Releases | None = None,
    ledger: TagLedger | None = None,
) -> Paired:
    """Pair what can be compared (see :class:`Paired` for what cannot); without
    ``releases``, every version BASE has counts as released."""
    policy = releases if releases is not None else Releases.from_base(_messages(base_specs))
    unreadable = tuple(s for s in head_specs if s.message is None)
    invalid = _invalid(base_specs, head_specs)
    left_out = [spec for spec, _side, _why in invalid]
    pairing = pair_messages(
        _without(_without(base_specs, unreadable), left_out),
        _without(list(head_specs), left_out),
        policy,
    )
    return Paired(
        pairing,
        unreadable,
        invalid,
        tuple(base_specs),
        tuple(head_specs),
        policy,
        ledger if ledger is not None else TagLedger.empty(),
    )


def paired_specs(pair: PreparedPair) -> Paired:
    """A prepared comparison's specs, read and paired exactly as :func:`check` pairs them."""
    base_specs = [parsed(path, data) for path, data in pair.base_files]
    head_specs = [parsed(path, data) for path, data in pair.head_files]
    return pair_specs(base_specs, head_specs, pair.releases, TagLedger.from_rows(pair.ledger))


def _pair_call(pair: MessagePair, context: DiffContext) -> Call:
    return Call(pair, pair.head_spec.path, pair.head.name, pair.base_spec.path, context)


def _messages(specs: Sequence[SpecFile]) -> list[Message]:
    return [s.message for s in specs if s.message is not None]


def _invalid(
    base_specs: Sequence[SpecFile], head_specs: Sequence[SpecFile]
) -> tuple[tuple[SpecFile, str, Finding], ...]:
    """Specs whose layout would be a guess (see ``LAYOUT_RULES``): every such HEAD spec,
    and a BASE spec whose HEAD file is fine (a fix: nothing to compare it with)."""
    from kcompat.rules.lint.layout import layout_errors

    head = [s for s in head_specs if s.message is not None]
    head_errors = layout_errors(head)
    out = [(spec, "HEAD", head_errors[spec.path]) for spec in head if spec.path in head_errors]
    bad_names = {PurePosixPath(s.path).name for s, _side, _why in out}
    base = [
        s
        for s in base_specs
        if s.message is not None and PurePosixPath(s.path).name not in bad_names
    ]
    base_errors = layout_errors(base)
    out += [(spec, "BASE", base_errors[spec.path]) for spec in base if spec.path in base_errors]
    return tuple(out)


def _without(specs: Sequence[SpecFile], left_out: Sequence[SpecFile]) -> list[SpecFile]:
    """``specs`` minus the files of ``left_out`` (the same path, else the same file name):
    a file that does not parse, or whose layout would be a guess, is reported as such, not
    compared (nor reported as a removed message)."""
    if not left_out:
        return list(specs)
    paths = {s.path for s in left_out}
    names = {PurePosixPath(s.path).name for s in left_out}
    if any(s.path in paths for s in specs):
        return [s for s in specs if s.path not in paths]
    return [s for s in specs if PurePosixPath(s.path).name not in names]
