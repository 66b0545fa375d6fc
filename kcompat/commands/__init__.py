"""One module per command; :func:`register` imports the ones a run needs.

Importing a command module registers it on the app. A run registers only the command it
invokes, so ``kcompat diff --staged`` (a pre-commit hook) does not import, nor make typer
build the options of, eight other commands; ``--help``, ``kcompat help`` and unknown
commands get them all.
"""

from __future__ import annotations

import importlib

#: command name -> the module that defines it
#: (in the order ``kcompat --help`` lists them: the everyday ones first)
COMMAND_MODULES: dict[str, str] = {
    "lint": "lint",
    "diff": "diff",
    "explain": "explain",
    "changelog": "changelog",
    "matrix": "matrix",
    "strands": "strands",
    "drift": "drift",
    "rules": "rules",
    "encode": "codec",
    "decode": "codec",
    "history": "history",
    "corpus": "corpus",
    "report": "report",
    "lsp": "lsp",
    "help": "help",
}


def register(command: str | None = None) -> None:
    """Register one command's module, or every command when ``command`` is not one."""
    modules = (
        [COMMAND_MODULES[command]]
        if command in COMMAND_MODULES and command != "help"  # help lists them all
        else list(dict.fromkeys(COMMAND_MODULES.values()))
    )
    for module in modules:
        importlib.import_module(f"kcompat.commands.{module}")


def register_all() -> None:
    register(None)
