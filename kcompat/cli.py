"""The ``kcompat`` entry point: run the app; usage errors are one line and exit 2.

Ctrl-C is kcompat's own from the start (:mod:`kcompat.interrupt`): its handler is in
place before typer and the commands are imported.
"""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Sequence

from kcompat import interrupt
from kcompat.errors import UsageError, one_line
from kcompat.escaping import shown
from kcompat.streams import escape_unencodable

#: Allocations between two collections of the garbage collector's young generation in a
#: command-line process (Python's default: 700).
YOUNG_COLLECTION = 50_000


def main(argv: Sequence[str] | None = None, *, owns_process: bool = False) -> int:
    """Entry point: usage errors are one line and exit 2; bugs one line and exit 3;
    Ctrl-C one line and exit 130. ``owns_process``: see :func:`run`."""
    with interrupt.handling():
        try:
            code = _main(argv, owns_process)
        except interrupt.Interrupted:
            code = interrupt.EXIT_STATUS
        if code == interrupt.EXIT_STATUS or interrupt.requested():
            # typer's silent 130 for a KeyboardInterrupt, or an error the Ctrl-C caused
            interrupt.report()
            return interrupt.EXIT_STATUS
        return code


def _main(argv: Sequence[str] | None, owns_process: bool) -> int:
    from kcompat.app import app, completion_args
    from kcompat.commands import COMMAND_MODULES, register
    from kcompat.config import ConfigError
    from kcompat.terminal import silence_stdout

    escape_unencodable()  # a lone surrogate in a spec name is written, not a crash
    args = list(argv) if argv is not None else sys.argv[1:]
    register(args[0] if args else None)
    if owns_process:
        gc.freeze()  # what the imports made lives as long as the process: see run()
    try:
        args = completion_args(args)
        result = app(args=args, prog_name="kcompat", standalone_mode=False)
    except SystemExit as done:
        if type(sys.stdout).__name__ == "PacifyFlushWrapper":  # click met a closed stdout
            silence_stdout()  # and would exit 1: a reader that stopped is no failure
            return 0
        code = done.code
        return code if isinstance(code, int) else (0 if code is None else 1)
    except (UsageError, ConfigError) as err:
        print(f"kcompat: error: {shown(str(err))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return interrupt.EXIT_STATUS
    except BrokenPipeError:  # the reader stopped (``| head``): not a failure of kcompat
        silence_stdout()
        return 0
    except Exception as err:
        if type(err).__name__ == "NoArgsIsHelpError":  # ``kcompat`` alone: the help
            print(err.format_message(), file=sys.stderr)  # type: ignore[attr-defined]
            return 2
        if _is_usage_error(err):  # click's bad option / missing argument: one line
            command = args[0] if args and args[0] in COMMAND_MODULES else ""
            return _usage_error(err, command)
        if type(err).__name__ == "Abort" or interrupt.requested():
            return interrupt.EXIT_STATUS
        if os.environ.get("KCOMPAT_DEBUG"):  # the traceback, and still the status of a bug
            import traceback

            traceback.print_exc()
            return 3
        return _internal_error(err)
    return result if isinstance(result, int) else 0


def _usage_error(err: Exception, command: str) -> int:
    """click's bad option or missing argument: one line naming the help to read (of the
    command, or subcommand, that refused it)."""
    context = getattr(err, "ctx", None)
    path = getattr(context, "command_path", "") or (f"kcompat {command}" if command else "")
    where = f"{path or 'kcompat'} --help"
    text = err.format_message()  # type: ignore[attr-defined]
    print(f"kcompat: error: {text} (see: {where})", file=sys.stderr)
    return int(getattr(err, "exit_code", 2))


def _internal_error(err: Exception) -> int:
    """A bug: one line, and how to see the traceback."""
    print(
        f"kcompat: internal error: {type(err).__name__}: {shown(one_line(err))} "
        "(set KCOMPAT_DEBUG=1 for the traceback, and please report it)",
        file=sys.stderr,
    )
    return 3


def _is_usage_error(err: Exception) -> bool:
    """click's exceptions (typer vendors click, so match them by shape, not by import)."""
    return hasattr(err, "format_message") and hasattr(err, "exit_code")


def run() -> None:
    """The console script: the process is kcompat's, so on Ctrl-C everything it started
    is stopped before it exits 130.

    The young generation of the garbage collector is collected every 50,000 allocations,
    not every 700: imports and parsing allocate much and free little, and a pre-commit
    ``diff --staged`` spent about 8 ms of its 0.2 s in 66 collections that found next to
    nothing (now none); at most a few MB of cyclic garbage waits a little longer.

    Once the command's modules are imported, what the imports made (modules, classes,
    functions, typer's app) is frozen (``gc.freeze``): it lives until the process ends,
    so the collector stops walking it, in the young collections of the run and in the
    full one the interpreter makes at exit. That saves 13 ms of ``kcompat --version``'s
    95 and 16 ms of a lint of Kafka's 186 client specs (0.162 s), about a tenth; what the
    command itself makes is collected as before. Only here: a process that calls
    :func:`main` again and again (the tests) keeps its objects collectable.
    """
    gc.set_threshold(YOUNG_COLLECTION, *gc.get_threshold()[1:])
    with interrupt.handling(owns_process=True):
        try:
            code = main(owns_process=True)
            _flush_stdout()
        except interrupt.Interrupted:  # another Ctrl-C while the first one was reported
            code = interrupt.EXIT_STATUS
        if code == interrupt.EXIT_STATUS or interrupt.requested():
            interrupt.leave()
    sys.exit(code)


def _flush_stdout() -> None:
    """What is still buffered goes now, while a closed pipe can be told apart."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        from kcompat.terminal import silence_stdout

        silence_stdout()
