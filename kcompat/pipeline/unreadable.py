"""A corpus whose Parquet files Spark cannot read: bad input, not a kcompat bug.

A truncated, overwritten or bit-flipped part file surfaces as a Java exception from deep
inside a Spark job (a checksum error, "not a Parquet file", a failed footer or page
read). It is said in one line naming the file and what to do, exit 2.
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Iterator

from kcompat.errors import UsageError
from kcompat.pipeline.outputs import Output

#: What Spark, Hadoop and parquet-mr say about a file that is not readable Parquet.
_CORRUPT = (
    (re.compile(r"ChecksumException|Checksum error"), "its checksum does not match"),
    (re.compile(r"is not a Parquet file|magic number|CANNOT_READ_FILE_FOOTER|footer", re.I),
     "not a Parquet file"),
    (re.compile(r"ParquetDecodingException|FAILED_READ_FILE|corrupt|Can not read value|"
                r"EOFException|decompress", re.I),
     "its data cannot be read"),
)  # fmt: skip


def corruption(location: str, text: str) -> str | None:
    """What an error's text says is wrong with a Parquet file under ``location`` (the
    part file and why), or None when it is about something else."""
    root = os.path.abspath(location) if Output.of(location).local else location
    files = re.findall(r"(?:file:)?(/?[^\s'\"\[\]]*?\.parquet)", text)
    inside = [f.removeprefix("file:") for f in files if root.rstrip("/") in f]
    if not inside:
        return None
    for pattern, why in _CORRUPT:
        if pattern.search(text):
            part = inside[0].partition(root.rstrip("/"))[2].lstrip("/")
            return f"{part}: {why}"
    return None


@contextlib.contextmanager
def reading_corpus(location: str) -> Iterator[None]:
    """Spark errors about the corpus's own Parquet files become one line, exit 2."""
    try:
        yield
    except Exception as err:
        found = corruption(location, str(err))
        if found is None:
            raise
        raise UsageError(
            f"{location}: corrupt corpus ({found}); rebuild it with kcompat corpus build"
        ) from None
