"""The rules of ``kcompat corpus verify``, registered like every other rule.

They live apart from :mod:`kcompat.pipeline.corpus_verify` so that registering them (the CLI
does it at import time, so ``kcompat rules corpus-mismatch`` works) costs no Spark,
pyarrow or codec import. Their findings come from the corpus verifier.
"""

from __future__ import annotations

from kcompat.rules.engine import Severity
from kcompat.rules.registry import Category, RuleKind, elsewhere

MISMATCH = elsewhere(
    "corpus-mismatch",
    kind=RuleKind.CORPUS,
    category=Category.PROOF,
    severity=Severity.ERROR,
    summary="Bytes stored by one revision are misread (or rejected) by another.",
    origin="kcompat.pipeline.corpus_tasks:Verifier",
)
MESSAGE_MISSING = elsewhere(
    "corpus-message-missing",
    kind=RuleKind.CORPUS,
    category=Category.MESSAGES,
    severity=Severity.WARNING,
    summary="The corpus holds bytes of a message the verifying revision does not have.",
    origin="kcompat.pipeline.corpus_verify:missing_findings",
)
VERSION_MISSING = elsewhere(
    "corpus-version-missing",
    kind=RuleKind.CORPUS,
    category=Category.VERSIONS,
    severity=Severity.WARNING,
    summary="The corpus holds bytes of a message version the verifying revision does not have.",
    origin="kcompat.pipeline.corpus_verify:missing_findings",
)

CORPUS_RULES = (MISMATCH, MESSAGE_MISSING, VERSION_MISSING)
