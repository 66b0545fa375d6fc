"""The audits Spark jobs write, and ``kcompat report``: one self-contained HTML page of one.

:mod:`.kinds` registers each kind of audit once (its name in ``summary.json``, its
summary, its findings table, its view); one module per kind (:mod:`.history`,
:mod:`.corpus`) says what its page shows. :mod:`.load` reads an audit directory with
pyarrow, :mod:`.views` holds what any page shows (a timeline, the messages that broke,
findings grouped across the steps they occur in), :mod:`.plot` draws the timeline as SVG
with matplotlib, and :mod:`.page` writes the HTML.
"""
