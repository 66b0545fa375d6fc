"""``kcompat lsp``: a language server for spec files, built on pygls.

Diagnostics as one types (lint, and on save ``diff`` against a base), hover, go to
definition and references of structs, completion, quick fixes and the outline, all from
kcompat's own parser, rules and explain. pygls is an optional dependency (the ``lsp``
extra): nothing else in kcompat imports this package.
"""
