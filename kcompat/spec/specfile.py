"""One spec file as every command sees it: its text parsed and its message built."""

from __future__ import annotations

from dataclasses import dataclass

from kcompat.spec.build import build_message
from kcompat.spec.load import Document, LoadError, load_bytes
from kcompat.spec.model import Message


@dataclass(frozen=True)
class SpecFile:
    """A file's document and message, or the reason it could not be read."""

    path: str
    document: Document | None = None
    message: Message | None = None
    error: LoadError | None = None
    raw: bytes | None = None  # the bytes of a file that could not be read as a document

    @property
    def ok(self) -> bool:
        return self.message is not None


def read_spec(path: str, data: bytes, size: int | None = None) -> SpecFile:
    """Parse and build one file; unreadable input becomes ``error``, never an exception."""
    try:
        document = load_bytes(data, path, size)
    except LoadError as err:
        return SpecFile(path, error=err, raw=data)
    return SpecFile(path, document, build_message(document))


def looks_like_spec(spec: SpecFile) -> bool:
    """A message spec (not some other JSON): its top-level object has ``validVersions``.

    Files that do not parse count too, so a broken spec is reported rather than skipped.
    """
    if spec.error is not None:
        return True
    root = spec.document.root if spec.document is not None else None
    return isinstance(root, dict) and "validVersions" in root
