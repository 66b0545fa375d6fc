"""``kcompat encode`` / ``kcompat decode``: a message value to bytes and back.

The value is JSON in the form :mod:`kcompat.codec.jsonform` documents (bytes as base64,
uuids in Kafka's 22-character form). Exit status: 0 done, 1 the value or the bytes do not
fit the message at that version (one line naming the field, and for bytes the offset),
2 bad usage (unknown message, version, unreadable input).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from kcompat.app import ConfigOption, MessageKind, MessageKindOption, app
from kcompat.errors import UsageError

MessageArgument = Annotated[
    str,
    typer.Argument(
        metavar="MESSAGE",
        help="The message, found as explain finds it: its name (FetchRequest, fetchrequest), "
        "a name without Request/Response with --type (Fetch -t request), or an API key "
        "number with --type (1 -t response).",
        show_default=False,
    ),
]
VersionOption = Annotated[int, typer.Option("--version", metavar="N", help="The message version.")]
SpecsOption = Annotated[
    list[str] | None,
    typer.Option(
        "--specs",
        help="A spec file or directory to find the message in (repeatable; default: the "
        "configured paths, or the current directory).",
    ),
]

_HEX_TEXT = re.compile(rb"\A\s*(?:0x)?[0-9a-fA-F\s:]*\Z")


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
    from kcompat.codec import EncodeError, encode_message
    from kcompat.codec.jsonform import from_json
    from kcompat.spec.resolve import resolve

    found = _find_message(message, kind, version, specs, config_file)
    text = _read_input(source)
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise UsageError(f"{_label(source)}: invalid JSON: {err}") from None
    try:
        value = from_json(resolve(found, version), data)
        encoded = encode_message(found, version, value)
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
    kind: MessageKindOption = None,
    config_file: ConfigOption = None,
) -> None:
    """Decode the message's bytes at a version and print the value as JSON."""
    from kcompat.codec import DecodeError, decode_message
    from kcompat.codec.jsonform import to_json
    from kcompat.spec.resolve import resolve

    found = _find_message(message, kind, version, specs, config_file)
    payload = _read_bytes(data)
    if annotate:
        from kcompat.codec.annotate import annotate_lines

        lines = annotate_lines(resolve(found, version), payload)
        sys.stdout.write("".join(line.text + "\n" for line in lines))
        failed = next(
            (line for line in lines if line.text.split("  ", 1)[-1].startswith("!!")), None
        )
        if failed is not None:
            _codec_failure(
                f"cannot decode {found.name} v{version}: {failed.text.split('!! ', 1)[1]}"
            )
        return
    try:
        value = decode_message(found, version, payload)
    except DecodeError as err:
        _codec_failure(f"cannot decode {found.name} v{version}: {err}")
    shown = to_json(resolve(found, version), value)
    sys.stdout.write(json.dumps(shown, indent=2, ensure_ascii=False) + "\n")


def _codec_failure(message: str) -> Any:
    print(f"kcompat: error: {message}", file=sys.stderr)
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

    config = load_config(explicit=config_file)
    chosen = list(specs or [])
    if not chosen:
        base = Path(config.root) if config.root else Path(".")
        chosen = [str(base / p) for p in config.paths] or ["."]
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


def _read_input(source: str, what: str = "the JSON value") -> bytes:
    """A file's bytes, or standard input's for ``-`` (said when it is a terminal, since
    the command then waits for typing; empty input is an error, not an empty value)."""
    if source != "-":
        try:
            return Path(source).read_bytes()
        except OSError as err:
            raise UsageError(f"{source}: cannot read ({err.strerror or err})") from None
    if sys.stdin is None:
        raise UsageError(f"no standard input to read {what} from: give a file")
    if sys.stdin.isatty():
        print(
            f"kcompat: reading {what} from standard input (end with Ctrl-D; or give a file)",
            file=sys.stderr,
        )
    data = sys.stdin.buffer.read()
    if not data.strip():
        raise UsageError(f"standard input is empty: pipe {what} in, or give a file")
    return data


def _read_bytes(argument: str) -> bytes:
    """Hex on the command line, or ``@FILE``: raw bytes unless the file is all hex text."""
    if argument.startswith("@"):
        content = _read_input(argument[1:] or "-", "the bytes")
        if content.strip() and _HEX_TEXT.match(content):
            return _parse_hex(content.decode("ascii"), argument)
        return content
    return _parse_hex(argument, "the argument")


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
