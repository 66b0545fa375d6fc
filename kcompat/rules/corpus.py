"""The rules of ``kcompat corpus verify``, registered like every other rule.

They live with the other rule families, apart from :mod:`kcompat.pipeline.corpus_verify`,
so that registering them (``kcompat rules corpus-mismatch``) costs no Spark, pyarrow or
codec import. Their findings come from the corpus verifier.
"""

from __future__ import annotations

from kcompat.findings import Severity
from kcompat.rules.registry import Category, Elsewhere, RuleKind, elsewhere

_VERIFIER = "kcompat.pipeline.corpus_tasks:Verifier"
_MISSING = "kcompat.pipeline.corpus_verify:missing_findings"

CORPUS_RULES = MISMATCH, MESSAGE_MISSING, VERSION_MISSING = elsewhere(
    RuleKind.CORPUS,
    (
        Elsewhere("corpus-mismatch", Category.PROOF, Severity.ERROR, _VERIFIER),
        "Bytes stored by one revision are misread (or rejected) by another.",
    ),
    (
        Elsewhere("corpus-message-missing", Category.MESSAGES, Severity.WARNING, _MISSING),
        "The corpus holds bytes of a message the verifying revision does not have.",
    ),
    (
        Elsewhere("corpus-version-missing", Category.VERSIONS, Severity.WARNING, _MISSING),
        "The corpus holds bytes of a message version the verifying revision does not have.",
    ),
)
