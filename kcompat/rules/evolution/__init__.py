"""Evolution (diff) rules; importing this package registers them all."""

from kcompat.rules.evolution import (  # noqa: F401
    fields,
    headers,
    messages,
    proof,
    reorder,
    responses,
    tags,
    unreadable,
    versions,
)
