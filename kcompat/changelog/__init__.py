"""``kcompat changelog``: what a change or a release does to the protocol.

Pure at the core: :mod:`~kcompat.changelog.compute` turns two sides' spec files, the
released-version policy and diff's findings into an immutable
:class:`~kcompat.changelog.model.Changelog`; one module per format renders it;
:mod:`~kcompat.changelog.run` is the I/O edge (the same sides, configuration and release
ledger as ``kcompat diff``).
"""
