"""Compare two revisions of a set of specs: pairing, tag ledger, and the rule engine."""
