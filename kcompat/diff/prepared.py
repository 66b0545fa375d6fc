"""One comparison as plain data: the texts that differ, and the policies decided from git.

``prepare_pair`` runs where the repository is (it reads git: changed files, release tags,
the tag ledger's history). ``check_pair`` is pure: texts in, findings out. ``kcompat diff``
calls both in one process; ``kcompat history`` prepares on the Spark driver and checks
on the executors, which have no checkout. Both therefore give the same findings.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from kcompat.config import Config
from kcompat.diff.engine import diff_specs
from kcompat.diff.history import ledger_from_history
from kcompat.diff.ledger import Binding, TagLedger
from kcompat.diff.match import ReleasedFor
from kcompat.diff.released import BaseReleased
from kcompat.errors import UsageError
from kcompat.rules.engine import Finding
from kcompat.sources.sides import Side, companion_requests, load_sides
from kcompat.spec.model import Message
from kcompat.spec.specfile import SpecFile, read_spec
from kcompat.spec.versions import Versions


@dataclass(frozen=True)
class ReleasedEntry:
    """A BASE message's released versions, and the release that first shipped each one."""

    versions: str
    reason: str  # "base" or "tags"
    first_release: tuple[tuple[int, str], ...] = ()


class StaticReleased(ReleasedFor):
    """A released-versions policy decided beforehand (replayable without git)."""

    def __init__(self, entries: dict[str, ReleasedEntry]) -> None:
        self.entries = entries

    def __call__(self, message: Message) -> tuple[Versions, str]:
        entry = self.entries.get(message.name)
        if entry is None:
            return message.released_versions, "base"
        return Versions.parse(entry.versions), entry.reason

    def explain(self, message_name: str, versions: Versions) -> str:
        entry = self.entries.get(message_name)
        if entry is None or entry.reason == "base":
            return "in BASE's validVersions"
        first = dict(entry.first_release)
        names = sorted({first[v] for v in versions.clip(4096) if v in first}, key=_release_order)
        if not names:
            return "tags"
        return "released in " + ", ".join(names)


def _release_order(name: str) -> tuple[tuple[int, ...], str]:
    import re

    return tuple(int(n) for n in re.findall(r"\d+", name)), name


@dataclass(frozen=True)
class PreparedPair:
    """Everything one comparison needs; serialisable to one row."""

    base_label: str
    head_label: str
    base_files: tuple[tuple[str, bytes], ...]
    head_files: tuple[tuple[str, bytes], ...]
    released: tuple[tuple[str, ReleasedEntry], ...]
    ledger: tuple[tuple[str, str, int, tuple[tuple[str, str, str], ...]], ...]
    compared: int

    def to_row(self) -> dict[str, Any]:
        return {
            "base_label": self.base_label,
            "head_label": self.head_label,
            "base_paths": [p for p, _ in self.base_files],
            "base_texts": [t for _, t in self.base_files],
            "head_paths": [p for p, _ in self.head_files],
            "head_texts": [t for _, t in self.head_files],
            "released": json.dumps(
                {name: [e.versions, e.reason, list(e.first_release)] for name, e in self.released}
            ),
            "ledger": json.dumps([[m, p, t, [list(b) for b in bs]] for m, p, t, bs in self.ledger]),
            "compared": self.compared,
        }

    @staticmethod
    def from_row(row: dict[str, Any]) -> PreparedPair:
        released = json.loads(row["released"])
        ledger = json.loads(row["ledger"])
        return PreparedPair(
            row["base_label"],
            row["head_label"],
            tuple(zip(row["base_paths"], (bytes(t) for t in row["base_texts"]), strict=True)),
            tuple(zip(row["head_paths"], (bytes(t) for t in row["head_texts"]), strict=True)),
            tuple(
                (name, ReleasedEntry(v[0], v[1], tuple((int(a), b) for a, b in v[2])))
                for name, v in released.items()
            ),
            tuple((m, p, int(t), tuple(tuple(b) for b in bs)) for m, p, t, bs in ledger),
            int(row["compared"]),
        )


def prepare_pair(
    base: Side,
    head: Side,
    *,
    pathspecs: Sequence[str] = (),
    released_mode: str = "base",
    config: Config | None = None,
    history: bool = True,
    releases: Any = None,
) -> PreparedPair:
    """Read what differs between two sides and decide the git-dependent policies."""
    config = config if config is not None else Config()
    loaded = load_sides(base, head, pathspecs)
    companions = companion_requests(base, loaded.base)
    messages = [s.message for s in (*loaded.base, *companions) if s.message is not None]
    policy = _policy(released_mode, base, messages, config, releases)
    entries = []
    for spec in loaded.base:
        if spec.message is None:
            continue
        versions, reason = policy(spec.message)
        first: tuple[tuple[int, str], ...] = ()
        table = getattr(policy, "first_release", None)
        if table is not None:
            first = tuple(sorted((v, t) for (n, v), t in table.items() if n == spec.message.name))
        entries.append((spec.message.name, ReleasedEntry(str(versions), reason, first)))
    from kcompat.diff.tags_released import TagsReleased

    tag_policy = policy if isinstance(policy, TagsReleased) else None
    ledger = (
        ledger_from_history(base, loaded.base, loaded.head, tag_policy)
        if history
        else TagLedger.empty()
    )
    return PreparedPair(
        base.label,
        head.label,
        tuple((s.path, _text_of(s)) for s in loaded.base),
        tuple((s.path, _text_of(s)) for s in loaded.head),
        tuple(entries),
        tuple(
            (name, path, tag, tuple((b.name, b.type, b.seen_in) for b in bindings))
            for name, book in sorted(ledger.entries.items())
            for (path, tag), bindings in sorted(book.items())
        ),
        loaded.compared,
    )


def _text_of(spec: SpecFile) -> bytes:
    if spec.document is not None:
        return spec.document.text.encode("utf-8")
    return spec.raw if spec.raw is not None else b""


def _policy(
    mode: str, base: Side, messages: list[Message], config: Config, releases: Any
) -> ReleasedFor:
    if mode == "tags":
        from kcompat.diff.tags_released import TagsReleased, tags_policy

        if releases is not None:
            return TagsReleased(releases, base)
        return tags_policy(base, messages, config)
    if mode != "base":
        raise UsageError(f"--released must be 'base' or 'tags', not {mode!r}")
    return BaseReleased(messages)


def check_pair(
    pair: PreparedPair,
    *,
    config: Config | None = None,
    proof: bool = False,
    samples: int = 20,
) -> list[Finding]:
    """All findings for a prepared comparison (pure: no git, no file system)."""
    base_specs = [read_spec(path, data) for path, data in pair.base_files]
    head_specs = [read_spec(path, data) for path, data in pair.head_files]
    released = StaticReleased(dict(pair.released))
    ledger = TagLedger.empty()
    for name, path, tag, bindings in pair.ledger:
        ledger.entries.setdefault(name, {})[(path, tag)] = [Binding(*b) for b in bindings]
    findings = diff_specs(
        base_specs, head_specs, config=config, released_for=released, ledger=ledger
    )
    if proof:
        from kcompat.diff.proof import proof_findings

        findings = sorted(
            [
                *findings,
                *proof_findings(base_specs, head_specs, released, samples=samples, config=config),
            ],
            key=Finding.sort_key,
        )
    return findings
