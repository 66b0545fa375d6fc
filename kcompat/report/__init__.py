"""Renderers: each output format is a pure function of findings."""
