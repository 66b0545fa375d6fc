"""``kcompat matrix``: which client release can talk to which broker release, API by API."""
