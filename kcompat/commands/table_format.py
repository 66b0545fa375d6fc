"""``--format`` of the commands that print tables (``rules``, ``history``, ``corpus
verify``), declared once, from the tables' format registry."""

from __future__ import annotations

from typing import Annotated

from kcompat.app import format_option
from kcompat.report.tables import TableFormat

TableFormatOption = Annotated[TableFormat, format_option(TableFormat)]
