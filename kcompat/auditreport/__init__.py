"""``kcompat report``: one self-contained HTML page from an audit's Parquet and summary.

:mod:`.load` reads an audit directory (``kcompat history`` or ``kcompat corpus verify``
output) with pyarrow, :mod:`.views` turns it into what the page shows (a timeline, the
messages that broke, findings grouped across the pairs they occur in), :mod:`.plot` draws
the timeline as SVG with matplotlib, and :mod:`.page` writes the HTML.
"""
