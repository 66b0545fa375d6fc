"""Drift rules (a vendored copy against its upstream); importing this package registers
them all."""

from kcompat.rules.drift import presence, renames, wire  # noqa: F401
