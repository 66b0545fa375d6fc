"""Making a report: an audit (read from a directory, or just computed) to an HTML file."""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

from kcompat.auditreport.load import STRANDS, AuditData, load_audit
from kcompat.auditreport.page import render_page
from kcompat.auditreport.plot import timeline_svg
from kcompat.auditreport.views import build_view
from kcompat.errors import UsageError
from kcompat.report.audit_summary import HistorySummary

#: The changelog pages ``history --changelog`` writes (a summary naming anything else,
#: a ``javascript:`` link say, is not linked).
_CHANGELOG_FILE = re.compile(r"changelog-[A-Za-z0-9._-]+\.html")


def report_html(audit: AuditData, page: Path | None = None) -> str:
    if audit.kind == STRANDS:
        from kcompat.auditreport.strands_page import render_strands

        return render_strands(audit)
    view = build_view(audit)
    return render_page(view, timeline_svg(view.timeline), changelog_links(audit, page))


def changelog_links(audit: AuditData, page: Path | None) -> list[tuple[str, str, str]]:
    """(release pair, summary, link) of each changelog ``history --changelog`` wrote,
    linked from where the page is written to where the audit is."""
    summary = audit.summary
    entries = (summary.changelogs if isinstance(summary, HistorySummary) else None) or ()
    local = "://" not in audit.source
    where = Path(audit.source)
    if local and page is not None:
        where = Path(os.path.relpath(Path(audit.source).resolve(), page.resolve().parent))
    out = []
    for entry in entries:
        name = entry.html  # a file of the audit as history names it, nothing else
        if not _CHANGELOG_FILE.fullmatch(name):
            continue
        link = f"./{(where / name).as_posix()}" if local else f"{audit.source.rstrip('/')}/{name}"
        out.append((f"{entry.base} → {entry.head}", entry.summary, link))
    return out


def require_libraries() -> None:
    """pyarrow and matplotlib (the report extra), or one line saying how to get them."""
    import importlib

    missing = []
    for name in ("pyarrow", "matplotlib"):
        try:
            importlib.import_module(name)
        except ImportError:
            missing.append(name)
    if missing:
        verb = "is" if len(missing) == 1 else "are"
        from kcompat.provenance import installed

        raise UsageError(
            f"{' and '.join(missing)} {verb} not installed: "
            f"{installed().install_line('report')} for HTML reports"
        )


def check_output(path: Path) -> None:
    """A report path that cannot be written is one line before any work is done."""
    if path.is_dir():
        raise UsageError(f"{path}: is a directory; give the report's file name (-o audit.html)")
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise UsageError(f"{path}: directory {parent} does not exist; create it first")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise UsageError(f"{path}: directory {parent} is not writable; choose another place")


def write_report(audit: AuditData, path: Path) -> int:
    """Write the report (atomically: a reader never sees half a page); its size."""
    check_output(path)
    text = report_html(audit, path).encode("utf-8")
    handle, temp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent or ".")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(text)
        os.chmod(temp, 0o644)
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    return len(text)


def report_from_directory(directory: Path, path: Path) -> tuple[AuditData, int]:
    require_libraries()
    check_output(path)
    audit = load_audit(directory)
    return audit, write_report(audit, path)
