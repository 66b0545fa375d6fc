"""Where an audit writes: a local directory, or any URI Spark can write (hdfs://, s3a://).

On a cluster the executors write the Parquet, so ``--out`` must be storage they share
with the driver; the small files the driver writes itself (``summary.json``, a corpus's
``corpus.json``) then go through Hadoop's FileSystem API of the same session, or over
Spark Connect (no JVM in this process) through DataFrames: such a file is then a
one-file text dataset of that name. Locally everything is plain files. (``pathlib``
would fold ``hdfs://host/x`` into ``hdfs:/host/x``, so locations are kept as text.)
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kcompat.errors import UsageError
from kcompat.pipeline.sparkapi import is_connect

_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://")


@dataclass(frozen=True)
class Output:
    """A directory given on the command line: local, or a URI."""

    location: str

    @staticmethod
    def of(where: str | Path) -> Output:
        return Output(str(where).rstrip("/") or "/")

    @property
    def local(self) -> bool:
        """A plain path (a ``file://`` URI goes through Hadoop like any other URI)."""
        return not _SCHEME.match(self.location)

    @property
    def path(self) -> Path:
        """The local directory (only for :attr:`local` outputs)."""
        return Path(self.location)

    def child(self, name: str) -> str:
        """The location of ``name`` inside, as Spark's readers and writers take it."""
        return str(self.path / name) if self.local else f"{self.location}/{name}"

    def require_writable(self) -> None:
        """A local directory is created now and must be writable: a bad ``--out`` is one
        line before Spark starts, not a failed job's Java stack trace at the end.
        (A remote location is Spark's to check.)"""
        if not self.local:
            return
        path = self.path
        if path.exists() and not path.is_dir():
            raise UsageError(f"{path}: exists and is not a directory; choose another --out")
        try:
            path.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            reason = err.strerror or type(err).__name__
            raise UsageError(f"{path}: cannot create it ({reason}); choose another --out") from None
        if not os.access(path, os.W_OK | os.X_OK):
            raise UsageError(f"{path}: not writable; choose another --out")

    def readable(self, name: str) -> str:
        """:meth:`child` for Spark's readers, which expand glob patterns: ``[``, ``*``
        and the like in a directory's name are escaped so that they match themselves."""
        return glob_escaped(self.child(name))

    def __str__(self) -> str:
        return self.location

    # -- small files the driver writes itself ------------------------------------------
    def write_text(self, spark: Any, name: str, text: str) -> None:
        if self.local:
            self.path.mkdir(parents=True, exist_ok=True)
            (self.path / name).write_text(text, encoding="utf-8")
            return
        if is_connect(spark):  # no JVM at hand: a one-file text dataset named ``name``
            frame = spark.createDataFrame([(text,)], "value string").coalesce(1)
            frame.write.mode("overwrite").text(self.child(name))
            return
        fs, path = _hadoop(spark, self.child(name))
        stream = fs.create(path, True)
        try:
            stream.write(bytearray(text.encode("utf-8")))
        finally:
            stream.close()

    def read_text(self, spark: Any, name: str) -> str | None:
        """The file's text, or None if it does not exist."""
        if self.local:
            try:
                return (self.path / name).read_text(encoding="utf-8")
            except (FileNotFoundError, NotADirectoryError, IsADirectoryError):
                return None
        if is_connect(spark):
            if name not in (self.names(spark) or []):
                return None
        else:
            fs, path = _hadoop(spark, self.child(name))
            if not fs.exists(path):
                return None
        rows = spark.read.text(self.readable(name), wholetext=True).collect()
        return str(rows[0][0]) if rows else ""

    def names(self, spark: Any) -> list[str] | None:
        """The entries of the directory, or None if it does not exist."""
        if self.local:
            if not self.path.is_dir():
                return None if not self.path.exists() else []
            return sorted(p.name for p in self.path.iterdir())
        if is_connect(spark):
            return _names_through_spark(spark, self.location)
        fs, path = _hadoop(spark, self.location)
        if not fs.exists(path):
            return None
        return sorted(status.getPath().getName() for status in fs.listStatus(path))


_GLOB = re.compile(r"([\\*?\[\]{}])")


def glob_escaped(location: str) -> str:
    """``location`` with Hadoop's glob metacharacters escaped by a backslash."""
    return _GLOB.sub(r"\\\1", location)


def _names_through_spark(spark: Any, location: str) -> list[str] | None:
    """The entries of a directory, listed by a Spark job (over Spark Connect there is no
    FileSystem to ask): every file below it, by its first path component. Spark skips
    ``_``- and ``.``-files, which kcompat never needs to see."""
    from urllib.parse import urlparse

    try:
        files = (
            spark.read.format("binaryFile")
            .option("recursiveFileLookup", "true")
            .load(glob_escaped(location))
            .select("path")
            .collect()
        )
    except Exception as err:  # Spark's AnalysisException: the directory does not exist
        if "PATH_NOT_FOUND" in str(err) or "does not exist" in str(err):
            return None
        raise
    base = urlparse(location).path.rstrip("/") + "/"
    names = set()
    for row in files:
        path = urlparse(str(row["path"])).path
        if path.startswith(base):
            names.add(path[len(base) :].split("/", 1)[0])
    return sorted(names)


def _hadoop(spark: Any, location: str) -> tuple[Any, Any]:
    """Hadoop's FileSystem and Path for a location (classic Spark sessions)."""
    jvm = spark.sparkContext._jvm
    path = jvm.org.apache.hadoop.fs.Path(location)
    return path.getFileSystem(spark.sparkContext._jsc.hadoopConfiguration()), path
