"""One module per command; importing this package registers them on the app."""

from kcompat.commands import codec, corpus, diff, drift, explain, history, lint, rules  # noqa: F401
