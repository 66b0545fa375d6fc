"""``kcompat drift``: :mod:`~kcompat.drift.check` pairs an upstream spec set with a local
copy and runs the drift rules (pure); :mod:`~kcompat.drift.run` reads the two sides."""
