"""What the executors of ``kcompat corpus`` run: samples out of spec texts, and verdicts.

Executors have no checkout: every function here gets spec *texts* (in the rows, or in a
small table pickled into the task closure) and parses them itself, once per worker
process (Python workers are reused, so a module-level cache keyed by the text's digest
lives across tasks). Everything is pure: the same rows give the same output anywhere.

* :func:`build_batches` turns one row per (message, version) into the corpus: seeded
  samples from :func:`kcompat.codec.samples.generate_samples`, their JSON form and
  their bytes from the compiled codec.
* :func:`verify_batches` decodes each stored byte string with the verifying revision's
  layout and compares it with the stored value by the round-trip proof's rules
  (:mod:`kcompat.codec.proof`): fields matched by name, a field only one side knows must
  hold its default, tagged fields only the writer knows are dropped as unknown tags.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from kcompat.auditreport.corpus import FINDINGS
from kcompat.findings import Finding
from kcompat.report.columns import AuditRow, FindingRow, Sample, arrow_schema
from kcompat.rules.corpus import MISMATCH
from kcompat.spec.specfile import SpecFile, enable_parse_cache, read_spec
from kcompat.spec.versions import Versions

#: Columns of the corpus (``DIR/samples``).
SAMPLE_SCHEMA = (
    "message string, api_key int, type string, version int, sample_id int, seed long, "
    "value string, bytes binary, revision string, revision_label string, spec_digest string"
)
#: Columns of the build's input: one row per (message, version).
VERSION_SCHEMA = (
    "message string, path string, api_key int, type string, version int, text binary, "
    "spec_digest string, revision string, revision_label string, cost long"
)
#: ``kcompat corpus verify``'s findings (``DIR2/findings``): the finding's own columns,
#: then the sample it is about.
TABLE = FINDINGS
FINDING_SCHEMA = TABLE.ddl

#: Sample-specific parts of a path: array indexes, and tags a decoder met (``.<tag 7>``).
_SPECIFIC = re.compile(r"\[\d+\]|\.?<[^>]*>")


def parsed(path: str, text: bytes) -> SpecFile:
    """``read_spec`` through the process's parse cache (a worker meets the same few
    revisions' files for every sample)."""
    enable_parse_cache()
    return read_spec(path, bytes(text))


# -- build ------------------------------------------------------------------------------


def sample_rows(row: dict[str, Any], samples: int, seed: int) -> Iterator[dict[str, Any]]:
    """The corpus rows of one (message, version): every sample the layout can encode.

    A sample the writer cannot encode (a spec whose default does not fit its type) is
    left out, as the proof leaves it out; its ``sample_id`` is then missing from the
    corpus, and the build summary counts it.
    """
    from kcompat.codec.codec import codec_for
    from kcompat.codec.errors import EncodeError
    from kcompat.codec.jsonform import to_json
    from kcompat.codec.samples import generate_samples
    from kcompat.spec.resolve import resolve

    spec = parsed(row["path"], row["text"])
    if spec.message is None:
        return
    layout = resolve(spec.message, int(row["version"]))
    codec = codec_for(layout)
    for index, value in enumerate(generate_samples(layout, samples, seed)):
        try:
            data = codec.encode(value)
        except EncodeError:
            continue
        yield {
            "message": row["message"],
            "api_key": row["api_key"],
            "type": row["type"],
            "version": row["version"],
            "sample_id": index,
            "seed": seed,
            "value": json.dumps(
                to_json(layout, value), ensure_ascii=False, separators=(",", ":"), allow_nan=False
            ),
            "bytes": data,
            "revision": row["revision"],
            "revision_label": row["revision_label"],
            "spec_digest": row["spec_digest"],
        }


def build_batches(samples: int, seed: int) -> Callable[[Iterator[Any]], Iterator[Any]]:
    """The ``mapInArrow`` function of ``corpus build``: versions in, sample batches out."""

    def run(batches: Iterator[Any]) -> Iterator[Any]:
        import pyarrow as pa

        schema = arrow_schema(SAMPLE_SCHEMA)
        for batch in batches:
            for row in batch.to_pylist():
                out = list(sample_rows(row, samples, seed))
                if out:
                    yield pa.RecordBatch.from_pylist(out, schema=schema)

    return run


# -- verify -----------------------------------------------------------------------------


@dataclass(frozen=True)
class VerifyContext:
    """What every verify task needs besides the samples (pickled into the closure).

    ``writers``: spec digest -> (path, text) of the revision that built the corpus;
    ``readers``: message name -> (path, text) at the verifying revision; ``released``:
    spec digest -> the versions the writing revision had released (others were still
    unstable there, so a mismatch in them is a warning).
    """

    writer_label: str
    reader_label: str
    writers: dict[str, tuple[str, bytes]]
    readers: dict[str, tuple[str, bytes]]
    released: dict[str, str] = field(default_factory=dict)


class Verifier:
    """Decode and compare, with parsed specs and the proof's field pairing cached."""

    def __init__(self, context: VerifyContext) -> None:
        from kcompat.codec.proof import Judge

        self.context = context
        self.judge = Judge()

    def writer(self, digest: str) -> SpecFile | None:
        entry = self.context.writers.get(digest)
        return parsed(entry[0], entry[1]) if entry is not None else None

    def reader(self, name: str) -> SpecFile | None:
        entry = self.context.readers.get(name)
        if entry is None:
            return None
        return parsed(entry[0], entry[1])

    def check(self, row: dict[str, Any]) -> AuditRow[Sample] | None:
        """The finding row of one stored sample, or None when the reader agrees.

        Samples of messages or versions the reader does not have are skipped here; the
        driver reports those once per message.
        """
        from kcompat.codec.errors import CodecBug
        from kcompat.codec.jsonform import from_json
        from kcompat.spec.resolve import resolve

        writer_spec = self.writer(row["spec_digest"])
        reader_spec = self.reader(row["message"])
        if writer_spec is None or writer_spec.message is None:
            return self.internal(row, "the corpus has no spec text with this digest")
        if reader_spec is None or reader_spec.message is None:
            return None
        version = int(row["version"])
        if version not in reader_spec.message.valid_versions:
            return None
        writer = resolve(writer_spec.message, version)
        reader = resolve(reader_spec.message, version)
        data = bytes(row["bytes"])
        try:
            written = from_json(writer, json.loads(row["value"]))
        except (ValueError, TypeError) as err:
            return self.internal(row, f"the stored value does not read back: {err}")
        direction = f"{self.context.writer_label}->{self.context.reader_label}"
        try:
            evidence = self.judge(writer, reader, written, data, direction)
        except CodecBug as err:
            return self.internal(row, str(err))
        return None if evidence is None else self.finding(row, writer, reader, data, evidence)

    def finding(
        self, row: dict[str, Any], writer: Any, reader: Any, data: bytes, evidence: Any
    ) -> AuditRow[Sample]:
        from kcompat.codec.annotate import show
        from kcompat.findings import Location, Severity

        context = self.context
        version = writer.version
        released = Versions.parse(context.released.get(row["spec_digest"], "none"))
        is_released = version in released
        path, written, read, error = (
            evidence.value_path,
            evidence.written,
            evidence.read,
            evidence.error,
        )
        path = "" if path == "(message)" else path
        where = path or "the message"
        sample = f"sample {row['sample_id']}, {len(data)} bytes"
        if error is not None:
            text = (
                f"{context.reader_label} cannot read {writer.message.name} v{version} as "
                f"{context.writer_label} wrote it ({sample}): {error}"
            )
        else:
            text = (
                f"{context.reader_label} misreads {where} of {writer.message.name} v{version} "
                f"as {context.writer_label} wrote it: wrote {show(written)}, read {show(read)} "
                f"({sample})"
            )
        if not is_released:
            text += f"; v{version} was not released at {context.writer_label}"
        field_path = _SPECIFIC.sub("", path)
        line, column = _position(reader.message, field_path)
        base_line, _ = _position(writer.message, field_path)
        finding = Finding(
            MISMATCH,
            Severity.ERROR if is_released else Severity.WARNING,
            text,
            Location(reader.message.path, line, column),
            hint=(
                "the bytes below were stored by the corpus revision; a reader at the "
                "verifying revision makes something else of them"
            ),
            message_name=writer.message.name,
            field_path=field_path,
            versions=Versions.of(version, version),
            base_location=Location(writer.message.path, base_line, 1),
            evidence=evidence,
            released_by=context.writer_label if is_released else "",
        )
        return self.row_of(finding, row)

    def internal(self, row: dict[str, Any], reason: str) -> AuditRow[Sample]:
        from kcompat.findings import Location, Severity

        finding = Finding(
            "internal-error",
            Severity.ERROR,
            f"kcompat failed on sample {row['sample_id']} of {row['message']} "
            f"v{row['version']}: {reason}",
            Location(row["message"]),
            message_name=row["message"],
            versions=Versions.of(int(row["version"]), int(row["version"])),
        )
        return self.row_of(finding, row)

    def row_of(self, finding: Finding, row: dict[str, Any]) -> AuditRow[Sample]:
        sample = Sample(
            row["version"],
            row["sample_id"],
            row["spec_digest"],
            self.context.writer_label,
            self.context.reader_label,
        )
        return AuditRow(FindingRow.of(finding), sample)


def verify_batches(context: VerifyContext) -> Callable[[Iterator[Any]], Iterator[Any]]:
    """The ``mapInArrow`` function of ``corpus verify``: samples in, findings out."""

    def run(batches: Iterator[Any]) -> Iterator[Any]:
        verifier = Verifier(context)
        for batch in batches:
            out: list[AuditRow[Sample]] = []
            for row in batch.to_pylist():
                try:
                    found = verifier.check(row)
                except Exception as err:  # a kcompat bug on one sample must not stop the run
                    found = verifier.internal(row, f"{type(err).__name__}: {err}")
                if found is not None:
                    out.append(found)
            if out:
                yield TABLE.batch(out)

    return run


# -- helpers ----------------------------------------------------------------------------


def _position(message: Any, field_path: str) -> tuple[int, int]:
    """Line and column of a field (or its closest enclosing one, or the message)."""
    from kcompat.findings import position_of

    fields = dict(message.walk())
    path = field_path
    while path:
        found = fields.get(path)
        if found is not None and found.node is not None:
            return position_of(found.node, "name")
        path = path.rpartition(".")[0]
    return position_of(message.node, "name") if message.node is not None else (1, 1)
