"""An audit's git questions asked at once: the changes of every pair, the commit graph.

``kcompat history`` prepares hundreds of comparisons of one repository; asked one by
one, their git questions cost hundreds of process starts. :func:`prefetched` asks them
in two git calls and keeps the answers in the repository's :class:`GitTables`, which
answer first from then on (and travel to the preparation workers).
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterable, Mapping, Sequence

from kcompat.sources.git import CHANGES, GitRepo
from kcompat.sources.gittables import SHA, GitTables, split_by_pair


def prefetched(
    repo: GitRepo,
    pairs: Iterable[tuple[str, str]],
    pathspecs: Sequence[str],
    refs: Mapping[str, str] | None = None,
) -> GitTables:
    """What an audit of many comparisons asks git, asked once: the files each (base,
    head) pair changes, and with ``refs`` (full name -> commit) the commit graph that says
    which of them already contain each change. Kept by ``repo`` too."""
    wanted = [(b, h) for b, h in dict.fromkeys(pairs) if SHA.match(b) and SHA.match(h)]
    if wanted:
        # One line per pair, "HEAD BASE": BASE's tree against HEAD's (--always: a header
        # even when nothing differs, so the output splits by pair unambiguously).
        lines = "".join(f"{h} {b}\n" for b, h in wanted).encode("ascii")
        with tempfile.TemporaryFile() as stdin:
            stdin.write(lines)
            stdin.seek(0)
            out = repo.run_git(
                "diff-tree", "--stdin", "--always", "-r", *CHANGES, "--",
                *(pathspecs or ["."]), stdin=stdin,
            )  # fmt: skip
        found = split_by_pair(out, [h for _, h in wanted])
        for (base, head), changes in zip(wanted, found or [], strict=False):
            repo.tables.changed[(base, head, tuple(pathspecs))] = tuple(changes)
    if refs:
        tips = sorted({*(s for pair in wanted for s in pair), *refs.values()})
        out = repo.run_git("rev-list", "--parents", "--end-of-options", *tips, "--")
        for line in out.splitlines():
            commit, *parents = line.split()
            repo.tables.parents[commit] = tuple(parents)
        repo.tables.refs.update(refs)
    return repo.tables
