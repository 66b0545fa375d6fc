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

import math
import re
import time
import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

from kcompat.codec.annotate import Line, annotate_lines, focus, show
from kcompat.codec.codec import codec_for
from kcompat.codec.errors import DecodeError, EncodeError
from kcompat.codec.jsonform import value_to_json
from kcompat.codec.reference import NO_VALUE, decode_spans, join
from kcompat.codec.samples import generate_samples
from kcompat.codec.values import UNKNOWN_TAGS, default_value
from kcompat.spec.model import Message
from kcompat.spec.resolve import Kind, Layout, LayoutField, StructLayout, Wire, resolve
from kcompat.spec.shape import (
    is_inline,
    layout_signature,
    own_shape,
    struct_shape,
    version_signature,
    wire_shape,
)
from kcompat.spec.versions import Versions

#: Bytes shown as hex in evidence; the dump covers the rest around the field.
MAX_HEX_BYTES = 1024
#: Lines of annotated dump kept in evidence, and shown by ``str()``.
MAX_ANNOTATED = 40
SHORT_ANNOTATED = 22
#: At most this many broken fields are shown per version and direction.
MAX_FIELDS_PER_CHECK = 8
#: At most this many versions are tried for an open-ended range (a broken spec).
MAX_VERSIONS = 256
_INDEX = re.compile(r"\[\d+\]")
_ITEMS_SHOWN = 8

BASE_TO_HEAD = "base->head"
HEAD_TO_BASE = "head->base"


@dataclass(frozen=True)
class Evidence:
    """One counterexample: the bytes a writer produced and what the reader made of them.

    ``field_path`` is the spec path of the field that changed (``Topics.Partitions.
    LeaderId``, as in findings); ``value_path`` is where in the sample the reading went
    wrong (``Topics[0].Partitions[3].LeaderId``). The annotated dump of the bytes is drawn
    when first asked for: most counterexamples only confirm a finding another one shows.
    """

    message: str
    version: int
    direction: str  # "base->head" or "head->base"
    field_path: str
    hex: str
    written: Any
    read: Any
    error: str | None
    size: int = 0
    value_path: str = ""
    writer: Layout | None = field(default=None, repr=False, compare=False)
    data: bytes = field(default=b"", repr=False, compare=False)

    @cached_property
    def _lines(self) -> list[Line]:
        return annotate_lines(self.writer, self.data) if self.writer is not None else []

    @cached_property
    def annotated(self) -> tuple[str, ...]:
        """The dump around the value path (at most ``MAX_ANNOTATED`` lines)."""
        return tuple(focus(self._lines, self.value_path, MAX_ANNOTATED))

    @cached_property
    def short(self) -> tuple[str, ...]:
        return tuple(focus(self._lines, self.value_path, SHORT_ANNOTATED))

    def __hash__(self) -> int:  # the values may be lists or dicts
        return hash((self.message, self.version, self.direction, self.value_path, self.hex))

    def to_dict(self) -> dict[str, Any]:
        """JSON-able, as ``findings.schema.json`` describes ``evidence``."""
        return {
            "message": self.message,
            "version": self.version,
            "direction": self.direction,
            "field_path": self.field_path,
            "value_path": self.value_path,
            "hex": self.hex,
            "annotated": list(self.annotated),
            "written": value_to_json(_shorten(self.written)),
            "read": value_to_json(_shorten(self.read)),
            "error": self.error,
        }

    def summary(self) -> str:
        where = f"{self.message} v{self.version} {self.direction}"
        path = self.value_path or self.field_path
        if _INDEX.sub("", path) != self.field_path:
            # the misreading surfaces after the field that changed
            where += f": {self.field_path or 'the message'} changed"
        if self.error is not None:
            return f"{where}: {path}: the reader fails ({self.size} bytes): {self.error}"
        return (
            f"{where}: {path}: wrote {show(self.written)}, read {show(self.read)} "
            f"({self.size} bytes)"
        )

    def __str__(self) -> str:
        lines = self.short
        return "\n".join([self.summary(), *(f"  {line}" for line in lines)])


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
    base: Message, head: Message, versions: Versions, *, samples: int = 20, seed: int = 0
) -> list[Evidence]:
    """Evidence of every (version, direction) whose bytes do not survive the change.

    A version whose two layouts compile to the same codec (the same wire and the same
    field names) cannot differ and is skipped, so unchanged versions cost next to nothing.
    """
    return _Prover(samples, seed, skip_identical=True).run(base, head, versions)


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


def _bounded(versions: Versions) -> Versions:
    if versions.empty or versions.highest - versions.lowest < MAX_VERSIONS:
        return versions
    return versions.clip(versions.lowest + MAX_VERSIONS - 1)


_Pairs = list[tuple[LayoutField | None, LayoutField | None]]

#: Proofs made in this process, by everything a proof depends on (see ``_Prover.check``).
_PROVEN: dict[tuple[object, ...], list[Evidence]] = {}
_PROVEN_LIMIT = 20_000


@dataclass(frozen=True, slots=True)
class _Mismatch:
    path: str
    written: Any
    read: Any


class _Prover:
    def __init__(self, samples: int, seed: int, skip_identical: bool) -> None:
        self.samples = samples
        self.seed = seed
        self.skip_identical = skip_identical
        self.count = 0
        self.pairs: dict[tuple[int, int], tuple[StructLayout, StructLayout, _Pairs, bool]] = {}
        self.regroupings: dict[tuple[int, int], tuple[StructLayout, StructLayout, bool]] = {}

    def run(self, base: Message, head: Message, versions: Versions) -> list[Evidence]:
        """Evidence for every version and direction. With ``skip_identical``, a version
        whose change is the same as an earlier version's (the same fields changed the same
        way: :func:`layout_delta`) is not sampled again: it breaks the same way, and its
        evidence is the earlier version's counterexample (a change to a field present in
        ten versions costs one round of samples, not ten)."""
        found: list[Evidence] = []
        proven: dict[tuple[object, ...], list[Evidence]] = {}
        common = _bounded(versions & base.valid_versions & head.valid_versions)
        for version in common:
            base_layout, head_layout = resolve(base, version), resolve(head, version)
            delta = (
                layout_delta(base_layout.root, head_layout.root) if self.skip_identical else None
            )
            if delta is not None and delta in proven:
                found.extend(replace(e, version=version) for e in proven[delta])
                continue
            here: list[Evidence] = []
            for direction, writer, reader in (
                (BASE_TO_HEAD, base_layout, head_layout),
                (HEAD_TO_BASE, head_layout, base_layout),
            ):
                here.extend(self.check(writer, reader, direction))
            if delta is not None:
                proven[delta] = here
            found.extend(here)
        return found

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
        found = _PROVEN.get(key)
        if found is None:
            found = self._sample(writer, reader, direction)
            if len(_PROVEN) >= _PROVEN_LIMIT:
                _PROVEN.clear()
            _PROVEN[key] = found
        return list(found)

    def _sample(self, writer: Layout, reader: Layout, direction: str) -> list[Evidence]:
        writer_codec, reader_codec = codec_for(writer), codec_for(reader)
        if self.skip_identical and writer_codec.source == reader_codec.source:
            return []
        encoded: list[tuple[int, int, dict[str, Any], bytes]] = []
        for index, sample in enumerate(generate_samples(writer, self.samples, self.seed)):
            try:
                data = writer_codec.encode(sample)
            except EncodeError:
                continue  # a sample this writer cannot produce (a broken default)
            encoded.append((len(data), index, sample, data))
        encoded.sort(key=lambda item: (item[0], item[1]))
        found: dict[str, Evidence] = {}
        for _, _, sample, data in encoded:
            self.count += 1
            evidence = self.judge(writer, reader, sample, data, direction)
            if evidence is None:
                continue
            found.setdefault(evidence.field_path, evidence)
            if len(found) >= MAX_FIELDS_PER_CHECK:
                break
        return list(found.values())

    # -- comparison ----------------------------------------------------------------------
    def pair(self, writer: StructLayout, reader: StructLayout) -> tuple[_Pairs, bool]:
        """The field pairs, and whether plain ``==`` of the two values decides equality."""
        key = (id(writer), id(reader))
        entry = self.pairs.get(key)
        if entry is None or entry[0] is not writer or entry[1] is not reader:
            entry = (writer, reader, _pair_fields(writer, reader), _same_shape(writer, reader))
            self.pairs[key] = entry
        return entry[2], entry[3]

    def judge(
        self, writer: Layout, reader: Layout, written: dict[str, Any], data: bytes, direction: str
    ) -> Evidence | None:
        """Whether the reader makes of ``data`` what the writer meant by ``written``."""
        try:
            value = codec_for(reader).decode(data, java=True)
        except DecodeError as err:
            # Where the two readings part, not where reading failed (see _divergence).
            path, read = _divergence(writer, reader, data, err)
            changed = blame(writer.root, reader.root, path, direction)
            return _evidence(
                writer, direction, data, path, changed, _value_at(written, path), read, str(err)
            )
        mismatch = self.compare_struct(writer.root, reader.root, written, value, "")
        if mismatch is None:
            return None
        changed = blame(writer.root, reader.root, mismatch.path, direction)
        return _evidence(
            writer,
            direction,
            data,
            mismatch.path,
            changed,
            mismatch.written,
            mismatch.read,
            None,
        )

    def regrouped(self, writer: StructLayout, reader: StructLayout) -> bool:
        """Whether two structs are the same bytes with their untagged fields grouped
        differently (a non-nullable struct flattened, or fields gathered into one)."""
        key = (id(writer), id(reader))
        found = self.regroupings.get(key)
        if found is None or found[0] is not writer or found[1] is not reader:
            names_w = [f.name for f in writer.fields]
            names_r = [f.name for f in reader.fields]
            same = names_w != names_r and struct_shape(writer) == struct_shape(reader)
            found = (writer, reader, same and _has_inline_struct(writer, reader))
            self.regroupings[key] = found
        return found[2]

    def compare_struct(
        self,
        writer: StructLayout,
        reader: StructLayout,
        written: dict[str, Any],
        read: dict[str, Any],
        path: str,
    ) -> _Mismatch | None:
        pairs, same_shape = self.pair(writer, reader)
        if same_shape and written == read:
            return None  # same names and kinds: == is exact (a NaN takes the long way)
        if self.regrouped(writer, reader):
            # Same bytes, fields flattened or grouped differently: compare the values in
            # wire order, then the tagged fields by name as usual.
            leaves_w, leaves_r = _leaves(writer, written, path), _leaves(reader, read, path)
            for (leaf_w, item_w, _), (leaf_r, item_r, at) in zip(leaves_w, leaves_r, strict=False):
                found = self.compare(leaf_w.wire, leaf_r.wire, item_w, item_r, at)
                if found is not None:
                    return found
            pairs = [(w, r) for w, r in pairs if _tagged_pair(w, r)]
        for wlf, rlf in pairs:
            if wlf is not None and rlf is not None:
                where = join(path, wlf.name)
                mismatch = self.compare(
                    wlf.wire, rlf.wire, written.get(wlf.name), read.get(rlf.name), where
                )
            elif wlf is not None:
                if wlf.tagged:
                    continue  # the reader keeps it as an unknown tag: compatible
                item = written.get(wlf.name)
                where = join(path, wlf.name)
                mismatch = self.compare(wlf.wire, wlf.wire, item, default_value(wlf), where)
                if mismatch is not None:
                    mismatch = _Mismatch(where, item, None)
            else:
                assert rlf is not None
                item = read.get(rlf.name)
                where = join(path, rlf.name)
                mismatch = self.compare(rlf.wire, rlf.wire, default_value(rlf), item, where)
                if mismatch is not None:
                    mismatch = _Mismatch(where, None, item)
            if mismatch is not None:
                return mismatch
        return None

    def compare(
        self, writer: Wire, reader: Wire, written: Any, read: Any, path: str
    ) -> _Mismatch | None:
        if written is None or read is None:
            return None if written is None and read is None else _Mismatch(path, written, read)
        wkind, rkind = writer.kind, reader.kind
        if wkind is Kind.STRUCT and rkind is Kind.STRUCT:
            assert writer.struct is not None and reader.struct is not None
            if not isinstance(written, dict) or not isinstance(read, dict):
                return _Mismatch(path, written, read)
            return self.compare_struct(writer.struct, reader.struct, written, read, path)
        if wkind is Kind.ARRAY and rkind is Kind.ARRAY:
            assert writer.element is not None and reader.element is not None
            if not isinstance(written, list | tuple) or not isinstance(read, list | tuple):
                return _Mismatch(path, written, read)
            if len(written) != len(read):
                return _Mismatch(path, written, read)
            for index, (item_w, item_r) in enumerate(zip(written, read, strict=True)):
                mismatch = self.compare(
                    writer.element, reader.element, item_w, item_r, f"{path}[{index}]"
                )
                if mismatch is not None:
                    return mismatch
            return None
        single_w, single_r = _single_field(writer), _single_field(reader)
        if single_w is not None and isinstance(written, dict) and rkind is not Kind.STRUCT:
            inner = join(path, single_w.name)
            return self.compare(single_w.wire, reader, written.get(single_w.name), read, inner)
        if single_r is not None and isinstance(read, dict) and wkind is not Kind.STRUCT:
            inner = join(path, single_r.name)
            return self.compare(writer, single_r.wire, written, read.get(single_r.name), inner)
        return None if same_scalar(written, read) else _Mismatch(path, written, read)


def _pair_fields(
    writer: StructLayout, reader: StructLayout
) -> list[tuple[LayoutField | None, LayoutField | None]]:
    """Writer fields (wire order) with their reader counterparts, then reader-only ones."""
    by_name = {lf.name: lf for lf in reader.all_fields()}
    matched: dict[int, LayoutField | None] = {}
    used: set[int] = set()
    for lf in writer.all_fields():
        other = by_name.get(lf.name)
        if other is not None and id(other) not in used:
            matched[id(lf)] = other
            used.add(id(other))
    for index, lf in enumerate(writer.fields):  # renames: same position, both unmatched
        if id(lf) not in matched and index < len(reader.fields):
            other = reader.fields[index]
            if id(other) not in used:
                matched[id(lf)] = other
                used.add(id(other))
    reader_tags = {lf.tag: lf for lf in reader.tagged}
    for lf in writer.tagged:  # renamed tagged fields: same tag, both unmatched
        other = reader_tags.get(lf.tag)
        if id(lf) not in matched and other is not None and id(other) not in used:
            matched[id(lf)] = other
            used.add(id(other))
    pairs: list[tuple[LayoutField | None, LayoutField | None]] = [
        (lf, matched.get(id(lf))) for lf in writer.all_fields()
    ]
    pairs.extend((None, lf) for lf in reader.all_fields() if id(lf) not in used)
    return pairs


def _tagged_pair(writer: LayoutField | None, reader: LayoutField | None) -> bool:
    either = writer if writer is not None else reader
    return either is not None and either.tagged


def _has_inline_struct(writer: StructLayout, reader: StructLayout) -> bool:
    return any(is_inline(writer, f) for f in writer.fields) or any(
        is_inline(reader, f) for f in reader.fields
    )


def _leaves(
    layout: StructLayout, value: dict[str, Any], path: str
) -> list[tuple[LayoutField, Any, str]]:
    """Untagged values in wire order, with inline structs opened up (see struct_shape)."""
    out: list[tuple[LayoutField, Any, str]] = []
    for entry in layout.fields:
        item = value.get(entry.name)
        where = join(path, entry.name)
        if is_inline(layout, entry) and isinstance(item, dict) and entry.wire.struct is not None:
            out.extend(_leaves(entry.wire.struct, item, where))
        else:
            out.append((entry, item, where))
    return out


def _same_shape(writer: StructLayout, reader: StructLayout) -> bool:
    """Same field names in the same order with the same kinds, recursively.

    Then the two value dicts hold the same keys with values of the same Python types, and
    ``==`` agrees with the field-by-field comparison whenever it says "equal".
    """
    left, right = writer.all_fields(), reader.all_fields()
    if [lf.name for lf in left] != [lf.name for lf in right]:
        return False
    return all(_same_kind(a.wire, b.wire) for a, b in zip(left, right, strict=True))


def _same_kind(left: Wire, right: Wire) -> bool:
    if left.kind is not right.kind:
        return False
    if left.kind is Kind.ARRAY:
        assert left.element is not None and right.element is not None
        return _same_kind(left.element, right.element)
    if left.kind is Kind.STRUCT:
        assert left.struct is not None and right.struct is not None
        return _same_shape(left.struct, right.struct)
    return True


def _single_field(wire: Wire) -> LayoutField | None:
    """The field of a struct with exactly one (untagged) field, for the []T -> []S rule."""
    if wire.kind is not Kind.STRUCT or wire.struct is None:
        return None
    struct = wire.struct
    if len(struct.fields) == 1 and not struct.tagged:
        return struct.fields[0]
    return None


def same_scalar(written: Any, read: Any) -> bool:
    """Equal values of the same kind (bool is not int; NaN equals NaN)."""
    if isinstance(written, bytearray | memoryview):
        written = bytes(written)
    if isinstance(read, bytearray | memoryview):
        read = bytes(read)
    if type(written) is not type(read):
        return False
    if isinstance(written, float):
        return written == read or (math.isnan(written) and math.isnan(read))
    return bool(written == read)


def _divergence(writer: Layout, reader: Layout, data: bytes, error: DecodeError) -> tuple[str, Any]:
    """The first field where the reader's byte boundaries leave the writer's.

    A reader that fails usually fails later than the change that broke it (an int32 read
    as an int64 swallows the next field and fails further on), so the evidence names the
    writer's field at the first span the two readings disagree on, and what the reader
    made of those bytes. The error itself stays in the evidence.
    """
    _, written_spans, _ = decode_spans(writer, data)
    _, read_spans, _ = decode_spans(reader, data, java=True)
    for index, span in enumerate(written_spans):
        if index >= len(read_spans):
            return span.path or "(message)", None
        other = read_spans[index]
        if (span.start, span.end) != (other.start, other.end):
            read = None if other.value is NO_VALUE else other.value
            return span.path or "(message)", read
    return error.path or "(message)", None


def _value_at(value: Any, path: str) -> Any:
    """The part of a sample at a dotted path with ``[i]`` indexes (``None`` if absent)."""
    if not path:
        return None
    current = value
    for part in path.replace("[", ".[").split("."):
        if not part:
            continue
        if part.startswith("["):
            index = part[1:-1]
            if not index.isdigit() or not isinstance(current, list | tuple):
                return None
            position = int(index)
            if position >= len(current):
                return None
            current = current[position]
        elif isinstance(current, dict) and part in current:
            current = current[part]
        else:
            return None
    return current


def _evidence(
    writer: Layout,
    direction: str,
    data: bytes,
    path: str,
    changed: str,
    written: Any,
    read: Any,
    error: str | None,
) -> Evidence:
    shown = data[:MAX_HEX_BYTES].hex()
    if len(data) > MAX_HEX_BYTES:
        shown += f"...(+{len(data) - MAX_HEX_BYTES} bytes)"
    return Evidence(
        message=writer.message.name,
        version=writer.version,
        direction=direction,
        field_path=changed,
        value_path=path,
        hex=shown,
        written=written,
        read=read,
        error=error,
        size=len(data),
        writer=writer,
        data=data,
    )


# -- what changed between two layouts of one version -----------------------------------------


def layout_delta(base: StructLayout, head: StructLayout, path: str = "") -> tuple[object, ...]:
    """What differs between two layouts, named without the version: the fields added,
    removed or written differently (with their wire forms, tags, nullability and
    defaults), the order of the fields both have, and the message's flexibility on each
    side. Two versions with equal deltas changed the same way."""
    # Flexibility is part of what a change means: the same retyped field is other bytes
    # in a flexible version (compact lengths, tagged sections).
    out: list[object] = [("flexible", path, base.flexible, head.flexible)] if not path else []
    base_by_name = {f.name: f for f in base.all_fields()}
    head_by_name = {f.name: f for f in head.all_fields()}
    shared_base = [f.name for f in base.fields if f.name in head_by_name]
    shared_head = [f.name for f in head.fields if f.name in base_by_name]
    if shared_base != shared_head:
        out.append(("order", path, tuple(shared_base), tuple(shared_head)))
    for name in sorted(base_by_name.keys() | head_by_name.keys()):
        old, new = base_by_name.get(name), head_by_name.get(name)
        if old is None or new is None:
            entry = new if old is None else old
            assert entry is not None
            kind = "added" if old is None else "removed"
            out.append((kind, path, name, entry.tag, layout_signature_of(entry)))
            continue
        if _own_form(old) != _own_form(new):
            out.append(("changed", path, name, _own_form(old), _own_form(new)))
        inner_old, inner_new = _struct_inside(old.wire), _struct_inside(new.wire)
        if inner_old is not None and inner_new is not None:
            out.extend(layout_delta(inner_old, inner_new, f"{path}.{name}" if path else name))
    return tuple(out)


def _own_form(entry: LayoutField) -> tuple[object, ...]:
    wire = entry.wire
    return (entry.tag, entry.nullable, entry.default.key(), wire.type_bits, *own_shape(wire))


def layout_signature_of(entry: LayoutField) -> tuple[object, ...]:
    """A field's whole signature (its insides included), as :func:`layout_signature`."""
    holder = StructLayout("", "", (entry,), (), False)
    return layout_signature(holder)


# -- blame: the field that changed ------------------------------------------------------------


def blame(writer: StructLayout, reader: StructLayout, value_path: str, direction: str) -> str:
    """The spec path of the field whose change explains a misreading at ``value_path``.

    A reader fails or misreads where the bytes stop making sense, which is often after the
    change that caused it: a field removed from the first element of an array makes the
    next element, or a later field of the message, read the wrong bytes. So walk from the
    message down the path and, at each struct, look for the first untagged field (in wire
    order) whose bytes differ between the two sides: added, removed, moved, or written
    differently, its insides included. If it comes before the field on the path, the
    change is inside it (the deepest such field is named); otherwise go one level deeper.
    A change of flexibility is the message's own (""). Paths are the head revision's
    where a field exists on both sides.
    """
    if writer.flexible != reader.flexible:
        return ""
    names = [part for part in _INDEX.sub("", value_path).split(".") if part and part != "(message)"]
    head_is_reader = direction == BASE_TO_HEAD
    level_w, level_r = writer, reader
    for depth, name in enumerate(names):
        changed = _first_change(level_w, level_r, head_is_reader)
        position = _position(level_w, level_r, name)
        if changed is not None and (position is None or changed[0] <= position):
            return _deepest(changed[1], changed[2], head_is_reader)
        entry_w, entry_r = _named(level_w, name), _named(level_r, name)
        if entry_w is None or entry_r is None:
            return _counterpart(level_w, level_r, entry_w, entry_r, head_is_reader, names, depth)
        child_w, child_r = _struct_inside(entry_w.wire), _struct_inside(entry_r.wire)
        if (
            child_w is None
            or child_r is None
            or own_shape(entry_w.wire) != own_shape(entry_r.wire)
            or depth == len(names) - 1
        ):
            return (entry_r if head_is_reader else entry_w).path
        level_w, level_r = child_w, child_r
    changed = _first_change(level_w, level_r, head_is_reader)
    if changed is None:
        return ".".join(names)
    return _deepest(changed[1], changed[2], head_is_reader)


def _first_change(
    writer: StructLayout, reader: StructLayout, head_is_reader: bool
) -> tuple[int, LayoutField | None, LayoutField | None] | None:
    """(wire position, writer field, reader field) of the first untagged field whose bytes
    differ, or that only one side has there; renames (same slot, same bytes) and fields
    that merely moved a struct's insides into place are not changes."""
    names_w = {f.name for f in writer.fields}
    names_r = {f.name for f in reader.fields}
    for index in range(max(len(writer.fields), len(reader.fields))):
        w = writer.fields[index] if index < len(writer.fields) else None
        r = reader.fields[index] if index < len(reader.fields) else None
        if w is not None and r is not None:
            same_bytes = wire_shape(w.wire) == wire_shape(r.wire)
            if w.name == r.name and same_bytes:
                continue
            if w.name not in names_r and r.name not in names_w and same_bytes:
                continue  # a rename
            if w.name == r.name:
                return index, w, r
            if r.name not in names_w:
                return index, None, r  # added on the reader's side
            if w.name not in names_r:
                return index, w, None  # gone from the reader's side
            return (index, None, r) if head_is_reader else (index, w, None)  # moved
        return index, w, r
    return None


def _deepest(writer: LayoutField | None, reader: LayoutField | None, head_is_reader: bool) -> str:
    """The innermost field that differs inside a changed field (the field itself when it
    is added, removed, or written differently on its own)."""
    if writer is None or reader is None:
        found = reader if writer is None else writer
        assert found is not None
        return found.path
    named = reader if head_is_reader else writer
    if own_shape(writer.wire) != own_shape(reader.wire):
        return named.path
    child_w, child_r = _struct_inside(writer.wire), _struct_inside(reader.wire)
    if child_w is None or child_r is None:
        return named.path
    inner = _first_change(child_w, child_r, head_is_reader)
    if inner is None:
        return named.path
    return _deepest(inner[1], inner[2], head_is_reader)


def _counterpart(
    level_w: StructLayout,
    level_r: StructLayout,
    entry_w: LayoutField | None,
    entry_r: LayoutField | None,
    head_is_reader: bool,
    names: list[str],
    depth: int,
) -> str:
    """The path of a field only one side knows by name: for a tagged field, the field the
    other side has under the same tag, named as the head revision names it."""
    found = entry_r if entry_w is None else entry_w
    if found is None:
        return ".".join(names[: depth + 1])
    if found.tagged:
        other_level = level_w if entry_w is None else level_r
        other = next((f for f in other_level.tagged if f.tag == found.tag), None)
        if other is not None:
            head_side = (other if entry_w is not None else found) if head_is_reader else None
            if head_side is None:
                head_side = found if entry_w is not None else other
            return head_side.path
    return found.path


def _position(writer: StructLayout, reader: StructLayout, name: str) -> int | None:
    """Where a field sits among the untagged fields (writer's order), None if tagged."""
    for fields in (writer.fields, reader.fields):
        for index, entry in enumerate(fields):
            if entry.name == name:
                return index
    return None


def _named(layout: StructLayout, name: str) -> LayoutField | None:
    return next((f for f in layout.all_fields() if f.name == name), None)


def _struct_inside(wire: Wire) -> StructLayout | None:
    if wire.kind is Kind.STRUCT:
        return wire.struct
    if wire.kind is Kind.ARRAY and wire.element is not None:
        return _struct_inside(wire.element)
    return None


def _shorten(value: Any) -> Any:
    """Evidence values for JSON: long lists, strings and byte strings cut down."""
    if isinstance(value, list | tuple) and len(value) > _ITEMS_SHOWN:
        return [_shorten(item) for item in value[:_ITEMS_SHOWN]] + [
            f"... {len(value) - _ITEMS_SHOWN} more items"
        ]
    if isinstance(value, list | tuple):
        return [_shorten(item) for item in value]
    if isinstance(value, dict):
        return {key: _shorten(item) for key, item in value.items() if key != UNKNOWN_TAGS}
    if isinstance(value, str) and len(value) > 200:
        return value[:200] + "..."
    if isinstance(value, bytes | bytearray) and len(value) > 256:
        return bytes(value[:256])
    if isinstance(value, uuid.UUID):
        return value
    return value
