"""A directory of spec files (or one file), read from the file system."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from kcompat.bounded import read_if_present
from kcompat.sources.confine import confine
from kcompat.sources.files import display_path, json_files
from kcompat.sources.source import SpecSource, relative_to
from kcompat.spec.load import MAX_BYTES


@dataclass(frozen=True)
class DirectorySource:
    """Every ``*.json`` under ``directory`` (only its own with ``flat``), or only the
    file ``only`` in it."""

    label: str
    directory: Path
    only: str = ""  # a single file (a plain file pair): its name inside ``directory``
    flat: bool = False  # the folder's own files, not those of its subfolders
    repo: None = None
    commit: None = None

    working_tree = False

    @property
    def whole(self) -> bool:
        return not self.only

    def read(self, path: str) -> bytes | None:
        full = self.directory / path
        confine(full, display_path(full))
        return read_if_present(full, MAX_BYTES, display_path(full))

    def paths(self, pathspecs: Sequence[str] = ()) -> list[str]:
        if self.only:
            return [self.only]
        found = json_files(self.directory, flat=self.flat)
        if self.flat:
            return [p.name for p in found]
        return [p.relative_to(self.directory).as_posix() for p in found]

    def changed_since(self, commit: str, pathspecs: Sequence[str] = ()) -> list[str] | None:
        return None

    def shown(self, path: str) -> str:
        return display_path(self.directory / path)

    def path_of(self, shown: str) -> str | None:
        return relative_to(shown, self.directory)

    def reference(self, path: str) -> str:
        return self.shown(path)

    def restricted(self, path: str) -> SpecSource:
        return replace(self, only=path)


def parse(text: str, *, folders: bool = True) -> DirectorySource | None:
    """An existing folder (when ``folders``) or file named on the command line."""
    path = Path(text)
    if folders and path.is_dir():
        return DirectorySource(text, path)
    if path.is_file():
        return DirectorySource(text, path.parent, only=path.name)
    return None
