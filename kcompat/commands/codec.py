"""``kcompat encode`` / ``kcompat decode``: a message value to bytes and back.

The value is JSON in the form :mod:`kcompat.codec.jsonform` documents (bytes as base64,
uuids in Kafka's 22-character form). Exit status: 0 done, 1 the value or the bytes do not
fit the message at that version (one line naming the field, and for bytes the offset),
2 bad usage (unknown message, version, unreadable or oversized input).

``decode`` reads strictly by default; ``--java`` reads as Kafka's generated Java readers
do (:mod:`kcompat.codec.java`). Memory is bounded: the input is capped (``--max-bytes``,
2 MiB by default, room for Kafka's default largest message: a message of tiny structs
costs a couple of hundred bytes of Python objects per byte), the annotated dump is
streamed as it is read, and the JSON is printed without a second copy of the value.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from kcompat.app import ConfigOption, MessageKind, MessageKindOption, app
from kcompat.completion import message_names
from kcompat.errors import UsageError

MessageArgument = Annotated[
    str,
    typer.Argument(
        metavar="MESSAGE",
        help="The message, found as explain finds it: its name (FetchRequest, fetchrequest), "
        "a name without Request/Response with --type (Fetch -t request), or an API key "
        "number with --type (1 -t response).",
        show_default=False,
        autocompletion=message_names,
    ),
]
VersionOption = Annotated[int, typer.Option("--version", metavar="N", help="The message version.")]
SpecsOption = Annotated[
    list[str] | None,
    typer.Option(
        "--specs",
        metavar="PATH",
        help="A spec file or directory to find the message in (repeatable; default: the "
        "configured paths, or the current directory).",
    ),
]

_HEX_TEXT = re.compile(rb"\A\s*(?:0x)?[0-9a-fA-F\s:]*\Z")

#: The largest message ``decode`` reads unless told otherwise (``--max-bytes``).
DEFAULT_MAX_BYTES = "2MiB"
#: The largest JSON value ``encode`` reads.
MAX_JSON_BYTES = 64 * 1024 * 1024
_SIZE = re.compile(r"\A\s*(\d+)\s*([kKmMgG]i?[bB]?)?\s*\Z")
_UNITS = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30}


@app.command(short_help="A JSON value to the message's bytes at a version.")
def encode(
    message: MessageArgument,
    version: VersionOption,
    source: Annotated[
        str,
        typer.Argument(
            metavar="FILE", help="A JSON file holding the value, or - for standard input."
        ),
    ] = "-",
    raw: Annotated[bool, typer.Option("--raw", help="Write raw bytes, not hex.")] = False,
    specs: SpecsOption = None,
    kind: MessageKindOption = None,
    config_file: ConfigOption = None,
) -> None:
    """Encode a JSON value as the message's bytes at a version (printed as hex)."""
    from kcompat.codec import EncodeError
    from kcompat.codec.codec import codec_for_uses
    from kcompat.codec.jsonform import from_json
    from kcompat.jsontext import load_json
    from kcompat.spec.resolve import resolve

    found = _find_message(message, kind, version, specs, config_file)
    text = _read_input(source, MAX_JSON_BYTES)
    data = load_json(text, _label(source), "give a value as kcompat decode prints it")
    layout = resolve(found, version)
    try:
        value = from_json(layout, data)
        # one use: a layout of thousands of fields is not worth compiling
        encoded = codec_for_uses(layout, 1, _code_cache()).encode(value)
    except EncodeError as err:
        _codec_failure(f"cannot encode {found.name} v{version}: {err}")
    if raw:
        sys.stdout.buffer.write(encoded)
        sys.stdout.buffer.flush()
    else:
        sys.stdout.write(encoded.hex() + "\n")


@app.command(short_help="The message's bytes at a version to a JSON value.")
def decode(
    message: MessageArgument,
    version: VersionOption,
    data: Annotated[
        str,
        typer.Argument(
            metavar="DATA",
            help="The bytes as hex, or @FILE (raw bytes, or hex text) or @- (standard input).",
        ),
    ],
    specs: SpecsOption = None,
    annotate: Annotated[
        bool,
        typer.Option(
            "--annotate", help="Print an annotated hex dump (each field's bytes) instead of JSON."
        ),
    ] = False,
    java: Annotated[
        bool,
        typer.Option(
            "--java",
            help="Read as Kafka's generated Java readers do, not strictly: bytes after the "
            "message are ignored, invalid UTF-8 becomes U+FFFD, a negative length is null, a "
            "known tagged field is read by its type whatever size it declares, repeated tags "
            "are kept.",
        ),
    ] = False,
    max_bytes: Annotated[
        str,
        typer.Option(
            "--max-bytes",
            metavar="SIZE",
            help="The largest message to read, in bytes or with a unit (KiB, MiB, GiB).",
        ),
    ] = DEFAULT_MAX_BYTES,
    kind: MessageKindOption = None,
    config_file: ConfigOption = None,
) -> None:
    """Decode the message's bytes at a version and print the value as JSON."""
    from kcompat.codec import DecodeError
    from kcompat.codec.codec import codec_for_uses
    from kcompat.codec.jsonform import iter_json
    from kcompat.spec.resolve import resolve

    limit = _parse_size(max_bytes)
    found = _find_message(message, kind, version, specs, config_file)
    payload = _read_bytes(data, limit)
    if annotate:
        from kcompat.codec.annotate import write_annotation

        error = write_annotation(resolve(found, version), payload, sys.stdout.write, java=java)
        if error is not None:
            sys.stdout.flush()
            _codec_failure(f"cannot decode {found.name} v{version}: {error}")
        return
    try:
        layout = resolve(found, version)
        value = codec_for_uses(layout, 1, _code_cache()).decode(payload, java=java)
    except DecodeError as err:
        _codec_failure(f"cannot decode {found.name} v{version}: {err}")
    from kcompat.escaping import json_safe

    for chunk in iter_json(resolve(found, version), value):
        sys.stdout.write(json_safe(chunk))
    sys.stdout.write("\n")


def _code_cache() -> Any:
    """Where compiled codecs are kept for the next run (None: no cache)."""
    from kcompat.cache import user_cache

    cache = user_cache()
    return cache.code if cache is not None else None


def _codec_failure(message: str) -> Any:
    from kcompat.escaping import shown

    print(f"kcompat: error: {shown(message)}", file=sys.stderr)
    raise typer.Exit(1)


def _find_message(
    query: str,
    kind: MessageKind | None,
    version: int,
    specs: list[str] | None,
    config_file: Path | None,
) -> Any:
    """The one message ``query`` names (as ``explain`` resolves names), with ``version``."""
    from kcompat.config import load_config
    from kcompat.explain.find import FileSource, find_messages
    from kcompat.rules.registry import rule_categories
    from kcompat.sources.spec_paths import SpecPaths

    config = load_config(explicit=config_file, rules=rule_categories)
    chosen = list(specs or [])
    if not chosen:
        chosen = SpecPaths.of(config).roots() or ["."]
    found = find_messages(FileSource(chosen), query, kind.value if kind is not None else None)
    if len(found) > 1:
        names = " and ".join(item.message.name for item in found)
        kinds = " or ".join(dict.fromkeys(item.message.kind for item in found))
        raise UsageError(f"{query!r} names {names}: pick one with --type {kinds}")
    message = found[0].message
    if version not in message.valid_versions:
        raise UsageError(
            f"{message.name} has no version {version} (valid versions: {message.valid_versions})"
        )
    return message


def _label(source: str) -> str:
    return "standard input" if source == "-" else source


def _parse_size(text: str) -> int:
    """``--max-bytes``: a count of bytes, or with a binary unit (``512KiB``, ``16M``)."""
    match = _SIZE.match(text)
    if match is None or int(match.group(1)) == 0:
        raise UsageError(
            f"--max-bytes {text!r}: expected a positive number of bytes, like 1048576 or 16MiB"
        )
    unit = match.group(2)
    return int(match.group(1)) * (_UNITS[unit[0].lower()] if unit else 1)


def _size_text(size: int) -> str:
    for unit, name in ((1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")):
        if size >= unit and size % unit == 0:
            return f"{size // unit} {name}"
    return f"{size} bytes"


def _read_input(source: str, limit: int, what: str = "the JSON value") -> bytes:
    """The bytes of a file or of standard input (``-``), refused beyond ``limit``."""
    content = _read_capped(source, limit, what)
    if content is None:
        raise UsageError(f"{_label(source)}: more than {_size_text(limit)}; too large to read")
    return content


def _read_capped(source: str, limit: int, what: str) -> bytes | None:
    """At most ``limit`` bytes of a file or of standard input; ``None`` if there are more
    (reading stops there, so a device or an endless pipe costs no more). Standard input
    says so when it is a terminal (the command waits for typing), and empty input is an
    error, not an empty value."""
    try:
        if source == "-":
            content = _read_stdin(limit + 1, what)
        else:
            with Path(source).open("rb") as stream:
                content = stream.read(limit + 1)
    except OSError as err:
        raise UsageError(f"{source}: cannot read ({err.strerror or err})") from None
    return None if len(content) > limit else content


def _read_stdin(size: int, what: str) -> bytes:
    if sys.stdin is None:
        raise UsageError(f"no standard input to read {what} from: give a file")
    if sys.stdin.isatty():
        print(
            f"kcompat: reading {what} from standard input (end with Ctrl-D; or give a file)",
            file=sys.stderr,
        )
    content = sys.stdin.buffer.read(size)
    if not content.strip():
        raise UsageError(f"standard input is empty: pipe {what} in, or give a file")
    return content


def _read_bytes(argument: str, limit: int) -> bytes:
    """Hex on the command line, or ``@FILE``: raw bytes unless the file is all hex text.

    At most ``limit`` bytes of message (its hex text may take three characters a byte).
    """
    over = f"over the limit of {_size_text(limit)} (--max-bytes raises it)"
    if argument.startswith("@"):
        source = argument[1:] or "-"
        content = _read_capped(source, 3 * limit + 64, "the bytes")
        if content is None:
            raise UsageError(f"{_label(source)}: a message {over}")
        if content.strip() and _HEX_TEXT.match(content):
            payload = _parse_hex(content.decode("ascii"), argument)
        else:
            payload = content
        where = _label(source)
    else:
        payload = _parse_hex(argument, "the argument")
        where = "the argument"
    if len(payload) > limit:
        raise UsageError(f"{where}: a message of {len(payload)} bytes is {over}")
    return payload


def _parse_hex(text: str, where: str) -> bytes:
    cleaned = re.sub(r"[\s:]", "", text)
    if cleaned.lower().startswith("0x"):
        cleaned = cleaned[2:]
    try:
        return bytes.fromhex(cleaned)
    except ValueError:
        bad = next((c for c in cleaned if c not in "0123456789abcdefABCDEF"), None)
        reason = f"{bad!r} is not a hex digit" if bad else "an odd number of hex digits"
        raise UsageError(f"invalid hex in {where}: {reason}") from None
