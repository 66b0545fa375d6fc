"""Evolution (diff) rules; importing this package registers them all."""

from kcompat.rules.evolution import fields, messages, tags, unreadable, versions  # noqa: F401
