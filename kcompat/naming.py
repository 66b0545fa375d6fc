"""Names kcompat reads meaning into: release names and message names.

One home for each convention, so that sorting releases or finding a response's request
means the same in the release reader, the rules, the Spark audit and its HTML page.
"""

from __future__ import annotations

import re

_NUMBERS = re.compile(r"\d+")


def release_order(name: str) -> tuple[tuple[int, ...], str]:
    """Sort key of release names: by their numbers (2.10.0 after 2.9.0), then the name."""
    return tuple(int(n) for n in _NUMBERS.findall(name)), name


def request_name_for(response_name: str) -> str | None:
    """FooResponse -> FooRequest: a response's released versions follow its request's."""
    if response_name.endswith("Response"):
        return response_name.removesuffix("Response") + "Request"
    return None


def companion_name_for(name: str, kind: str) -> str | None:
    """FooRequest <-> FooResponse: the other half of an API version (None for a record, or
    for a name no file could be named after: a spec names its message as it likes)."""
    if _PLAIN.fullmatch(name) is None:
        return None
    if kind == "request" and name.endswith("Request"):
        return name.removesuffix("Request") + "Response"
    if kind == "response":
        return request_name_for(name)
    return None


def file_names_of(message_name: str) -> tuple[str, str]:
    """The file names a message's spec goes by: Kafka's (``FooBarRequest.json``) and the
    snake_case of vendored copies (``foo_bar_request.json``)."""
    snake = _CAPITAL.sub(lambda m: "_" + m.group(0).lower(), message_name).lstrip("_")
    return f"{message_name}.json", f"{snake}.json"


_CAPITAL = re.compile(r"[A-Z]")
_PLAIN = re.compile(r"[A-Za-z][A-Za-z0-9]*")
