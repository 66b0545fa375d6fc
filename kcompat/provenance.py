"""Where this kcompat came from: its repository and the commit it was installed from.

kcompat is not on the package index: it is installed from its repository at a commit
(the README's "In CI"), so ``pip install 'kcompat[spark]'`` would fail, or install a
stranger's package should someone take the name. Advice names the line that works, and
links to a rule's page point at the commit the user runs (a rule's page at ``main``
may describe a later rule). pip records where it installed a package from in the
distribution's ``direct_url.json`` (PEP 610): a git URL and commit for
``pip install "kcompat @ git+https://...@<commit>"``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from urllib.parse import quote

#: kcompat's own repository.
REPOSITORY = "https://github.com/kcompat/kcompat"
#: What stands for the commit where it is not known.
ANY_COMMIT = "<commit>"
_SHA = re.compile(r"[0-9a-f]{40}\Z")
#: A ref as the Action's ``uses:`` pins it: a SHA, a tag or a branch (no spaces, no ``..``).
_REF = re.compile(r"[A-Za-z0-9][A-Za-z0-9._/-]{0,199}\Z")


@dataclass(frozen=True)
class Provenance:
    """A kcompat repository (a fork's, for one installed from it) and the ref it was
    installed from (None where that is not known)."""

    repository: str = REPOSITORY
    ref: str | None = None

    def rule_page(self, rule_id: str) -> str:
        """The page of rule ``rule_id`` at the ref (``main`` where it is not known)."""
        ref = quote(self.ref or "main", safe="/")
        return f"{self.repository}/blob/{ref}/rules/{quote(rule_id, safe='')}.md"

    def install_line(self, extra: str) -> str:
        """The pip command that installs kcompat with ``extra`` (the README's form)."""
        return f'pip install "kcompat[{extra}] @ git+{self.repository}@{self.ref or ANY_COMMIT}"'


#: kcompat's repository, ref unknown: rule pages at ``main``.
UNPINNED = Provenance()


def usable_ref(text: str) -> str | None:
    """``text`` if it is a ref a link may carry (a SHA, a tag), else None."""
    text = text.strip()
    return text if _REF.fullmatch(text) and ".." not in text else None


@cache
def installed() -> Provenance:
    """Where the installed kcompat came from (pip's ``direct_url.json``): its git
    repository and commit, or kcompat's repository and no commit (a local checkout,
    an editable install, or no record)."""
    from importlib import metadata

    try:
        text = metadata.distribution("kcompat").read_text("direct_url.json")
        record = json.loads(text) if text else {}
    except (metadata.PackageNotFoundError, OSError, ValueError):
        return Provenance()
    return from_direct_url(record if isinstance(record, dict) else {})


def from_direct_url(record: dict[str, object]) -> Provenance:
    """A PEP 610 record read: a git install's repository (https, ``.git`` dropped) and
    commit; anything else is kcompat's repository, commit unknown."""
    vcs = record.get("vcs_info")
    url = record.get("url")
    if not isinstance(vcs, dict) or vcs.get("vcs") != "git" or not isinstance(url, str):
        return Provenance()
    commit = vcs.get("commit_id")
    ref = commit if isinstance(commit, str) and _SHA.fullmatch(commit) else None
    repository = url.removeprefix("git+").removesuffix(".git").rstrip("/")
    if not re.fullmatch(r"https://[A-Za-z0-9.-]+/[A-Za-z0-9._/-]+", repository):
        repository = REPOSITORY  # ssh:// or a local path: no page to link to there
    return Provenance(repository, ref)
