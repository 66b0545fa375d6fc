"""Acceptance on real specs: Kafka compiled every one of these, so lint must find no error.

Every release branch, trunk and release tag of Kafka's spec history is read straight from
git objects (no checkout), linted as one set per ref, and must give zero errors. So must
the Kafka 4.x specs that kafka-python ships. The loader must also read every unique blob
exactly as json5 (the reference JSON5 parser) does.
"""

from __future__ import annotations

import os
import subprocess
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from kcompat.findings import Finding, Severity
from kcompat.lint.check import lint_specs
from kcompat.spec.load import LoadError, load_bytes
from kcompat.spec.specfile import SpecFile, looks_like_spec, read_spec

pytestmark = pytest.mark.corpus

#: The spec directories the history bundle holds (see ../shared/corpus/README.md).
SPEC_DIRS = (
    "clients/src/main/resources/common/message",
    "clients/src/test/resources/common/message",
    "core/src/main/resources/common/message",
    "group-coordinator/src/main/resources/common/message",
    "metadata/src/main/resources/common/metadata",
    "raft/src/main/resources/common/message",
    "share-coordinator/src/main/resources/common/message",
    "storage/src/main/resources/message",
    "streams/src/main/resources/common/message",
    "transaction-coordinator/src/main/resources/common/message",
)


@dataclass(frozen=True)
class Corpus:
    """Every spec at every ref: (path, blob id) per ref, and each blob's bytes once."""

    refs: tuple[str, ...]
    files: dict[str, list[tuple[str, str]]]
    blobs: dict[str, bytes]


def git_bytes(repo: Path, *args: str, stdin: bytes | None = None) -> bytes:
    done = subprocess.run(["git", *args], cwd=repo, input=stdin, capture_output=True, check=True)
    return done.stdout


def corpus_refs(repo: Path) -> tuple[str, ...]:
    """Release branches and trunk (origin/*, not HEAD), then the release tags."""
    names = git_bytes(
        repo, "for-each-ref", "--format=%(refname)", "refs/remotes/origin", "refs/tags"
    )
    refs = [ref for ref in names.decode().split() if ref != "refs/remotes/origin/HEAD"]
    return tuple(refs)


def spec_files(repo: Path, ref: str) -> list[tuple[str, str]]:
    """(repo-relative path, blob id) of every *.json under the spec directories at ``ref``."""
    listing = git_bytes(repo, "ls-tree", "-r", "-z", ref, "--", *SPEC_DIRS)
    files = []
    for entry in listing.split(b"\0"):
        if not entry:
            continue
        meta, path = entry.split(b"\t", 1)
        _mode, kind, blob = meta.decode().split()
        if kind == "blob" and path.endswith(b".json"):
            files.append((path.decode(), blob))
    return files


def read_blobs(repo: Path, blob_ids: list[str]) -> dict[str, bytes]:
    """Every blob's content in one ``git cat-file --batch`` process."""
    out = git_bytes(repo, "cat-file", "--batch", stdin="".join(f"{b}\n" for b in blob_ids).encode())
    blobs: dict[str, bytes] = {}
    pos = 0
    for blob_id in blob_ids:
        header_end = out.index(b"\n", pos)
        sha, kind, size_text = out[pos:header_end].decode().split()
        assert sha == blob_id and kind == "blob"
        size = int(size_text)
        blobs[blob_id] = out[header_end + 1 : header_end + 1 + size]
        pos = header_end + 1 + size + 1  # content, then a newline
    return blobs


@pytest.fixture(scope="module")
def corpus(kafka_repo: Path) -> Corpus:
    refs = corpus_refs(kafka_repo)
    files = {ref: spec_files(kafka_repo, ref) for ref in refs}
    blob_ids = sorted({blob for listing in files.values() for _path, blob in listing})
    return Corpus(refs, files, read_blobs(kafka_repo, blob_ids))


@pytest.fixture(scope="module")
def reader(corpus: Corpus) -> Callable[[str, str], SpecFile]:
    """read_spec memoised per (path, blob): most files are identical across refs."""

    @cache
    def read(path: str, blob: str) -> SpecFile:
        return read_spec(path, corpus.blobs[blob])

    return read


def test_the_corpus_has_every_ref(corpus: Corpus) -> None:
    branches = [r for r in corpus.refs if r.startswith("refs/remotes/origin/")]
    tags = [r for r in corpus.refs if r.startswith("refs/tags/")]
    assert "refs/remotes/origin/trunk" in branches
    assert len(branches) == 18  # 17 release branches (2.2 ... 3.9) and trunk
    assert len(tags) == 43
    assert len(corpus.refs) == 61
    assert len(corpus.files["refs/remotes/origin/trunk"]) == 258
    assert all(corpus.files[ref] for ref in corpus.refs)


def _describe(ref: str, finding: Finding) -> str:
    return f"{ref.rsplit('/', 1)[-1]}: {finding.location} [{finding.rule}] {finding.message}"


def test_every_ref_lints_without_errors(
    corpus: Corpus,
    reader: Callable[[str, str], SpecFile],
    record_property: Callable[[str, Any], None],
) -> None:
    errors: list[str] = []
    warnings: Counter[str] = Counter()
    refs_warned: dict[str, set[str]] = {}
    checked = 0
    for ref in corpus.refs:
        targets = [reader(path, blob) for path, blob in corpus.files[ref]]
        assert all(looks_like_spec(spec) for spec in targets), ref
        paths = {spec.path for spec in targets}
        checked += len(targets)
        for finding in lint_specs(targets):
            assert finding.location.path in paths and finding.location.line >= 1
            if finding.severity is Severity.ERROR:
                errors.append(_describe(ref, finding))
            elif finding.severity is Severity.WARNING:
                warnings[finding.rule] += 1
                refs_warned.setdefault(finding.rule, set()).add(ref)
    summary = {rule: (count, len(refs_warned[rule])) for rule, count in warnings.most_common()}
    record_property("files_checked", checked)
    record_property("warnings_per_rule", dict(warnings))
    print(f"\nlinted {checked} files at {len(corpus.refs)} refs; warnings per rule:")
    for rule, (count, ref_count) in summary.items():
        print(f"  {rule:32} {count:5}  (at {ref_count} refs)")
    assert not errors, f"{len(errors)} errors on Kafka's own specs:\n" + "\n".join(errors[:40])


def kafka_python_specs() -> Path:
    kafka = pytest.importorskip("kafka", reason="kafka-python (the dev extra) is not installed")
    assert kafka.__file__ is not None
    resources = Path(kafka.__file__).parent / "protocol" / "schemas" / "resources"
    if not resources.is_dir():
        pytest.skip(f"kafka-python has no spec resources at {resources}")
    return resources


def test_kafka_python_specs_lint_without_errors(
    record_property: Callable[[str, Any], None],
) -> None:
    resources = kafka_python_specs()
    paths = sorted(resources.glob("*.json"))
    assert len(paths) == 108
    targets = [
        read_spec(f"kafka/protocol/schemas/resources/{path.name}", path.read_bytes())
        for path in paths
    ]
    assert all(spec.ok for spec in targets)
    findings = lint_specs(targets)
    errors = [_describe("kafka-python", f) for f in findings if f.severity is Severity.ERROR]
    warnings = Counter(f.rule for f in findings if f.severity is Severity.WARNING)
    record_property("kafka_python_warnings_per_rule", dict(warnings))
    print(f"\nkafka-python's {len(targets)} specs; warnings per rule: {dict(warnings)}")
    assert not errors, "\n".join(errors)


# -- the loader against json5 -----------------------------------------------------------------


def same_value(ours: Any, theirs: Any, where: str = "$") -> Iterator[str]:
    """Differences between two JSON values, strict about types (1 is not 1.0 or True)."""
    if type(theirs) is dict:
        if not isinstance(ours, dict) or list(ours) != list(theirs):
            yield f"{where}: keys {list(ours) if isinstance(ours, dict) else ours!r} "
            return
        for key, value in theirs.items():
            yield from same_value(ours[key], value, f"{where}.{key}")
    elif type(theirs) is list:
        if not isinstance(ours, list) or len(ours) != len(theirs):
            yield f"{where}: {ours!r} != {theirs!r}"
            return
        for index, (mine, other) in enumerate(zip(ours, theirs, strict=True)):
            yield from same_value(mine, other, f"{where}[{index}]")
    elif type(ours) is not type(theirs) or ours != theirs:
        yield f"{where}: {ours!r} ({type(ours).__name__}) != {theirs!r} ({type(theirs).__name__})"


def json5_loads(text: str) -> tuple[bool, Any]:
    """(accepted, value) from json5; run in worker processes, json5 is pure Python."""
    import json5

    try:
        return True, json5.loads(text)
    except ValueError as err:
        return False, str(err)


def test_loader_matches_json5_on_every_blob(corpus: Corpus) -> None:
    pytest.importorskip("json5")
    compared = rejected = 0
    problems: list[str] = []
    texts = [data.decode("utf-8") for data in corpus.blobs.values()]
    workers = max(1, min(4, os.cpu_count() or 1))
    with ProcessPoolExecutor(workers) as pool:
        parsed = list(pool.map(json5_loads, texts, chunksize=32))
    for (blob_id, data), (accepted, expected) in zip(corpus.blobs.items(), parsed, strict=True):
        if not accepted:
            # json5 refuses it (e.g. text after the object): kcompat must notice too
            rejected += 1
            try:
                document = load_bytes(data, blob_id)
            except LoadError:
                continue
            if not document.notes:
                problems.append(f"{blob_id}: json5 rejects it, kcompat has no note")
            continue
        try:
            ours = load_bytes(data, blob_id).root
        except LoadError as err:
            problems.append(f"{blob_id}: kcompat fails at {err.pos}: {err.message}")
            continue
        compared += 1
        problems.extend(f"{blob_id} {diff}" for diff in same_value(ours, expected))
    print(f"\ncompared {compared} blobs with json5; json5 rejected {rejected}")
    assert compared > 800
    assert not problems, "\n".join(problems[:40])
