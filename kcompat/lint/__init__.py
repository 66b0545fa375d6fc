"""``kcompat lint``: :mod:`~kcompat.lint.check` runs the lint rules over spec files (pure);
:mod:`~kcompat.lint.run` reads what a request names and checks it."""
