"""The round-trip proof: show a wire break with bytes, or find none.

For every version both messages have, samples generated from one side's layout are
encoded by that side (the writer) and decoded by the other (the reader), in both
directions. The reader reads as Kafka's generated Java readers do (trailing bytes left
unread, invalid UTF-8 replaced, known tags read by their type: :mod:`kcompat.codec.java`),
so "HEAD cannot read" means what a broker or client would do with those bytes. A break
is a sample the reader cannot decode, or decodes to something other than what the writer
meant. The first such sample (smallest encoding first) becomes an :class:`Evidence`: the
bytes, an annotated dump by the writer's layout, the field that changed, what was
written and what was read.

What counts as "what the writer meant" is the heart of it, because several changes
alter the spec without altering the wire, and the proof must stay silent on them:

* Fields are matched by name. A field the other side does not know by name is matched
  by position among the untagged fields, or by tag number among the tagged ones, when
  that position or tag is also unmatched on the other side: a pure **rename** keeps its
  bytes and its meaning, so it compares equal (the rename rule reports it as a warning).
* A **tagged field only the writer knows** is dropped by the reader, which keeps it as
  an unknown tag: that is the documented tagged-field contract (adding or removing a
  tagged field is compatible), so it is not a mismatch.
* A **tagged field only the reader knows** must read as its default (the writer never
  wrote that tag).
* An **untagged field only one side knows** must hold its default on that side: the
  writer's value is lost otherwise (a field removed from a released version), or the
  reader made a value out of bytes meant for something else (a field added to one).
  Removing or adding an untagged field also shifts every later byte, which the
  comparison of the later fields or the decoder's trailing-bytes check shows anyway.
* Docs, ``ignorable``, ``mapKey``, ``entityType``, struct type names and defaults of
  untagged fields do not reach the wire and are never compared. (A changed default of an
  untagged field matters only in versions where the field is absent, where no bytes
  exist to show; the rules report it on their own.)
* Values compare by type as well as value (``True`` is not ``1``; a string is not its
  bytes), and NaN equals NaN. The one documented type change, an array of primitives
  becoming an array of single-field structs, compares the element with that field.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from kcompat.codec.blame import blame, blame_anywhere, divergence, layout_delta
from kcompat.codec.codec import codec_for_uses
from kcompat.codec.compare import Comparer
from kcompat.codec.compiler import CodeStore
from kcompat.codec.errors import DecodeError, EncodeError
from kcompat.codec.evidence import (
    BASE_TO_HEAD,
    HEAD_TO_BASE,
    Evidence,
    make_evidence,
    value_at,
)
from kcompat.codec.samples import generate_samples
from kcompat.memo import Lru
from kcompat.spec.model import Message
from kcompat.spec.resolve import Layout, resolve
from kcompat.spec.runs import runs
from kcompat.spec.shape import version_signature
from kcompat.spec.versions import Versions

#: At most this many broken fields are shown per version and direction.
MAX_FIELDS_PER_CHECK = 8
#: At most this many versions are tried for an open-ended range (a broken spec).
MAX_VERSIONS = 256

__all__ = ["BASE_TO_HEAD", "HEAD_TO_BASE", "Evidence", "Judge", "prove"]


class Judge:
    """The proof's verdict on one stored byte string (``kcompat corpus verify``).

    Bytes a writer produced for ``written`` are decoded by the reader's layout and compared
    by the proof's rules; keep one judge per process (it caches field pairings).
    """

    def __init__(self) -> None:
        self._prover = _Prover(0, 0, skip_identical=False)

    def __call__(
        self, writer: Layout, reader: Layout, written: dict[str, Any], data: bytes, direction: str
    ) -> Evidence | None:
        return self._prover.judge(writer, reader, written, data, direction)


def prove(
    base: Message,
    head: Message,
    versions: Versions,
    *,
    samples: int = 20,
    seed: int = 0,
    code_cache: CodeStore | None = None,
) -> list[Evidence]:
    """Evidence of every (version, direction) whose bytes do not survive the change.

    A version whose two layouts have the same signature (the same wire, field names and
    defaults: the same codec) cannot differ and is skipped, so unchanged versions cost
    next to nothing. A layout of thousands of fields is sampled with the reference codec:
    compiling it would cost more than its twenty samples. ``code_cache``: where the
    command keeps compiled codecs between its processes.
    """
    return _Prover(samples, seed, skip_identical=True, code_cache=code_cache).run(
        base, head, versions
    )


@dataclass(frozen=True)
class ProofRate:
    """How fast the proof runs: samples (encode, decode, compare) per second."""

    samples: int
    versions: int
    seconds: float  # wall clock
    cpu_seconds: float = 0.0  # this process's CPU time (steadier on a busy machine)

    @property
    def per_second(self) -> float:
        return self.samples / self.seconds if self.seconds > 0 else 0.0

    @property
    def per_cpu_second(self) -> float:
        return self.samples / self.cpu_seconds if self.cpu_seconds > 0 else 0.0


def samples_per_second(
    messages: Iterable[Message], *, samples: int = 20, seed: int = 0
) -> ProofRate:
    """Run the proof of each message against itself (base == head) and time it.

    Every sample is encoded, decoded and compared (identical layouts are not skipped, so
    this measures the proof's machinery, not the shortcut).
    """
    prover = _Prover(samples, seed, skip_identical=False)
    versions = 0
    start, cpu = time.perf_counter(), time.process_time()
    for message in messages:
        chosen = _bounded(message.valid_versions)
        versions += len(chosen)
        prover.run(message, message, chosen)
    return ProofRate(prover.count, versions, time.perf_counter() - start, time.process_time() - cpu)


def _singles(versions: Versions) -> list[Versions]:
    return [Versions.of(v, v) for v in versions]


def _bounded(versions: Versions) -> Versions:
    if versions.empty or versions.highest - versions.lowest < MAX_VERSIONS:
        return versions
    return versions.clip(versions.lowest + MAX_VERSIONS - 1)


#: Proofs made in this process, by everything a proof depends on (see ``_Prover.check``).
_PROVEN: Lru[tuple[object, ...], list[Evidence]] = Lru("proofs", 20_000)


class _Prover:
    def __init__(
        self, samples: int, seed: int, skip_identical: bool, code_cache: CodeStore | None = None
    ) -> None:
        self.samples = samples
        self.seed = seed
        self.skip_identical = skip_identical
        self.code_cache = code_cache
        self.count = 0
        self.comparer = Comparer()

    def run(self, base: Message, head: Message, versions: Versions) -> list[Evidence]:
        """Evidence for every version and direction. With ``skip_identical``, a version
        whose change is the same as an earlier version's (the same fields changed the same
        way: :func:`layout_delta`) is not sampled again: it breaks the same way, and its
        evidence is the earlier version's counterexample (a change to a field present in
        ten versions costs one round of samples, not ten)."""
        found: list[Evidence] = []
        proven: dict[tuple[object, ...], list[Evidence]] = {}
        common = _bounded(versions & base.valid_versions & head.valid_versions)
        # With the shortcut, one run of versions whose layouts cannot differ (see
        # kcompat.spec.runs) is one layout_delta: the same change in every version of it.
        chunks = runs(base, head, common) if self.skip_identical else _singles(common)
        for chunk in chunks:
            base_layout, head_layout = resolve(base, chunk.lowest), resolve(head, chunk.lowest)
            if not self.skip_identical:
                found.extend(self._both_ways(base_layout, head_layout))
                continue
            delta = layout_delta(base_layout.root, head_layout.root)
            first = chunk.lowest
            if delta not in proven:
                proven[delta] = self._both_ways(base_layout, head_layout)
                found.extend(proven[delta])
                first += 1
            for other in range(first, chunk.highest + 1):
                found.extend(replace(e, version=other) for e in proven[delta])
        return found

    def _both_ways(self, base: Layout, head: Layout) -> list[Evidence]:
        return [
            *self.check(base, head, BASE_TO_HEAD),
            *self.check(head, base, HEAD_TO_BASE),
        ]

    def check(self, writer: Layout, reader: Layout, direction: str) -> list[Evidence]:
        """The first counterexample for each field that breaks (smallest sample first).

        Every sample is tried, not just until the first break: one break (a changed tagged
        default, say) must not hide another (two swapped fields) that other samples show.
        """
        if not self.skip_identical:
            return self._sample(writer, reader, direction)
        writer_signature = version_signature(writer.message, writer.version)
        reader_signature = version_signature(reader.message, reader.version)
        if writer_signature == reader_signature:
            return []  # same names, tags, encodings and defaults: nothing can differ
        # The verdict is a function of the two layouts (names included), the version, the
        # direction and the sampling: a history audit meets the same pair of layouts in
        # hundreds of comparisons, and proves it once per process.
        key = (
            writer.message.name,
            writer.version,
            direction,
            self.samples,
            self.seed,
            writer_signature,
            reader_signature,
        )
        return list(_PROVEN.get(key, lambda: self._sample(writer, reader, direction)))

    def _sample(self, writer: Layout, reader: Layout, direction: str) -> list[Evidence]:
        writer_codec = codec_for_uses(writer, self.samples, self.code_cache)
        encoded: list[tuple[int, int, dict[str, Any], bytes]] = []
        for index, sample in enumerate(generate_samples(writer, self.samples, self.seed)):
            try:
                data = writer_codec.encode(sample)
            except EncodeError:
                continue  # a sample this writer cannot produce (a broken default)
            encoded.append((len(data), index, sample, data))
        encoded.sort(key=lambda item: (item[0], item[1]))
        found: dict[str, Evidence] = {}
        # When every misreading is blamed on one field, later samples can only find it
        # again: its first (smallest) counterexample is all there is to find.
        only = blame_anywhere(writer.root, reader.root, direction)
        for _, _, sample, data in encoded:
            self.count += 1
            evidence = self.judge(writer, reader, sample, data, direction)
            if evidence is None:
                continue
            found.setdefault(evidence.field_path, evidence)
            if len(found) >= MAX_FIELDS_PER_CHECK or only in found:
                break
        return list(found.values())

    def judge(
        self, writer: Layout, reader: Layout, written: dict[str, Any], data: bytes, direction: str
    ) -> Evidence | None:
        """Whether the reader makes of ``data`` what the writer meant by ``written``."""
        try:
            value = codec_for_uses(reader, self.samples, self.code_cache).decode(data, java=True)
        except DecodeError as err:
            # Where the two readings part, not where reading failed (see divergence).
            path, read = divergence(writer, reader, data, err)
            changed = blame(writer.root, reader.root, path, direction)
            return make_evidence(
                writer, direction, data, path, changed, value_at(written, path), read, str(err)
            )
        mismatch = self.comparer.compare_struct(writer.root, reader.root, written, value, "")
        if mismatch is None:
            return None
        changed = blame(writer.root, reader.root, mismatch.path, direction)
        return make_evidence(
            writer,
            direction,
            data,
            mismatch.path,
            changed,
            mismatch.written,
            mismatch.read,
            None,
        )
