"""``kcompat history --mode releases --changelog``: each release's changelog beside its
audit.

For every release pair the driver prepared, the changelog is computed on the driver
(texts in, changes out: :func:`kcompat.changelog.compute.compute` on diff's own pairing)
and its breaks are the audit's own findings for that pair, so it says exactly what the
audit found. Each is written as Markdown (release notes) and one HTML page; the summary
lists them (``changelogs``) and ``kcompat report`` links them.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence
from typing import Any

from kcompat.changelog.breaks import from_rows
from kcompat.changelog.compute import Sides, compute
from kcompat.changelog.model import summary_line
from kcompat.changelog.render_html import render_html
from kcompat.changelog.render_markdown import render_markdown
from kcompat.diff.check import paired_specs
from kcompat.diff.prepared import PreparedPair
from kcompat.pipeline.history_tasks import Texts, join_texts
from kcompat.pipeline.outputs import Output
from kcompat.report.audit_summary import ChangelogEntry
from kcompat.report.columns import AuditRow, FindingRow, Pair
from kcompat.spec.specfile import parsed_once

_UNSAFE_NAME = re.compile(r"[^A-Za-z0-9._-]+")


def file_stem(base: str, head: str) -> str:
    """``changelog-3.7.0..3.8.0``: a file name whatever characters the tags hold."""
    return "changelog-" + "..".join(_UNSAFE_NAME.sub("_", label)[:80] for label in (base, head))


def write_changelogs(
    out: Output,
    session: Any,
    rows: Sequence[dict[str, Any]],
    texts: Texts,
    findings: Sequence[AuditRow[Pair]],
) -> tuple[ChangelogEntry, ...]:
    """Write each pair's changelog into ``out``; the summary's ``changelogs`` entries."""
    by_pair: dict[int, list[FindingRow]] = {}
    for found in findings:
        by_pair.setdefault(int(found.about.pair_index), []).append(found.finding)
    entries = []
    for row in sorted(rows, key=lambda r: int(r["pair_index"])):
        prepared = PreparedPair.from_row(join_texts(row, texts))
        base, head = str(row["base_label"]), str(row["head_label"])
        with parsed_once():
            paired = paired_specs(prepared)
            sides = Sides(
                paired.pairing,
                prepared.releases,
                from_rows(by_pair.get(int(row["pair_index"]), [])),
            )
            command = " ".join(shlex.quote(w) for w in ("kcompat", "diff", base, head))
            changelog = compute(sides, base=base, head=head, diff_command=command)
        stem = file_stem(base, head)
        out.write_text(session, f"{stem}.md", render_markdown(changelog))
        out.write_text(session, f"{stem}.html", render_html(changelog))
        entries.append(
            ChangelogEntry(base, head, f"{stem}.md", f"{stem}.html", summary_line(changelog))
        )
    return tuple(entries)
