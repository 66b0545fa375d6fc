"""Links from a report to the code it is about: the two commits compared, and each
finding's file and line at HEAD, on the forge that hosts the repository (GitHub).

A report made in CI names what a reviewer can open; one made on a laptop has no such
addresses, so every format works without this.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import quote


@dataclass(frozen=True)
class SourceLinks:
    """A repository's web address and the commits a report compared."""

    repository_url: str  # e.g. https://github.com/apache/kafka
    base_sha: str
    head_sha: str

    def commit(self, sha: str) -> str:
        return f"{self.repository_url}/commit/{quote(sha, safe='')}"

    def line(self, path: str, line: int) -> str:
        """The file at HEAD, scrolled to ``line`` (a path from a spec is percent-encoded:
        nothing in it can end the address or the Markdown link around it)."""
        return f"{self.repository_url}/blob/{quote(self.head_sha, safe='')}/{quote(path)}#L{line}"

    @staticmethod
    def short(sha: str) -> str:
        return sha[:7]


def github_repository_url(server_url: str, repository: str) -> str:
    """``https://github.com/owner/name`` from ``GITHUB_SERVER_URL`` and
    ``GITHUB_REPOSITORY``."""
    return f"{server_url.rstrip('/')}/{quote(repository)}"
