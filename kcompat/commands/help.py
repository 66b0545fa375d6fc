"""``kcompat help [COMMAND...]``: the help of kcompat or of one of its commands, as
``git help`` gives git's: ``kcompat help diff`` is ``kcompat diff --help``. Every command
is registered for it (:func:`kcompat.commands.register`): it lists them all."""

from __future__ import annotations

from typing import Annotated

import typer

from kcompat.app import app
from kcompat.commands import COMMAND_MODULES


@app.command("help", short_help="Show the help of kcompat, or of a command.")
def help_command(
    command: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="[COMMAND]...",
            help="A command, and a subcommand (corpus verify): its help, as COMMAND --help "
            "shows it (default: kcompat's).",
            show_default=False,
            autocompletion=lambda incomplete: [
                name for name in COMMAND_MODULES if name.startswith(incomplete)
            ],
        ),
    ] = None,
) -> None:
    """Show the help of kcompat, or of a command: kcompat help diff is kcompat diff
    --help, as git help diff is git diff's."""
    code = app(args=[*(command or ()), "--help"], prog_name="kcompat", standalone_mode=False)
    raise typer.Exit(code if isinstance(code, int) else 0)
