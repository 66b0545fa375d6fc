"""The rules of ``kcompat corpus verify``, registered like every other rule.

They live apart from :mod:`kcompat.pipeline.corpus` so that registering them (the CLI
does it at import time, so ``kcompat rules corpus-mismatch`` works) costs no Spark,
pyarrow or codec import. Findings come from the corpus verifier, not from a rule walk,
so the check functions do nothing.
"""

from __future__ import annotations

from kcompat.rules.engine import Severity, rule

MISMATCH = "corpus-mismatch"
MESSAGE_MISSING = "corpus-message-missing"
VERSION_MISSING = "corpus-version-missing"


@rule(
    MISMATCH,
    kind="corpus",
    category="proof",
    severity=Severity.ERROR,
    summary="Bytes stored by one revision are misread (or rejected) by another.",
    scope="corpus",
)
def corpus_mismatch(*_args: object) -> None:
    """Findings come from :func:`kcompat.pipeline.corpus_tasks.verify_row`."""


@rule(
    MESSAGE_MISSING,
    kind="corpus",
    category="messages",
    severity=Severity.WARNING,
    summary="The corpus holds bytes of a message the verifying revision does not have.",
    scope="corpus",
)
def corpus_message_missing(*_args: object) -> None:
    """Findings come from the driver of ``kcompat corpus verify``."""


@rule(
    VERSION_MISSING,
    kind="corpus",
    category="versions",
    severity=Severity.WARNING,
    summary="The corpus holds bytes of a message version the verifying revision does not have.",
    scope="corpus",
)
def corpus_version_missing(*_args: object) -> None:
    """Findings come from the driver of ``kcompat corpus verify``."""


CORPUS_RULES = (MISMATCH, MESSAGE_MISSING, VERSION_MISSING)
