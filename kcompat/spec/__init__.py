"""The spec model: load text, build immutable messages, resolve wire layouts per version."""
