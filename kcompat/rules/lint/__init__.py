"""Single-revision lint rules; importing this package registers them all."""

from kcompat.rules.lint import (  # noqa: F401
    corpus,
    draft,
    encoding,
    fields,
    headers,
    ignores,
    message,
    names,
    schema,
    structs,
    syntax,
    tags,
    types,
    versions,
)
