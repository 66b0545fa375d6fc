"""``kcompat encode`` and ``kcompat decode`` through a real subprocess.

Exit status: 0 done, 1 the value or the bytes do not fit the message (one line on stderr
naming the field, and the offset for bytes), 2 usage (unknown message, bad version, bad
JSON or hex). Never a traceback.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.codec_helpers import EXAMPLES, ROOT


def kcompat(*args: str, stdin: bytes = b"", cwd: Path = ROOT) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "kcompat", *args],
        input=stdin,
        capture_output=True,
        cwd=cwd,
        timeout=60,
        check=False,
    )


def one_error_line(done: subprocess.CompletedProcess[bytes]) -> str:
    err = done.stderr.decode()
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


HEADER = {"ServiceKey": 200, "ServiceVersion": 3, "CallId": 7, "CallerName": "cli",
          "DeadlineMs": 5}  # fmt: skip
# int16 200, int16 3, int32 7, classic string "cli", one tag (0, 8 bytes, int64 5)
HEADER_HEX = "00c80003000000070003636c690100080000000000000005"


def test_encode_reads_json_from_stdin_and_prints_hex() -> None:
    done = kcompat("encode", "WidgetRequestHeader", "--version", "2", "--specs", str(EXAMPLES),
                   stdin=json.dumps(HEADER).encode())  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode().strip() == HEADER_HEX


def test_encode_from_a_file_as_raw_bytes(tmp_path: Path) -> None:
    source = tmp_path / "value.json"
    source.write_text(json.dumps(HEADER))
    done = kcompat("encode", "WidgetRequestHeader", "--version", "2", str(source), "--raw",
                   "--specs", str(EXAMPLES))  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout == bytes.fromhex(HEADER_HEX)


def test_decode_hex_prints_json() -> None:
    done = kcompat("decode", "WidgetRequestHeader", "--version", "2", HEADER_HEX,
                   "--specs", str(EXAMPLES))  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == HEADER


def test_decode_at_file_raw_and_hex_text(tmp_path: Path) -> None:
    raw = tmp_path / "body.bin"
    raw.write_bytes(bytes.fromhex(HEADER_HEX))
    text = tmp_path / "body.hex"
    text.write_text(HEADER_HEX[:10] + "\n" + HEADER_HEX[10:] + "\n")
    for path in (raw, text):
        done = kcompat("decode", "WidgetRequestHeader", "--version", "2", f"@{path}",
                       "--specs", str(EXAMPLES))  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout) == HEADER


def test_round_trip_of_a_whole_request_with_bytes_and_uuids() -> None:
    value = {"CatalogId": "AAAAAAAAAAAAAAAAAAAAAQ", "Widgets": [{"Name": "w", "Payload": "AP8=",
             "RelatedIds": ["AAAAAAAAAAAAAAAAAAAAAg"]}], "TraceContext": "eg=="}  # fmt: skip
    encoded = kcompat("encode", "WidgetRequest", "--version", "3", "--specs", str(EXAMPLES),
                      stdin=json.dumps(value).encode())  # fmt: skip
    assert encoded.returncode == 0, encoded.stderr
    decoded = kcompat("decode", "WidgetRequest", "--version", "3", encoded.stdout.decode().strip(),
                      "--specs", str(EXAMPLES))  # fmt: skip
    assert decoded.returncode == 0, decoded.stderr
    result = json.loads(decoded.stdout)
    assert result["CatalogId"] == "AAAAAAAAAAAAAAAAAAAAAQ"
    assert result["Widgets"][0]["Payload"] == "AP8="
    assert result["Widgets"][0]["RelatedIds"] == ["AAAAAAAAAAAAAAAAAAAAAg"]
    assert result["TraceContext"] == "eg=="
    assert result["TimeoutMs"] == 0x7530  # the default


def test_specs_default_to_the_current_directory() -> None:
    done = kcompat("decode", "WidgetRequestHeader", "--version", "2", HEADER_HEX, cwd=EXAMPLES)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize(
    ("args", "stdin", "status", "words"),
    [
        (["decode", "WidgetRequestHeder", "--version", "2", "00"], b"", 2,
         "did you mean 'WidgetRequestHeader'"),
        (["decode", "WidgetRequestHeader", "--version", "9", "00"], b"", 2,
         "has no version 9 (valid versions: 0-2)"),
        (["decode", "WidgetRequestHeader", "--version", "2", "0g"], b"", 2, "not a hex digit"),
        (["decode", "WidgetRequestHeader", "--version", "2", "@/nonexistent/x"], b"", 2,
         "cannot read"),
        (["encode", "WidgetRequestHeader", "--version", "2"], b"{", 2, "invalid JSON"),
        (["encode", "WidgetRequestHeader", "--version", "2"], b'{"CallId": "x"}', 1,
         "CallId: expected an integer"),
        (["encode", "WidgetRequestHeader", "--version", "2"], b'{"CallId": 4294967296}', 1,
         "CallId: 4294967296 is out of range for int32"),
        (["encode", "WidgetRequestHeader", "--version", "2"], b'{"Caller": "x"}', 1,
         "Caller: WidgetRequestHeader has no such field (did you mean 'CallerName'?)"),
        (["decode", "WidgetRequestHeader", "--version", "2", HEADER_HEX[:-4]], b"", 1,
         "offset 14, DeadlineMs: tag 0 declares 8 bytes, 6 left"),
        (["decode", "WidgetRequestHeader", "--version", "2", HEADER_HEX + "00"], b"", 1,
         "offset 24: 1 trailing bytes after the message"),
    ],
)  # fmt: skip
def test_errors_are_one_line_with_the_right_status(
    args: list[str], stdin: bytes, status: int, words: str
) -> None:
    done = kcompat(*args, "--specs", str(EXAMPLES), stdin=stdin)
    assert done.returncode == status
    line = one_error_line(done)
    assert line.startswith("kcompat: error: ")
    assert words in line


def test_decode_annotate_shows_each_field_and_the_failure() -> None:
    done = kcompat("decode", "WidgetRequestHeader", "--version", "2", HEADER_HEX, "--annotate",
                   "--specs", str(EXAMPLES))  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = done.stdout.decode().splitlines()
    assert lines[0] == "0000  00 c8                     ServiceKey (int16) = 200"
    assert lines[-1].endswith("DeadlineMs (int64) = 5")
    short = kcompat("decode", "WidgetRequestHeader", "--version", "2", HEADER_HEX[:16],
                    "--annotate", "--specs", str(EXAMPLES))  # fmt: skip
    assert short.returncode == 1
    assert short.stdout.decode().splitlines()[-1].startswith("0008  !! offset 8, CallerName")
    assert "offset 8, CallerName" in one_error_line(short)


# -- names resolve as explain resolves them; standard input --------------------------------


@pytest.mark.parametrize(
    "query",
    [
        ["widgetrequestheader"],  # case-insensitive
        ["WidgetRequestHeader", "--type", "header"],
    ],
)
def test_names_resolve_as_explain_resolves_them(query: list[str]) -> None:
    done = kcompat("decode", *query, "--version", "2", HEADER_HEX, "--specs", str(EXAMPLES))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["CallId"] == 7


@pytest.mark.parametrize(
    "query",
    [["WidgetRequest"], ["widget", "--type", "request"], ["200", "-t", "request"]],
)
def test_suffix_and_api_key_with_type(query: list[str]) -> None:
    """``Widget -t request`` and ``200 -t request`` are WidgetRequest (apiKey 200)."""
    value = b'{"OwnerGroup": "ops"}'
    done = kcompat("encode", *query, "--version", "2", "--specs", str(EXAMPLES), stdin=value)
    expected = kcompat("encode", "WidgetRequest", "--version", "2", "--specs", str(EXAMPLES),
                       stdin=value)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout == expected.stdout and len(done.stdout) > 20


def test_a_name_that_means_two_messages_asks_for_type() -> None:
    done = kcompat("encode", "Widget", "--version", "1", "--specs", str(EXAMPLES), stdin=b"{}")
    assert done.returncode == 2
    assert one_error_line(done) == (
        "kcompat: error: 'Widget' names WidgetRequest and WidgetResponse: pick one with "
        "--type request or response"
    )


@pytest.mark.parametrize(
    ("args", "what"),
    [
        (["encode", "WidgetRequestHeader", "--version", "2"], "the JSON value"),
        (["decode", "WidgetRequestHeader", "--version", "2", "@-"], "the bytes"),
    ],
)
def test_empty_standard_input_is_one_clear_line(args: list[str], what: str) -> None:
    done = kcompat(*args, "--specs", str(EXAMPLES), stdin=b"  \n")
    assert done.returncode == 2
    assert one_error_line(done) == (
        f"kcompat: error: standard input is empty: pipe {what} in, or give a file"
    )


def test_a_terminal_on_standard_input_is_told_what_is_read() -> None:
    """With no file and a terminal, encode says it waits for the value on stdin."""
    import os
    import pty

    leader, follower = pty.openpty()
    try:
        process = subprocess.Popen(
            [sys.executable, "-m", "kcompat", "encode", "WidgetRequestHeader", "--version", "2",
             "--specs", str(EXAMPLES)],
            stdin=follower, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )  # fmt: skip
        os.close(follower)
        os.write(leader, json.dumps(HEADER).encode() + b"\n\x04")
        out, err = process.communicate(timeout=60)
    finally:
        os.close(leader)
    assert process.returncode == 0, err
    assert err.decode() == (
        "kcompat: reading the JSON value from standard input (end with Ctrl-D; or give a file)\n"
    )
    assert out.decode().strip() == HEADER_HEX


def test_decode_java_reads_as_kafkas_java_readers_do() -> None:
    args = ["decode", "WidgetRequestHeader", "--version", "2", "--specs", str(EXAMPLES)]
    # One byte after the message: strict refuses it (exit 1, above); Java leaves it unread.
    done = kcompat(*args, HEADER_HEX + "00", "--java")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == HEADER
    dump = kcompat(*args, HEADER_HEX + "00", "--java", "--annotate")
    assert dump.returncode == 0, dump.stderr
    assert dump.stdout.decode().splitlines()[-1] == (
        "0018  00                        (1 bytes after the message, unread)"
    )
    # "c", an invalid byte, "i": U+FFFD where strict reading fails.
    bad_utf8 = HEADER_HEX.replace("0003636c69", "000363ff69")
    assert "invalid UTF-8" in one_error_line(kcompat(*args, bad_utf8))
    done = kcompat(*args, bad_utf8, "--java")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["CallerName"] == "c\ufffdi"


def test_decode_refuses_input_over_its_limit_in_one_line(tmp_path: Path) -> None:
    args = ["decode", "WidgetRequestHeader", "--version", "2", "--specs", str(EXAMPLES)]
    done = kcompat(*args, HEADER_HEX, "--max-bytes", "16")
    assert done.returncode == 2
    assert one_error_line(done) == (
        "kcompat: error: the argument: a message of 24 bytes is over the limit of 16 bytes "
        "(--max-bytes raises it)"
    )
    assert kcompat(*args, HEADER_HEX, "--max-bytes", "1KiB").returncode == 0
    big = tmp_path / "big.bin"
    big.write_bytes(bytes(3 * 1024 * 1024))
    done = kcompat(*args, f"@{big}")
    assert done.returncode == 2
    assert one_error_line(done) == (
        f"kcompat: error: {big}: a message of 3145728 bytes is over the limit of 2 MiB "
        "(--max-bytes raises it)"
    )
    # An endless source is read only up to the limit.
    done = kcompat(*args, "@/dev/zero", "--max-bytes", "64KiB")
    assert done.returncode == 2
    assert "/dev/zero: a message over the limit of 64 KiB" in one_error_line(done)
    assert "expected a positive number" in one_error_line(kcompat(*args, "00", "--max-bytes", "0"))
