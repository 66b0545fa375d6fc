"""Rules: lint (one revision) and evolution (two revisions), as registered functions."""
