"""Making a report: an audit (read from a directory, or just computed) to an HTML file."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

from kcompat.auditreport.kinds import AuditData, build_view, job_kind, load_audit
from kcompat.auditreport.page import render_page
from kcompat.auditreport.plot import timeline_svg
from kcompat.errors import UsageError


def report_html(audit: AuditData[Any, Any], page: Path | None = None) -> str:
    """The page of an audit (``page``: where it is written, for links to the pages the
    audit wrote beside it)."""
    kind = job_kind(audit.kind)
    if kind.page is not None:  # a kind with a page of its own
        return kind.page(audit, page)
    view = build_view(audit)
    wide, narrow = timeline_svg(view.timeline), timeline_svg(view.timeline, narrow=True)
    return render_page(view, wide, kind.links(audit, page), narrow)


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


def write_report(audit: AuditData[Any, Any], path: Path) -> int:
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


def report_from_directory(directory: Path, path: Path) -> tuple[AuditData[Any, Any], int]:
    require_libraries()
    check_output(path)
    audit = load_audit(directory)
    return audit, write_report(audit, path)
