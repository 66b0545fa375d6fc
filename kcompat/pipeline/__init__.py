"""Batch audits on Apache Spark: the core's pure functions mapped over rows of texts."""
