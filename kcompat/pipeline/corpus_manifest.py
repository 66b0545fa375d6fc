"""The corpus directory as a format: its manifest, read and written, and where it is.

Layout of a corpus directory (everything a verify needs; no checkout of REV required)::

    DIR/corpus.json   the manifest: revision, label, samples, seed, counts
    DIR/samples/      Parquet: one row per sample (SAMPLE_SCHEMA)
    DIR/specs/        Parquet: REV's spec texts, by digest (for the writer's layouts)

Build and verify both go through here, so a corpus is recognised (and a foreign
directory refused) in one place.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from kcompat.errors import UsageError
from kcompat.pipeline.outputs import Output

FORMAT = "kcompat-corpus"
FORMAT_VERSION = 1
MANIFEST = "corpus.json"


def check_out(out: Output, spark: Any = None) -> None:
    """Refuse to write a corpus over a directory that holds something else."""
    if out.local and out.path.exists() and not out.path.is_dir():
        raise UsageError(f"{out}: exists and is not a directory")
    names = out.names(spark)
    if names and MANIFEST not in names:
        raise UsageError(f"{out}: not empty and not a kcompat corpus; choose another --out")


def read_manifest(corpus: Output | Path | str, spark: Any = None) -> dict[str, Any]:
    """The corpus manifest; a missing or foreign directory is one clear line. (A remote
    corpus needs ``spark``, whose FileSystem reads it.)"""
    where = corpus if isinstance(corpus, Output) else Output.of(corpus)
    names = where.names(spark)
    if names is None:
        raise UsageError(f"{where}: no such corpus directory")
    if not names:
        raise UsageError(f"{where}: empty directory, not a corpus (kcompat corpus build)")
    text = where.read_text(spark, MANIFEST) if MANIFEST in names else None
    if text is None:
        raise UsageError(
            f"{where}: not a kcompat corpus (no {MANIFEST}; build one with kcompat corpus build)"
        )
    shown = where.child(MANIFEST)
    try:
        manifest = json.loads(text)
    except ValueError as err:
        raise UsageError(f"{shown}: unreadable corpus manifest ({err})") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise UsageError(f"{shown}: not a kcompat corpus manifest")
    if manifest.get("format_version") != FORMAT_VERSION:
        raise UsageError(
            f"{shown}: corpus format {manifest.get('format_version')} is not supported "
            f"(this kcompat reads {FORMAT_VERSION}); rebuild the corpus"
        )
    for part in ("samples", "specs"):
        if part not in names:
            raise UsageError(f"{where}: incomplete corpus, {part}/ is missing; rebuild it")
    return manifest


def write_manifest(spark: Any, out: Output, manifest: dict[str, Any]) -> None:
    """Write the manifest last: its presence is what makes a directory a corpus."""
    out.write_text(spark, MANIFEST, json.dumps(manifest, indent=2) + "\n")


def shown_location(out: Output) -> Path | str:
    """How an output is named to the user: its local path, else its URI."""
    return out.path if out.local else out.location
