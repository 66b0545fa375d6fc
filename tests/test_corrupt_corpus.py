"""Which Spark errors mean a corrupt corpus (bad input, exit 2), not a kcompat bug."""

from __future__ import annotations

import pytest

from kcompat.errors import UsageError
from kcompat.pipeline.unreadable import corruption, reading_corpus

CORPUS = "/data/corpus"
PART = "part-00001-dfdd-c000.snappy.parquet"


@pytest.mark.parametrize(
    ("text", "why"),
    [
        (
            "org.apache.hadoop.fs.ChecksumException: Checksum error: "
            f"file:{CORPUS}/samples/{PART} at 0 exp: -2096718657 got: -1419454896",
            "its checksum does not match",
        ),
        (
            f"java.lang.RuntimeException: file:{CORPUS}/samples/{PART} is not a Parquet file "
            "(length is too low: 8)",
            "not a Parquet file",
        ),
        (
            "[FAILED_READ_FILE.NO_HINT] Encountered error while reading file "
            f"file:///{CORPUS.lstrip('/')}/samples/{PART}. SQLSTATE: KD001\n"
            "Caused by: org.apache.parquet.io.ParquetDecodingException: Can not read value",
            "its data cannot be read",
        ),
    ],
)
def test_what_spark_says_about_a_damaged_part_file(text: str, why: str) -> None:
    assert corruption(CORPUS, text) == f"samples/{PART}: {why}"


def test_errors_about_other_files_or_other_things_are_not_corruption() -> None:
    elsewhere = f"ChecksumException: Checksum error: file:/tmp/out/findings/{PART} at 0"
    assert corruption(CORPUS, elsewhere) is None
    assert corruption(CORPUS, "java.lang.OutOfMemoryError: Java heap space") is None


def test_reading_a_corrupt_corpus_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match=r"^/data/corpus: corrupt corpus \(samples/"), \
            reading_corpus(CORPUS):  # fmt: skip
        raise RuntimeError(f"file:{CORPUS}/samples/{PART} is not a Parquet file")
    with pytest.raises(RuntimeError), reading_corpus(CORPUS):
        raise RuntimeError("something else entirely")
