"""``kcompat lsp``: the language server for spec files, on stdin and stdout."""

from __future__ import annotations

from typing import Annotated

import typer

from kcompat.app import app, fail


@app.command(short_help="Run the language server for spec files (stdio; editors start it).")
def lsp(
    stdio: Annotated[
        bool, typer.Option("--stdio", help="Talk over stdin/stdout (the only transport).")
    ] = False,
) -> None:
    """Run the language server for spec files over stdin and stdout (LSP): diagnostics as
    you type, hover, definitions, completion and quick fixes. Needs the lsp extra."""
    try:
        from kcompat.lsp.server import serve
    except ImportError as err:
        if (err.name or "").split(".")[0] not in ("pygls", "lsprotocol"):
            raise
        from kcompat.provenance import installed

        fail(f"kcompat lsp needs pygls: {installed().install_line('lsp')}")
    raise typer.Exit(serve())
